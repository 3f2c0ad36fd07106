"""What mana permanents could produce (CR 106.7) and what each ability produces when tapped (CR 106.12).

"Could produce" is the least fixed point over the whole board, both sides: every permanent starts with
nothing, and abilities that read what other permanents could produce (Reflecting Pool, Exotic Orchard,
Fellwar Stone) are re-evaluated until nothing changes, so loops of such permanents produce nothing unless
something outside the loop feeds them (the Exotic Orchard example of CR 106.7). Each round computes one
union per (filter, player) and reads it for every reference, so a round is linear in the board.

Replacement effects (CR 106.12b: Contamination, Mana Reflection) apply to mana abilities with {T} of the
permanents they name, "in any possible order" (CR 106.7, 616.1): every ordering is tried and the results
united. Triggered mana abilities (CR 106.12a: Heartbeat of Spring, Wild Growth, Utopia Sprawl) are abilities
of their own source, so they do not change what the tapped permanent could produce, but they do add to what
tapping it produces.

``produces`` of an ability is a tuple of alternatives, each a ``Mana`` (counts per type, never a list of
symbols, so 28 Mana Reflections on a Forest are six integers, not 2^28 entries): ``(Mana.of("GG"),)`` is a
Forest under Mana Reflection; ``(Mana.of("W"), Mana.of("G"))`` a Savannah. Alternatives contained in
another are dropped (the player ordering the effects, CR 616.1, can always take the larger). ``None`` means
the ability's text was not understood.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.rules import deadline
from app.rules.mana.ability_conditions import amount_of
from app.rules.mana.ability_values import Ability, BoardState, PermanentState, Warning
from app.rules.mana.board_reading import read_board
from app.rules.mana.permanent_facts import PermanentFacts, permanent_facts
from app.rules.mana.production_base import base_alternatives, option_alternatives
from app.rules.mana.production_memo import AbilityFacts, facts_of, unread_facts
from app.rules.mana.production_replacements import (
    COLOR_MASK,
    Alternatives,
    Context,
    mask_of,
    mask_types,
    prune,
    replace_all,
)
from app.rules.text.mana_filters import Filter
from app.rules.text.mana_static import ManaTrigger
from app.rules.values.board import Board
from app.rules.values.mana import Mana
from app.rules.values.symbols import MANA_TYPES

__all__ = ["BoardAnalysis", "analyze_board"]


@dataclass(frozen=True, slots=True)
class BoardAnalysis:
    """The mana view of a board: states and abilities, could-produce per permanent, and per ability what
    it produces (``produces[(permanent_id, index)]``)."""

    state: BoardState
    could_produce: dict[str, tuple[str, ...]]
    produces: dict[tuple[str, int], Alternatives | None]
    warnings: tuple[Warning, ...]

    def amount(self, permanent_id: str, index: int) -> int | None:
        """How many mana one activation adds at most (exact; None when its text was not understood)."""
        alts = self.produces[(permanent_id, index)]
        if alts is None:
            return None
        return max((a.total for a in alts), default=0)


def _facts(ability: Ability, memo: bool) -> AbilityFacts:
    """The ability's facts that depend on it alone (``production_memo``; ``memo=False``: none kept or used,
    everything it adds computed from the board)."""
    assert ability.mana is not None
    return facts_of(ability, ability.mana) if memo else unread_facts(ability, ability.mana)


_Refs = list[tuple[int, Ability, tuple[Filter | None, ...]]]


class _References:
    """The board's reference filters ("a land you control could produce", CR 106.7), each numbered once,
    with the permanents its types name: the fixed point's rounds then look groups up by number. Filters
    are numbered by identity, never hashed per lookup (a frozen value of sixteen fields: hashing one at
    every lookup of every round costs a tenth of a small board's analysis); they are the kept abilities'
    own objects, alive while the board is analysed, and two equal filters numbered apart only make one
    more group of the same union."""

    __slots__ = ("ctx", "members", "number")

    def __init__(self, ctx: Context, refs: _Refs, grouped: bool) -> None:
        """``grouped`` False numbers nothing: every reference is then read permanent by permanent from
        ``PermanentState.matches``, the definition (``analyze_board(memo=False)``, which the property
        tests compare with the grouped reading)."""
        self.ctx = ctx
        self.number: dict[int, int] = {}
        named: list[Filter] = []
        for _i, _a, filters in refs if grouped else ():
            for f in filters:
                if f is not None and not (f.other or f.enchanted) and id(f) not in self.number:
                    self.number[id(f)] = len(named)
                    named.append(f)
        self.members = _members(ctx, named)

    def numbered(self, filters: tuple[Filter | None, ...]) -> tuple[tuple[Filter | None, int], ...]:
        """Each filter with its number (-1: none, or one read directly: "other", "enchanted")."""
        return tuple((f, -1 if f is None else self.number.get(id(f), -1)) for f in filters)

    def groups(self, cp: list[int]) -> list[dict[str, int]]:
        """One union per (filter, controller): what the permanents each reference reads could produce."""
        states = self.ctx.state.states
        out: list[dict[str, int]] = []
        for js in self.members:
            per: dict[str, int] = {}
            for j in js:
                if cp[j]:
                    c = states[j].controller
                    per[c] = per.get(c, 0) | cp[j]
            out.append(per)
        return out

    def union(self, i: int, flt: Filter, n: int, groups: list[dict[str, int]], cp: list[int]) -> int:
        """What reference ``flt`` (number ``n``) of permanent ``i`` reaches: the types the permanents it
        names could produce."""
        ctx = self.ctx
        state = ctx.state.states[i]
        if n < 0:  # rare ("other", "enchanted"), or not grouped: computed directly
            src = state.permanent
            return _or(cp[j] for j, s in enumerate(ctx.state.states) if s.matches(flt, src))
        per_player = groups[n]
        if flt.controller == "you":
            return per_player.get(state.controller, 0)
        if flt.controller == "opponent":
            return _or(m for player, m in per_player.items() if player != state.controller)
        return _or(per_player.values())

    def masks(
        self,
        i: int,
        numbered: tuple[tuple[Filter | None, int], ...],
        groups: list[dict[str, int]],
        cp: list[int],
    ) -> list[int]:
        """Per option of an ability of permanent ``i``, what its reference reaches (0: no reference)."""
        return [0 if f is None else self.union(i, f, n, groups, cp) for f, n in numbered]


def _or(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _members(ctx: Context, filters: list[Filter]) -> list[list[int]]:
    """For each reference filter, the permanents its types name (controller is applied per player)."""
    states = ctx.state.states
    by_types: dict[Filter, list[int]] = {}
    members: list[list[int]] = []
    for flt in filters:
        plain = Filter(flt.types, flt.subtypes, flt.supertypes, flt.not_supertypes, flt.not_types)
        found = by_types.get(plain)
        if found is None:
            found = by_types[plain] = [
                j
                for j, s in enumerate(states)
                if plain.matches_types(s.types, s.subtypes, s.supertypes, s.face.is_changeling)
            ]
        members.append(found)
    return members


def _could_produce(
    ctx: Context, memo: bool, kept: list[PermanentFacts] | None
) -> tuple[list[int], _References]:
    """CR 106.7 least fixed point: see the module doc. The masks without references first, then rounds
    adding what the references ("a land you control could produce") reach, until nothing changes."""
    static, refs = _static_masks(ctx, memo, kept)
    cp = list(static)
    references = _References(ctx, refs, grouped=memo)
    if not refs:
        return cp, references
    numbered = [(i, ability, references.numbered(filters)) for i, ability, filters in refs]
    while True:
        deadline.check()  # one round of the fixed point (CR 106.7)
        groups = references.groups(cp)
        new = list(static)
        for i, ability, nums in numbered:
            deadline.check()  # one referring ability of the round
            new[i] |= _referenced_mask(ctx, i, ability, references.masks(i, nums, groups, cp))
        if new == cp:
            return cp, references
        cp = new


def _static_masks(ctx: Context, memo: bool, kept: list[PermanentFacts] | None) -> tuple[list[int], _Refs]:
    """CR 106.7: each permanent's types from its abilities read alone (replacements applied, CR 106.12,
    and its own triggered mana abilities, 106.12a), and the abilities whose mana refers to other
    permanents' ("one mana of any type a land you control could produce")."""
    states = ctx.state.states
    static = [0] * len(states)
    refs: _Refs = []
    for i, s in enumerate(states):
        deadline.check()  # one permanent's base alternatives; nothing is kept until the fixed point returns
        if kept is not None and kept[i].plain and not ctx.repls[i]:
            static[i] |= kept[i].mask  # reads nothing on the board, nothing replaces it (``permanent_facts``)
        else:
            _ability_masks(ctx, i, s, memo, static, refs)
        # the permanent's own triggered mana abilities (an aura's "adds an additional {G}")
        for src, trig in ctx.state.triggers:
            if src == i and not trig.same_type:
                for option in trig.options:
                    for alt in option_alternatives(ctx, i, option, s, 0):
                        static[i] |= mask_of(alt)
    return static, refs


