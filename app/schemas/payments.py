"""``POST /v1/payments/plan``: a cost (or a spell, whose total cost is computed first) and a board in; a plan
or what is missing out."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, Field, model_validator

from app.schemas.board import BoardIn, PlayerName
from app.schemas.common import ComputedAnswer, CostText, StrictModel, empty_list
from app.schemas.spells import Spell
from app.schemas.warnings import CostWarningOut


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
    """A mana ability activated (``ability``, ``adds``, and what its cost used beside tapping it:
    ``sacrifices``, ``taps``, ``returns``, ``removes``, ``life``, ``exiles``, ``discards``), or a creature
    tapped for convoke, an artifact tapped for improvise (``permanent`` with ``convoke``/``improvise``: what
    it pays), or a graveyard card exiled for delve (``delve``: the card's name). Steps are in an order that
    can be carried out: mana abilities first (CR 601.2g), then convoke, improvise and delve (601.2h)."""

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
    life: int | None = Field(
        None, description="Life paid to activate it (CR 119.4), as `life_paid`; null when none.", examples=[1]
    )
    sacrifices: list[str] | None = Field(
        None,
        description="Ids of the permanents sacrificed to activate it, itself included when its cost says "
        '"Sacrifice ~" (CR 701.21a: one sacrifices only what one controls). A permanent leaves once, and '
        "taps for its own mana before, never after.",
        examples=[["bears"]],
    )
    taps: list[str] | None = Field(
        None,
        description='Ids of the other permanents tapped to activate it ("Tap an untapped creature you '
        'control"; CR 302.6 does not stop a creature that came under control this turn). Each permanent is '
        "tapped at most once in a plan.",
        examples=[["ornithopter"]],
    )
    returns: list[str] | None = Field(
        None, description="Ids of the permanents returned to hand to activate it."
    )
    removes: dict[str, int] | None = Field(
        None,
        description="Counters removed from the permanent itself, by kind, to activate it (CR 122.1).",
        examples=[{"charge": 1}],
    )
    exiles: list[str] | None = Field(
        None,
        description='Cards exiled from a zone to activate it ("Exile a card from your graveyard"), by name.',
        examples=[["Lightning Bolt"]],
    )
    discards: list[str] | None = Field(
        None, description='Cards discarded to activate it, by name ("a card" for a hand given by its size).'
    )


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
        None,
        description="Not payable: the least mana that, added to the player's pool, would make the cost "
        "payable (fewest mana, then fewest of a particular type), written as mana: mana of any type as one "
        "generic number, then the mana of a particular type ({W} {U} {B} {R} {G} {C}; {S}: from a snow "
        "source). Never a hybrid or Phyrexian symbol: a {B/P} that life can't pay is {B}.",
        examples=["{G}", "{1}{B}"],
    )
    warnings: list[CostWarningOut] = empty_list(
        description="Permanents and texts not understood, and payment options left out: not used here."
    )
