"""Cost effects as values: what a reduction, an increase or a total-cost effect applies to (CR 601.2f).

The oracle-template reader (``oracle_costs``) and the card registry (``card_registry``) build these; the
engine (``casting``) evaluates them against a board. Matching a spell or a permanent against a quality is
here because it reads only a face and the source's choices.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from app.rules.values.board import Choices
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost


class Direction(StrEnum):
    REDUCTION = "reduction"
    INCREASE = "increase"


class Who(StrEnum):
    """Whose spells or permanents, relative to the effect's controller ("you cast", "your opponents cast")."""

    YOU = "you"
    OPPONENTS = "opponents"
    ANY = "any"
    CASTER = "caster"  # the spell's caster ("its controller controls", "that player has cast")


class CountKind(StrEnum):
    PERMANENTS = "permanents"
    PARTY = "party"
    DOMAIN = "domain"
    OPPONENTS = "opponents"
    COUNTERS_ON_SOURCE = "counters_on_source"  # "for each +1/+1 counter on ~" (CR 122.1); text: the kind
    GRAVEYARD_CARDS = "graveyard_cards"  # "for each [quality] card in your graveyard" (CR 404)
    TARGETS = "targets"  # "for each target" (CR 601.2c)
    TARGETS_BEYOND_FIRST = "targets_beyond_first"  # "for each target beyond the first"
    THIS_TURN = "this_turn"  # a count of the current turn (CR 500.1), ``fact`` of the players' this_turn
    DEVOTION = "devotion"  # CR 700.5: mana symbols of ``colors`` among permanents' mana costs
    TOTAL_MANA_VALUE = "total_mana_value"  # the total mana value of permanents with ``quality`` (CR 202.3)
    TOTAL_POWER = "total_power"  # the total power (``fact`` "toughness": toughness) of those (CR 208.3)
    GREATEST_POWER = "greatest_power"  # the greatest power among those (CR 208.3)
    NAMES = "names"  # differently named permanents with ``quality`` (CR 201.2)
    GRAVEYARD_CARD_TYPES = "graveyard_card_types"  # card types among cards in a graveyard (CR 205.2a)
    GRAVEYARD_MANA_VALUES = "graveyard_mana_values"  # different mana values among graveyard cards
    LIFE = "life"  # a player's life total (CR 119.1)
    HAND = "hand"  # cards in a player's hand (CR 402)
    TARGETED = "targeted"  # target permanents with ``quality`` (CR 601.2c: chosen before the total)
    COMMANDER_CASTS = "commander_casts"  # previous casts of this commander from the command zone (903.8)
    SPELL_CHOSEN_COLORS = "spell_chosen_colors"  # the source's chosen colors the spell is (CR 105.2)
    COMMANDER_MANA_VALUE = "commander_mana_value"  # the greatest mana value of a commander you own on the
    # battlefield or in the command zone (CR 903.3, 202.3)
    PLAYER_COUNTERS = "player_counters"  # ``counter`` counters on players (CR 122.1: "experience counter
    # you have", "an opponent has three or more poison counters")
    SPEED = "speed"  # a player's speed (CR 702.179)
    CREATURE_TYPES = "creature_types"  # creature types among creatures (CR 205.3m; a changeling has all)
    OPTIONAL_TIMES = "optional_times"  # times the spell's optional cost ``fact`` is paid ("for each creature
    # sacrificed this way" after "you may sacrifice any number of creatures", CR 601.2b)


class ConditionKind(StrEnum):
    SOURCE_UNTAPPED = "source_untapped"
    SOURCE_TAPPED = "source_tapped"
    YOUR_TURN = "your_turn"
    NOT_YOUR_TURN = "not_your_turn"
    CONTROLS = "controls"
    CLASS_LEVEL = "class_level"  # a Class's level ability (CR 716.2a): the source is at least ``at_least``
    THIS_TURN = "this_turn"  # ``fact`` of this turn between at_least and at_most (whose: the players)
    NOT_CASTERS_TURN = "not_casters_turn"  # "except during its controller's turn" (the spell's, CR 601.2f)
    TARGETS = "targets"  # "if it targets a tapped creature", "spells that target a creature" (CR 601.2c)
    COUNT = "count"  # a count between at_least and at_most ("if you have 3 or less life", graveyards)
    STEP = "step"  # "during your end step": it is your turn and the current step is ``fact`` (CR 500.1)
    DAY_NIGHT = "day_night"  # "if it's night": the game's day or night is ``fact`` (CR 730.1)
    OPTIONAL_PAID = "optional_paid"  # "if it's bargained": the optional cost ``fact`` was paid (601.2b)


FACE_DOWN_NAME = "face-down 2/2"
"""CR 708.2a: the characteristics of a face-down spell carry no name; this is the engine's label for it."""

HISTORIC_TYPES = ("Artifact",)
HISTORIC_SUBTYPES = ("Saga",)