def _ability_masks(
    ctx: Context, i: int, s: PermanentState, memo: bool, static: list[int], refs: _Refs
) -> None:
    """``_static_masks`` of one permanent's abilities, each on its own: its mask in ``static``, its
    referring abilities added to ``refs``."""
    for ability in s.abilities:
        if ability.mana is None or ability.problem is not None:
            continue
        facts = _facts(ability, memo)
        filters = facts.references
        if any(f is not None for f in filters):
            refs.append((i, ability, filters))
        if facts.plain is not None and not (ability.has_tap and ctx.repls[i]):
            static[i] |= facts.mask  # reads nothing on the board and nothing replaces it (CR 106.12)
            continue
        for alt in base_alternatives(ctx, i, ability, [0] * len(filters)):
            deadline.check()  # one alternative, through every order of the replacements
            for out in replace_all(alt, ctx.repls[i]) if ability.has_tap else {alt}:
                static[i] |= mask_of(out)


def _referenced_mask(ctx: Context, i: int, ability: Ability, masks: list[int]) -> int:
    """CR 106.7: the types a referring ability adds given what its references reach (``masks``, one per
    option; "any color" keeps the colors only), through the permanent's replacements when tapped
    (CR 106.12)."""
    smap = ctx.single_map(i) if ability.has_tap else None
    out = 0
    for option, m in zip(ability.mana.options if ability.mana else (), masks, strict=True):
        if option.reference is None:
            continue
        if option.reference.what == "color":
            m &= COLOR_MASK
        if smap is None:
            out |= m
        else:
            for k in range(len(MANA_TYPES)):
                if m >> k & 1:
                    out |= smap[k]
    return out


