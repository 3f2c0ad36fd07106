"""The spell being costed and the answer, as values: ``SpellToCast`` (what is cast, how, from where), the
running total ``CostRun`` and its ``CostStep`` records and ``CostWarning``s, ``CostResult``, and the
context (``SpellContext``) the board's effects are judged in (CR 601.2a-f).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from app.rules.effects.cost_effects import (
    CostEffect,
    MinimumTotal,
)
from app.rules.effects.other_costs import OtherCost
from app.rules.text.characters import CharacterIndex
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost


class StepKind(StrEnum):
    BASE = "base"
    ALTERNATIVE = "alternative"
    ADDITIONAL = "additional"
    INCREASE = "increase"
    REDUCTION = "reduction"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class CastAs:
    """Mental Magic: cast as ``card`` through the Richard Garfield, Ph.D. with id ``via``."""

    card: Card
    via: str

    def __init__(self, card: Card, via: str) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "via", via)


@dataclass(frozen=True, slots=True)
class OptionalChoice:
    """An optional additional cost the caster pays (CR 601.2b): its keyword, which of its costs (kicker's
    two-cost form, 702.33d) and how many times (multikicker, replicate, squad, escalate)."""

    keyword: str
    which: int = 1
    times: int = 1

    def __init__(self, keyword: str, which: int = 1, times: int = 1) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "keyword", keyword)
        object.__setattr__(self, "which", which)
        object.__setattr__(self, "times", times)


@dataclass(frozen=True, slots=True)
class WayTotal:
    """A way the card offers from the zone it is cast from, with one optional cost or none: its total."""

    method: str
    optional_costs: tuple[OptionalChoice, ...]
    total_cost: ManaCost
    which: int | None = None  # which alternative cost written in the text (method "alternative")
    granted_by: str | None = None  # the permanent or effect that grants the way (CR 601.2b, 613)
    rule: str = "601.2f"
    other_costs: tuple[OtherCost, ...] = ()
    available: bool | None = True  # CR 601.2b on the stated board; None: not known (``needs``)
    reason: str | None = None  # why it is not available, or what is not known
    needs: tuple[str, ...] = ()  # the request fields that would decide it

    def __init__(
        self,
        method: str,
        optional_costs: tuple[OptionalChoice, ...],
        total_cost: ManaCost,
        which: int | None = None,
        granted_by: str | None = None,
        rule: str = "601.2f",
        other_costs: tuple[OtherCost, ...] = (),
        available: bool | None = True,
        reason: str | None = None,
        needs: tuple[str, ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "optional_costs", optional_costs)
        object.__setattr__(self, "total_cost", total_cost)
        object.__setattr__(self, "which", which)
        object.__setattr__(self, "granted_by", granted_by)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "other_costs", other_costs)
        object.__setattr__(self, "available", available)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "needs", needs)


@dataclass(frozen=True, slots=True)
class SpellToCast:
    """A spell being cast. ``face``: a face or half's name, or "fuse"; ``flavor_text`` and
    ``art_characters`` describe the printed card (``printing``), for effects that read it (ruling:vorthos);
    ``targets`` are the ids of permanents and names of players it targets (CR 601.2c), ``targets_given``
    whether the request stated them (an empty list too: "any number of target creatures" may be none);
    ``method`` is the keyword of the way to cast used ("flashback"; None: the normal way, or the only way the
    card has from ``cast_from``), ``optional_costs`` the optional additional costs paid."""

    card: Card
    face: str | None = None
    x: int = 0
    y: int = 0
    z: int = 0
    alternative_cost: ManaCost | None = None
    additional_costs: tuple[ManaCost, ...] = ()
    cast_from: str = "hand"
    commander_casts: int = 0
    cast_as: CastAs | None = None
    flavor_text: str | None = None
    art_characters: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    method: str | None = None
    optional_costs: tuple[OptionalChoice, ...] = ()
    which: int | None = None  # which of several alternative costs (method "alternative")
    granted_by: str | None = None  # the id of the permanent or effect whose grant is used
    targets_given: bool = False  # the request stated ``targets``; not stated and empty: a count warns
    commander_casts_given: bool = False  # the request stated ``commander_casts``; not stated: 0, warned
    condition_assumed: bool = False  # cost its way as if the way's condition held (``ways`` lists one not
    # available on the board with its total)

    def __init__(
        self,
        card: Card,
        face: str | None = None,
        x: int = 0,
        y: int = 0,
        z: int = 0,
        alternative_cost: ManaCost | None = None,
        additional_costs: tuple[ManaCost, ...] = (),
        cast_from: str = "hand",
        commander_casts: int = 0,
        cast_as: CastAs | None = None,
        flavor_text: str | None = None,
        art_characters: tuple[str, ...] = (),
        targets: tuple[str, ...] = (),
        method: str | None = None,
        optional_costs: tuple[OptionalChoice, ...] = (),
        which: int | None = None,
        granted_by: str | None = None,
        targets_given: bool = False,
        commander_casts_given: bool = False,
        condition_assumed: bool = False,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "z", z)
        object.__setattr__(self, "alternative_cost", alternative_cost)
        object.__setattr__(self, "additional_costs", additional_costs)
        object.__setattr__(self, "cast_from", cast_from)
        object.__setattr__(self, "commander_casts", commander_casts)
        object.__setattr__(self, "cast_as", cast_as)
        object.__setattr__(self, "flavor_text", flavor_text)
        object.__setattr__(self, "art_characters", art_characters)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "optional_costs", optional_costs)
        object.__setattr__(self, "which", which)
        object.__setattr__(self, "granted_by", granted_by)
        object.__setattr__(self, "targets_given", targets_given)
        object.__setattr__(self, "commander_casts_given", commander_casts_given)
        object.__setattr__(self, "condition_assumed", condition_assumed)


@dataclass(frozen=True, slots=True)
class CostStep:
    """One step of the computation: what was added or taken, by which permanent, under which rule."""

    kind: StepKind
    result: ManaCost
    rule: str
    source: str | None = None
    card: str | None = None
    amount: ManaCost | None = None
    applied: bool = True
    note: str | None = None

    def __init__(
        self,
        kind: StepKind,
        result: ManaCost,
        rule: str,
        source: str | None = None,
        card: str | None = None,
        amount: ManaCost | None = None,
        applied: bool = True,
        note: str | None = None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "applied", applied)
        object.__setattr__(self, "note", note)


@dataclass(frozen=True, slots=True)
class CostWarning:
    """A text that looks like a cost effect but was not understood: it was given no effect."""

    source: str | None
    card: str
    text: str
    message: str
    rule: str | None = None

    def __init__(
        self, source: str | None, card: str, text: str, message: str, rule: str | None = None
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "rule", rule)


@dataclass(frozen=True, slots=True)
class CostResult:
    """The answer: the spell's mana cost, mana values (CR 202.3), total cost, steps and warnings.

    ``mana_value`` treats X as 0 (202.3e, off the stack); ``mana_value_on_stack`` counts X as chosen;
    ``x_for_etb`` is the X its enters-the-battlefield abilities see (107.3m).
    """

    card: Card
    face: Face
    cast_as: Card | None
    mana_cost: ManaCost | None
    mana_value: int | float | None
    mana_value_on_stack: int | float | None
    total_cost: ManaCost
    steps: tuple[CostStep, ...]
    warnings: tuple[CostWarning, ...]
    x_for_etb: int
    choices: tuple[str, ...]
    method: str = "normal"
    other_costs: tuple[OtherCost, ...] = ()
    ways: tuple[WayTotal, ...] = ()
    granted: tuple[str, ...] = ()  # ways to pay granted by permanents (convoke, improvise, delve)
    which: int | None = None
    granted_by: str | None = None
    way_rule: str = "601.2f"

    def __init__(
        self,
        card: Card,
        face: Face,
        cast_as: Card | None,
        mana_cost: ManaCost | None,
        mana_value: int | float | None,
        mana_value_on_stack: int | float | None,
        total_cost: ManaCost,
        steps: tuple[CostStep, ...],
        warnings: tuple[CostWarning, ...],
        x_for_etb: int,
        choices: tuple[str, ...],
        method: str = "normal",
        other_costs: tuple[OtherCost, ...] = (),
        ways: tuple[WayTotal, ...] = (),
        granted: tuple[str, ...] = (),
        which: int | None = None,
        granted_by: str | None = None,
        way_rule: str = "601.2f",
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "cast_as", cast_as)
        object.__setattr__(self, "mana_cost", mana_cost)
        object.__setattr__(self, "mana_value", mana_value)
        object.__setattr__(self, "mana_value_on_stack", mana_value_on_stack)
        object.__setattr__(self, "total_cost", total_cost)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "warnings", warnings)
        object.__setattr__(self, "x_for_etb", x_for_etb)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "other_costs", other_costs)
        object.__setattr__(self, "ways", ways)
        object.__setattr__(self, "granted", granted)
        object.__setattr__(self, "which", which)
        object.__setattr__(self, "granted_by", granted_by)
        object.__setattr__(self, "way_rule", way_rule)

    def with_ways(self, ways: tuple[WayTotal, ...], refused: tuple[CostWarning, ...]) -> CostResult:
        """This result with the ways the card offers and the warnings of those refused (CR 601.2f): what
        ``dataclasses.replace`` would make, built directly (replace is interpreted, field by field)."""
        refused = tuple(w for w in dict.fromkeys(refused) if w not in self.warnings)  # each said once
        return CostResult(
            self.card,
            self.face,
            self.cast_as,
            self.mana_cost,
            self.mana_value,
            self.mana_value_on_stack,
            self.total_cost,
            self.steps,
            (*self.warnings, *refused),
            self.x_for_etb,
            self.choices,
            self.method,
            self.other_costs,
            ways,
            self.granted,
            self.which,
            self.granted_by,
            self.way_rule,
        )


@dataclass(slots=True)
class SpellContext:
    board: Board
    caster: str
    spell: SpellToCast
    face: Face
    mv_on_stack: int | float | None
    characters: CharacterIndex
    warnings: list[CostWarning]
    judged: dict[tuple[CostEffect | MinimumTotal, str | None], Judged] | None = None  # see ways_to_cast

    def __init__(
        self,
        board: Board,
        caster: str,
        spell: SpellToCast,
        face: Face,
        mv_on_stack: int | float | None,
        characters: CharacterIndex,
        warnings: list[CostWarning],
        judged: dict[tuple[CostEffect | MinimumTotal, str | None], Judged] | None = None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "caster", caster)
        object.__setattr__(self, "spell", spell)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "mv_on_stack", mv_on_stack)
        object.__setattr__(self, "characters", characters)
        object.__setattr__(self, "warnings", warnings)
        object.__setattr__(self, "judged", judged)


# What cost_increases found for one effect of one source: (covered, why, amount, amount note)
Judged = tuple[bool, str | None, ManaCost | None, str | None]


@dataclass(slots=True)
class CostRun:
    """The running total of one computation and what it has explained so far (CR 601.2f, in order)."""

    current: ManaCost
    steps: list[CostStep]
    warnings: list[CostWarning]
    choices: list[str]
    other_costs: list[OtherCost] = field(default_factory=list)

    def record(self, step: CostStep) -> None:
        """Append ``step``; an applied step's result becomes the running total."""
        if step.applied:
            self.current = step.result
        self.steps.append(step)


@dataclass(frozen=True, slots=True)
class CastCharacteristics:
    """What is cast: the face (or the card chosen through Mental Magic), its mana cost, and the mana cost
    giving its mana value (the front face's for a transformed back face, CR 712.8c)."""

    face: Face
    cast_as: Card | None
    mana_cost: ManaCost | None
    mv_cost: ManaCost | None

    def __init__(
        self,
        face: Face,
        cast_as: Card | None,
        mana_cost: ManaCost | None,
        mv_cost: ManaCost | None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "cast_as", cast_as)
        object.__setattr__(self, "mana_cost", mana_cost)
        object.__setattr__(self, "mv_cost", mv_cost)


@dataclass(frozen=True, slots=True)
class Variables:
    """X, Y and Z as used for every cost (CR 107.3), and whether any cost lets the caster choose X."""

    x: int
    y: int
    z: int
    chooses_x: bool

    def __init__(self, x: int, y: int, z: int, chooses_x: bool) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "z", z)
        object.__setattr__(self, "chooses_x", chooses_x)