@dataclass(frozen=True, slots=True)
class Quality:
    """One description of an object, all parts required ("red creature", "noncreature", "snow land").

    ``chosen_creature_type`` stands for "of the chosen type" where the source chose a creature type
    (Herald's Horn, Morophon); a changeling has every creature type (CR 702.73a).
    """

    types: tuple[str, ...] = ()
    not_types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    not_subtypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    colorless: bool = False
    multicolored: bool = False
    monocolored: bool = False
    historic: bool = False
    chosen_creature_type: bool = False
    keyword: str | None = None
    chosen_card_type: bool = False  # "of the chosen type" where a card type was chosen (Cloud Key)
    min_power: int | None = None  # "with power 4 or greater": printed power (CR 208.1), a number
    min_mana_value: int | None = None  # "with mana value 4 or greater" (CR 202.3)
    face_down: bool = False  # "face-down creature spells" (CR 708.2a: cast face down)

    def matches(self, face: Face, chosen: Choices) -> bool:
        """Whether an object with the characteristics ``face`` has this quality (CR 105, 205, 700.6): it
        passes every part, in this order."""
        return (
            _types_part(self, face, chosen)
            and _colors_part(self, face, chosen)
            and _historic_part(self, face, chosen)
            and _chosen_part(self, face, chosen)
            and _numbers_part(self, face, chosen)
            and _face_and_keyword_part(self, face, chosen)
        )


def _types_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """CR 205.2-205.4: its card types, supertypes and subtypes, and the types it must not have."""
    if not (q.types or q.not_types or q.supertypes or q.subtypes or q.not_subtypes):
        return True
    tl = face.type_line
    return (
        all(t in tl.types for t in q.types)
        and not any(t in tl.types for t in q.not_types)
        and all(s in tl.supertypes for s in q.supertypes)
        and all(_has_subtype(face, s) for s in q.subtypes)
        and not any(_has_subtype(face, s) for s in q.not_subtypes)
    )


def _colors_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """CR 105.2: its colors; colorless (105.2c), multicolored (105.2b), monocolored (105.2a)."""
    if not (q.colors or q.colorless or q.multicolored or q.monocolored):
        return True
    colors = face.color_set
    return (
        all(c in colors for c in q.colors)
        and not (q.colorless and colors)
        and not (q.multicolored and len(colors) < 2)
        and not (q.monocolored and len(colors) != 1)
    )


def _historic_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """CR 700.6: historic is artifact, legendary or Saga."""
    tl = face.type_line
    return not q.historic or "Artifact" in tl.types or "Legendary" in tl.supertypes or "Saga" in tl.subtypes


def _chosen_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """ "Of the chosen type": the source's chosen creature type (ruling:heralds-horn; a changeling has all,
    CR 702.73a) or card type (CR 205.2a); nothing chosen, nothing has it."""
    if q.chosen_creature_type and (
        chosen.creature_type is None or not face.has_creature_type(chosen.creature_type)
    ):
        return False
    return not (
        q.chosen_card_type and (chosen.card_type is None or chosen.card_type not in face.type_line.types)
    )


def _numbers_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """CR 208.1: "with power N or greater", printed power as a number; CR 202.3: "with mana value N or
    greater"."""
    if q.min_power is not None and not (
        face.power is not None and face.power.isdigit() and int(face.power) >= q.min_power
    ):
        return False
    if q.min_mana_value is None:
        return True
    mv = face.mana_value
    return mv is not None and mv >= q.min_mana_value


def _face_and_keyword_part(q: Quality, face: Face, chosen: Choices) -> bool:
    """CR 708.2a: "face-down" spells; CR 702.1: a keyword it has."""
    if q.face_down and face.name != FACE_DOWN_NAME:
        return False
    return not (q.keyword is not None and not face.has_keyword(q.keyword))


def _has_subtype(face: Face, subtype: str) -> bool:
    # Creature types go through has_creature_type so changelings count (CR 702.73a).
    return face.type_line.has_subtype(subtype) or face.has_creature_type(subtype)


@dataclass(frozen=True, slots=True)
class SpellFilter:
    """Which spells an effect covers. ``qualities`` are alternatives ("instant and sorcery spells");
    none means every spell. ``character`` is Vorthos's "with the chosen character in its name, flavor
    text, or art" (ruling:vorthos)."""

    caster: Who = Who.ANY
    qualities: tuple[Quality, ...] = ()
    min_mana_value: int | None = None
    from_zone: str | None = None
    not_from_zone: str | None = None
    chosen_name: bool = False
    character: bool = False
    targets_source: bool = False  # "spells ... that target ~" (CR 115.1, 601.2c: the spell's targets)
    from_zones: tuple[str, ...] = ()  # "from your graveyard or from exile": any of these zones
    shares_creature_type: bool = False  # "that share a creature type with ~" (CR 205.3m)
    shares_card_type_with_imprinted: bool = False  # "that share a card type with the exiled card"
    kicked: bool = False  # "kicked spells": its kicker cost is paid (CR 702.33d)
    commander: bool = False  # "your commander": the spell is one of its caster's commanders (CR 903.3)

    @property
    def needs_choice(self) -> bool:
        return (
            self.chosen_name
            or self.character
            or any(q.chosen_creature_type or q.chosen_card_type for q in self.qualities)
        )


