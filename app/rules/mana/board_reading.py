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
from app.rules.mana.ability_loss import AbilityLoss
from app.rules.mana.ability_values import (
    ORIGIN_GRANTED,
    ORIGIN_LAND_TYPE,
    ORIGIN_PRINTED,
    Ability,
    BoardState,
    PermanentState,
    Warning,
)
from app.rules.mana.activation_checks import as_a_sorcery, existence_gate, once_each_turn
from app.rules.mana.face_reading import FaceReading, kept_face_reading, read_face_anew
from app.rules.mana.permanent_facts import permanent_facts
from app.rules.mana.prohibitions import Prohibition
from app.rules.text.activation import read_need
from app.rules.text.mana_activated import ActivatedText, parse_activated
from app.rules.text.mana_filters import LAND_TYPES, Filter
from app.rules.text.mana_static import Grant, TypeChange
from app.rules.text.oracle_mana import FaceMana, read_face, read_text, without_type_reminders
from app.rules.text.standing_text import standing_text
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
    (CR 613.1f) follow them and are read per board (``read_board``). A board asked about for
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

    __slots__ = (
        "face_readings",
        "faces",
        "loss_grants",
        "lost",
        "memo",
        "own",
        "perms",
        "readings",
        "stripped",
        "subtypes",
        "supertypes",
        "types",
    )

    def __init__(self, board: Board, memo: bool) -> None:
        self.perms: tuple[Permanent, ...] = board.permanents
        self.faces: list[Face] = [p.characteristics for p in self.perms]
        self.face_readings: list[FaceReading] = []
        """What each face's texts alone say (``face_reading``): kept per text unless ``memo`` is False."""
        self.memo = memo
        self.own: dict[tuple[int, int, int, bool], tuple[Ability, ...]] = {}
        """``own_abilities`` per (face, types, subtypes, kept) on this board, by identity (``own_of``)."""
        read = kept_face_reading if memo else read_face_anew
        # Identical permanents (twenty Forests) are read once per board: the same face object at the same
        # Class level stands with the same text. Not with ``memo`` False, which reads each anew.
        seen: dict[tuple[int, int], FaceReading] = {}
        for perm, face in zip(self.perms, self.faces, strict=True):
            deadline.check()  # one face read (its text's reading is kept only once whole)
            key = (id(face), perm.class_level)
            got = seen.get(key)
            if got is None:
                text = without_type_reminders(_standing(perm, face))
                got = read(text, face.oracle_text, face.name)
                if memo:
                    seen[key] = got
            self.face_readings.append(got)
        self.readings: list[FaceMana] = [r.reading for r in self.face_readings]
        self.types: list[tuple[str, ...]] = [f.type_line.types for f in self.faces]
        self.subtypes: list[tuple[str, ...]] = [f.type_line.subtypes for f in self.faces]
        self.supertypes: list[tuple[str, ...]] = [f.type_line.supertypes for f in self.faces]
        self.lost: set[int] = set()
        self.stripped: dict[int, tuple[int, bool]] = {}
        """CR 613.1f: permanent -> (board index of the latest effect taking its abilities, whether it
        keeps its mana abilities)."""
        self.loss_grants: dict[int, list[tuple[ActivatedText, int]]] = {}
        """The quoted abilities a loss effect gives instead (Minimus Containment), with its source."""

    def state(
        self,
        j: int,
        abilities: tuple[Ability, ...],
        haste: bool,
        lost: tuple[tuple[Ability, str], ...] = (),
    ) -> PermanentState:
        full = j in self.stripped and not self.stripped[j][1]
        return PermanentState(
            self.perms[j],
            self.faces[j],
            self.types[j],
            self.subtypes[j],
            self.supertypes[j],
            abilities,
            haste,
            j in self.lost,
            lost,
            full,
        )

    def own_of(self, j: int) -> tuple[Ability, ...]:
        """Permanent ``j``'s own abilities (``own_abilities``) as layer 4 left its types; once per board
        for identical permanents, by the identity of the face and of the type tuples it stands with (a
        type change makes new tuples: then a miss, never a wrong hit). Every permanent asks the memo
        anew when ``memo`` is False."""
        face, types, subtypes = self.faces[j], self.types[j], self.subtypes[j]
        kept = j not in self.lost
        key = (id(face), id(types), id(subtypes), kept)
        got = self.own.get(key)
        if got is None:
            land_types = tuple(t for t in BASIC_LAND_TYPES if t in subtypes) if "Land" in types else ()
            got = own_abilities(face.oracle_text, face.name, land_types, kept)
            if self.memo:
                self.own[key] = got
        return got

    def keeps_statics(self, i: int) -> bool:
        """Whether permanent ``i``'s static abilities apply: not when it lost its own to a land type
        (CR 305.7) or all its abilities (CR 613.1f; "except mana abilities" keeps no static one)."""
        return i not in self.lost and i not in self.stripped


