"""What one mana ability adds before replacements (CR 106.1, 614.1a, 700.5, 903.4, 202.1, 202.3): its
options with references resolved, "instead" effects, amounts read on the board, mana equal to a cost, splits
of "X mana in any combination"."""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import comb

from app.rules.mana.ability_conditions import amount_of, commander_identity, holds, unstated_count
from app.rules.mana.ability_values import Ability, PermanentState
from app.rules.mana.production_replacements import COLOR_MASK, MAX_SPLITS, Context, mask_types
from app.rules.text.mana_amounts import Amount, ManaEffect, ManaOption
from app.rules.text.mana_filters import Filter
from app.rules.values.mana import Mana
from app.rules.values.symbols import COLORS, SymbolKind


def option_alternatives(
    ctx: Context, i: int, option: ManaOption, chosen_from: PermanentState, ref_mask: int
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


def base_alternatives(ctx: Context, i: int, ability: Ability, ref_masks: list[int]) -> set[Mana]:
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
    ctx: Context, state: PermanentState, effect: ManaEffect, ref_masks: list[int]
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
    ctx: Context, i: int, ability: Ability, count: Amount, options: list[tuple[ManaOption, int]]
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
        for alt in option_alternatives(ctx, i, option, state, ref_mask):
            out.update(alt.times(v + count.offset) for v in values)
    return {a for a in out if a}


def _counted(
    ctx: Context, i: int, ability: Ability, count: Amount | None, options: list[tuple[ManaOption, int]]
) -> set[Mana]:
    """CR 106.1, 700.5: each option's mana, times its amount on the board ("for each", devotion; a fact the
    board does not give is taken as 0, and said)."""
    state = ctx.state.states[i]
    out: set[Mana] = set()
    for option, ref_mask in options:
        n = 1
        for alt in option_alternatives(ctx, i, option, state, ref_mask):
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


def _cost_as_mana(ctx: Context, state: PermanentState, ability: Ability, whose: Filter) -> set[Mana]:
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


def _cost_values(ctx: Context, state: PermanentState, ability: Ability) -> set[int]:
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


def _colors_among(ctx: Context, state: PermanentState, filters: tuple[Filter, ...] | None) -> set[str]:
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
    ctx: Context, state: PermanentState, ability: Ability, types: tuple[str, ...], count: Amount
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
