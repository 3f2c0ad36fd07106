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
from itertools import combinations_with_replacement, permutations
from math import comb
from typing import Final

from app.rules import deadline
from app.rules.mana.abilities import (
    Ability,
    BoardState,
    PermanentState,
    Warning,
    amount_of,
    commander_identity,
    holds,
    read_board,
    unstated_count,
)
from app.rules.text.oracle_mana import (
    Amount,
    Filter,
    ManaEffect,
    ManaOption,
    ManaTrigger,
    ProductionReplacement,
)
from app.rules.values.board import Board
from app.rules.values.mana import Mana
from app.rules.values.symbols import COLORS, MANA_TYPES, SymbolKind

Alternatives = tuple[Mana, ...]
_BIT: Final = {t: 1 << i for i, t in enumerate(MANA_TYPES)}
COLOR_MASK: Final = sum(_BIT[c] for c in COLORS)
_ALL: Final = (1 << len(MANA_TYPES)) - 1
_MASK_TYPES: Final = tuple(tuple(t for k, t in enumerate(MANA_TYPES) if m >> k & 1) for m in range(_ALL + 1))
_IDENTITY: Final = [1 << k for k in range(len(MANA_TYPES))]
MAX_SPLITS: Final = 210
"""At most this many splits of "X mana in any combination" are listed (six mana among five colors)."""
MAX_ORDERED_REPLACEMENTS: Final = 5
"""Beyond this many replacements on one ability only board (timestamp) order is tried, with a warning."""


def mask_types(mask: int) -> tuple[str, ...]:
    """The mana types of a bit mask, in W U B R G C order."""
    return _MASK_TYPES[mask & _ALL]


def _mask(mana: Mana) -> int:
    m = 0
    for t in mana.types:
        m |= _BIT[t]
    return m


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


def _apply_replacement(alt: Mana, repl: ProductionReplacement) -> tuple[Mana, ...]:
    """One replacement on one production event (CR 614.1a: "instead"): its possible results ("color": the
    same amount of one color of the player's choice, Pulse of Llanowar)."""
    if alt.total < repl.min_amount:
        return (alt,)  # Damping Sphere: "two or more mana" only
    if repl.mode == "fixed":
        return (Mana.of(repl.mana),)
    if repl.mode == "type":
        return (Mana.single(repl.mana[0], alt.total),)
    if repl.mode == "color":
        return tuple(Mana.single(c, alt.total) for c in COLORS)
    if repl.mode == "one_color":
        return tuple(Mana.single(c) for c in COLORS)
    return (alt.times(repl.factor),)


def commutes(repls: tuple[ProductionReplacement, ...]) -> bool:
    """Multiplying replacements give the same result in every order (CR 616.1 then has nothing to choose)."""
    return all(r.mode == "multiply" for r in repls)


def _replaced(alt: Mana, repls: tuple[ProductionReplacement, ...]) -> set[Mana]:
    """Every result of applying ``repls`` to ``alt`` in any order (CR 106.7, 616.1); an event that
    produces no mana is not a mana production event and is not replaced."""
    if not alt or not repls:
        return {alt} if alt else set()
    few = len(repls) <= MAX_ORDERED_REPLACEMENTS and not commutes(repls)
    orders = permutations(repls) if few else iter((repls,))
    out: set[Mana] = set()
    for order in orders:
        cur = {alt}
        for r in order:
            cur = {x for c in cur for x in _apply_replacement(c, r)}
        out |= cur
    return out


def _prune(alts: set[Mana]) -> Alternatives:
    """Sorted alternatives without any contained (as a multiset) in a larger one."""
    if len({a.total for a in alts}) <= 1:  # equal sizes: none is contained in another
        kept = [a for a in alts if a]
    else:
        kept = [a for a in alts if a and not any(b.total > a.total and b.contains(a) for b in alts)]
    return tuple(sorted(kept, key=Mana.sort_key))


