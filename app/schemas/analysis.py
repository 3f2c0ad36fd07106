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
    produces: list[str] | None = Field(
        description="What activating it adds, one entry per alternative, after replacement effects and "
        "triggered mana abilities (CR 106.12); [] adds nothing; null when its text was not understood.",
        examples=[["{G}{G}"], ["{W}", "{G}"]],
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
