"""Deck analysis (``POST /v1/decks/analyze``): a decklist in, its curve, colors, castability, legality out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from app.rules.decks.decklist import MAX_CHARS, MAX_COUNT, MAX_LINES
from app.schemas.common import ComputedAnswer, StrictModel

MAX_JSON_CARDS = MAX_LINES
MAX_CARD_NAME = 200


class DeckCardIn(StrictModel):
    card: str = Field(
        min_length=1, max_length=MAX_CARD_NAME, description="A card name (as in the catalogue)."
    )
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description=f"Copies, 1 to {MAX_COUNT}.")
    section: Literal["main", "sideboard", "commander", "companion", "maybeboard"] = Field(
        default="main", description="A maybeboard card is kept apart: never in the deck's counts."
    )


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
        default=None,
        max_length=32,
        description="A format: its key (modern, commander...) in any case, or an alias (EDH, PDH, Duel"
        " Commander...). An unknown format is a 422 listing the known ones.",
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
    face: str | None = Field(
        default=None,
        description="The half or face cast on its own (a split half, an Adventure, a modal face); null: the"
        " card as printed.",
    )
    fused: bool = Field(default=False, description="Both halves of a split card with fuse (CR 702.102c).")
    rule: str = Field(default="601.2", description="The rule that lets the card be cast this way.")
    cost: str
    turn: int
    probability: float | None
    sources_needed: dict[str, int | None]
    sources: dict[str, int]
    meets: bool | None


class LegalityReasonOut(BaseModel):
    card: str | None = None
    reason: str
    rule: str


class LegalityOut(BaseModel):
    format: str = Field(description="The format's data key (the request's name folded, aliases followed).")
    legal: bool | None = Field(
        description="null when only cards of unknown legality (reason `unknown`) stand in the way."
    )
    legalities_as_of: str | None = Field(
        default=None, description="The date of the catalogue's legality data (YYYY-MM-DD); null: not known."
    )
    reasons: list[LegalityReasonOut]


class DeckWarningOut(BaseModel):
    card: str | None = None
    text: str


class DeckAnalyzeAnswer(ComputedAnswer):
    cards: list[DeckLineOut]
    problems: list[DeckProblemOut]
    counts: dict[str, int]
    lands: int
    modal_lands: int = Field(
        default=0,
        description="Main-deck modal double-faced cards with a spell front and a land face (CR 712.12):"
        " not in `lands`, but counted in `sources` and as lands by the castability model.",
    )
    curve: dict[str, int]
    pips: dict[str, int]
    sources: dict[str, int]
    castability: list[CastabilityOut]
    legality: LegalityOut | None
    warnings: list[DeckWarningOut] = []


MAX_CANDIDATES = 100
MAX_TARGET_SPELLS = 250
MAX_CHANGES = 30


class DeckManabaseRequest(DeckAnalyzeRequest):
    """``decks/analyze``'s request, plus the lands that may come in and the spells to bring to threshold."""

    candidates: list[Annotated[str, Field(min_length=1, max_length=MAX_CARD_NAME)]] | None = Field(
        default=None,
        max_length=MAX_CANDIDATES,
        description="Land cards that may be added (beside the deck's own lands and the five basic lands).",
    )
    spells: list[Annotated[str, Field(min_length=1, max_length=MAX_CARD_NAME)]] | None = Field(
        default=None,
        max_length=MAX_TARGET_SPELLS,
        description="The main-deck spells to bring to their threshold (default: every spell).",
    )
    max_changes: int = Field(
        default=10,
        ge=1,
        le=MAX_CHANGES,
        description="The most land swaps a plan may have (the search's bound).",
    )


class ChangeOut(BaseModel):
    remove: CardRef
    add: CardRef
    count: int = Field(description="Copies swapped.")


class UnreachableOut(BaseModel):
    card: CardRef
    face: str | None = None
    cost: str
    reason: str


class DeckManabaseAnswer(ComputedAnswer):
    changes: list[ChangeOut] = Field(
        description="The fewest swaps (copies in all) that bring every target spell that can get there to its"
        " threshold; empty when none is needed or none was found (see `complete`)."
    )
    fewest_changes: int | None = Field(
        description="Copies swapped by `changes`; null when no plan was found within the bound."
    )
    castability_before: list[CastabilityOut]
    castability_after: list[CastabilityOut]
    unreachable: list[UnreachableOut] = Field(
        description="Target spells that no change within the land count (and `max_changes`) brings to their"
        " threshold."
    )
    complete: bool = Field(
        description="False when the search stopped at its bound: `warnings` say what was proven and what was"
        " not tried."
    )
    problems: list[DeckProblemOut]
    warnings: list[DeckWarningOut] = []