class _Context:
    """Per-board lookups shared by the fixed point and the production of each ability."""

    def __init__(self, state: BoardState) -> None:
        self.state = state
        self.index = {s.id: i for i, s in enumerate(state.states)}
        self.warnings: list[Warning] = []
        # replacements and triggers that apply to each permanent's {T} mana abilities
        self.repls: list[tuple[ProductionReplacement, ...]] = []
        self.trigs: list[tuple[tuple[int, ManaTrigger], ...]] = []
        perms = state.board.permanents
        for s in state.states:
            self.repls.append(tuple(r for i, r in state.replacements if s.matches(r.filter, perms[i])))
            self.trigs.append(tuple((i, t) for i, t in state.triggers if s.matches(t.filter, perms[i])))
            if len(self.repls[-1]) > MAX_ORDERED_REPLACEMENTS and not commutes(self.repls[-1]):
                self.warnings.append(
                    Warning(
                        s.id,
                        "",
                        f"more than {MAX_ORDERED_REPLACEMENTS} replacement "
                        "effects apply to its mana; only board order was considered",
                    )
                )
        self._single: dict[int, list[int]] = {}
        self._warned: set[tuple[str, str, str]] = set()

    def warn(self, permanent: str, text: str, reason: str) -> None:
        """Say once what was assumed (the fixed point reads an ability more than once)."""
        if (permanent, text, reason) not in self._warned:
            self._warned.add((permanent, text, reason))
            self.warnings.append(Warning(permanent, text, reason))

    def single_map(self, i: int) -> list[int]:
        """For permanent i's {T} abilities: the mask of types one mana of each type becomes after
        replacements (CR 106.7 "in any possible order")."""
        if not self.repls[i]:
            return _IDENTITY
        got = self._single.get(i)
        if got is None:
            got = [0] * len(MANA_TYPES)
            for k, t in enumerate(MANA_TYPES):
                for alt in _replaced(Mana.single(t), self.repls[i]):
                    got[k] |= _mask(alt)
            self._single[i] = got
        return got


def _option_alternatives(
    ctx: _Context, i: int, option: ManaOption, chosen_from: PermanentState, ref_mask: int
) -> list[Mana]:
    """The alternatives one option stands for, references resolved to ``ref_mask``."""
    if option.reference is not None:
        mask = ref_mask & (COLOR_MASK if option.reference.what == "color" else -1)
        return [Mana.single(t) for t in mask_types(mask)]
    fixed = Mana.of(option.fixed)
    if option.chosen:
        color = chosen_from.permanent.chosen.color
        if color is None:
            return []  # CR 106.5: a chosen color never chosen is undefined: no mana
        fixed = fixed + Mana.single(color, option.chosen)
    return [fixed] if fixed else []


def _base_alternatives(ctx: _Context, i: int, ability: Ability, ref_masks: list[int]) -> set[Mana]:
    """What the ability adds before replacements (references resolved by ``ref_masks``, one per option).

    An "If ..., add ... instead" (CR 614.1a) uses its other effect when its condition holds; amounts from
    the board (CR 700.5 devotion, "for each") and the commander's color identity (CR 903.4) are read here.
    """
    effect = ability.mana
    assert effect is not None
    if effect.undefined is not None:
        return set()
    state = ctx.state.states[i]
    if effect.instead is not None:
        effect, ref_masks = _instead(ctx, state, effect, ref_masks)
    options = effect.options
    if effect.commander:
        identity = commander_identity(ctx.state.board, state.controller)
        if identity is None:
            ctx.warn(
                state.id,
                ability.text,
                "no commander is named for its controller: it adds no mana (CR 903.4f)",
            )
            return set()
        options = tuple(o for o in options if set(o.fixed) <= identity)
        ref_masks = [0] * len(options)
    if effect.cost_of is not None:
        return _cost_as_mana(ctx, state, ability, effect.cost_of)
    if effect.colors_of is not None:
        mode, flt = effect.colors_of
        colors = _colors_among(ctx, state, flt)
        if mode == "each":  # "one mana of each color among ...": one alternative
            return {Mana.of(c for c in COLORS if c in colors)} if colors else set()
        keep = [k for k, o in enumerate(options) if set(o.fixed) <= colors]
        options, ref_masks = tuple(options[k] for k in keep), [ref_masks[k] for k in keep]
    if effect.split and effect.count is not None:
        return _splits(ctx, state, ability, effect.split, effect.count)
    if effect.count is not None and effect.count.cost_value:
        return _by_cost_value(ctx, i, ability, effect.count, list(zip(options, ref_masks, strict=True)))
    return _counted(ctx, i, ability, effect.count, list(zip(options, ref_masks, strict=True)))


