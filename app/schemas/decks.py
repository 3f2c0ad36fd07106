"""Deck analysis (``POST /v1/decks/analyze``): a decklist in, its curve, colors, castability, legality out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, model_validator

from app.rules.decks.decklist import MAX_CHARS, MAX_COUNT, MAX_LINES
from app.rules.decks.legality import ReasonKind as LegalityReasonKind
from app.schemas.common import ComputedAnswer, StrictModel
from app.schemas.warnings import DeckWarningOut

MAX_JSON_CARDS = MAX_LINES
CastabilityModel = Literal["karsten-2022", "tapped-lands"]
MAX_CARD_NAME = 200


class DeckCardIn(StrictModel):
    """One line of a deck given as JSON: a card, its copies and its section."""

    card: str = Field(
        min_length=1, max_length=MAX_CARD_NAME, description="A card name (as in the catalogue)."
    )
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description=f"Copies, 1 to {MAX_COUNT}.")
    section: Literal["main", "sideboard", "commander", "companion", "maybeboard"] = Field(
        "main",
        description="Where the copies go: the main deck, the sideboard, the command zone; a maybeboard card"
        " is kept apart, never in the deck's counts.",
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
    play: Literal["first", "draw"] = Field(
        "first", description="On the play (`first`: no draw on turn 1) or on the draw, for castability."
    )
    castability_model: CastabilityModel = Field(
        "karsten-2022",
        description="`karsten-2022` (Karsten's 2022 assumptions: every land enters untapped) or"
        " `tapped-lands` (a land that enters tapped, always or under the condition its text states, can't pay"
        " on the turn it is played; a fetch land brings what it finds, tapped or untapped as its text says)."
        " Both exact.",
    )

    @model_validator(mode="after")
    def _one_input(self) -> DeckAnalyzeRequest:
        if (self.decklist is None) == (self.cards is None):
            raise ValueError("give exactly one of decklist and cards")
        return self


class CardRef(BaseModel):
    """A card of the catalogue, by its name and Oracle id."""

    name: str = Field(description="The card's name in the catalogue.", examples=["Llanowar Elves"])
    oracle_id: str | None = Field(description="The card's Oracle id (null for a card given inline).")


class DeckLineOut(BaseModel):
    """A decklist line read as a card: where it stood, how many copies, which section, which card."""

    line: int = Field(description="The line's number in `decklist`, from 1 (its index + 1 for `cards`).")
    count: int = Field(description="Copies on the line.", examples=[4])
    section: str = Field(
        description="main, sideboard, commander, companion or maybeboard.", examples=["main"]
    )
    card: CardRef = Field(description="The card the line names.")
    companion: bool = Field(
        default=False,
        description="The deck's companion (a `Companion` section): counted once, in the sideboard (CR"
        " 702.139a).",
    )


class SourceCardOut(BaseModel):
    """A land counted as a source of a color, with how it produces it."""

    card: CardRef = Field(description="The land.")
    count: int = Field(description="Its main-deck copies.", examples=[4])
    faces: list[str] = Field(
        default_factory=list,
        description="For a card with a land on each face (a Pathway), the faces that produce the color"
        " (CR 712.12); empty otherwise.",
    )
    finds: list[str] | None = Field(
        default=None,
        description="For a land that searches for lands (a fetch land), the deck's lands it can find that"
        " produce the color; null for other lands.",
    )


class SuggestionOut(BaseModel):
    """A card whose name is close to an unknown one."""

    name: str = Field(description="The card's name.", examples=["Lightning Bolt"])
    oracle_id: str = Field(description="The card's Oracle id.")


class DeckProblemOut(BaseModel):
    """A line that could not be read as a card: it is left out of the counts, never fails the deck."""

    line: int = Field(description="The line's number, from 1.", examples=[3])
    text: str = Field(description="The line as given.", examples=["4 Lightening Bolt"])
    type: str = Field(
        description="The problem type, a URI under /problems/.", examples=["/problems/unknown-card"]
    )
    detail: str = Field(description="What is wrong with the line.")
    suggestions: list[SuggestionOut] = Field(
        default_factory=list, description="Close names that do exist, for an unknown card."
    )


class CastabilityOut(BaseModel):
    """A spell's chance of being cast on curve (Frank Karsten's 2022 model, computed exactly)."""

    card: CardRef = Field(description="The spell.")
    face: str | None = Field(
        default=None,
        description="The half or face cast on its own (a split half, an Adventure, a modal face); null: the"
        " card as printed.",
    )
    fused: bool = Field(default=False, description="Both halves of a split card with fuse (CR 702.102c).")
    rule: str = Field(default="601.2", description="The rule that lets the card be cast this way.")
    cost: str = Field(description="Its mana cost.", examples=["{1}{G}{G}"])
    turn: int = Field(description="The turn it is cast on: its mana value, at least 1.", examples=[3])
    probability: float | None = Field(
        description="The chance of having by then the lands and colored sources its cost asks (null when"
        " the model cannot say, e.g. a deck with no land).",
        examples=[0.912],
    )
    sources_needed: dict[str, int | None] = Field(
        description="Per color of the cost: the fewest sources for Karsten's threshold (90% on turn 1 to"
        " 96% on turn 7); null when no number of sources reaches it.",
        examples=[{"G": 18}],
    )
    sources: dict[str, int] = Field(
        description="Per color of the cost: the deck's sources of it.", examples=[{"G": 20}]
    )
    meets: bool | None = Field(description="Whether every color has the sources it needs.")


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
    """Whether the deck is legal in the requested format, and every reason it is not."""

    format: str = Field(
        description="The format's data key (the request's name folded, aliases followed).",
        examples=["modern"],
    )
    legal: bool | None = Field(
        description="True when `reasons` is empty; null when only cards of unknown legality (reason"
        " `unknown`) stand in the way."
    )
    legalities_as_of: str | None = Field(
        default=None, description="The date of the catalogue's legality data (YYYY-MM-DD); null: not known."
    )
    reasons: list[LegalityReasonOut] = Field(description="Every reason the deck is not legal.")


class DeckAnalyzeAnswer(ComputedAnswer):
    """A decklist's analysis: its cards, what could not be read, its curve, colors, castability, legality."""

    cards: list[DeckLineOut] = Field(description="The lines read as cards.")
    problems: list[DeckProblemOut] = Field(description="The lines that could not be read.")
    counts: dict[str, int] = Field(
        description="Copies per section (main, sideboard, commander; maybeboard when given).",
        examples=[{"main": 60, "sideboard": 15, "commander": 0}],
    )
    lands: int = Field(description="Main-deck land cards.", examples=[24])
    modal_lands: int = Field(
        default=0,
        description="Main-deck modal double-faced cards with a spell front and a land face (CR 712.12):"
        " not in `lands`, but counted in `sources` and as lands by the castability model.",
    )
    curve: dict[str, int] = Field(
        description="Main-deck nonland cards by mana value (copies counted).", examples=[{"1": 8, "2": 10}]
    )
    pips: dict[str, int] = Field(
        description="Colored symbols in the main deck's nonland mana costs, each copy counted (a hybrid"
        " symbol for both its colors).",
        examples=[{"W": 0, "U": 0, "B": 0, "R": 12, "G": 20}],
    )
    sources: dict[str, int] = Field(
        description="Main-deck lands that could produce each color (CR 106.7, the deck's own lands).",
        examples=[{"W": 0, "U": 0, "B": 0, "R": 12, "G": 20}],
    )
    source_cards: dict[str, list[SourceCardOut]] = Field(
        default_factory=dict,
        description="Per color of `sources`, the lands it counts: a card with a land on each face counts"
        " for each face's color, a fetch land for the colors of the lands it can find in this deck.",
    )
    castability: list[CastabilityOut] = Field(
        description="One entry per distinct main-deck nonland card with a mana cost."
    )
    castability_model: CastabilityModel = Field(
        "karsten-2022", description="The castability model the rows were computed with (the request's)."
    )
    legality: LegalityOut | None = Field(description="Legality in `format`; null without a format.")
    warnings: list[DeckWarningOut] = Field(
        default_factory=list, description="What was not understood or had to be assumed."
    )


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
        description="The spells to bring to their threshold (default: every main-deck spell but the spell"
        " faces of modal spell // land cards); may name a modal land's spell face or the commander.",
    )
    max_changes: int = Field(
        default=10,
        ge=1,
        le=MAX_CHANGES,
        description="The most land swaps a plan may have (the search's bound).",
    )