def _apply_losses(layers: _Layers, warnings: list[Warning]) -> None:
    """CR 613.1d then 613.1f: effects taking abilities away, in board (timestamp) order. The permanents
    an effect reaches are fixed where it first applies (CR 613.6): in layer 4 for one that also sets
    types ("is a blue Frog creature"), in layer 6 otherwise, after every type change."""
    losses = [(i, x) for i, f in enumerate(layers.face_readings) if i not in layers.lost for x in f.losses]
    if not losses:
        return
    perms = layers.perms
    where = {p.id: n for n, p in enumerate(perms)}
    reached: list[list[int]] = [[] for _ in losses]
    for k, (i, x) in enumerate(losses):  # layer 4: the type-setting ones, in order
        if x.types is None and x.subtypes is None and not x.add_types:
            continue
        reached[k] = _reached(layers, i, x, {}, where)  # each type change may change what the next names
        for j in reached[k]:
            if x.types is not None:
                layers.types[j] = x.types
                layers.subtypes[j] = x.subtypes or ()
            elif x.subtypes is not None:  # "is a blue Fish": its creature types (CR 205.1b)
                layers.subtypes[j] = tuple(t for t in layers.subtypes[j] if t in LAND_TYPES) + x.subtypes
            layers.types[j] = layers.types[j] + tuple(t for t in x.add_types if t not in layers.types[j])
    warnings.extend(_token_warnings(layers, [(i, x.filter) for i, x in losses]))
    memo: dict[tuple[object, ...], list[int]] = {}
    for k, (i, x) in enumerate(losses):  # layer 6
        if x.types is None and x.subtypes is None and not x.add_types:
            reached[k] = _reached(layers, i, x, memo, where)
        if x.filter.enchanted and perms[i].attached_to is None:
            warnings.append(
                Warning(
                    perms[i].id,
                    x.text,
                    "attached to nothing on this board (`attached_to`): it changes nothing",
                )
            )
        granted = [a for a in (parse_activated(t, "~") for t in x.grants) if a is not None]
        for j in reached[k]:
            before = layers.stripped.get(j)
            keeps_mana = x.except_mana and (before is None or before[1])
            layers.stripped[j] = (i, keeps_mana)
            if granted:
                layers.loss_grants.setdefault(j, []).extend((a, i) for a in granted)


def _reached(
    layers: _Layers, i: int, x: AbilityLoss, memo: dict[tuple[object, ...], list[int]], where: dict[str, int]
) -> list[int]:
    """The permanents loss ``x`` of permanent ``i`` reaches; "As long as enchanted creature is red" while
    it is that color (CR 611.3a, 105.2). Effects that name the same permanents (copies of Humility) are
    worked out once (``memo``, valid while the types stay as they are)."""
    deadline.check()  # one loss effect over the board; nothing is kept until ``read_board`` returns
    source = layers.perms[i]
    flt = x.filter
    key: tuple[object, ...] = (
        flt,
        x.color,
        source.controller if flt.controller != "any" else None,
        source.attached_to if flt.enchanted else None,
        source.id if flt.other or flt.itself else None,
        source.name if flt.named is not None else None,
    )
    found = memo.get(key)
    if found is not None:
        return found
    out = []
    # "enchanted", "equipped": only the permanent it is attached to can be named (CR 303.4, 301.5)
    attached = where.get(source.attached_to or "", -1)
    candidates: list[int] = (
        ([attached] if attached >= 0 else []) if flt.enchanted else list(range(len(layers.perms)))
    )
    for j in candidates:
        if not layers.state(j, (), False).matches(flt, source):
            continue
        if x.color is not None and x.color not in layers.faces[j].color_set:
            continue
        out.append(j)
    memo[key] = out
    return out


