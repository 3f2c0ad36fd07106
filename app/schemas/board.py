"""The Board of API.md as strict request models, bounded in every size a client controls."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag, field_validator

from app.rules.values.costs import ManaCost
from app.schemas.common import StrictModel

MAX_PERMANENTS = 10_000
MAX_PLAYERS = 16
MAX_X = 1_000_000
MAX_COUNT = 1_000_000
MAX_COUNTER_KINDS = 100
MAX_ZONE_CARDS = 1000
MAX_COMMANDERS = 4
MAX_TARGETS = 100
MAX_ABILITY_INDEX = 999
ActivatedIndices = Annotated[list[Annotated[int, Field(ge=0, le=MAX_ABILITY_INDEX)]], Field(max_length=100)]

PermanentId = Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9._-]{1,64}$", examples=["forest-1"])]
PlayerName = Annotated[str, Field(max_length=64, pattern=r"^[A-Za-z0-9._-]{1,64}$", examples=["you"])]
CardName = Annotated[str, Field(min_length=1, max_length=200, examples=["Llanowar Elves"])]
MAX_TEXT_LINE = 1_000
"""Characters of one line of a card's text given inline: the longest line of any real card is 645."""


def _lines_capped(text: str) -> str:
    """Every line at most ``MAX_TEXT_LINE`` characters: the card-text readers work a line at a time."""
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_TEXT_LINE:
            raise ValueError(
                f"line {number} has {len(line)} characters; a line of card text has at most {MAX_TEXT_LINE}"
            )
    return text


Text = Annotated[str, Field(max_length=5000), AfterValidator(_lines_capped)]


class OracleIdRef(StrictModel):
    """A catalogue card by its oracle id."""

    oracle_id: Annotated[str, Field(min_length=1, max_length=64)] = Field(description="The card's Oracle id.")


class InlineFaceIn(StrictModel):
    """A face of an inline card, with Scryfall's field names."""

    name: CardName = Field(description="The face's name.")
    mana_cost: Annotated[str, Field(max_length=200)] | None = Field(
        None, description="Its mana cost in brace syntax; null or empty when it has none."
    )
    type_line: Annotated[str, Field(max_length=200)] = Field(
        "", description="The face's type line as printed."
    )
    oracle_text: Text = Field("", description="The face's rules text.")
    flavor_text: Text | None = Field(None, description="Its flavor text.")
    keywords: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=40)] = Field(
        default_factory=list, description="Its keywords, as Scryfall lists them."
    )
    colors: Annotated[list[Literal["W", "U", "B", "R", "G"]], Field(max_length=5)] | None = Field(
        None, description="Its colors, when they are not those of its mana cost (a color indicator)."
    )


class InlineCardIn(InlineFaceIn):
    """A card the catalogue does not have (homebrew, a new spoiler): Scryfall's field names."""

    layout: Annotated[str, Field(max_length=32)] = Field(
        "normal", description="Scryfall's layout: normal, split, transform, modal_dfc, adventure..."
    )
    card_faces: Annotated[list[InlineFaceIn], Field(max_length=4)] | None = Field(
        None, description="The faces of a multi-face card (split, transform, modal, adventure...)."
    )


SCRYFALL_FIELDS = ("name", "mana_cost", "type_line", "oracle_text", "flavor_text", "keywords", "colors")


class _ScryfallFields(BaseModel):
    # Scryfall's objects carry dozens of fields manacalc has no use for (prices, images, artists...):
    # they are ignored, not refused, in this shape only (it is recognised by "object", never guessed).
    model_config = ConfigDict(extra="ignore")

    name: CardName = Field(description="The name.")
    mana_cost: Annotated[str, Field(max_length=200)] | None = Field(None, description="Brace syntax.")
    type_line: Annotated[str, Field(max_length=200)] = Field("", description="The type line as printed.")
    oracle_text: Text = Field("", description="The rules text.")
    flavor_text: Text | None = Field(None, description="The flavor text.")
    colors: Annotated[list[Literal["W", "U", "B", "R", "G"]], Field(max_length=5)] | None = Field(
        None, description="The colors."
    )


class ScryfallFaceIn(_ScryfallFields):
    """A face of a Scryfall card object (``"object": "card_face"``): the fields manacalc reads."""

    object: Literal["card_face"] = Field("card_face", description="Scryfall's object kind.")


