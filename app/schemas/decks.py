"""Deck analysis (``POST /v1/decks/analyze``): a decklist in, its curve, colors, castability, legality out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from app.rules.decks.decklist import MAX_CHARS, MAX_COUNT, MAX_LINES
from app.rules.decks.legality import ReasonKind as LegalityReasonKind
from app.schemas.common import ComputedAnswer, StrictModel

MAX_JSON_CARDS = MAX_LINES
MAX_CARD_NAME = 200


class DeckCardIn(StrictModel):
    card: str = Field(
        min_length=1, max_length=MAX_CARD_NAME, description="A card name (as in the catalogue)."
    )
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description=f"Copies, 1 to {MAX_COUNT}.")
    section: Literal["main", "sideboard", "commander", "companion"] = "main"


class DeckAnalyzeRequest(StrictModel):
    """Either ``decklist`` (text as players paste it) or ``cards``."""

    # The sizes are enforced by the service as a 413 (too large), not by validation (a 422): the contract.
    decklist: Annotated[str, Field(json_schema_extra={"maxLength": MAX_CHARS})] | None = Field(
        default=None,
        description=(
            f"The deck as text: `4 Name`, `4x Name`, `Name`, `4 Name (SET) 123`, headers Deck / Sideboard /"
            f" Commander / Companion, `SB: 2 Name`, comments `//` `#`. At most {MAX_CHARS} characters and"
            f" {MAX_LINES} lines."
        ),
    )
    cards: Annotated[list[DeckCardIn], Field(json_schema_extra={"maxItems": MAX_JSON_CARDS})] | None = Field(
        default=None, description=f"At most {MAX_JSON_CARDS} entries (more: 413)."
    )
    format: str | None = Field(
        default=None, max_length=32, description="A format key of the catalogue (modern, commander...)."
    )
    play: Literal["first", "draw"] = "first"

    @model_validator(mode="after")
    def _one_input(self) -> DeckAnalyzeRequest:
        if (self.decklist is None) == (self.cards is None):
            raise ValueError("give exactly one of decklist and cards")
        return self


class CardRef(BaseModel):
    name: str
    oracle_id: str | None


class DeckLineOut(BaseModel):
    line: int
    count: int
    section: str
    card: CardRef


class SuggestionOut(BaseModel):
    name: str
    oracle_id: str


class DeckProblemOut(BaseModel):
    line: int
    text: str
    type: str
    detail: str
    suggestions: list[SuggestionOut] = []


class CastabilityOut(BaseModel):
    card: CardRef
    cost: str
    turn: int
    probability: float | None
    sources_needed: dict[str, int | None]
    sources: dict[str, int]
    meets: bool | None


class LegalityReasonOut(BaseModel):
    """One reason the deck is not legal in the format: a token to switch on and a sentence to show."""

    card: str | None = Field(None, description="The card the reason is about; null for the deck as a whole.")
    reason: LegalityReasonKind = Field(
        description="What is wrong, as a token: `banned`, `not_legal`, `restricted` (more than one copy of a"
        " restricted card), `too_many_copies` (more than 4), `deck_size`, `sideboard_size`, `singleton` (a"
        " second copy in a singleton format), `no_commander`, `color_identity` (outside the commander's).",
        examples=["banned"],
    )
    detail: str = Field(
        description="The same for people, with the counts found (e.g. the deck's size).",
        examples=["the main deck has 59 cards; at least 60"],
    )
    rule: str = Field(description="The rule (CR number) the reason applies.", examples=["100.2a"])


class LegalityOut(BaseModel):
    format: str
    legal: bool
    reasons: list[LegalityReasonOut]


class DeckWarningOut(BaseModel):
    card: str | None = None
    text: str


class DeckAnalyzeAnswer(ComputedAnswer):
    cards: list[DeckLineOut]
    problems: list[DeckProblemOut]
    counts: dict[str, int]
    lands: int
    curve: dict[str, int]
    pips: dict[str, int]
    sources: dict[str, int]
    castability: list[CastabilityOut]
    legality: LegalityOut | None
    warnings: list[DeckWarningOut] = []
