"""Reading a board for the activated abilities of its permanents (CR 602, 605, 305.6, 613): ``read_board``.

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

from dataclasses import replace
from typing import Final

from app.rules import deadline
from app.rules.bounded_cache import text_cache
from app.rules.mana.ability_conditions import unstated_count
from app.rules.mana.ability_values import (
    ORIGIN_GRANTED,
    ORIGIN_LAND_TYPE,
    ORIGIN_PRINTED,
    Ability,
    BoardState,
    PermanentState,
    Warning,
)
from app.rules.mana.activation_checks import existence_gate
from app.rules.mana.prohibitions import Prohibition, read_named_land_changes, read_prohibitions
from app.rules.text.activation import read_need
from app.rules.text.oracle_mana import (
    LAND_TYPES,
    ActivatedText,
    FaceMana,
    Grant,
    TypeChange,
    parse_activated,
    read_face,
    read_text,
)
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Face
from app.rules.values.names import fold_name
from app.rules.values.types import BASIC_LAND_TYPES

_INTRINSIC: Final = {t: parse_activated("{T}: Add {" + m + "}.") for t, m in BASIC_LAND_TYPES.items()}


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
        self.readings: list[FaceMana] = []
        for face in self.faces:
            deadline.check()  # one face read (its text's reading is kept only once whole)
            self.readings.append(read_face(face))
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