def _instead(
    ctx: _Context, state: PermanentState, effect: ManaEffect, ref_masks: list[int]
) -> tuple[ManaEffect, list[int]]:
    """CR 614.1a: "If <condition>, add ... instead": the other effect when the condition holds on the board
    (a condition the board does not settle is taken as not met, and said)."""
    assert effect.instead is not None
    condition, other = effect.instead
    held = holds(ctx.state, state, condition)
    unstated = unstated_count(ctx.state.board, state.permanent, state.controller, condition)
    if unstated is not None:  # API 1.1: a count not stated is 0, and said
        ctx.warn(state.id, f"If {condition.text}, ...", unstated.split(", so ")[0])
    if held is None:
        ctx.warn(
            state.id, f"If {condition.text}, ...", "a condition the board does not settle: taken as not met"
        )
    elif held and len(other.options) == len(ref_masks):
        return other, ref_masks
    elif held:  # the other effect reads no references: resolve it alone
        return other, [0] * len(other.options)
    return effect, ref_masks


def _by_cost_value(
    ctx: _Context, i: int, ability: Ability, count: Amount, options: list[tuple[ManaOption, int]]
) -> set[Mana]:
    """CR 118.3, 202.3: "Add an amount of mana equal to the sacrificed creature's mana value": one
    alternative per thing the cost may take."""
    state = ctx.state.states[i]
    if any(p.kind in {"sacrifice", "exile"} and p.filter is None for p in ability.cost):
        ctx.warn(state.id, ability.text, "what its cost takes is not read here: taken as nothing")
        return set()
    values = _cost_values(ctx, state, ability)
    out: set[Mana] = set()
    for option, ref_mask in options:
        for alt in _option_alternatives(ctx, i, option, state, ref_mask):
            out.update(alt.times(v + count.offset) for v in values)
    return {a for a in out if a}


def _counted(
    ctx: _Context, i: int, ability: Ability, count: Amount | None, options: list[tuple[ManaOption, int]]
) -> set[Mana]:
    """CR 106.1, 700.5: each option's mana, times its amount on the board ("for each", devotion; a fact the
    board does not give is taken as 0, and said)."""
    state = ctx.state.states[i]
    out: set[Mana] = set()
    for option, ref_mask in options:
        n = 1
        for alt in _option_alternatives(ctx, i, option, state, ref_mask):
            if count is not None:
                color = alt.types[0] if len(alt.types) == 1 else None
                got = amount_of(ctx.state, state, count, color)
                if got is None:
                    what = count.text.replace("~", state.face.name)
                    ctx.warn(state.id, ability.text, f"the board does not say '{what}': taken as 0")
                n = got or 0
            if n:
                out.add(alt.times(n))
    return out


def _cost_as_mana(ctx: _Context, state: PermanentState, ability: Ability, whose: Filter) -> set[Mana]:
    """ "Add mana equal to enchanted permanent's mana cost" (CR 202.1, 107.4): each colored or Phyrexian
    symbol one mana of its color (of one of its colors, chosen, for a hybrid), {C} and generic colorless,
    X as 0 (CR 107.3); at most ``MAX_SPLITS`` alternatives, beyond (or for symbols of other kinds) nothing,
    with a warning."""
    targets = [s for s in ctx.state.states if s.matches(whose, state.permanent)]
    if len(targets) != 1 or targets[0].face.mana_cost is None:
        return set()  # CR 202.1b: no mana cost, no mana
    cost = targets[0].face.mana_cost
    results = {Mana.single("C", cost.generic) if cost.generic else Mana()}
    for sym in cost.others:
        if sym.kind is SymbolKind.VARIABLE:
            continue
        if sym.kind in (
            SymbolKind.COLORED,
            SymbolKind.HYBRID,
            SymbolKind.PHYREXIAN,
            SymbolKind.HYBRID_PHYREXIAN,
        ):
            choices = [Mana.single(c) for c in sym.colors]
        elif sym.kind in (SymbolKind.COLORLESS, SymbolKind.COLORLESS_HYBRID):
            choices = [Mana.single("C")] + [Mana.single(c) for c in sym.colors]
        else:
            ctx.warn(state.id, ability.text, f"the symbol {sym.text} is not read as mana here: nothing added")
            return set()
        results = {r + c for r in results for c in choices}
        if len(results) > MAX_SPLITS:
            ctx.warn(
                state.id, ability.text, "too many ways to choose the hybrid symbols' colors: nothing added"
            )
            return set()
    return {r for r in results if r}


