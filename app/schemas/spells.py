"""The Spell of API.md (strict, bounded) and the spells/cost answers.

``Spell`` is reused by payments and scenarios: import it from here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    field_validator,
    model_serializer,
)

from app.schemas.board import MAX_TARGETS, MAX_X, BoardIn, CardName, CardRef, PermanentId, PlayerName, Text
from app.schemas.common import ComputedAnswer, CostText, StrictModel, empty_list
from app.schemas.warnings import CostWarningOut

MAX_SPELLS = 250
MAX_ADDITIONAL_COSTS = 20
MAX_COMMANDER_CASTS = 1000
MAX_ART_CHARACTERS = 50

Variable = Annotated[int, Field(ge=0, le=MAX_X)]
CastFrom = Literal["hand", "graveyard", "exile", "library", "command", "battlefield", "stack", "sideboard"]


class PrintingIn(StrictModel):
    """What the printed card shows, for effects that read it (Vorthos): its flavor text and art characters."""

    flavor_text: Text | None = Field(
        None, description="The printing's flavor text (Vorthos reads characters in it)."
    )
    art_characters: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=MAX_ART_CHARACTERS)
    ] = Field(
        default_factory=list, description="Characters shown in the printing's art (Vorthos reads them)."
    )


class CastAsIn(StrictModel):
    """Mental Magic: cast the spell as ``card`` through the Richard Garfield, Ph.D. with id ``via``."""

    card: CardRef
    via: PermanentId = Field(description="The id of the Richard Garfield, Ph.D. on the board.")


Keyword = Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[a-z][a-z-]*( [a-z-]+)*$")]
MAX_OPTIONAL_COSTS = 20
MAX_TIMES = 100


class OptionalCostIn(StrictModel):
    """An optional additional cost paid (CR 601.2b), read from the card's text by its keyword."""

    keyword: Keyword = Field(
        description="kicker, multikicker, buyback, entwine, replicate, squad, casualty, ...; "
        '"additional cost" for "As an additional cost to cast this spell, you may sacrifice any number of '
        'creatures" and its kin, with times the objects paid.'
    )
    which: Annotated[int, Field(ge=1, le=10)] = Field(
        1,
        description='Which cost of a two-cost kicker ("Kicker {1}{G} and/or {2}{U}", CR 702.33d), or which '
        "mode of a spree or tiered spell, numbered from 1 in the card's order (CR 702.172a, 702.183a): one "
        "entry per mode chosen.",
    )
    times: Annotated[int, Field(ge=1, le=MAX_TIMES)] = Field(
        1, description="How many times it is paid (multikicker, replicate, squad, escalate, any number of)."
    )


class Spell(StrictModel):
    """A spell being cast (API.md ``Spell``)."""

    card: CardRef
    face: CardName | None = Field(
        None, description='The face or half cast (an adventure, one half of a split card) or "fuse".'
    )
    x: Variable = Field(0, description="The value chosen for X (CR 107.3), 0 to 1,000,000.")
    y: Variable = Field(0, description="The value chosen for Y.")
    z: Variable = Field(0, description="The value chosen for Z.")
    alternative_cost: CostText | None = Field(
        None, description='A mana cost paid rather than the mana cost (CR 118.9), e.g. "{0}".'
    )
    additional_costs: Annotated[list[CostText], Field(max_length=MAX_ADDITIONAL_COSTS)] = empty_list(
        description="Mana costs added (kicker and the like, CR 118.8)."
    )
    cast_from: CastFrom = Field(
        "hand",
        description='The zone it is cast from; "command" (or "command_zone") for a commander (CR 903.8).',
    )

    @field_validator("cast_from", mode="before")
    @classmethod
    def _command_zone_alias(cls, value: object) -> object:
        return "command" if value == "command_zone" else value

    commander_casts: Annotated[int, Field(ge=0, le=MAX_COMMANDER_CASTS)] = Field(
        0, description="Previous casts from the command zone (commander tax, CR 903.8)."
    )
    cast_as: CastAsIn | None = Field(
        None, description="Mental Magic: the card this one is cast as through a Richard Garfield, Ph.D."
    )
    printing: PrintingIn | None = Field(
        None, description="The printing's own text, when it matters (flavor text, characters in the art)."
    )
    method: Keyword | None = Field(
        None,
        description='The way to cast, by its keyword (CR 702): "flashback", "overload", "evoke", "dash", '
        '"escape", "madness", "foretell", "disturb", "emerge", "spectacle", "surge", "prowl", "bestow", '
        '"mutate", "blitz", "miracle", "morph" / "megamorph" / "disguise" (face down), "prototype", "plot", '
        '"awaken", "cleave", "retrace", "jump-start", "aftermath", "harmonize", "warp", "mayhem", "suspend", '
        '...; "alternative" for an alternative cost written in the card\'s text ("rather than pay this '
        "spell's mana cost\", CR 118.9) or granted by a permanent (Omniscience, Leyline of Mutation, Bolas's "
        'Citadel); "normal" (the default; from a graveyard or exile, the card\'s own way there when it has '
        "one, else a permission on the board).",
        examples=["flashback", "alternative"],
    )
    which: Annotated[int, Field(ge=1, le=10)] | None = Field(
        None,
        description='Which alternative cost written in the card\'s text (method "alternative"), from 1, as '
        "`ways` numbers them.",
    )
    granted_by: PermanentId | None = Field(
        None,
        description="The id of the permanent or effect whose permission or alternative cost is used (CR "
        "601.2b, 613), as `ways` names it; null: the first way offered that fits `method`.",
        examples=["omniscience"],
    )
    optional_costs: Annotated[list[OptionalCostIn], Field(max_length=MAX_OPTIONAL_COSTS)] = empty_list(
        description="Optional additional costs paid, read from the card's text.",
        examples=[[{"keyword": "kicker"}], [{"keyword": "multikicker", "times": 3}]],
    )
    targets: Annotated[list[PermanentId], Field(max_length=MAX_TARGETS)] = empty_list(
        description="Ids of permanents and names of players the spell targets (CR 601.2c), for effects such "
        'as "spells your opponents cast that target ~ cost {2} more".',
        examples=[["grand-abolisher", "opponent"]],
    )


