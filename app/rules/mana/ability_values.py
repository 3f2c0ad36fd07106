"""The values of a board read for its activated abilities (CR 602, 605, 613): ``Ability``, ``PermanentState``
(a permanent's characteristics after layers 4 and 6, CR 613.1d, 613.1f), ``BoardState``, and the ``Reason``
an ability cannot be activated and the ``Warning`` for text not understood ("nothing silent").

``Ability.origin`` says where an ability comes from: its basic land type (CR 305.6), its own text (CR 602.1)
or a grant (CR 613.1f); ``app.rules.mana.board_reading`` builds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.mana.prohibitions import Prohibition
from app.rules.text.activation import Need
from app.rules.text.mana_activated import CostPart, cost_text
from app.rules.text.mana_amounts import Condition, ManaEffect
from app.rules.text.mana_filters import Filter
from app.rules.text.mana_static import ManaTrigger, ProductionReplacement
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost

ORIGIN_LAND_TYPE: Final = "land_type"
ORIGIN_PRINTED: Final = "printed"
ORIGIN_GRANTED: Final = "granted"


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an ability cannot be activated, with the rule that says so."""

    rule: str
    text: str

    def __init__(self, rule: str, text: str) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "text", text)


@dataclass(frozen=True, slots=True)
class Warning:
    """A permanent whose text was not (fully) understood; that text then has no effect here."""

    permanent: str
    text: str
    reason: str
    card: str | None = None
    rule: str | None = None

    def __init__(
        self, permanent: str, text: str, reason: str, card: str | None = None, rule: str | None = None
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanent", permanent)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "rule", rule)


@dataclass(frozen=True, slots=True)
class Ability:
    """One activated ability of a permanent. ``rule`` names where it comes from: "305.6" (land type),
    "602.1" (its own text) or "613.1f" (granted by ``granted_by``)."""

    index: int
    cost: tuple[CostPart, ...]
    text: str
    origin: str
    rule: str
    granted_by: str | None
    mana: ManaEffect | None
    is_mana_ability: bool | None
    is_loyalty: bool
    problem: str | None
    cost_kinds: frozenset[str] = frozenset()
    conditions: tuple[Condition, ...] = ()
    needs: tuple[Need, ...] = ()
    """The cost's parts that consume resources other than {T}, {Q} and mana (``text.activation``)."""

    @property
    def cost_text(self) -> str:
        return cost_text(self.cost)

    @property
    def has_tap(self) -> bool:
        """CR 106.12: an ability with {T} in its cost is "tapping for mana" when it is a mana ability."""
        return "tap" in self.cost_kinds

    @property
    def has_untap(self) -> bool:
        return "untap" in self.cost_kinds

    @property
    def restriction(self) -> str | None:
        """The spending restriction on the mana it adds (CR 106.6), e.g. "Spend this mana only to cast
        creature spells."; None when the mana can be spent on anything."""
        return None if self.mana is None else self.mana.restriction

    @property
    def life_cost(self) -> int:
        return sum(p.amount for p in self.cost if p.kind == "life")

    @property
    def mana_cost(self) -> ManaCost | None:
        """The mana part of the activation cost (None when there is none)."""
        total: ManaCost | None = None
        for p in self.cost:
            if p.mana is not None:
                total = p.mana if total is None else total + p.mana
        return total


@dataclass(frozen=True, slots=True)
class PermanentState:
    """A permanent's characteristics after the layer effects read here (CR 613.1d, 613.1f)."""

    permanent: Permanent
    face: Face
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    abilities: tuple[Ability, ...]
    haste: bool
    lost_own_abilities: bool
    lost: tuple[tuple[Ability, str], ...] = ()
    """CR 613.1f: the abilities an effect took away ("loses all abilities"), each with the id of the
    permanent responsible; they are not in ``abilities``."""
    stripped: bool = False
    """It lost all its abilities, keyword abilities too (CR 613.1f): "with flying" no longer names it."""

    def __init__(
        self,
        permanent: Permanent,
        face: Face,
        types: tuple[str, ...],
        subtypes: tuple[str, ...],
        supertypes: tuple[str, ...],
        abilities: tuple[Ability, ...],
        haste: bool,
        lost_own_abilities: bool,
        lost: tuple[tuple[Ability, str], ...] = (),
        stripped: bool = False,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanent", permanent)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "types", types)
        object.__setattr__(self, "subtypes", subtypes)
        object.__setattr__(self, "supertypes", supertypes)
        object.__setattr__(self, "abilities", abilities)
        object.__setattr__(self, "haste", haste)
        object.__setattr__(self, "lost_own_abilities", lost_own_abilities)
        object.__setattr__(self, "lost", lost)
        object.__setattr__(self, "stripped", stripped)

    @property
    def id(self) -> str:
        return self.permanent.id

    @property
    def controller(self) -> str:
        return self.permanent.controller

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    @property
    def is_land(self) -> bool:
        return "Land" in self.types

    @property
    def keywords(self) -> frozenset[str]:
        """Its keyword abilities as printed (none once it lost all abilities, CR 613.1f)."""
        return frozenset() if self.stripped else frozenset(self.face.keywords)

    @property
    def is_snow(self) -> bool:
        return "Snow" in self.supertypes

    def matches(self, flt: Filter, source: Permanent) -> bool:
        """Whether ``flt``, written on ``source``, names this permanent."""
        if flt.controller == "you" and self.permanent.controller != source.controller:
            return False
        if flt.controller == "opponent" and self.permanent.controller == source.controller:
            return False
        if flt.enchanted and source.attached_to != self.permanent.id:
            return False
        if flt.other and source.id == self.permanent.id:
            return False
        if flt.itself and source.id != self.permanent.id:
            return False
        if flt.keyword is not None and (self.stripped or not self.face.has_keyword(flt.keyword)):
            return False  # CR 702: "with defender"; CR 613.1f: a keyword lost with all abilities
        if flt.token is not None and self.permanent.token != flt.token:
            return False  # CR 111.1: "tokens", "nontoken" (not stated: a card, said where it matters)
        if flt.named is not None and self.face.name != source.name:
            return False  # CR 201.2: "named ~", the source's name
        if flt.counter is not None and not self._has_counter(flt.counter):
            return False
        if flt.min_power is not None and (self.power or 0) < flt.min_power:
            return False
        if flt.color is not None and flt.color not in self.face.color_set:
            return False  # CR 105.2: "black permanents"
        return flt.matches_types(self.types, self.subtypes, self.supertypes, self.face.is_changeling)

    def _has_counter(self, kind: str) -> bool:
        """CR 122.1: "with a [kind] counter on it"; ``""``: any counter. Counters not stated: none."""
        counters = self.permanent.counters if self.permanent.knows("counters") else ()
        return any(n > 0 and (not kind or k == kind) for k, n in counters)

    @property
    def power(self) -> int | None:
        """CR 208.1, 613.4c: the printed power plus its +1/+1 counters minus its -1/-1 counters (other
        power changes are not modelled); None when it is not a creature or the printed power is not a
        number ("*", CR 208.2: a characteristic-defining ability not read here)."""
        printed = self.face.power
        if not self.is_creature or printed is None or not printed.lstrip("-").isdigit() or len(printed) > 9:
            return None  # a printed power of more than nine digits is no card's: not read
        return int(printed) + self.permanent.counter("+1/+1") - self.permanent.counter("-1/-1")


@dataclass(frozen=True, slots=True)
class BoardState:
    """Every permanent's state plus the board-wide mana effects (with the index of their source)."""

    board: Board
    states: tuple[PermanentState, ...]
    replacements: tuple[tuple[int, ProductionReplacement], ...]
    triggers: tuple[tuple[int, ManaTrigger], ...]
    warnings: tuple[Warning, ...]
    prohibitions: tuple[tuple[int, Prohibition], ...] = ()
    """CR 602.5: what each permanent (by board index) forbids to activate."""

    def __init__(
        self,
        board: Board,
        states: tuple[PermanentState, ...],
        replacements: tuple[tuple[int, ProductionReplacement], ...],
        triggers: tuple[tuple[int, ManaTrigger], ...],
        warnings: tuple[Warning, ...],
        prohibitions: tuple[tuple[int, Prohibition], ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "states", states)
        object.__setattr__(self, "replacements", replacements)
        object.__setattr__(self, "triggers", triggers)
        object.__setattr__(self, "warnings", warnings)
        object.__setattr__(self, "prohibitions", prohibitions)

    def count(self, source: PermanentState, flt: Filter) -> int:
        """How many permanents ``flt``, written on ``source``, names."""
        return sum(1 for s in self.states if s.matches(flt, source.permanent))

    def state(self, permanent_id: str) -> PermanentState:
        for s in self.states:
            if s.id == permanent_id:
                return s
        self.board.get(permanent_id)  # raises InvalidChoiceError
        raise AssertionError("unreachable")