class ScryfallCardIn(_ScryfallFields):
    """A card object as Scryfall's API serves it (``"object": "card"``), accepted whole where a card is
    named: manacalc reads ``name``, ``mana_cost``, ``type_line``, ``oracle_text``, ``flavor_text``,
    ``keywords``, ``colors``, ``layout`` and ``card_faces``, and ignores Scryfall's other fields. The card is
    read from its own text, as an inline card (its ``oracle_id`` is not looked up in the catalogue)."""

    object: Literal["card"] = Field(description="Scryfall's object kind: `card` marks this shape.")
    keywords: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=40)] = Field(
        default_factory=list, description="Its keywords, as Scryfall lists them."
    )
    layout: Annotated[str, Field(max_length=32)] = Field(
        "normal", description="Scryfall's layout: normal, split, transform, modal_dfc, adventure..."
    )
    card_faces: Annotated[list[ScryfallFaceIn], Field(max_length=4)] | None = Field(
        None, description="Its faces, for a multi-face card."
    )

    def as_inline(self) -> InlineCardIn:
        """The same card in manacalc's own inline shape (what the services read)."""
        fields = {k: getattr(self, k) for k in (*SCRYFALL_FIELDS, "layout") if getattr(self, k) is not None}
        faces = None
        if self.card_faces is not None:
            faces = [
                InlineFaceIn(
                    **{
                        k: getattr(f, k)
                        for k in SCRYFALL_FIELDS
                        if k != "keywords" and getattr(f, k) is not None
                    }
                )
                for f in self.card_faces
            ]
        return InlineCardIn(**fields, card_faces=faces)


def _from_scryfall(card: ScryfallCardIn) -> InlineCardIn:
    return card.as_inline()


def _card_kind(value: Any) -> str:
    if isinstance(value, str):
        return "name"
    if (isinstance(value, dict) and value.get("object") == "card") or isinstance(value, ScryfallCardIn):
        return "scryfall"
    if isinstance(value, dict) and "oracle_id" in value and "name" not in value:
        return "oracle_id"
    if isinstance(value, OracleIdRef):
        return "oracle_id"
    return "inline" if isinstance(value, dict | InlineCardIn) else "name"


CardRef = Annotated[
    Annotated[CardName, Tag("name")]
    | Annotated[OracleIdRef, Tag("oracle_id")]
    | Annotated[InlineCardIn, Tag("inline")]
    | Annotated[ScryfallCardIn, AfterValidator(_from_scryfall), Tag("scryfall")],
    Discriminator(_card_kind),
    Field(
        description="A catalogue name (case- and accent-insensitive), {'oracle_id': ...}, an inline card, or"
        ' a Scryfall card object as Scryfall serves it (`"object": "card"`: its other fields are'
        " ignored)."
    ),
]


Color = Literal["W", "U", "B", "R", "G"]
CardType = Literal[
    "Artifact", "Battle", "Creature", "Enchantment", "Instant", "Kindred", "Land", "Planeswalker", "Sorcery"
]
CounterName = Annotated[
    str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9+/'-]+( [a-z0-9+/'-]+)*$", examples=["+1/+1"])
]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Counters = Annotated[dict[CounterName, Count], Field(max_length=MAX_COUNTER_KINDS)]


class ChosenIn(StrictModel):
    """Values chosen as the permanent entered (validated against the card's rules when the board is read)."""

    creature_type: Annotated[str, Field(min_length=1, max_length=64, examples=["Elf"])] | None = Field(
        None,
        description="A creature type chosen as it entered (CR 205.3m: one existing type), as for Herald's"
        " Horn.",
    )
    character: Annotated[str, Field(min_length=1, max_length=100, examples=["Urza"])] | None = Field(
        None, description="A character chosen for Vorthos, Steward of Myth (case- and accent-insensitive)."
    )
    color: Color | None = Field(None, description="A color chosen as it entered.")
    card_name: CardName | None = Field(
        None, description="A card name chosen as it entered (e.g. Pithing Needle)."
    )
    card_type: CardType | None = Field(
        None, description="A chosen card type (CR 205.2a), e.g. Cloud Key's.", examples=["Instant"]
    )
    colors: Annotated[list[Color], Field(min_length=1, max_length=5)] | None = Field(
        None,
        description="Chosen colors (\"choose two colors\"), e.g. Tamiyo's Safekeeping's.",
        examples=[["W", "U"]],
    )
    imprinted: CardRef | None = Field(
        None,
        description="The card exiled with it (imprint, CR 702.54), as for `card`.",
        examples=["Lightning Bolt"],
    )

    @field_validator("colors")
    @classmethod
    def _distinct_colors(cls, colors: list[str] | None) -> list[str] | None:
        if colors is not None and len(set(colors)) != len(colors):
            raise ValueError("each color can be chosen once")
        return colors


