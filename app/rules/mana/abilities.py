"""Activated abilities of permanents and whether they can be activated (CR 602, 605, 305.6, 107.5, 302.6).

A permanent's abilities, in this fixed order (indices are what payment plans refer to):

1. the intrinsic mana abilities of its basic land types (CR 305.6), in W U B R G order;
2. its own activated abilities, in the order of its text (CR 602.1), unless a land type was set, which
   removes them (CR 305.7);
3. abilities granted by other effects (CR 613.1f), in board order of the granting permanent.

The board is read with a simplified layer system (CR 613): layer 4 land type changes first, then layer 6
ability grants. Within layer 4 effects apply in board order (taken as timestamp order, CR 613.7), except
that an effect whose source is a land some pending "set land type" effect applies to waits for it
(CR 613.8a-b: Blood Moon before Urborg) and vanishes when that effect removes its source's abilities
(CR 305.7). An "As long as" grant applies while its condition holds on the board (CR 611.3a). Card type
changes (animation), control changes, power changes other than counters and other conditional effects
are not modelled (a filter such as "with power 4 or greater" reads an unprinted power, "*", as 0); texts
that look mana-related but are not understood become warnings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.casting.party import party_size
from app.rules.mana.prohibitions import Prohibition, forbids, read_named_land_changes, read_prohibitions
from app.rules.text.activation import Need, Pick, read_need
from app.rules.text.oracle_mana import (
    LAND_TYPES,
    ActivatedText,
    Amount,
    Condition,
    CostPart,
    FaceMana,
    Filter,
    Grant,
    ManaEffect,
    ManaTrigger,
    ProductionReplacement,
    TypeChange,
    cost_text,
    parse_activated,
    read_face,
    read_text,
)
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.symbols import COLORS
from app.rules.values.types import BASIC_LAND_TYPES

ORIGIN_LAND_TYPE: Final = "land_type"
ORIGIN_PRINTED: Final = "printed"
ORIGIN_GRANTED: Final = "granted"
_INTRINSIC: Final = {t: parse_activated("{T}: Add {" + m + "}.") for t, m in BASIC_LAND_TYPES.items()}


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an ability cannot be activated, with the rule that says so."""

    rule: str
    text: str


@dataclass(frozen=True, slots=True)
class Warning:
    """A permanent whose text was not (fully) understood; that text then has no effect here."""

    permanent: str
    text: str
    reason: str


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
        if flt.keyword is not None and not self.face.has_keyword(flt.keyword):
            return False  # CR 702: "with defender"
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

    def count(self, source: PermanentState, flt: Filter) -> int:
        """How many permanents ``flt``, written on ``source``, names."""
        return sum(1 for s in self.states if s.matches(flt, source.permanent))

    def state(self, permanent_id: str) -> PermanentState:
        for s in self.states:
            if s.id == permanent_id:
                return s
        self.board.get(permanent_id)  # raises InvalidChoiceError
        raise AssertionError("unreachable")


def _ability(
    index: int, text: ActivatedText, origin: str, rule: str, granted_by: str | None, name: str
) -> Ability:
    """Self-references (read as ``~``) are shown with the permanent's name again."""
    cost = tuple(replace(p, text=p.text.replace("~", name)) if "~" in p.text else p for p in text.cost)
    return Ability(
        index,
        cost,
        text.effect.replace("~", name),
        origin,
        rule,
        granted_by,
        text.mana,
        text.is_mana_ability,
        text.is_loyalty,
        text.problem,
        frozenset(p.kind for p in cost),
        text.conditions,
        tuple(n for p in cost if (n := read_need(p, name)) is not None),
    )


def _type_change_order(
    changes: list[tuple[int, TypeChange]],
    perms: tuple[Permanent, ...],
    types: list[tuple[str, ...]],
    subtypes: list[tuple[str, ...]],
    supertypes: list[tuple[str, ...]],
    lost: set[int],
) -> None:
    """Apply layer-4 land type changes in place (CR 613.8 dependency as described in the module doc)."""

    def applies(src: int, change: TypeChange, j: int) -> bool:
        flt, source, p = change.filter, perms[src], perms[j]
        if flt.controller == "you" and p.controller != source.controller:
            return False
        if flt.controller == "opponent" and p.controller == source.controller:
            return False
        if flt.enchanted and source.attached_to != p.id:
            return False
        return "Land" in types[j] and flt.matches_types(types[j], subtypes[j], supertypes[j])

    def targets(src: int, change: TypeChange) -> list[int]:
        return [j for j in range(len(perms)) if applies(src, change, j)]

    pending = list(changes)
    while pending:
        chosen = 0
        for k, (src, _change) in enumerate(pending):
            # only a land's effect can be removed by a "set" effect (CR 305.7), so only it may wait
            waits = "Land" in types[src] and any(
                other_change.mode == "set" and other_src not in lost and applies(other_src, other_change, src)
                for m, (other_src, other_change) in enumerate(pending)
                if m != k
            )
            if not waits:
                chosen = k
                break
        src, change = pending.pop(chosen)  # no independent effect: a loop, timestamp order (CR 613.8b)
        if src in lost:
            continue
        for j in targets(src, change):
            if change.mode == "set":
                kept = tuple(s for s in subtypes[j] if s not in LAND_TYPES)
                subtypes[j] = kept + change.land_types
                lost.add(j)
            else:
                subtypes[j] = subtypes[j] + tuple(t for t in change.land_types if t not in subtypes[j])


