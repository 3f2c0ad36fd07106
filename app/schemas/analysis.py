"""Request and response models of ``POST /v1/boards/analyze``."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.schemas.board import BoardIn
from app.schemas.common import ComputedAnswer, StrictModel


class AnalyzeRequest(StrictModel):
    board: BoardIn


class ReasonOut(BaseModel):
    rule: str = Field(examples=["302.6"], description="The rule that forbids the activation.")
    text: str


class AbilityOut(BaseModel):
    index: int = Field(description="Stable within the board: land-type abilities (CR 305.6), own, granted.")
    cost: str = Field(examples=["{1}, {T}"])
    text: str = Field(description="The effect (reminder text removed).")
    is_mana_ability: bool | None = Field(description="CR 605.1a; null when its text was not understood.")
    can_activate: bool
    reasons: list[ReasonOut]
    produces: str | None = Field(
        description="The mana one activation adds at most, as a cost string, after replacement effects and "
        'triggered mana abilities (CR 106.12): "{G}{G}{G}" for Gaea\'s Cradle with three creatures, '
        '"{0}" when it adds nothing now; null when it is a choice (see `alternatives`), when it adds more '
        "than 100 mana (see `amount`), when it adds no mana at all, or when its text was not understood.",
        examples=["{G}{G}{G}", "{C}{C}", None],
    )
    amount: int | None = Field(
        description="How many mana one activation adds at most: an exact integer however large (counts "
        "saturate only at 10^1000, with a warning). Null for an ability that adds no mana or whose text "
        "was not understood.",
        examples=[3, 268435456],
    )
    restriction: str | None = Field(
        description="The spending restriction on the mana it adds (CR 106.6), as printed; null when none.",
        examples=["Spend this mana only to cast a creature spell of the chosen type."],
    )
    alternatives: list[str] | None = Field(
        description="Each way one activation can go (a choice of color, an order of replacement effects, "
        "CR 616.1), as cost strings, smallest first; alternatives contained in a larger one are left out. "
        "[] adds nothing now; null as for `produces` when one of them is above 100 mana, when it adds no "
        "mana at all, or when its text was not understood.",
        examples=[["{W}", "{G}"], ["{G}{G}"]],
    )
    origin: str = Field(description="land_type (CR 305.6), printed or granted (CR 613.1f).")
    rule: str
    granted_by: str | None = None


class PermanentAnalysis(BaseModel):
    id: str
    name: str
    oracle_id: str | None
    could_produce: list[str] = Field(description="CR 106.7, in W U B R G C order.")
    abilities: list[AbilityOut]


class PartyOut(BaseModel):
    size: int
    members: dict[str, str | None]


class PlayerAnalysis(BaseModel):
    party: PartyOut


class WarningOut(BaseModel):
    permanent: str
    text: str
    reason: str


class AnalyzeAnswer(ComputedAnswer):
    players: dict[str, PlayerAnalysis]
    permanents: list[PermanentAnalysis]
    warnings: list[WarningOut] = Field(description="Texts not understood: they have no effect here.")
