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

    board: BoardIn = BoardIn()
    player: PlayerName = "you"
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

    permanent: str | None = Field(None, examples=["forest-1"])
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
    life_paid: int = 0


class SymbolPaymentOut(BaseModel):
    symbol: str = Field(description="A symbol of the cost; one entry per generic mana.", examples=["{G}"])
    pays: int | None = Field(description="null: the cost; otherwise the index of the plan step activated.")
    mana: str | None = Field(description="The mana type spent; null when 2 life paid a Phyrexian symbol.")
    source: str = Field(description='The permanent whose mana paid it, "pool" or "life".')


class PaymentPlanOut(ComputedAnswer):
    payable: bool
    cost: str = Field(description="The cost paid (a spell's total cost).", examples=["{2}{G}{G}"])
    plan: list[PlanStepOut] = Field(description="Activations, in order; empty when not payable.")
    payments: list[SymbolPaymentOut] = []
    life_paid: int = 0
    from_pool: str | None = Field(None, description="Mana already in the pool that the plan spends.")
    short: str | None = Field(
        None,
        description="Not payable: the least mana that, added to the player's pool, would make the cost "
        "payable (fewest mana, then fewest of a particular type), written as mana: mana of any type as one "
        "generic number, then the mana of a particular type ({W} {U} {B} {R} {G} {C}; {S}: from a snow "
        "source). Never a hybrid or Phyrexian symbol: a {B/P} that life can't pay is {B}.",
        examples=["{G}", "{1}{B}"],
    )
    warnings: list[CostWarningOut] = Field(
        [], description="Permanents and texts not understood, and payment options left out: not used here."
    )