@text_cache(entries=4096, chars=2_000_000)  # bounded in bytes too: the texts are the client's
def own_abilities(
    oracle_text: str, name: str, land_types: tuple[str, ...], printed: bool
) -> tuple[Ability, ...]:
    """A permanent's own abilities, the first of its list (see the module doc), memoized per card text.

    They depend on the face alone and on what layer 4 left of it: the intrinsic abilities of the basic
    land types it has (CR 305.6, ``land_types``: none when it is not a land) and its printed activated
    abilities unless a "set land type" effect removed them (CR 305.7, ``printed``). Granted abilities
    (CR 613.1f) follow them and are read per board (``read_board``). Issue 30: a board asked about for
    the first time still reads its lands and mana rocks from this memo."""
    items: list[tuple[ActivatedText, str, str]] = [
        (intrinsic, ORIGIN_LAND_TYPE, "305.6")
        for land_type in land_types
        if (intrinsic := _INTRINSIC[land_type]) is not None
    ]
    if printed:
        items.extend((a, ORIGIN_PRINTED, "602.1") for a in read_text(oracle_text, name).activated)
    return tuple(_ability(n, a, origin, rule, None, name) for n, (a, origin, rule) in enumerate(items))


class _Layers:
    """The board's permanents as layer 4 leaves them (CR 613.1d): working values of ``read_board``."""

    __slots__ = ("faces", "lost", "perms", "readings", "subtypes", "supertypes", "types")

    def __init__(self, board: Board) -> None:
        self.perms: tuple[Permanent, ...] = board.permanents
        self.faces: list[Face] = [p.characteristics for p in self.perms]
        self.readings: list[FaceMana] = [read_face(f) for f in self.faces]
        self.types: list[tuple[str, ...]] = [f.type_line.types for f in self.faces]
        self.subtypes: list[tuple[str, ...]] = [f.type_line.subtypes for f in self.faces]
        self.supertypes: list[tuple[str, ...]] = [f.type_line.supertypes for f in self.faces]
        self.lost: set[int] = set()

    def state(self, j: int, abilities: tuple[Ability, ...], haste: bool) -> PermanentState:
        return PermanentState(
            self.perms[j],
            self.faces[j],
            self.types[j],
            self.subtypes[j],
            self.supertypes[j],
            abilities,
            haste,
            j in self.lost,
        )


_NamedGrants = dict[int, list[tuple[ActivatedText, str]]]
_FromGraveyard = list[tuple[Permanent, Grant, list[ActivatedText]]]
_Granted = dict[tuple[int, int], list[tuple[ActivatedText | None, str]]]


def _named_land_changes(layers: _Layers, warnings: list[Warning]) -> _NamedGrants:
    """Alpine Moon (CR 613.1d, 613.1f): named lands of its controller's opponents lose their land types
    and abilities and gain the quoted ability; with no name chosen it does nothing (said)."""
    perms, faces = layers.perms, layers.faces
    named_grants: _NamedGrants = {}
    for i, face in enumerate(faces):
        for change in read_named_land_changes(face.oracle_text, face.name):
            chosen = perms[i].chosen.card_name
            if chosen is None:
                warnings.append(
                    Warning(perms[i].id, change.text, "no card name chosen: it changes nothing here")
                )
                continue
            granted = parse_activated(change.ability, "~")
            for j, q in enumerate(perms):
                if (
                    q.controller != perms[i].controller
                    and "Land" in layers.types[j]
                    and fold_name(faces[j].name) == fold_name(chosen)
                ):
                    layers.subtypes[j] = tuple(t for t in layers.subtypes[j] if t not in LAND_TYPES)
                    layers.lost.add(j)
                    if granted is not None:
                        named_grants.setdefault(j, []).append((granted, perms[i].id))
    return named_grants