def _standing(perm: Permanent, face: Face) -> Face:
    """CR 716.2a: a Class has the abilities of its levels up to its level only (Sorcerer Class's level 2
    grant to creatures is not there at level 1); any other face as it is."""
    if "Class" not in face.type_line.subtypes:
        return face
    text = standing_text(face.oracle_text, perm.class_level, True)
    return face if text == face.oracle_text else replace(face, oracle_text=text)


_NamedGrants = dict[int, list[tuple[ActivatedText, str]]]
_FromGraveyard = list[tuple[Permanent, Grant, list[ActivatedText]]]
_Granted = dict[tuple[int, int], list[tuple[ActivatedText | None, str]]]


def _named_land_changes(layers: _Layers, warnings: list[Warning]) -> _NamedGrants:
    """Alpine Moon (CR 613.1d, 613.1f): named lands of its controller's opponents lose their land types
    and abilities and gain the quoted ability; with no name chosen it does nothing (said)."""
    perms, faces = layers.perms, layers.faces
    named_grants: _NamedGrants = {}
    for i, f in enumerate(layers.face_readings):
        for change in f.named_land_changes:
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
    for i, f in enumerate(layers.face_readings):
        if not f.warnings or i in layers.lost or (i in layers.stripped and not layers.stripped[i][1]):
            continue
        pid = layers.perms[i].id
        out.extend(Warning(pid, line, why) for line, why in f.warnings)  # the face's, said of this permanent
    return out


