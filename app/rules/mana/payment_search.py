"""The payment solver's search (CR 601.2g-h): which option each permanent takes, and in which order the
activations with a mana cost go, bounded at each node by a relaxed transport flow.

``Prepared`` holds a board's sources grouped once (``payment_options``): base units (no choice), batches
of identical groups to branch on (how many take each option, not which), the relaxed contribution of an
undecided batch and the per-type caps of the bound. ``solve`` finds a paying configuration, with the least
life when asked; ``payment_render`` turns it into a plan.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product

from app.rules import deadline
from app.rules.mana.payment_graph import (
    ANY,
    BIT,
    LIFE,
    LIFE_PER_SYMBOL,
    SPELL_POS,
    Key,
    add_cost,
    feasible_monos,
)
from app.rules.mana.payment_options import (
    Option,
    clash,
    compositions,
    contested_tokens,
    flexibility,
    interchangeable,
    option_groups,
    relaxed,
    split_batches,
    tokens_of,
)
from app.rules.mana.payment_values import ManaSource, pool_units
from app.rules.values.costs import ManaCost

NodeMemo = dict[tuple[tuple[tuple[int, int], ...], int, int], tuple[int, tuple[int, ...]] | None]
"""One search's checked configurations: (group and option of each choice, ordered, undecided from)."""


@dataclass(slots=True)
class Found:
    """A configuration that pays: chosen options (group, option), costed ones in activation order."""

    free: list[tuple[int, Option]]
    ordered: list[tuple[int, Option]]
    life: int
    monos: tuple[int, ...]


def _rank(found: Found) -> tuple[int, int]:
    """What a plan's search minimizes: the life paid, then the activations with a mana cost."""
    return found.life, len(found.ordered)


_Profile = tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], bool]
"""A batch's distinct options as (unit masks, activation cost masks), and whether it may stay unused."""


def _type_gain(profile: _Profile, tm: int) -> int:
    """One batch member's most gain in mana of a type in ``tm``: for its best option, its units that can be
    such a type less its activation cost's symbols only such mana pays (0 when it may stay unused,
    CR 601.2g: activating a mana ability is a choice)."""
    shape, unused = profile
    best = 0 if unused else None
    for units, cost_masks in shape:
        gain = 0
        for u in units:
            if u & tm:
                gain += 1
        for m in cost_masks:
            if m | tm == tm:
                gain -= 1
        if best is None or gain > best:
            best = gain
    assert best is not None  # a batch has an option
    return best