class ChangeOut(BaseModel):
    """One swap of the advisor's plan: ``count`` copies of a land of the deck replaced by another land."""

    remove: CardRef = Field(description="The land of the deck taken out.")
    add: CardRef = Field(description="The land put in (a basic, a land of the deck or a candidate).")
    count: int = Field(description="Copies swapped.")


class UnreachableOut(BaseModel):
    """A target spell that no swap within the land count and ``max_changes`` brings to its threshold."""

    card: CardRef = Field(description="The spell.")
    face: str | None = Field(None, description="The half or face judged on its own; null: the card.")
    cost: str = Field(description="The mana cost judged.", examples=["{W}{U}{B}"])
    reason: str = Field(description="Why no swap gets there (the color and the sources it would need).")


class TargetOut(BaseModel):
    """A target spell (or a half or face of one) and how the plan leaves it."""

    card: CardRef = Field(description="The spell.")
    face: str | None = Field(None, description="The half or face judged on its own; null: the card.")
    cost: str = Field(description="The mana cost judged.", examples=["{1}{W}{W}"])
    missing: dict[str, int] = Field(
        default_factory=dict,
        description="Per color, the sources still missing after the plan (empty when it is reached).",
        examples=[{"W": 2}],
    )


class DeckManabaseAnswer(ComputedAnswer):
    """The mana-base advisor's answer: the fewest land swaps, with the castability they change."""

    changes: list[ChangeOut] = Field(
        description="The best plan's swaps: the fewest that bring every target spell to its threshold; when"
        " no plan does, the plan bringing the most spells there, then the smallest total shortfall (see"
        " `reached`, `unreached`); empty when no change helps."
    )
    fewest_changes: int | None = Field(
        description="Copies swapped by `changes` (the best plan's; 0 when no change helps). Null is kept in"
        " the type for 1.2 clients; the advisor always answers a plan."
    )
    castability_before: list[CastabilityOut] = Field(description="Castability of the deck as sent.")
    castability_after: list[CastabilityOut] = Field(description="Castability once `changes` are made.")
    castability_model: CastabilityModel = Field(
        "karsten-2022", description="The castability model of `castability_before` and `castability_after`."
    )
    unreachable: list[UnreachableOut] = Field(
        description="Target spells that no change within the land count (and `max_changes`) brings to their"
        " threshold."
    )
    complete: bool = Field(
        description="False when the search stopped at its bound: `warnings` say what was proven and what was"
        " not tried."
    )
    reached: list[TargetOut] = Field(
        default_factory=list,
        description="The target spells the plan brings to (or keeps at) their threshold.",
    )
    unreached: list[TargetOut] = Field(
        default_factory=list,
        description="The target spells the plan leaves short, with the sources each still misses. The plan"
        " brings the most spells to their threshold, then leaves the smallest total shortfall (the sum of"
        " `missing`), then has the fewest changes.",
    )
    total_shortfall: int = Field(
        default=0, description="Sources still missing, summed over `unreached` and their colors."
    )
    problems: list[DeckProblemOut] = Field(description="The lines that could not be read.")
    warnings: list[DeckWarningOut] = Field(
        default_factory=list, description="What was not understood, assumed, or not tried."
    )