def _graveyard_grants(board: Board) -> _FromGraveyard:
    """CR 113.6b: a grant that says it works while its card is in its owner's graveyard (Riftstone
    Portal), for the graveyards the request lists; the card stands for itself as the grant's source."""
    out: _FromGraveyard = []
    for player in board.players:
        for k, card in enumerate(player.graveyard):
            for g in read_face(card.front).grants:
                if g.condition is not None and g.condition.text == "~ is in your graveyard":
                    source = Permanent(f"graveyard:{k}", card, player.name)
                    readable = [a for a in (parse_activated(t, "~") for t in g.abilities) if a is not None]
                    out.append((source, g, readable))
    return out


def _reading_warnings(layers: _Layers) -> list[Warning]:
    """Texts of the permanents that keep their abilities not (fully) understood ("nothing silent"), and
    activation conditions not understood (taken as not activatable, CR 602.5b)."""
    out: list[Warning] = []
    for i, r in enumerate(layers.readings):
        if i in layers.lost:
            continue
        pid = layers.perms[i].id
        out.extend(Warning(pid, line, why) for line, why in r.problems)
        out.extend(
            Warning(
                pid,
                f"Activate only {c.text}.",
                "an activation condition not understood: the ability is taken as not activatable (CR 602.5b)",
            )
            for a in r.activated
            for c in a.conditions
            if c.kind == "unknown"
        )
    return out


def _grant_warnings(
    layers: _Layers, grants: list[tuple[int, Grant]], active: list[bool | None], granted: _Granted
) -> list[Warning]:
    """A grant's condition not read (CR 611.3a: taken as not holding) and granted texts not understood."""
    perms = layers.perms
    out: list[Warning] = []
    for (i, g), on in zip(grants, active, strict=True):
        if on is None and g.condition is not None:
            out.append(
                Warning(
                    perms[i].id,
                    g.condition.text.replace("~", perms[i].name),
                    "a condition not read on this board: the ability it grants is taken as not granted "
                    "(CR 611.3a)",
                )
            )
    for (i, _k), parsed in granted.items():
        for ab, text in parsed:
            if ab is None:
                out.append(Warning(perms[i].id, text, "a granted ability this reader does not understand"))
            elif ab.problem is not None:
                out.append(Warning(perms[i].id, text, ab.problem))
    return out


def _permanent_state(
    layers: _Layers,
    j: int,
    named_grants: _NamedGrants,
    from_graveyard: _FromGraveyard,
    grants: list[tuple[int, Grant]],
    active: list[bool | None],
    granted: _Granted,
) -> PermanentState:
    """Permanent ``j`` with its abilities in the module doc's order: its own (``own_abilities``), then
    those granted (CR 613.1f, 113.6b), and whether it has haste (CR 702.10)."""
    perms, face = layers.perms, layers.faces[j]
    kept = j not in layers.lost
    land_types = (
        tuple(t for t in BASIC_LAND_TYPES if t in layers.subtypes[j]) if "Land" in layers.types[j] else ()
    )
    own = own_abilities(face.oracle_text, face.name, land_types, kept)
    items: list[tuple[ActivatedText, str, str, str | None]] = [
        (a, ORIGIN_GRANTED, "613.1f", by) for a, by in named_grants.get(j, ())
    ]
    probe = layers.state(j, (), False)
    for source, g, readable in from_graveyard:
        if probe.matches(g.filter, source):
            items.extend((a, ORIGIN_GRANTED, "113.6b", source.id) for a in readable)
    haste = kept and face.has_keyword("Haste")
    for k, (i, g) in enumerate(grants):
        if not active[k] or not probe.matches(g.filter, perms[i]):
            continue
        if g.keyword == "Haste":
            haste = True
        items.extend(
            (ab, ORIGIN_GRANTED, "613.1f", perms[i].id) for ab, _text in granted[(i, k)] if ab is not None
        )
    if not items:
        return layers.state(j, own, haste)
    start = len(own)
    extra = tuple(
        _ability(start + n, a, origin, rule, by, face.name) for n, (a, origin, rule, by) in enumerate(items)
    )
    return layers.state(j, own + extra, haste)