class Prepared:
    """Sources sorted into base units (no choice) and groups to branch on, for one player and pool."""

    def __init__(
        self, sources: Sequence[ManaSource], pool: ManaCost | None, life: int, like: Prepared | None = None
    ) -> None:
        """Group the sources (CR 602.5b: a permanent taps once) and sort the groups into base and batches;
        identical groups excluding each other over one resource are kept once (CR 118.3).

        With ``like``, the groups, batches and their memo tables of ``like`` are shared instead (they
        depend on the sources only), the pool's supply copied: see ``plus``."""
        if like is not None:
            self._share(like)
            return
        self.sources = tuple(sources)
        self.life = max(life, 0)  # CR 119.4: at 0 or less life, no life can be paid
        self.pool_units: tuple[str, ...] = pool_units(pool)
        self.notes: list[str] = []
        groups = option_groups(self.sources, self.notes)
        held = [tokens_of(options) for options in groups]
        self.contested = contested_tokens(held)
        dropped = interchangeable(groups, held, self.contested)
        if dropped:
            groups = [o for g, o in enumerate(groups) if g not in dropped]
            held = [h for g, h in enumerate(held) if g not in dropped]
            self.contested = contested_tokens(held)
        self.groups: list[list[Option]] = groups
        self.flex: list[int] = [flexibility(options) for options in groups]
        self.group_tokens: list[frozenset[str]] = [h & self.contested for h in held]
        self.base, self.batches = split_batches(groups, self.group_tokens)
        # No batch: every activation has its one way (a board of lands each with {T} its only cost), so
        # the search has nothing to decide and a plan is one assignment (``payment_render``).
        self.unsearched = not self.batches
        self.base_sup: dict[Key, int] = {}
        for t in self.pool_units:
            pkey = (BIT[t], False, 0)
            self.base_sup[pkey] = self.base_sup.get(pkey, 0) + 1
        for g in self.base:
            opt = groups[g][0]
            for ui, u in enumerate(opt.units):
                ukey = (u, opt.unit_snow(ui), 0)
                self.base_sup[ukey] = self.base_sup.get(ukey, 0) + 1
        # The relaxed contribution of each batch member: its most mana, of any type it can add, for free.
        self.relaxed: list[tuple[int, int, bool]] = [relaxed(groups[gs[0]]) for gs in self.batches]
        # Per set of mana types T (a bitmask): the most that one member of each batch, with one option,
        # adds to the mana of a type in T, less the symbols of its activation cost only such mana can pay
        # (Phyrexian ones may take life instead). One option per permanent, which the flow's relaxation
        # above does not see.
        # Computed for the sets T that the bound asks about, when it asks (a few dozen of the 2^k sets:
        # all of them up front was a third of a plan's time at 80 sources).
        # Each batch's distinct options as (unit masks, activation cost masks) and whether its members may
        # stay unused: its profile, derived once (re-deriving the cost masks per T was a quarter of a
        # plan's time), and shared by the many batches alike (each creature that convoke may tap).
        profiles: dict[_Profile, int] = {}
        self.cap_profile: list[int] = []
        for gs in self.batches:
            options = groups[gs[0]]
            shape = tuple(dict.fromkeys((o.units, o.cost_masks) for o in options))
            profile = (shape, not any(o.free for o in options))
            self.cap_profile.append(profiles.setdefault(profile, len(profiles)))
        self.profiles: list[_Profile] = list(profiles)
        self.cap_sums: dict[int, list[int]] = {}

    def _share(self, like: Prepared) -> None:
        """Every attribute ``__init__`` sets, taken from ``like`` (``base_sup`` copied: ``plus`` changes it).

        Written out, never ``copy.copy``: in the compiled core, copying a native class calls its
        ``__init__`` without arguments (``tests/test_compiled_copies.py``)."""
        self.sources = like.sources
        self.life = like.life
        self.pool_units = like.pool_units
        self.notes = like.notes
        self.contested = like.contested
        self.groups = like.groups
        self.flex = like.flex
        self.group_tokens = like.group_tokens
        self.base, self.batches = like.base, like.batches
        self.unsearched = like.unsearched
        self.base_sup = dict(like.base_sup)
        self.relaxed = like.relaxed
        self.cap_profile = like.cap_profile
        self.profiles = like.profiles
        self.cap_sums = like.cap_sums

    def _caps_from(self, tm: int) -> list[int]:
        """For each batch index b, the caps for ``tm`` of batches b and after, summed (the bound adds the
        batches not yet decided, the same suffix at every node of the search)."""
        sums = self.cap_sums.get(tm)
        if sums is None:
            gains = [_type_gain(profile, tm) for profile in self.profiles]
            sums = [0] * (len(self.batches) + 1)
            for b in range(len(self.batches) - 1, -1, -1):
                sums[b] = sums[b + 1] + gains[self.cap_profile[b]] * len(self.batches[b])
            self.cap_sums[tm] = sums
        return sums

    # -- flow checks ---------------------------------------------------------------------------------

    def _check(
        self,
        sup: dict[Key, int],
        dem: dict[Key, int],
        monos: dict[tuple[int, int], int],
        life_units: int,
        relax: int,
    ) -> tuple[int, tuple[int, ...]] | None:
        """Least life units (2 life each) with which the slots can all be paid, and the mono choice (how
        many of each class of {2/X} symbols are paid with one mana of X, classes in sorted order).

        Monocolored hybrid symbols of the spell are decided inside the flow (``feasible_monos``); those
        of activation costs (no printed mana ability has one) are enumerated, at most a few of them."""
        mono_keys = sorted(monos)
        spell = {k: monos[k] for k in mono_keys if k[1] == SPELL_POS}
        other = [k for k in mono_keys if k[1] != SPELL_POS]
        best: tuple[int, tuple[int, ...]] | None = None
        for choice in product(*(range(monos[k], -1, -1) for k in other)):
            d = dict(dem)
            for (cmask, pos), colored in zip(other, choice, strict=True):
                if colored:
                    d[(cmask, False, pos)] = d.get((cmask, False, pos), 0) + colored
                rest = monos[(cmask, pos)] - colored
                if rest:
                    d[(ANY, False, pos)] = d.get((ANY, False, pos), 0) + 2 * rest
            found = feasible_monos(sup, d, spell, life_units, relax)
            if found is not None and (best is None or found[0] < best[0]):
                by_key = dict(zip(other, choice, strict=True))
                by_key.update(zip(sorted(spell), found[1], strict=True))
                best = (found[0], tuple(by_key[k] for k in mono_keys))
                if found[0] == 0:
                    break
        return best

    def _node_once(
        self,
        seen: NodeMemo,
        cost: ManaCost,
        chosen: list[tuple[int, Option]],
        ordered: int,
        undecided_from: int,
    ) -> tuple[int, tuple[int, ...]] | None:
        """``_node``, each configuration checked once per search: with nothing to branch on, the root,
        the search's first node and the order's checks were the same flow computed four times."""
        key = (tuple((g, id(opt)) for g, opt in chosen), ordered, undecided_from)
        if key not in seen:
            seen[key] = self._node(cost, chosen, ordered, undecided_from)
        return seen[key]

    def _node(
        self, cost: ManaCost, chosen: list[tuple[int, Option]], ordered: int, undecided_from: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """Check the slots with ``chosen`` options; the first ``ordered`` costed ones in that order, the
        rest unordered; batches from ``undecided_from`` relaxed. Returns (least life, mono choice)."""
        deadline.check()  # one node of the search; raised before ``_node_once`` memoizes anything
        sup = dict(self.base_sup)
        dem: dict[Key, int] = {}
        monos: dict[tuple[int, int], int] = {}
        add_cost(cost, SPELL_POS, dem, monos)
        life = self.life
        pos = 0
        for _g, opt in chosen:
            life -= opt.life
            p = 0
            if opt.costed:
                pos += 1
                p = pos
                assert opt.cost is not None
                add_cost(opt.cost, p, dem, monos)
            for ui, u in enumerate(opt.units):
                key = (u, opt.unit_snow(ui), p)
                sup[key] = sup.get(key, 0) + 1
        if life < 0:
            return None
        if not self._type_bound(sup, dem, monos, undecided_from):
            return None
        for b in range(undecided_from, len(self.batches)):
            n, mask, snow = self.relaxed[b]
            key = (mask, snow, 0)
            sup[key] = sup.get(key, 0) + n * len(self.batches[b])
        found = self._check(sup, dem, monos, life // LIFE_PER_SYMBOL, ordered + 1)
        if found is None:
            return None
        return self.life - life + LIFE_PER_SYMBOL * found[0], found[1]

    def _type_bound(
        self, sup: dict[Key, int], dem: dict[Key, int], monos: dict[tuple[int, int], int], undecided: int
    ) -> bool:
        """Hall's condition on sets of mana types, order and the flow's finer structure ignored: the slots
        only mana of types in T can pay need at most as many units that can be a type in T (CR 601.2h:
        each symbol is paid with mana it accepts). Units and slots are summed by mask first, as the sets
        T are many (every union of the cost's typed masks) and the positions do not matter here."""
        have_by: dict[int, int] = {}
        for (m, _snow, _p), count in sup.items():
            have_by[m] = have_by.get(m, 0) + count
        need_by: dict[tuple[int, bool], int] = {}
        for (m, snow, _p), count in dem.items():
            if not m & LIFE:
                need_by[(m, snow)] = need_by.get((m, snow), 0) + count
        closure = {0}
        for m, snow in need_by:
            if not snow and m != ANY:
                closure |= {c | m for c in closure}
        closure.discard(0)
        closure.add(ANY)
        extra = sum(monos.values())
        for t in closure:
            need = extra if t == ANY else 0
            for (m, snow), count in need_by.items():
                if (m | t) == t and (t == ANY or not snow):
                    need += count
            have = self._caps_from(t)[undecided]
            for m, count in have_by.items():
                if m & t:
                    have += count
            if need > have:
                return False
        return True

    # -- search --------------------------------------------------------------------------------------

    def solve(self, cost: ManaCost, *, best_life: bool) -> Found | None:
        """A paying configuration, or None; with ``best_life`` (a plan's search), one with the least life
        and, among those, the fewest activations with a mana cost (``_rank``).

        The player chooses which mana abilities to activate and how (CR 601.2g, 605.3a): a depth-first
        search over the batches, each node bounded by the relaxed flow of ``_node``. Its first path is
        tried first without the bounds (``_dive``): every bound on a path is a relaxation of the path's
        leaf, so when that leaf pays with no life and no activation with a mana cost, the search would
        reach it first and stop there: the answer is the same, with the ~one node per batch of the path
        left unchecked. The root's bound (its least life, the floor) is needed only otherwise.

        The fewest activations with a mana cost: activating a mana ability is the player's choice (CR
        601.2g), and a plan that taps a Plains for an Azorius Signet's {1} only to spend the Signet's {W}
        on a {1} makes one it can do without. With the fewest, the plan's other activations never pay the
        cost at its life (``tests/rules/mana/test_payment_minimal.py`` holds it to the brute force), and
        the first assignment of the plan spends from every such activation, so it is never assigned again
        for one (``payment_render``)."""
        if cost.is_infinite:
            return None
        seen: NodeMemo = {}
        first = self._dive(cost, seen)
        if first is not None and (not best_life or (first.life == 0 and not first.ordered)):
            return first  # nothing can ask for less: no life (the root's floor is 0), nothing costed
        root = self._node_once(seen, cost, [], 0, 0)
        if root is None:
            return None
        floor = root[0]
        if first is not None and first.life <= floor and not first.ordered:
            return first
        state: dict[str, Found | None] = {"best": None}

        def dfs(b: int, chosen: list[tuple[int, Option]]) -> bool:
            """Search below ``chosen`` (batches before ``b`` decided); True once the answer is final."""
            bound = self._node_once(seen, cost, chosen, 0, b)
            best = state["best"]
            if bound is None:
                return False
            # Below, the life is at least the bound's and the costed activations at least those chosen.
            if best is not None and (bound[0], sum(1 for _g, o in chosen if o.costed)) >= _rank(best):
                return False
            if b == len(self.batches):
                found = self._order(cost, chosen, seen)
                if found is not None and (best is None or _rank(found) < _rank(best)):
                    state["best"] = found
                    return not best_life or (found.life <= floor and not found.ordered)
                return False
            return any(dfs(b + 1, chosen + picks) for picks in self._branches(b, chosen))

        dfs(0, [])
        return state["best"]

    def _dive(self, cost: ManaCost, seen: NodeMemo) -> Found | None:
        """The search's first path, its bounds unchecked: each batch's first branch, then the leaf's
        activation order (CR 605.3a) as the search checks it."""
        chosen: list[tuple[int, Option]] = []
        for b in range(len(self.batches)):
            picks = next(iter(self._branches(b, chosen)), None)
            if picks is None:
                return None
            chosen = chosen + picks
        # The leaf's own check is ``_order``'s first: with no order fixed, which costed activation comes
        # first does not change what pays (positions only relabelled).
        return self._order(cost, chosen, seen)

    def _branches(self, b: int, chosen: list[tuple[int, Option]]) -> Iterator[list[tuple[int, Option]]]:
        """Batch ``b``'s ways, in branching order: how many of its identical members take each option
        (not which), members left unused when no option is free or an option takes a resource another
        may need; a way using a permanent or card already used is skipped (CR 118.3)."""
        groups = self.batches[b]
        options = self.groups[groups[0]]
        contested = self.group_tokens[groups[0]]
        no_free = not any(o.free for o in options)
        allow_unused = bool(contested) or no_free
        used = frozenset().union(*(o.tokens for _g, o in chosen)) & self.contested if contested else None
        k = len(options) + (1 if allow_unused else 0)
        # Every option costs something (a Signet's {1}, a painland's life): leaving members unused comes
        # first, as the search looks for the fewest such activations (``solve``), and its first path
        # then takes one only where the cost needs it.
        unused_first = no_free and not contested
        for comp in compositions(len(groups), k):
            deadline.check()  # one way of the batch, yielded or skipped as clashing
            if unused_first:  # the first count is the unused members', then the options' in order
                comp = comp[1:] + comp[:1]
            picks: list[tuple[int, Option]] = []
            member = 0
            for oi, count in enumerate(comp):
                for _ in range(count):
                    g = groups[member]
                    member += 1
                    if oi < len(options):
                        picks.append((g, self.groups[g][oi]))
            if used is None or not clash(used, picks):
                yield picks

    def _order(self, cost: ManaCost, chosen: list[tuple[int, Option]], seen: NodeMemo) -> Found | None:
        """Find an activation order for the costed options of ``chosen`` (CR 605.3a: mana from earlier)."""
        free = [c for c in chosen if not c[1].costed]
        costed = [c for c in chosen if c[1].costed]
        best: list[Found] = []
        floor_check = self._node_once(seen, cost, free + costed, 0, len(self.batches))
        if floor_check is None:
            return None
        floor = floor_check[0]

        def dfs(placed: list[tuple[int, Option]], rest: list[tuple[int, Option]]) -> bool:
            found = self._node_once(seen, cost, free + placed + rest, len(placed), len(self.batches))
            if found is None or (best and found[0] >= best[0].life):
                return False
            if not rest:
                best[:] = [Found(free, list(placed), found[0], found[1])]
                return found[0] <= floor
            tried: set[tuple[object, ...]] = set()
            for i, item in enumerate(rest):
                if item[1].sig in tried:
                    continue
                tried.add(item[1].sig)
                if dfs([*placed, item], rest[:i] + rest[i + 1 :]):
                    return True
            return False

        dfs([], costed)
        return best[0] if best else None

    # -- shortfall -----------------------------------------------------------------------------------

    def plus(self, extra: dict[Key, int]) -> Prepared:
        """These sources with ``extra`` mana added to the pool (the batches and their memo tables shared:
        they depend on the sources only)."""
        other = Prepared((), None, 0, like=self)
        sup = other.base_sup
        for key, n in extra.items():
            if n:
                sup[key] = sup.get(key, 0) + n
        return other