def _cost_values(ctx: _Context, state: PermanentState, ability: Ability) -> set[int]:
    """CR 202.3: the mana values of the permanents its sacrifice or exile cost could take (Priest of
    Yawgmoth, Food Chain); none when nothing could pay it (CR 118.3)."""
    out: set[int] = set()
    for part in ability.cost:
        if part.kind in {"sacrifice", "exile"} and part.filter is not None:
            for s in ctx.state.states:
                if s.matches(part.filter, state.permanent):
                    value = s.face.mana_value
                    out.add(int(value) if isinstance(value, int) else 0)
    return out


def _colors_among(ctx: _Context, state: PermanentState, filters: tuple[Filter, ...] | None) -> set[str]:
    """CR 105.2: the colors of the permanents any of ``filters`` names (None: of the permanent itself)."""
    if filters is None:
        return set(state.face.color_set)
    return {
        c
        for s in ctx.state.states
        if any(s.matches(f, state.permanent) for f in filters)
        for c in s.face.color_set
    }


def _splits(
    ctx: _Context, state: PermanentState, ability: Ability, types: tuple[str, ...], count: Amount
) -> set[Mana]:
    """ "X mana in any combination of ...": every split of X among ``types`` while there are at most
    ``MAX_SPLITS`` of them; beyond, the one-type splits only (each the most of one type), with a warning."""
    n = amount_of(ctx.state, state, count, None)
    if n is None:
        ctx.warn(
            state.id,
            ability.text,
            f"the board does not say '{count.text.replace('~', state.face.name)}': taken as 0",
        )
        return set()
    if n <= 0:
        return set()
    if comb(n + len(types) - 1, len(types) - 1) <= MAX_SPLITS:
        return {Mana.of(c) for c in combinations_with_replacement(types, n)}
    ctx.warn(
        state.id,
        ability.text,
        f"{n} mana split among {len(types)} types: only one-type splits are considered",
    )
    return {Mana.single(t, n) for t in types}


def _references(ability: Ability) -> list[Filter | None]:
    assert ability.mana is not None
    return [o.reference.filter if o.reference is not None else None for o in ability.mana.options]


def _reference_union(
    ctx: _Context, i: int, flt: Filter, groups: dict[Filter, dict[str, int]], cp: list[int]
) -> int:
    state = ctx.state.states[i]
    if flt.other or flt.enchanted:  # rare: computed directly
        src = state.permanent
        return _or(cp[j] for j, s in enumerate(ctx.state.states) if s.matches(flt, src))
    per_player = groups[flt]
    if flt.controller == "you":
        return per_player.get(state.controller, 0)
    if flt.controller == "opponent":
        return _or(m for player, m in per_player.items() if player != state.controller)
    return _or(per_player.values())