def _prohibitions(layers: _Layers, warnings: list[Warning]) -> tuple[tuple[int, Prohibition], ...]:
    """CR 602.5: what each permanent that keeps its abilities forbids; a name to forbid not chosen is
    said."""
    perms = layers.perms
    prohibitions = tuple(
        (i, x)
        for i, f in enumerate(layers.faces)
        if i not in layers.lost
        for x in read_prohibitions(f.oracle_text, f.name)
    )
    for i, x in prohibitions:
        if x.by_name and perms[i].chosen.card_name is None:
            warnings.append(
                Warning(
                    perms[i].id, x.text, "no card name chosen (`chosen.card_name`): it forbids nothing here"
                )
            )
    return prohibitions


def read_board(board: Board) -> BoardState:
    """Read every permanent's mana-relevant text and apply layers 4 and 6 (see the module doc)."""
    layers = _Layers(board)
    readings, lost = layers.readings, layers.lost
    changes = [(i, c) for i, r in enumerate(readings) for c in r.type_changes]
    if changes:
        _type_change_order(changes, layers.perms, layers.types, layers.subtypes, layers.supertypes, lost)
    warnings: list[Warning] = []
    named_grants = _named_land_changes(layers, warnings)
    grants = [(i, g) for i, r in enumerate(readings) if i not in lost for g in r.grants]
    from_graveyard = _graveyard_grants(board)
    replacements = tuple((i, x) for i, r in enumerate(readings) if i not in lost for x in r.replacements)
    triggers = tuple((i, t) for i, r in enumerate(readings) if i not in lost for t in r.triggers)
    warnings.extend(_reading_warnings(layers))
    active = [
        _grant_applies(i, g, layers.perms, layers.types, layers.subtypes, layers.supertypes)
        for i, g in grants
    ]
    granted: _Granted = {
        (i, k): [(parse_activated(text, "~"), text) for text in g.abilities]
        for k, (i, g) in enumerate(grants)
    }
    warnings.extend(_grant_warnings(layers, grants, active, granted))
    states = [
        _permanent_state(layers, j, named_grants, from_graveyard, grants, active, granted)
        for j in range(len(layers.perms))
    ]
    warnings.extend(_need_warnings(board, states))
    prohibitions = _prohibitions(layers, warnings)
    return BoardState(board, tuple(states), replacements, triggers, tuple(warnings), prohibitions)


def _need_warnings(board: Board, states: list[PermanentState]) -> list[Warning]:
    """ "Nothing silent" for activation costs: a count the board does not state is taken as 0 (API 1.1)
    and said; a cost part not read makes its mana ability unused by payments, and is said too."""
    out: list[Warning] = []
    for st in states:
        for ab in st.abilities:
            out.extend(
                Warning(st.id, f"Activate only {c.text}.", why)
                for c in ab.conditions
                if (why := unstated_count(board, st.permanent, st.controller, c)) is not None
            )
            if not ab.is_mana_ability:
                continue
            gate = existence_gate(st.face, ab)
            if gate is not None:
                if gate[0] == "station" and not st.permanent.knows("counters"):
                    out.append(
                        Warning(
                            st.id,
                            ab.text,
                            f"charge counters not stated: taken as 0, below STATION {gate[1]}+",
                        )
                    )
                elif gate[0] == "speed" and not board.player(st.controller).knows("speed"):
                    out.append(Warning(st.id, ab.text, "speed not stated: taken as none, not max speed"))
            for need in ab.needs:
                if need.kind == "unknown":
                    out.append(
                        Warning(
                            st.id,
                            need.text,
                            "an activation cost this reader does not understand: payments do not use the "
                            "ability (CR 118.3)",
                        )
                    )
                elif need.kind == "remove_counters" and need.amount and not st.permanent.knows("counters"):
                    out.append(
                        Warning(
                            st.id,
                            need.text,
                            f"its {need.counter} counters are not stated: taken as 0, so the cost can't "
                            "be paid (CR 118.3)",
                        )
                    )
                elif need.kind in {"discard", "exile_cards"} and need.zone is not None:
                    player = board.player(st.controller)
                    if not player.knows(need.zone):
                        out.append(
                            Warning(
                                st.id,
                                need.text,
                                f"the {need.zone} of player '{st.controller}' is not stated: taken as empty, "
                                "so the cost can't be paid (CR 118.3)",
                            )
                        )
    return out