class PermanentIn(StrictModel):
    """A permanent on the board: its card, controller, state and what was chosen for it."""

    id: PermanentId = Field(
        description="Unique within the board: what answers and other fields refer to it by."
    )
    card: CardRef
    controller: PlayerName = Field("you", description="The player controlling it.")
    tapped: bool = Field(False, description="Whether it is tapped.")
    controlled_since_turn_began: bool = Field(
        True, description="CR 302.6: controlled continuously since its controller's most recent turn began."
    )
    face: CardName | None = Field(None, description="The face that is up (front face by default).")
    chosen: ChosenIn | None = Field(None, description="Values chosen as it entered.")
    x: Annotated[int, Field(ge=0, le=MAX_X)] = Field(0, description="X its spell was cast with (CR 107.3m).")
    played_as: Annotated[list[CardName], Field(max_length=1000)] = Field(
        default_factory=list, description="Richard Garfield, Ph.D.: cards already chosen through it."
    )
    attached_to: PermanentId | None = Field(None, description="What this Aura or Equipment is attached to.")
    counters: Counters | None = Field(
        None,
        description="Counters on it by kind as printed, lowercase (CR 122.1); null: not stated "
        "(none assumed, with a warning where a card reads them).",
        examples=[{"+1/+1": 2, "charge": 3}],
    )
    class_level: Annotated[int, Field(ge=1, le=3)] | None = Field(
        None, description="A Class's level (CR 716); null: not stated, level 1 assumed.", examples=[2]
    )
    attacking: bool | None = Field(
        None,
        description="Whether it is an attacking creature (CR 506.4); null: not stated (not attacking "
        "assumed, with a warning where a card reads it).",
    )
    blocking: bool | None = Field(
        None,
        description="Whether it is a blocking creature (CR 509.1); null: not stated, as for `attacking`.",
    )
    power: Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)] | None = Field(
        None,
        description="Its power now (CR 208.3); null: the printed power with its +1/+1 and -1/-1 counters, "
        "with a warning where a card reads it.",
    )
    toughness: Annotated[int, Field(ge=-MAX_COUNT, le=MAX_COUNT)] | None = Field(
        None, description="Its toughness now (CR 208.3); null: as for `power`."
    )
    token: bool | None = Field(
        None,
        description="Whether it is a token (CR 111.1); null: not stated (a card assumed, with a warning "
        "where a card reads it).",
    )
    level: Annotated[int, Field(ge=0, le=MAX_COUNT)] | None = Field(
        None, description="Its level for level up (CR 711); null: not stated, 0 assumed.", examples=[4]
    )
    activated_this_turn: ActivatedIndices | None = Field(
        None,
        description="The indices (as `boards/analyze` numbers them) of its abilities already activated this "
        'turn, for "Activate only once each turn" (CR 602.5b); null: not stated (none assumed, with a '
        "warning where an ability has such a limit).",
        examples=[[0]],
    )


MAX_EFFECTS = 100


class EffectIn(StrictModel):
    """A lasting effect of a resolved spell or ability (CR 611.2) that grants ways to cast: Past in Flames
    or Yawgmoth's Will cast this turn, a Snapcaster Mage's enters trigger (the card it targeted as
    ``chosen.card_name``). The effect is read from the card's text, as a permanent's abilities are."""

    id: PermanentId = Field(description="Unique among the board's permanents and effects; ways name it.")
    card: CardRef = Field(description="The spell or the permanent whose ability created the effect.")
    controller: PlayerName = Field("you", description="The player the effect benefits.")
    chosen: ChosenIn | None = Field(
        None, description='What it chose; `card_name`: the card a trigger targeted ("Lightning Bolt").'
    )


class ThisTurnIn(StrictModel):
    """Counts about the current turn; a fact left out is taken as 0 with a warning where a card reads it."""

    spells_cast: Count | None = Field(None, description="Spells cast this turn by this player.", examples=[2])
    creature_spells_cast: Count | None = Field(None, description="Creature spells cast this turn.")
    noncreature_spells_cast: Count | None = Field(None, description="Noncreature spells cast this turn.")
    instant_sorcery_spells_cast: Count | None = Field(None, description="Instant and sorcery spells cast.")
    kicked_spells_cast: Count | None = Field(None, description="Kicked spells cast this turn.")
    life_lost: Count | None = Field(None, description="Life this player lost this turn.")
    lands_played: Count | None = Field(None, description="Lands this player played this turn.")
    creatures_died: Count | None = Field(
        None, description="Creatures this player controlled that died this turn (CR 700.4)."
    )
    life_gained: Count | None = Field(None, description="Life this player gained this turn.")
    cards_drawn: Count | None = Field(None, description="Cards this player drew this turn.")
    creatures_attacked: Count | None = Field(
        None, description="Creatures this player attacked with this turn (CR 508.1)."
    )
    permanents_sacrificed: Count | None = Field(
        None, description="Permanents this player sacrificed this turn (CR 701.21a)."
    )
    artifacts_sacrificed: Count | None = Field(
        None, description="Artifacts this player sacrificed this turn (CR 701.21a)."
    )
    crimes_committed: Count | None = Field(
        None, description="Crimes this player committed this turn (CR 700.13)."
    )
    creatures_left_battlefield: Count | None = Field(
        None, description="Creatures that left the battlefield under this player's control this turn."
    )
    cards_discarded: Count | None = Field(
        None, description="Cards this player discarded this turn, cycled cards included (CR 702.29a)."
    )
    creature_cards_to_graveyard: Count | None = Field(
        None, description="Creature cards put into this player's graveyard from anywhere this turn."
    )
    artifact_spells_cast: Count | None = Field(None, description="Artifact spells cast this turn.")
    legendary_creature_spells_cast: Count | None = Field(
        None, description="Legendary creature spells cast this turn."
    )
    face_down_creature_spells_cast: Count | None = Field(
        None, description="Face-down creature spells cast this turn (CR 708.2a)."
    )
    noncombat_damage_taken: Count | None = Field(
        None, description="Noncombat damage dealt to this player this turn (CR 120.1)."
    )