def _triggers_on(trig: ManaTrigger, produced: Mana, source: PermanentState) -> bool:
    """CR 603.2: the trigger event happened: "for {C}" needs {C} produced; "mana of the chosen color"
    needs that color (CR 106.5: no color chosen, no such mana)."""
    if trig.needs is None:
        return True
    if trig.needs == "chosen":
        color = source.permanent.chosen.color
        return color is not None and produced.count(color) > 0
    return produced.count(trig.needs) > 0


def _with_triggers(ctx: Context, i: int, alts: set[Mana]) -> set[Mana]:
    """CR 106.12a: triggered mana abilities add to a production that produced mana."""
    out = set()
    states = ctx.state.states
    for alt in alts:
        results = {alt}
        for src, trig in ctx.trigs[i]:
            if not _triggers_on(trig, alt, states[src]):
                continue
            nxt: set[Mana] = set()
            for cur in results:
                if trig.same_type and trig.same_name:  # Sasaya's Essence: one per other land so named
                    same = sum(
                        1
                        for s in states
                        if s.is_land
                        and s.controller == states[src].controller
                        and s.face.name == states[i].face.name
                        and s.id != states[i].id
                    )
                    # each additional mana is of a type that land produced: n of one type is one choice
                    nxt.update(cur + Mana.single(t, same) for t in alt.types)
                elif trig.same_type:  # "one mana of any type that land produced"
                    nxt.update(cur + Mana.single(t) for t in alt.types)
                else:
                    extras = [
                        e for o in trig.options for e in option_alternatives(ctx, src, o, states[src], 0)
                    ]
                    if trig.count is not None:  # "an additional {G} for each Elf on the battlefield"
                        n = amount_of(ctx.state, states[src], trig.count, None)
                        if n is None:
                            ctx.warn(states[src].id, trig.count.text, "the board does not say it: taken as 0")
                        extras = [e.times(n) for e in extras if n]
                    nxt.update(cur + e for e in extras)
                    if not extras:  # CR 106.5: nothing defined to add
                        nxt.add(cur)
            results = nxt
        out.update(results)
    return out


def analyze_board(board: Board, *, memo: bool = True) -> BoardAnalysis:
    """Read the board, compute could-produce (CR 106.7) and what every ability produces (CR 106.12).

    ``memo``: use the kept facts of abilities that read nothing but themselves (``production_memo``) and of
    ability lists (``permanent_facts``) for permanents no replacement or triggered mana ability reaches,
    each face's kept reading (``face_reading``), identical permanents read once, and the references of
    CR 106.7 grouped per filter and player (``_References``); False computes everything anew, each
    reference permanent by permanent (the property tests compare the two)."""
    state = read_board(board, memo=memo)
    ctx = Context(state)
    kept = [permanent_facts(s.face, s.abilities) for s in state.states] if memo else None
    cp, references = _could_produce(ctx, memo, kept)
    produces: dict[tuple[str, int], Alternatives | None] = {}
    groups = references.groups(cp)
    for i, s in enumerate(state.states):
        if kept is not None and kept[i].plain and not ctx.repls[i] and not ctx.trigs[i]:
            # nothing on the board reaches it (CR 106.12a, 106.12b): the kept productions (indexed, not
            # zipped: a compiled core runs ``zip(strict=True)`` through the generic iterator)
            abilities, made = s.abilities, kept[i].produces
            for n in range(len(abilities)):
                produces[(s.id, abilities[n].index)] = made[n]
            continue
        for ability in s.abilities:
            key = (s.id, ability.index)
            if ability.problem is not None or (ability.mana is None and ability.is_mana_ability is None):
                produces[key] = None
                continue
            if ability.mana is None:
                produces[key] = ()
                continue
            facts = _facts(ability, memo)
            tapped_for_mana = ability.has_tap and ability.is_mana_ability
            if facts.plain is not None and not (tapped_for_mana and (ctx.repls[i] or ctx.trigs[i])):
                produces[key] = facts.pruned  # nothing on the board reaches it (CR 106.12a, 106.12b)
                continue
            masks = references.masks(i, references.numbered(facts.references), groups, cp)
            alts = base_alternatives(ctx, i, ability, masks)
            if tapped_for_mana:
                replaced: set[Mana] = set()
                for alt in alts:
                    replaced |= replace_all(alt, ctx.repls[i])
                alts = _with_triggers(ctx, i, replaced)
            produces[key] = prune(alts)
    could = {s.id: mask_types(cp[i]) for i, s in enumerate(state.states)}
    return BoardAnalysis(state, could, produces, state.warnings + tuple(ctx.warnings))
