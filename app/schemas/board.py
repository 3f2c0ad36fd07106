"""The Board of API.md as strict request models, bounded in every size a client controls."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, field_validator

from app.rules.costs import ManaCost
from app.schemas.common import StrictModel

MAX_PERMANENTS = 10_000
MAX_PLAYERS = 16
MAX_X = 1_000_000

PermanentId = Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9._-]{1,64}$", examples=["forest-1"])]
PlayerName = Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9._-]{1,64}$", examples=["you"])]
CardName = Annotated[str, Field(min_length=1, max_length=200, examples=["Llanowar Elves"])]
Text = Annotated[str, Field(max_length=5000)]


class OracleIdRef(StrictModel):
    """A catalogue card by its oracle id."""

    oracle_id: Annotated[str, Field(min_length=1, max_length=64)]


class InlineFaceIn(StrictModel):
    name: CardName
    mana_cost: Annotated[str, Field(max_length=200)] | None = None
    type_line: Annotated[str, Field(max_length=200)] = ""
    oracle_text: Text = ""
    flavor_text: Text | None = None
    keywords: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=40)] = Field(
        default_factory=list
    )
    colors: Annotated[list[Literal["W", "U", "B", "R", "G"]], Field(max_length=5)] | None = None


class InlineCardIn(InlineFaceIn):
    """A card the catalogue does not have (homebrew, a new spoiler): Scryfall's field names."""

    layout: Annotated[str, Field(max_length=32)] = "normal"
    card_faces: Annotated[list[InlineFaceIn], Field(max_length=4)] | None = None


def _card_kind(value: Any) -> str:
    if isinstance(value, str):
        return "name"
    if isinstance(value, dict) and "oracle_id" in value and "name" not in value:
        return "oracle_id"
    if isinstance(value, OracleIdRef):
        return "oracle_id"
    return "inline" if isinstance(value, dict | InlineCardIn) else "name"


CardRef = Annotated[
    Annotated[CardName, Tag("name")]
    | Annotated[OracleIdRef, Tag("oracle_id")]
    | Annotated[InlineCardIn, Tag("inline")],
    Discriminator(_card_kind),
    Field(
        description="A catalogue name (case- and accent-insensitive), {'oracle_id': ...}, or an inline card."
    ),
]


class ChosenIn(StrictModel):
    """Values chosen as the permanent entered (validated against the card's rules when the board is read)."""

    creature_type: Annotated[str, Field(min_length=1, max_length=64, examples=["Elf"])] | None = None
    character: Annotated[str, Field(min_length=1, max_length=100, examples=["Urza"])] | None = None
    color: Literal["W", "U", "B", "R", "G"] | None = None
    card_name: CardName | None = None


class PermanentIn(StrictModel):
    id: PermanentId
    card: CardRef
    controller: PlayerName = "you"
    tapped: bool = False
    controlled_since_turn_began: bool = Field(
        True, description="CR 302.6: controlled continuously since its controller's most recent turn began."
    )
    face: CardName | None = Field(None, description="The face that is up (front face by default).")
    chosen: ChosenIn | None = None
    x: Annotated[int, Field(ge=0, le=MAX_X)] = Field(0, description="X its spell was cast with (CR 107.3m).")
    played_as: Annotated[list[CardName], Field(max_length=1000)] = Field(
        default_factory=list, description="Richard Garfield, Ph.D.: cards already chosen through it."
    )
    attached_to: PermanentId | None = Field(None, description="What this Aura or Equipment is attached to.")


class PlayerIn(StrictModel):
    life: Annotated[int, Field(ge=-1_000_000, le=1_000_000)] = 20


class BoardIn(StrictModel):
    """A board state (API.md "Board state")."""

    active_player: PlayerName = "you"
    players: Annotated[dict[PlayerName, PlayerIn], Field(max_length=MAX_PLAYERS)] = {}
    permanents: Annotated[list[PermanentIn], Field(max_length=MAX_PERMANENTS)] = []
    mana_pool: Annotated[
        dict[PlayerName, Annotated[str, Field(max_length=200)]], Field(max_length=MAX_PLAYERS)
    ] = {}

    @field_validator("mana_pool")
    @classmethod
    def _pool_costs_parse(cls, pool: dict[str, str]) -> dict[str, str]:
        for text in pool.values():
            ManaCost.parse_loose(text)  # a ManaCostSyntaxError becomes a malformed-cost problem
        return pool