ZoneCards = Annotated[list[CardRef], Field(max_length=MAX_ZONE_CARDS)]


class PlayerIn(StrictModel):
    """A player: life, commanders, zones and what happened this turn."""

    life: Annotated[int, Field(ge=-1_000_000, le=1_000_000)] = Field(
        20, description="The player's life total."
    )
    commander: Annotated[list[CardRef], Field(max_length=MAX_COMMANDERS)] | None = Field(
        None,
        description="This player's commanders (CR 903.3), names or references.",
        examples=[["Atraxa, Praetors' Voice"]],
    )
    graveyard: ZoneCards | None = Field(
        None, description="Cards in this player's graveyard; null: not stated.", examples=[["Lightning Bolt"]]
    )
    exile: ZoneCards | None = Field(None, description="Cards this player owns in exile; null: not stated.")
    hand: ZoneCards | None = Field(None, description="Cards in this player's hand; null: not stated.")
    hand_size: Annotated[int, Field(ge=0, le=MAX_ZONE_CARDS)] | None = Field(
        None, description="How many cards are in the hand when `hand` does not list them.", examples=[5]
    )
    this_turn: ThisTurnIn | None = Field(None, description="Facts about the current turn that effects read.")
    counters: Counters | None = Field(
        None,
        description="Counters this player has by kind, lowercase (CR 122.1); null: not stated (none "
        "assumed, with a warning where a card reads them).",
        examples=[{"poison": 3, "experience": 2}],
    )
    speed: Annotated[int, Field(ge=0, le=4)] | None = Field(
        None,
        description="This player's speed (CR 702.179; 0: no speed); null: not stated (0 assumed, with a "
        "warning where a card reads it).",
        examples=[2],
    )


class BoardIn(StrictModel):
    """A board state (API.md "Board state")."""

    active_player: PlayerName = Field("you", description="Whose turn it is.")
    step: Literal["upkeep", "draw", "main", "combat", "end", "cleanup"] | None = Field(
        None,
        description="The current step or phase of the active player's turn (CR 500.1); null: not stated "
        "(a card asking for a step warns and takes it as another).",
        examples=["end"],
    )
    day_night: Literal["day", "night"] | None = Field(
        None,
        description="Whether it is day or night (CR 730.1); null: neither (a card asking whether it is "
        "night warns).",
    )
    players: Annotated[dict[PlayerName, PlayerIn], Field(max_length=MAX_PLAYERS)] = Field(
        default_factory=dict,
        description="Players by name, with their state (a player named anywhere has 20 life unless given).",
    )
    permanents: Annotated[list[PermanentIn], Field(max_length=MAX_PERMANENTS)] = Field(
        default_factory=list, description="The permanents on the battlefield."
    )
    effects: Annotated[list[EffectIn], Field(max_length=MAX_EFFECTS)] = Field(
        default_factory=list,
        description="Lasting effects that grant ways to cast (CR 611.2): Past in Flames, Yawgmoth's Will, "
        "a Snapcaster Mage's trigger with the card it targeted as chosen.card_name.",
        examples=[[{"id": "snap", "card": "Snapcaster Mage", "chosen": {"card_name": "Lightning Bolt"}}]],
    )
    mana_pool: Annotated[
        dict[PlayerName, Annotated[str, Field(max_length=200)]], Field(max_length=MAX_PLAYERS)
    ] = Field(
        default_factory=dict,
        description="Mana already in each player's pool, as a cost string (e.g. {G}{G}).",
    )

    @field_validator("mana_pool")
    @classmethod
    def _pool_costs_parse(cls, pool: dict[str, str]) -> dict[str, str]:
        for text in pool.values():
            ManaCost.parse_loose(text)  # a ManaCostSyntaxError becomes a malformed-cost problem
        return pool