def _token_warnings(layers: _Layers, filters: list[tuple[int, Filter]]) -> list[Warning]:
    """CR 111.1: an effect on "tokens" or "nontoken" permanents reaching one whose `token` the request
    does not state: it is taken as a card, and said (once per permanent; effects naming the same
    permanents are looked at once)."""
    out: list[Warning] = []
    perms = layers.perms
    seen: set[tuple[object, ...]] = set()
    warned: set[int] = set()
    for i, flt in filters:
        if flt.token is None:
            continue
        source = perms[i]
        key: tuple[object, ...] = (
            flt,
            source.controller,
            source.attached_to if flt.enchanted else None,
            source.id if flt.other or flt.itself else None,
        )
        if key in seen:
            continue
        seen.add(key)
        line = next((ln.strip() for ln in layers.faces[i].oracle_text.splitlines() if "token" in ln), "")
        loose = replace(flt, token=None)
        for j, p in enumerate(perms):
            if j in warned or p.knows("token") or not layers.state(j, (), False).matches(loose, source):
                continue
            warned.add(j)
            out.append(
                Warning(
                    source.id,
                    line,
                    f"whether {p.id!r} is a token is not stated (`token`): taken as a card (CR 111.1)",
                )
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


def _board_index(perms: tuple[Permanent, ...], pid: str) -> int:
    """Where permanent ``pid`` stands on the board (its timestamp order, CR 613.7); -1 when absent."""
    return next((n for n, p in enumerate(perms) if p.id == pid), -1)


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
    those granted (CR 613.1f, 113.6b), and whether it has haste (CR 702.10). An effect that took its
    abilities (``layers.stripped``) removes its own and those granted before it in timestamp order
    (CR 613.7); those granted after it, or by the same effect, stay (``PermanentState.lost`` keeps the
    others, with the permanent responsible)."""
    perms, face = layers.perms, layers.faces[j]
    kept = j not in layers.lost
    own = layers.own_of(j)
    # (ability, origin, rule, granted by, the granting effect's board index: its timestamp)
    items: list[tuple[ActivatedText, str, str, str | None, int]] = [
        (a, ORIGIN_GRANTED, "613.1f", by, _board_index(perms, by)) for a, by in named_grants.get(j, ())
    ]
    strip = layers.stripped.get(j)
    haste = kept and face.has_keyword("Haste") and strip is None
    if from_graveyard or grants:  # what their filters are matched against (most boards have neither)
        probe = layers.state(j, (), False)
        for source, g, readable in from_graveyard:
            if probe.matches(g.filter, source):
                items.extend((a, ORIGIN_GRANTED, "113.6b", source.id, -1) for a in readable)
        for k, (i, g) in enumerate(grants):
            if not active[k] or not probe.matches(g.filter, perms[i]):
                continue
            if g.keyword == "Haste" and (strip is None or i > strip[0]):
                haste = True
            items.extend(
                (ab, ORIGIN_GRANTED, "613.1f", perms[i].id, i)
                for ab, _text in granted[(i, k)]
                if ab is not None
            )
    items.extend((a, ORIGIN_GRANTED, "613.1f", perms[i].id, i) for a, i in layers.loss_grants.get(j, ()))
    if not items and strip is None:
        return layers.state(j, own, haste)
    start = len(own)
    extra = tuple(
        _ability(start + n, a, origin, rule, by, face.name)
        for n, (a, origin, rule, by, _ts) in enumerate(items)
    )
    if strip is None:
        return layers.state(j, own + extra, haste)
    by_loss, keeps_mana = strip
    stamps = [-1] * len(own) + [item[4] for item in items]
    keep: list[Ability] = []
    gone: list[tuple[Ability, str]] = []
    for ab, ts in zip(own + extra, stamps, strict=True):
        if ts >= by_loss or (keeps_mana and ab.is_mana_ability):
            keep.append(ab)
        else:
            gone.append((ab, perms[by_loss].id))
    renumbered = tuple(replace(ab, index=n) if ab.index != n else ab for n, ab in enumerate(keep))
    return layers.state(j, renumbered, haste, tuple(gone))


def _prohibitions(layers: _Layers, warnings: list[Warning]) -> tuple[tuple[int, Prohibition], ...]:
    """CR 602.5: what each permanent that keeps its abilities forbids; a name to forbid not chosen is
    said."""
    perms = layers.perms
    prohibitions = tuple(
        (i, x) for i, f in enumerate(layers.face_readings) if layers.keeps_statics(i) for x in f.prohibitions
    )
    for i, x in prohibitions:
        if x.attached and perms[i].attached_to is None:
            warnings.append(
                Warning(
                    perms[i].id,
                    x.text,
                    "attached to nothing on this board (`attached_to`): it forbids nothing",
                )
            )
        if x.escape is not None and perms[i].attached_to is not None:
            warnings.append(
                Warning(
                    perms[i].id,
                    x.escape,
                    "a special action that ignores this effect until end of turn (CR 116.2d): taken as not "
                    "taken, so the prohibition applies",
                )
            )
        if x.by_name and perms[i].chosen.card_name is None:
            warnings.append(
                Warning(
                    perms[i].id, x.text, "no card name chosen (`chosen.card_name`): it forbids nothing here"
                )
            )
    return prohibitions


def read_board(board: Board, *, memo: bool = True) -> BoardState:
    """Read every permanent's mana-relevant text and apply layers 4 and 6 (see the module doc).

    ``memo``: take what each face's texts alone say from ``face_reading``'s memo; False reads it anew for
    every permanent (the property tests compare the two)."""
    layers = _Layers(board, memo)
    readings, lost = layers.readings, layers.lost
    changes = [(i, c) for i, r in enumerate(readings) for c in r.type_changes]
    if changes:
        _type_change_order(changes, layers.perms, layers.types, layers.subtypes, layers.supertypes, lost)
    warnings: list[Warning] = []
    named_grants = _named_land_changes(layers, warnings)
    _apply_losses(layers, warnings)
    keeps = layers.keeps_statics
    grants = [(i, g) for i, r in enumerate(readings) if r.grants and keeps(i) for g in r.grants]
    from_graveyard = _graveyard_grants(board)
    replacements = tuple(
        (i, x) for i, r in enumerate(readings) if r.replacements and keeps(i) for x in r.replacements
    )
    triggers = tuple((i, t) for i, r in enumerate(readings) if r.triggers and keeps(i) for t in r.triggers)
    warnings.extend(
        Warning(
            layers.perms[i].id,
            _chosen_line(layers.faces[i].oracle_text),
            "no color chosen (`chosen.color`): its additional mana of the chosen color is never added here",
        )
        for i, t in triggers
        if (t.needs == "chosen" or any(o.chosen for o in t.options)) and layers.perms[i].chosen.color is None
    )
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
    warnings.extend(_token_warnings(layers, [(i, g.filter) for i, g in grants]))
    states = [
        _permanent_state(layers, j, named_grants, from_graveyard, grants, active, granted)
        for j in range(len(layers.perms))
    ]
    warnings.extend(_need_warnings(board, states, memo))
    prohibitions = _prohibitions(layers, warnings)
    return BoardState(board, tuple(states), replacements, triggers, tuple(warnings), prohibitions)


def _need_warnings(board: Board, states: list[PermanentState], memo: bool = True) -> list[Warning]:
    """ "Nothing silent" for activation costs: a count the board does not state is taken as 0 (API 1.1)
    and said; a cost part not read makes its mana ability unused by payments, and is said too. With
    ``memo``, a permanent whose kept facts say nothing can be said of it is passed over
    (``permanent_facts``' ``quiet``)."""
    out: list[Warning] = []
    for st in states:
        if memo and permanent_facts(st.face, st.abilities).quiet:
            continue
        for ab in st.abilities:
            out.extend(
                Warning(st.id, f"Activate only {c.text}.", why)
                for c in ab.conditions
                if (why := unstated_count(board, st.permanent, st.controller, c)) is not None
            )
            if not ab.is_mana_ability:
                continue
            out.extend(_limit_warnings(board, st, ab))
            out.extend(_choice_warnings(st, ab))
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


def _chosen_line(text: str) -> str:
    """The sentence of a trigger on "mana of the chosen color" (Caged Sun, Gauntlet of Power)."""
    return next(
        (ln.strip() for ln in text.splitlines() if "the chosen color" in ln and "additional" in ln), text
    )


def _choice_warnings(st: PermanentState, ab: Ability) -> list[Warning]:
    """A choice made as the permanent entered that the request does not make is said, never a silent
    "adds nothing" (CR 106.5): "the chosen color" without `chosen.color`, a restriction "of the chosen
    type" without `chosen.creature_type`."""
    out: list[Warning] = []
    effect = ab.mana
    chosen = st.permanent.chosen
    if effect is not None and chosen.color is None:
        effects = [effect] + ([effect.instead[1]] if effect.instead is not None else [])
        if any(o.chosen for e in effects for o in e.options):
            out.append(
                Warning(
                    st.id,
                    ab.text,
                    "no color chosen (`chosen.color`): 'the chosen color' is undefined, so that part adds no "
                    "mana here (CR 106.5)",
                )
            )
    restriction = ab.restriction
    if restriction is not None and "chosen type" in restriction and chosen.creature_type is None:
        out.append(
            Warning(
                st.id,
                restriction,
                "no creature type chosen (`chosen.creature_type`): no spell meets 'the chosen type', so its "
                "mana pays for nothing here",
            )
        )
    return out


def _limit_warnings(board: Board, st: PermanentState, ab: Ability) -> list[Warning]:
    """CR 602.5b, 602.5d: an activation limit whose fact the request does not state is assumed met, and
    said: no earlier activation this turn (`activated_this_turn`), a main phase (`step`)."""
    if not ab.conditions:  # most abilities: no limit to state
        return []
    out: list[Warning] = []
    limits = [f"Activate only {c.text}." for c in ab.conditions]
    if once_each_turn(ab) and not st.permanent.knows("activated_this_turn"):
        out.append(
            Warning(
                st.id,
                next(t for t in limits if "once" in t),
                f"`activated_this_turn` not stated: ability {ab.index} is taken as not yet activated this "
                "turn (CR 602.5b: only once each turn)",
            )
        )
    if as_a_sorcery(ab) and board.step is None and board.active_player == st.controller:
        out.append(
            Warning(
                st.id,
                next(t for t in limits if "as a sorcery" in t),
                "`step` not stated: taken as its controller's main phase with an empty stack, so it can be "
                "activated as a sorcery before the spell is cast (CR 307.1, 602.5d)",
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