class SpellCostRequest(StrictModel):
    """A spell, the board it is cast on and who casts it."""

    board: BoardIn = Field(BoardIn(), description="The board the spell is cast on (empty by default).")
    caster: PlayerName = Field("you", description="The player casting the spell.")
    spell: Spell = Field(description="The spell: its card and the choices made casting it.")


class SpellCostBatchRequest(StrictModel):
    """Several spells cast on one board by one player."""

    board: BoardIn = Field(BoardIn(), description="The board the spells are cast on (empty by default).")
    caster: PlayerName = Field("you", description="The player casting them.")
    spells: Annotated[list[Spell], Field(min_length=1, max_length=MAX_SPELLS)] = Field(
        description="The spells, each costed on its own (1 to 250)."
    )


class NamedCard(BaseModel):
    """A card as answers name it: its catalogue name and oracle id."""

    name: str = Field(description="The card's name.")
    oracle_id: str | None = Field(None, description="The card's Oracle id; null for an inline card.")


class CostStepOut(BaseModel):
    """One step of the total cost's computation (CR 601.2f), in the order applied."""

    kind: Literal["base", "alternative", "additional", "increase", "reduction", "total"] = Field(
        description="base, alternative, additional, increase, reduction or total."
    )
    result: str = Field(description="The cost after this step.")
    rule: str = Field(description="The rule or ruling applied.")
    source: str | None = Field(None, description="The id of the permanent whose effect this is, if one.")
    card: str | None = Field(None, description="The name of that permanent's card.")
    amount: str | None = Field(None, description="What the step adds or takes away.")
    applied: bool = Field(
        True, description="False when the effect could not apply (its reduction found nothing to reduce)."
    )
    note: str | None = Field(None, description="More about the step, in words.")


# "unknown" as a one-value enum, not a ``const``: client generators read an enum beside a boolean.
_Unknown = Annotated[Literal["unknown"], WithJsonSchema({"type": "string", "enum": ["unknown"]})]


def _absent(value: object) -> bool:
    return value is None


class OtherCostOut(BaseModel):
    """A part of the total cost that is not mana (CR 118.1)."""

    text: str = Field(description="The cost as the card words it.", examples=["Pay 3 life"])
    # Left out when it is not a life payment; a field-level exclusion keeps the schema typed (a wrap
    # model_serializer made it an untyped object for client generators).
    life: int | None = Field(
        None,
        description="The life paid, when it is a life payment (absent otherwise).",
        examples=[3],
        exclude_if=_absent,
    )


class OptionalCostOut(BaseModel):
    """An additional cost the caster chose to pay (CR 601.2b), named as a request names it."""

    keyword: str = Field(description="The cost's keyword in lowercase.", examples=["kicker"])
    which: int | None = Field(
        None,
        description="Which cost of a two-cost kicker (only when 2; absent otherwise).",
        exclude_if=_absent,
    )


class WayOut(BaseModel):
    """A way to cast the card from ``cast_from`` on this board, alone or with one optional cost, its total
    and what it takes beside mana; ``which`` numbers the alternative costs written in the card's text,
    ``granted_by`` names the permanent or effect that grants the way, ``rule`` the rule it follows."""

    method: str = Field(
        description="The way to cast (`normal`, a keyword such as `flashback`, or `alternative`).",
        examples=["normal"],
    )
    which: int | None = Field(
        None,
        description="Which alternative cost in the text (method `alternative`); absent otherwise.",
        exclude_if=_absent,
    )
    granted_by: str | None = Field(
        None,
        description="The permanent or effect granting this way; absent for the card's own ways.",
        exclude_if=_absent,
    )
    rule: str = Field("601.2f", description="The rule of this way (CR 702.x, 118.9, 601.3).")
    optional_costs: list[OptionalCostOut] = Field(
        description="The optional costs paid with it (none or one).", examples=[[{"keyword": "kicker"}]]
    )
    total_cost: str = Field(description="The total cost that way on this board.", examples=["{7}{U}{U}"])
    other_costs: list[OtherCostOut] = empty_list(
        description="What this way takes beside mana.", examples=[[{"text": "Pay 1 life", "life": 1}]]
    )
    available: bool | _Unknown = Field(
        True,
        description=(
            "Whether this way is available on the stated board (CR 601.2b): `true`; `false` (then `reason` "
            'says why, under `rule`); or `"unknown"` when a fact the request does not state decides it '
            "(then `needs` names the request fields, and the answer warns). Added in 1.3."
        ),
        examples=[True, False, "unknown"],
    )
    reason: str | None = Field(
        None,
        description="Why the way is not available, or what is not known; absent when it is available.",
        examples=["Snuff Out's alternative cost holds only if you control a Swamp: not so on this board"],
        exclude_if=_absent,
    )
    needs: list[str] | None = Field(
        None,
        description=(
            'For `available: "unknown"`: the request fields that would decide it (empty when no field '
            "does); absent otherwise."
        ),
        examples=[["players.opponent.this_turn.spells_cast"]],
        exclude_if=_absent,
    )