@dataclass(frozen=True, slots=True)
class Count:
    """What "for each ..." counts: permanents with a quality (whose: relative to the effect's controller),
    the party (CR 700.8), basic land types among lands you control (domain), or opponents."""

    kind: CountKind
    text: str
    quality: Quality | None = None
    whose: Who = Who.YOU
    counter: str | None = None  # the counter kind for COUNTERS_ON_SOURCE, lowercase as printed; for
    # PERMANENTS, "with a +1/+1 counter on it": only permanents with at least one such counter count
    fact: str | None = None  # the this-turn fact for THIS_TURN ("spells_cast", ...); for PERMANENTS
    # "modified" (CR 700.9), "attacking" (CR 506.4) or "greatest" (the most any one opponent controls);
    # for GRAVEYARD_CARDS
    # "same_name" (the spell's name, CR 201.2) or "and_exile" (exile too, CR 406)
    alternatives: tuple[Quality, ...] = ()  # "instant and sorcery card": any of them (with ``quality``)
    colors: tuple[str, ...] = ()  # DEVOTION's colors
    min_power: int | None = None  # PERMANENTS "with power 4 or greater": their power now (CR 208.3)

    def matches(self, face: Face, chosen: Choices) -> bool:
        """Whether an object counts: it has ``quality`` (when set) or one of ``alternatives``."""
        if self.alternatives:
            return any(q.matches(face, chosen) for q in self.alternatives)
        return (self.quality or Quality()).matches(face, chosen)


@dataclass(frozen=True, slots=True)
class Condition:
    """When a static cost effect applies: "as long as ~ is untapped", "if you control a Wizard", ..."""

    kind: ConditionKind
    text: str
    qualities: tuple[Quality, ...] = ()
    whose: Who = Who.YOU
    at_least: int = 1
    at_most: int | None = None
    fact: str | None = None  # the this-turn fact for THIS_TURN; the optional cost's keyword
    count: Count | None = None  # what COUNT compares
    per_opponent: bool = False  # COUNT: "an opponent has ..." holds when one opponent's count does
    tapped: bool = False  # TARGETS: a tapped permanent
    states: tuple[str, ...] = ()  # TARGETS: in one of these combat states ("attacking", "blocking")
    attached: bool = False  # TARGETS: "enchanted creature/player", what the source is attached to
    counter: str | None = None  # TARGETS: "with a +1/+1 counter on it"
    commander: bool = False  # TARGETS: "one or more commanders you control" (CR 903.3)


@dataclass(frozen=True, slots=True)
class CostEffect:
    """A cost reduction or increase (CR 601.2f, 118.7).

    ``amount`` is per instance; with ``per`` it is multiplied by the count. ``colored_only`` is the rider
    "This effect reduces only the amount of colored mana you pay" (Morophon, Edgewalker, ruling:vorthos):
    it never touches generic mana. ``own`` marks a spell's own ability ("This spell costs ..."), which
    applies to that spell only. ``up_to`` reductions are taken in full, the cheapest choice.
    """

    direction: Direction
    amount: ManaCost
    spells: SpellFilter
    rule: str
    text: str
    per: Count | None = None
    condition: Condition | None = None
    colored_only: bool = False
    up_to: bool = False
    own: bool = False
    life: int = 0  # "costs 3 life more", "an additional 3 life": life to pay per instance (CR 119.4)
    max_times: int | None = None  # "This effect can't reduce the amount of mana this spell costs by more
    # than {5}": with an amount of {1}, at most 5 instances (CR 601.2f)


@dataclass(frozen=True, slots=True)
class MinimumTotal:
    """An effect on the locked-in total (CR 601.2f): "each spell that would cost less than N mana to cast
    costs N mana to cast" (Trinisphere); the missing mana is generic."""

    amount: int
    spells: SpellFilter
    text: str
    condition: Condition | None = None
    rule: str = "601.2f"


@dataclass(frozen=True, slots=True)
class KeywordGrant:
    """ "Creature spells you cast have convoke" (CR 613.1f): a way to pay granted to the spells ``spells``
    covers (convoke 702.51a, improvise 702.126a, delve 702.66a). It leaves the total cost as it is; the
    payment uses it."""

    keyword: str
    spells: SpellFilter
    text: str
    rule: str


Effect = CostEffect | MinimumTotal | KeywordGrant


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A sentence that looks like a cost effect but is not understood (it then has no effect)."""

    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardEffects:
    """What one face's text means for costs.

    ``effects`` are static abilities that work on the battlefield; ``own`` the spell's own cost abilities
    (they work while it is being cast); ``unsupported`` and ``own_unsupported`` the sentences of each kind
    that were not understood.
    """

    effects: tuple[Effect, ...] = ()
    own: tuple[CostEffect, ...] = ()
    unsupported: tuple[Unsupported, ...] = ()
    own_unsupported: tuple[Unsupported, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.effects or self.own or self.unsupported or self.own_unsupported)


NO_EFFECTS = CardEffects()