def _or(masks: Iterable[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def _members(ctx: _Context, filters: Iterable[Filter]) -> dict[Filter, list[int]]:
    """For each reference filter, the permanents its types name (controller is applied per player)."""
    states = ctx.state.states
    members: dict[Filter, list[int]] = {}
    by_types: dict[Filter, list[int]] = {}
    for flt in filters:
        plain = Filter(flt.types, flt.subtypes, flt.supertypes, flt.not_supertypes, flt.not_types)
        if plain not in by_types:
            by_types[plain] = [
                j
                for j, s in enumerate(states)
                if plain.matches_types(s.types, s.subtypes, s.supertypes, s.face.is_changeling)
            ]
        members[flt] = by_types[plain]
    return members


def _groups(members: dict[Filter, list[int]], ctx: _Context, cp: list[int]) -> dict[Filter, dict[str, int]]:
    """One union per (filter, controller): what the permanents each reference reads could produce."""
    states = ctx.state.states
    groups: dict[Filter, dict[str, int]] = {}
    for flt, js in members.items():
        per: dict[str, int] = {}
        for j in js:
            if cp[j]:
                c = states[j].controller
                per[c] = per.get(c, 0) | cp[j]
        groups[flt] = per
    return groups


def _could_produce(ctx: _Context) -> tuple[list[int], dict[Filter, list[int]]]:
    """CR 106.7 least fixed point: see the module doc. The masks without references first, then rounds
    adding what the references ("a land you control could produce") reach, until nothing changes."""
    static, refs = _static_masks(ctx)
    cp = list(static)
    ref_filters = {f for _i, _a, fs in refs for f in fs if f is not None and not (f.other or f.enchanted)}
    members = _members(ctx, ref_filters)
    if not refs:
        return cp, members
    while True:
        deadline.check()  # one round of the fixed point (CR 106.7)
        groups = _groups(members, ctx, cp)
        new = list(static)
        for i, ability, filters in refs:
            masks = [_reference_union(ctx, i, f, groups, cp) if f is not None else 0 for f in filters]
            new[i] |= _referenced_mask(ctx, i, ability, masks)
        if new == cp:
            return cp, members
        cp = new


_Refs = list[tuple[int, Ability, list[Filter | None]]]


def _static_masks(ctx: _Context) -> tuple[list[int], _Refs]:
    """CR 106.7: each permanent's types from its abilities read alone (replacements applied, CR 106.12,
    and its own triggered mana abilities, 106.12a), and the abilities whose mana refers to other
    permanents' ("one mana of any type a land you control could produce")."""
    states = ctx.state.states
    static = [0] * len(states)
    refs: _Refs = []
    for i, s in enumerate(states):
        deadline.check()  # one permanent's base alternatives; nothing is kept until the fixed point returns
        for ability in s.abilities:
            if ability.mana is None or ability.problem is not None:
                continue
            filters = _references(ability)
            if any(f is not None for f in filters):
                refs.append((i, ability, filters))
            for alt in _base_alternatives(ctx, i, ability, [0] * len(filters)):
                for out in _replaced(alt, ctx.repls[i]) if ability.has_tap else {alt}:
                    static[i] |= _mask(out)
        # the permanent's own triggered mana abilities (an aura's "adds an additional {G}")
        for src, trig in ctx.state.triggers:
            if src == i and not trig.same_type:
                for option in trig.options:
                    for alt in _option_alternatives(ctx, i, option, s, 0):
                        static[i] |= _mask(alt)
    return static, refs


def _referenced_mask(ctx: _Context, i: int, ability: Ability, masks: list[int]) -> int:
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


def _with_triggers(ctx: _Context, i: int, alts: set[Mana]) -> set[Mana]:
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
                        e for o in trig.options for e in _option_alternatives(ctx, src, o, states[src], 0)
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


def analyze_board(board: Board) -> BoardAnalysis:
    """Read the board, compute could-produce (CR 106.7) and what every ability produces (CR 106.12)."""
    state = read_board(board)
    ctx = _Context(state)
    cp, members = _could_produce(ctx)
    produces: dict[tuple[str, int], Alternatives | None] = {}
    groups = _groups(members, ctx, cp)
    for i, s in enumerate(state.states):
        for ability in s.abilities:
            key = (s.id, ability.index)
            if ability.problem is not None or (ability.mana is None and ability.is_mana_ability is None):
                produces[key] = None
                continue
            if ability.mana is None:
                produces[key] = ()
                continue
            masks = [
                _reference_union(ctx, i, f, groups, cp) if f is not None else 0 for f in _references(ability)
            ]
            alts = _base_alternatives(ctx, i, ability, masks)
            if ability.has_tap and ability.is_mana_ability:
                replaced: set[Mana] = set()
                for alt in alts:
                    replaced |= _replaced(alt, ctx.repls[i])
                alts = _with_triggers(ctx, i, replaced)
            produces[key] = _prune(alts)
    could = {s.id: mask_types(cp[i]) for i, s in enumerate(state.states)}
    return BoardAnalysis(state, could, produces, state.warnings + tuple(ctx.warnings))