class SpellCostOut(ComputedAnswer):
    """What a spell costs on the board (CR 601.2f), step by step."""

    card: NamedCard = Field(description="The spell's card.")
    face: str | None = Field(description="The face or half cast (its name); the fused card's name for fuse.")
    cast_as: NamedCard | None = Field(None, description="With Mental Magic: the card it is cast as.")
    mana_cost: str | None = Field(description="The card's printed mana cost; null when it has none.")
    mana_value: int | float | None = Field(description="The card's mana value (CR 202.3).")
    mana_value_on_stack: int | float | None = Field(
        description="Its mana value on the stack, X included (CR 202.3b)."
    )
    total_cost: str = Field(description="The total cost to pay (CR 601.2f): `{0}` when nothing is left.")
    steps: list[CostStepOut] = Field(description="How the total was reached.")
    warnings: list[CostWarningOut] = Field(description="Texts not understood or read with an assumption.")
    x_for_etb: int = Field(description="The X its enters-the-battlefield effects see (CR 107.3m).")
    choices: list[str] = Field(description="Choices the caster makes that this answer made (cheapest).")
    method: str = Field("normal", description="The way to cast used (its keyword), alternative, or normal.")
    which: int | None = Field(None, description="Which alternative cost in the text was used.")
    granted_by: str | None = Field(None, description="The permanent or effect whose grant was used.")
    other_costs: list[OtherCostOut] = empty_list(
        description="The parts of the total cost that are not mana.",
        examples=[[{"text": "Pay 3 life", "life": 3}, {"text": "Sacrifice a creature"}]],
    )
    ways: list[WayOut] = empty_list(
        description="Each way to cast the card from cast_from on this board (its keywords, the alternative "
        "costs in its text, the ways permanents and effects grant), alone and with each optional cost: its "
        "total, its rule, what it takes beside mana, and the permanent granting it.",
        examples=[
            [
                {"method": "normal", "optional_costs": [], "total_cost": "{2}{U}{U}", "rule": "601.2f"},
                {
                    "method": "normal",
                    "optional_costs": [{"keyword": "kicker"}],
                    "total_cost": "{7}{U}{U}",
                    "rule": "601.2f",
                },
            ],
            [
                {"method": "normal", "optional_costs": [], "total_cost": "{3}{U}{U}", "rule": "601.2f"},
                {
                    "method": "alternative",
                    "which": 1,
                    "rule": "118.9",
                    "optional_costs": [],
                    "total_cost": "{0}",
                    "other_costs": [
                        {"text": "Pay 1 life", "life": 1},
                        {"text": "Exile a blue card from your hand"},
                    ],
                },
                {
                    "method": "alternative",
                    "granted_by": "omniscience",
                    "rule": "118.9",
                    "optional_costs": [],
                    "total_cost": "{0}",
                },
            ],
            [
                {
                    "method": "escape",
                    "granted_by": "breach",
                    "rule": "702.138a",
                    "optional_costs": [],
                    "total_cost": "{U}",
                    "other_costs": [{"text": "Exile three other cards from your graveyard"}],
                },
                {
                    "method": "normal",
                    "granted_by": "yawgmoths-will",
                    "rule": "601.3",
                    "optional_costs": [],
                    "total_cost": "{U}",
                },
            ],
        ],
    )


class SpellCostBatchItem(BaseModel):
    """One spell of a batch: ``result`` (as ``spells/cost``) or ``problem`` (problem+json), never both."""

    index: int = Field(description="The spell's position in the request (from 0).")
    result: SpellCostOut | None = Field(None, description="Present when the spell's cost was computed.")
    problem: dict[str, Any] | None = Field(None, description="Present when it could not be (problem+json).")

    @model_serializer(mode="wrap")
    def _only_the_member_present(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {k: v for k, v in data.items() if k == "index" or v is not None}


class SpellCostBatchOut(ComputedAnswer):
    """The answers to a batch, one per spell in the request's order."""

    data: list[SpellCostBatchItem] = Field(description="One item per spell: `result` or `problem`.")