def _grant_applies(
    i: int,
    grant: Grant,
    perms: tuple[Permanent, ...],
    types: list[tuple[str, ...]],
    subtypes: list[tuple[str, ...]],
    supertypes: list[tuple[str, ...]],
) -> bool | None:
    """CR 611.3a: an "As long as" grant applies while its condition holds; None when the condition is not
    one read here (then it is taken as not holding, the least, and the caller warns)."""
    cond = grant.condition
    if cond is None:
        return True
    source = perms[i]
    if cond.kind == "never":
        return False
    if cond.kind == "control":  # "As long as you control six or more lands"
        return all(
            sum(
                1
                for j, p in enumerate(perms)
                if p.controller == source.controller
                and flt.matches_types(types[j], subtypes[j], supertypes[j])
            )
            >= n
            for flt, n in cond.needs
        )
    if cond.kind == "modified":  # CR 700.9: counters, Equipment, or an Aura its controller controls
        attached = any(
            p.attached_to == source.id
            and ("Equipment" in subtypes[j] or ("Aura" in subtypes[j] and p.controller == source.controller))
            for j, p in enumerate(perms)
        )
        if attached or any(n > 0 for _k, n in source.counters):
            return True
        return False if source.knows("counters") else None
    return None


def activation_reasons(board: Board, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """Every reason the ability cannot be activated now; empty when it can.

    Checked: {T} on a tapped permanent (CR 107.5), {Q} on an untapped one (CR 107.6), the summoning-sickness
    rule for {T}/{Q} abilities of creatures without haste (CR 302.6, 702.10c), life the player does not
    have (CR 119.4) and a sacrifice with nothing to sacrifice (CR 118.3). Mana in the cost is the payment
    solver's question, and timing restrictions are not checked.
    """
    reasons: list[Reason] = []
    p = state.permanent
    if ability.has_tap and p.tapped:
        reasons.append(
            Reason("107.5", f"{state.face.name} is already tapped and can't be tapped to pay {{T}}")
        )
    if ability.has_untap and not p.tapped:
        reasons.append(
            Reason("107.6", f"{state.face.name} is already untapped and can't be untapped to pay {{Q}}")
        )
    if (
        (ability.has_tap or ability.has_untap)
        and state.is_creature
        and not p.controlled_since_turn_began
        and not state.haste
    ):
        reasons.append(
            Reason(
                "302.6",
                f"{state.face.name} is a creature that has not been under its controller's control "
                "continuously since their most recent turn began, and it has no haste",
            )
        )
    life = ability.life_cost
    if life > 0:
        have = next((pl.life for pl in board.players if pl.name == p.controller), 20)
        if have < life:
            reasons.append(
                Reason(
                    "119.4",
                    f"paying {life} life needs a life total of at least {life}; {p.controller} has {have}",
                )
            )
    return tuple(reasons)


def picks(board_state: BoardState, state: PermanentState, pick: Pick) -> list[PermanentState]:
    """The permanents ``state``'s controller controls that ``pick`` names (CR 701.21a: one sacrifices,
    taps or returns only what one controls)."""
    out = []
    for s in board_state.states:
        if s.controller != state.controller:
            continue
        for flt, colors in pick.alternatives:
            if s.matches(flt, state.permanent) and all(c in s.face.color_set for c in colors):
                out.append(s)
                break
    return out


def candidates(
    board_state: BoardState, state: PermanentState, ability: Ability, need: Need
) -> list[PermanentState]:
    """What can pay one ``need`` of ``ability``: for "Tap N untapped ...", the untapped ones other than a
    source that {T} taps itself (a permanent is tapped once, CR 118.3); for a sacrifice or a return, any."""
    if need.pick is None:
        return []
    found = picks(board_state, state, need.pick)
    if need.kind == "tap":
        found = [s for s in found if not s.permanent.tapped and not (ability.has_tap and s.id == state.id)]
    return found


def sacrifice_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 118.3, 602.2b: each non-mana part of the activation cost needs the resources it consumes:
    counters on the permanent, permanents to tap, sacrifice or return, cards in hand or graveyard; an
    ability whose cost moves the card out of a zone works only in that zone (CR 113.6m). Counts the board
    does not state are 0 (``read_board`` warns)."""
    reasons = []
    player = board_state.board.player(state.controller)
    name = state.face.name
    for need in ability.needs:
        if need.kind == "remove_counters" and need.amount:
            have = state.permanent.counter(need.counter or "") if state.permanent.knows("counters") else 0
            if have < need.amount:
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount} {need.counter} counter"
                        f"{'s' if need.amount > 1 else ''} on {name}; it has {have}",
                    )
                )
        elif need.kind in {"tap", "sacrifice", "return", "exile"}:
            if need.pick is None:
                continue
            have = len(candidates(board_state, state, ability, need))
            if have < need.amount:
                what = {
                    "tap": "untapped permanents to tap",
                    "sacrifice": "permanents to sacrifice",
                    "exile": "permanents to exile",
                }.get(need.kind, "permanents to return")
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount}; {state.controller} has {have} such {what}",
                    )
                )
        elif need.kind in {"discard", "exile_cards"} and need.zone is not None:
            if need.zone == "hand":
                have = player.cards_in_hand if player.knows("hand") else 0
            else:
                have = len(player.graveyard) if player.knows("graveyard") else 0
            if have < need.amount:
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount} card{'s' if need.amount > 1 else ''} in the "
                        f"{need.zone} of player '{state.controller}'; there are {have}",
                    )
                )
        elif need.kind == "exile_self":
            reasons.append(
                Reason(
                    "113.6m",
                    f"'{need.text}' moves the card out of the {need.zone}: the ability works only while "
                    f"{name} is in its owner's {need.zone}, not on the battlefield",
                )
            )
    return tuple(reasons)


def commander_identity(board: Board, player: str) -> frozenset[str] | None:
    """CR 903.4: the union of the color identities of ``player``'s commanders; None when the board names
    no commander for that player (then "your commander's color identity" is undefined, 903.4f)."""
    commanders = next((getattr(p, "commander", ()) for p in board.players if p.name == player), ())
    if not commanders:
        return None
    return frozenset(c for card in commanders for c in card_identity(card))


def card_identity(card: Card) -> tuple[str, ...]:
    """CR 903.4: the colors of the mana symbols in its costs and rules text, and its color indicator."""
    found: set[str] = set()
    for face in card.faces:
        found.update(face.color_set)
        for sym in re.findall(r"\{([^}]+)\}", face.oracle_text):
            found.update(c for c in sym.split("/") if c in COLORS)
    return tuple(c for c in COLORS if c in found)


def holds(board_state: BoardState, state: PermanentState, condition: Condition) -> bool | None:
    """Whether a condition read by ``oracle_mana.parse_condition`` holds for ``state`` on this board; None
    when it is not one this module can check (the caller warns and takes it as not met)."""
    if condition.kind == "timing":
        return True  # CR 307.1, 602.5d: a timing restriction is no board fact; the board is "now"
    if condition.kind == "your_turn":
        return board_state.board.active_player == state.controller
    if condition.kind == "not_your_turn":
        return board_state.board.active_player != state.controller
    if condition.kind in {"counters", "cards"}:
        return _count_holds(board_state, state, condition)
    if condition.kind == "player_counters":  # CR 122.1: counters on an opponent, 0 when not stated
        foes = [p for p in board_state.board.players if p.name != state.controller]
        return any(p.counter(condition.counter) >= condition.at_least for p in foes)
    if condition.kind == "control":
        return all(board_state.count(state, flt) >= n for flt, n in condition.needs)
    if condition.kind == "total_power":  # CR 208.1: formidable
        for flt, n in condition.needs:
            powers = [s.power for s in board_state.states if s.matches(flt, state.permanent)]
            if any(p is None for p in powers):
                return None
            if sum(p for p in powers if p is not None) < n:
                return False
        return True
    if condition.kind == "counter":  # CR 122.1: counters the request stated (none when not stated, said)
        return all(board_state.count(state, flt) >= n for flt, n in condition.needs)
    return None


def _count_holds(board_state: BoardState, state: PermanentState, condition: Condition) -> bool:
    """A count between ``at_least`` and ``at_most``: counters on the permanent itself (CR 122.1) or cards
    in its controller's hand or graveyard (CR 402.1, 404.1), as the request states them; a count it does
    not state is 0 (API 1.1: the least), which ``unstated_count`` says in a warning."""
    if condition.kind == "counters":
        known = state.permanent.knows("counters")
        n = state.permanent.counter(condition.counter) if known else 0
    else:
        player = board_state.board.player(state.controller)
        if not player.knows(condition.zone):
            n = 0
        else:
            n = player.cards_in_hand if condition.zone == "hand" else len(player.graveyard)
    return condition.at_least <= n and (condition.at_most is None or n <= condition.at_most)


def unstated_count(board: Board, permanent: Permanent, controller: str, condition: Condition) -> str | None:
    """The warning for a count condition whose fact the request does not state (API 1.1: taken as 0, and
    said), naming the fact and whether the condition then holds; None when the fact is stated or the
    condition counts nothing. Threshold and hellbent (CR 402.1, 404.1: cards in the controller's hand or
    graveyard), counters on the permanent itself (CR 122.1)."""
    if condition.kind in {"counters", "counter"}:
        if permanent.knows("counters"):
            return None
        fact = "its counters are"
    elif condition.kind == "cards":
        if board.player(controller).knows(condition.zone):
            return None
        fact = f"the {condition.zone} of player '{controller}' is"
    elif condition.kind == "player_counters":
        foes = [p.name for p in board.players if p.name != controller]
        unknown = [name for name in foes if not board.player(name).knows("counters")]
        if foes and not unknown:
            return None
        whose = ", ".join(f"player '{name}'" for name in unknown) or "an opponent"
        fact = f"the {condition.counter} counters of {whose} are"
    else:
        return None
    # at 0: a "counter" condition needs one (CR 122.1); a count needs ``at_least`` <= 0 (for an opponent's
    # counters, or another opponent stated with enough)
    met = condition.kind != "counter" and condition.at_least <= 0
    if condition.kind == "player_counters":
        met = met or any(
            p.counter(condition.counter) >= condition.at_least
            for p in board.players
            if p.name != controller and p.knows("counters")
        )
    verdict = "met" if met else "not met"
    return f"{fact} not stated: taken as 0, so 'Activate only {condition.text}' is {verdict} (CR 602.5b)"


def devotion(board_state: BoardState, player: str, colors: tuple[str, ...]) -> int:
    """CR 700.5: the mana symbols among the mana costs of permanents ``player`` controls that are of any of
    ``colors`` (a hybrid symbol of two of them counts once, 700.5a)."""
    total = 0
    for s in board_state.states:
        cost = s.face.mana_cost
        if s.controller != player or cost is None:
            continue
        total += cost.devotion_to(colors)
    return total


def amount_of(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int | None:
    """The number an ``Amount`` stands for on this board (``color``: the color of the mana chosen, for
    "your devotion to that color"); None when the board does not give the fact (counters not stated)."""
    base = _base_amount(board_state, state, amount, color)
    return None if base is None else base + amount.offset


def _base_amount(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int | None:
    """The number an ``Amount`` stands for before its offset: the first kind it states decides, in the
    order of ``_AMOUNT_KINDS`` (each kind names its rule); None when no kind applies or the board does not
    give the fact."""
    for applies, value in _AMOUNT_KINDS:
        if applies(amount):
            return value(board_state, state, amount, color)
    return None


def _greatest_power(
    board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None
) -> int | None:
    """CR 208.1: "the greatest power among <filter>" (0 when none); None when a power is not known."""
    assert amount.filter is not None
    powers = [s.power for s in board_state.states if s.matches(amount.filter, state.permanent)]
    if any(p is None for p in powers):
        return None
    return max((p for p in powers if p is not None), default=0)


def _devotion_amount(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int:
    """CR 700.5: devotion to the colors named, or (``("*",)``, Nykthos) to the color of the mana chosen."""
    colors = amount.devotion if amount.devotion != ("*",) else ((color,) if color else ())
    return devotion(board_state, state.controller, colors)


def _domain(board_state: BoardState, state: PermanentState, _amount: Amount, _color: str | None) -> int:
    """CR 305.6: the basic land types among lands the controller controls."""
    found = {
        t
        for s in board_state.states
        if s.controller == state.controller and s.is_land
        for t in s.subtypes
        if t in BASIC_LAND_TYPES
    }
    return len(found)


def _opponents_life_lost(
    board_state: BoardState, state: PermanentState, _amount: Amount, _color: str | None
) -> int | None:
    """CR 500.1: the life the controller's opponents lost this turn, when the request stated those facts."""
    foes = [p for p in board_state.board.players if p.name != state.controller]
    if not all(p.this_turn.knows("life_lost") for p in foes):
        return None
    return sum(p.this_turn.life_lost for p in foes)


def _own_counters(
    board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None
) -> int | None:
    """CR 122.1: counters of a kind on the permanent itself, when the request stated its counters."""
    if amount.counter is None or not state.permanent.knows("counters"):
        return None
    return state.permanent.counter(amount.counter)


def _filter_count(board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None) -> int:
    """CR 109.2: "for each <filter>" / "equal to the number of <filter>": the permanents counted."""
    assert amount.filter is not None
    return board_state.count(state, amount.filter)


_AmountValue = Callable[[BoardState, PermanentState, Amount, "str | None"], "int | None"]
_AMOUNT_KINDS: Final[tuple[tuple[Callable[[Amount], bool], _AmountValue], ...]] = (
    (lambda a: a.fixed is not None, lambda _b, _s, a, _c: a.fixed),  # a plain number
    (lambda a: a.power == "self", lambda _b, s, _a, _c: s.power),  # CR 208.1: "~'s power"
    (lambda a: a.power == "greatest" and a.filter is not None, _greatest_power),
    (lambda a: a.filter is not None, _filter_count),
    (lambda a: bool(a.devotion), _devotion_amount),
    (lambda a: a.domain, _domain),
    (lambda a: a.life, lambda b, s, _a, _c: max(0, b.board.player(s.controller).life)),  # CR 119.1
    (lambda a: a.party, lambda b, s, _a, _c: party_size(b.board, s.controller)),  # CR 700.8
    (lambda a: a.opponents_life_lost, _opponents_life_lost),
    (lambda a: a.counter is not None, _own_counters),
)
"""The kinds of ``Amount``, in the order ``_base_amount`` tries them: (does it state this kind, its value)."""


def condition_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 602.5b: "Activate only if ..." restrictions, checked on the board."""
    reasons = []
    for condition in ability.conditions:
        held = holds(board_state, state, condition)
        if held is None:
            reasons.append(
                Reason("602.5b", f"'Activate only {condition.text}' is not understood here: taken as not met")
            )
        elif not held:
            unstated = unstated_count(board_state.board, state.permanent, state.controller, condition)
            assumed = " (not stated: taken as 0)" if unstated is not None else ""
            why = f"activate only {condition.text}: not met on this board{assumed}"
            reasons.append(Reason("602.5b", why))
    return tuple(reasons)


def prohibition_reasons(
    board_state: BoardState, state: PermanentState, ability: Ability
) -> tuple[Reason, ...]:
    """CR 602.5: the permanents on the board whose prohibitions reach this ability, each named."""
    reasons = []
    names = tuple(dict.fromkeys((state.face.name, state.permanent.card.name)))
    for i, x in board_state.prohibitions:
        forbidder = board_state.board.permanents[i]
        if forbids(
            x,
            forbidder.chosen.card_name,
            forbidder.controller,
            types=state.types,
            names=names,
            controller=state.controller,
            is_mana_ability=ability.is_mana_ability,
        ):
            reasons.append(Reason("602.5", f"{forbidder.name} ({forbidder.id}): {x.text}"))
    return tuple(reasons)


_STATION = re.compile(r"^STATION (\d{1,3})\+\s*$")
_MAX_SPEED = "Max speed — "


def existence_gate(face: Face, ability: Ability) -> tuple[str, int] | None:
    """Whether a printed ability exists only past a threshold: ("station", N) for an ability printed after
    a station symbol "STATION N+" (CR 721.2a: as long as it has N or more charge counters), ("speed", 4)
    for "Max speed — [ability]" (CR 702.178a: as long as its controller's speed is 4); None otherwise."""
    if ability.origin != ORIGIN_PRINTED or (
        "STATION" not in face.oracle_text and _MAX_SPEED not in face.oracle_text
    ):
        return None
    station: int | None = None
    for line in face.oracle_text.splitlines():
        line = line.strip()
        if m := _STATION.match(line):
            station = int(m.group(1))
            continue
        if ability.text and ability.text.replace(face.name, "~") in line.replace(face.name, "~"):
            if line.startswith(_MAX_SPEED):
                return ("speed", 4)
            return ("station", station) if station is not None else None
    return None


def existence_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 721.2a, 702.178a: an ability that exists only past a threshold the board does not reach is not
    there to activate (counters or speed not stated: 0, and ``read_board`` does not know it; the reason
    says so)."""
    gate = existence_gate(state.face, ability)
    if gate is None:
        return ()
    kind, n = gate
    if kind == "station":
        known = state.permanent.knows("counters")
        have = state.permanent.counter("charge") if known else 0
        if have >= n:
            return ()
        stated = "" if known else " (counters not stated: taken as 0)"
        return (Reason("721.2a", f"STATION {n}+: {state.face.name} has {have} charge counters{stated}"),)
    player = board_state.board.player(state.controller)
    speed = player.speed if player.knows("speed") else 0
    if speed >= n:
        return ()
    stated = "" if player.knows("speed") else " (speed not stated: taken as none)"
    return (Reason("702.178a", f"Max speed: player '{state.controller}' has speed {speed}{stated}"),)


def check_activation(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """All the reasons of ``activation_reasons``, ``sacrifice_reasons``, ``condition_reasons`` and
    ``prohibition_reasons``."""
    return (
        activation_reasons(board_state.board, state, ability)
        + sacrifice_reasons(board_state, state, ability)
        + condition_reasons(board_state, state, ability)
        + prohibition_reasons(board_state, state, ability)
        + existence_reasons(board_state, state, ability)
    )
