"""``POST /v1/payments/plan``: a cost (or a spell, whose total cost is computed first) and a board in; a plan
or what is missing out."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, Field, model_validator

from app.schemas.board import BoardIn, PlayerName
from app.schemas.common import ComputedAnswer, CostText, StrictModel
from app.schemas.spells import CostWarningOut, Spell


class PaymentPlanRequest(StrictModel):
    """Exactly one of ``cost`` and ``spell``."""

    board: BoardIn = Field(BoardIn(), description="The board whose mana pays (empty by default).")
    player: PlayerName = Field("you", description="The player paying.")
    cost: CostText | None = Field(None, description="A mana cost in brace syntax, X already chosen.")
    spell: Spell | None = Field(None, description="A spell: its total cost (CR 601.2f) is paid.")

    @model_validator(mode="after")
    def _one_of(self) -> Self:
        if (self.cost is None) == (self.spell is None):
            raise ValueError("give exactly one of cost and spell")
        return self


class PlanStepOut(BaseModel):
    """A mana ability activated (``ability``, ``adds``), or a creature tapped for convoke, an artifact
    tapped for improvise (``permanent`` with ``convoke``/``improvise``: what it pays), or a graveyard card
    exiled for delve (``delve``: the card's name)."""

    permanent: str | None = Field(
        None,
        description="The id of the permanent this step uses (a mana ability, convoke, improvise).",
        examples=["forest-1"],
    )
    ability: int | None = Field(
        None, description="Index of the ability in the permanent's ability list (boards/analyze)."
    )
    adds: str | None = Field(None, description="The mana this activation adds.", examples=["{G}"])
    convoke: str | None = Field(
        None, description="Convoke (CR 702.51a): what tapping it pays.", examples=["{G}"]
    )
    improvise: str | None = Field(None, description="Improvise (CR 702.126a): what tapping it pays.")
    delve: str | None = Field(None, description="Delve (CR 702.66a): the graveyard card exiled to pay {1}.")
    activation_cost: str | None = Field(None, description="Mana paid to activate it (a filter land's).")
    life_paid: int = Field(0, description="Life paid by this step (Phyrexian mana, CR 107.4f).")


class SymbolPaymentOut(BaseModel):
    """How one symbol of the cost is paid."""

    symbol: str = Field(description="A symbol of the cost; one entry per generic mana.", examples=["{G}"])
    pays: int | None = Field(description="null: the cost; otherwise the index of the plan step activated.")
    mana: str | None = Field(description="The mana type spent; null when 2 life paid a Phyrexian symbol.")
    source: str = Field(description='The permanent whose mana paid it, "pool" or "life".')


class PaymentPlanOut(ComputedAnswer):
    """Whether a cost can be paid from the board's mana, and a plan that pays it."""

    payable: bool = Field(description="Whether the cost can be paid from the board.")
    cost: str = Field(description="The cost paid (a spell's total cost).", examples=["{2}{G}{G}"])
    plan: list[PlanStepOut] = Field(description="Activations, in order; empty when not payable.")
    payments: list[SymbolPaymentOut] = Field(
        default_factory=list, description="How each symbol of the cost is paid."
    )
    life_paid: int = Field(0, description="Life paid in all.")
    from_pool: str | None = Field(None, description="Mana already in the pool that the plan spends.")
    short: str | None = Field(
        None, description="Not payable: the least part of the cost that cannot be paid.", examples=["{G}"]
    )
    warnings: list[CostWarningOut] = Field(
        [], description="Permanents and texts not understood, and payment options left out: not used here."
    )
