"""The ``tapped-lands`` castability model: Karsten's model (``castability``) where a land that enters tapped
cannot pay on the turn it is played. Exact, by dynamic programs over land kinds, with the same mulligan rule.

The model. A spell of mana value ``T`` is tested on turn ``T``, given at least ``T`` lands seen by then (as
in Karsten's model, the turn each land was drawn is not tracked: the lands seen are played in the best
order). On turn ``T`` the player controls ``T`` lands, one played each turn; the lands played on turns 1 to
``T - 1`` have untapped (CR 502.3), and the one played on turn ``T`` pays only if it entered untapped
(CR 110.5b, 107.5), which its rule (``entering.EntryRule``) decides from the ``T - 1`` other lands. So the
spell is cast on curve when some set ``S`` of ``T`` lands seen holds a land ``l`` that enters untapped with
``S - {l}`` already in play, and ``S`` pays the spell's colored symbols together (a matching, one land one
symbol, CR 106.7, 601.2g-h). The other ``T - P`` lands of ``S`` (``P`` colored symbols) pay generic mana.

A check land needs a land of its types among the others, a battle land two basic lands: those lands are
*witnesses* that must be in ``S``. The lands seen are read one class at a time (``project``: the lands
that differ for this spell on this turn, counted up to what a set ``S`` can use of each, ``_caps``), and
what the classes read so far leave open is their *profile* (``_Sets``): every partial set they can give,
as the symbols it pays per color, whether its last land is chosen and enters untapped or still waits for
witnesses, the witnesses its other lands are, and its size, without the partial sets another one beats
or that the classes still to come cannot complete. Two vectors of lands seen with the same profile decide
every continuation alike, so the dynamic programs carry the profile, not the vector: a deck with twenty
kinds of land has millions of vectors and a few hundred profiles; a profile holding a set that casts the
spell is one absorbing profile.

The mulligans are Karsten's (``castability_exact``): 7-card hands mulliganed with 0, 1, 6 or 7 lands, the
bottomed cards aiming for 3 lands (spells first), lands bottomed one at a time: first those producing none
of the spell's colors, then the one whose loss keeps the most symbols payable, then the one with the
fewest of the spell's colors, a land entering tapped before one entering untapped; Commander's free first
mulligan and turn-1 draw. Hands that bottom no land are summed by a dynamic program over the classes on
the first ``7 + draws`` cards, whose state is (profile, lands); hands that bottom lands by one dynamic
program per count bottomed over the hand and the draws together (``_bottoming``: the bottoming is a
matroid greedy, so the lands bottomed are known class by class). A spell whose programs grow past
``MAX_WORK`` steps gets no probability (``TooManyKinds``): a five-color spell in a five-color deck of thirty
kinds of land.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Final

from app.rules import deadline
from app.rules.decks.castability_cache import bounded
from app.rules.decks.castability_exact import (
    HAND_SIZE,
    STATES_PER_CHECK,
    CastabilityError,
    Hall,
    mulligan_weights,
)
from app.rules.decks.entering import BASICS, TAPPED, TYPES, UNTAPPED, EntryRule

COLOR_ORDER: Final = "WUBRG"
MAX_WORK: Final = 3_000_000
"""The most steps (a state of a dynamic program carried through one count of a land class) one spell's
computation takes; past it the spell's probability is not given (``TooManyKinds``) rather than the whole
deck's analysis running out of time."""

MAX_PROFILES: Final = 20_000
"""The most distinct profiles of lands seen (``_Sets``) one spell's computation numbers."""

GAVE_UP: Final = -1.0
"""``probabilities_tapped``'s answer, both figures, for a spell past ``MAX_WORK`` (no probability is
negative). A float, not a tuple: mypyc inlines a final float, where a final tuple was found unset when the
compiled function returned it."""


class TooManyKinds(CastabilityError):
    """The deck's lands make more work for this spell than the exact computation takes on (``MAX_WORK``)."""


@dataclass(frozen=True, slots=True)
class TappedKind:
    """A land of the deck as this model sees it: the colors it could produce, how it enters, its land
    types (for check lands) and whether it is basic (for battle lands)."""

    colors: frozenset[str]
    rule: EntryRule
    types: frozenset[str] = frozenset()
    basic: bool = False


_Spec = tuple[str, str, tuple[str, ...], int, tuple[str, ...], bool]
"""A kind projected on one spell and turn: (spell colors it produces, rule on that turn: u / t / types /
basics, the types or basics count the rule needs, its types among those any rule needs, basic)."""


def project(
    lands: Mapping[TappedKind, int], wanted: tuple[tuple[str, int], ...], turn: int
) -> tuple[tuple[_Spec, int], ...]:
    """The deck's lands as kinds that differ for this spell on this turn, with their copies (sorted)."""
    colors = "".join(c for c, _ in wanted)
    rules = {k: k.rule.untapped_on(turn) for k in lands}
    needed_types = frozenset(t for k, r in rules.items() if r == TYPES for t in k.rule.types)
    basics_matter = any(r == BASICS for r in rules.values())
    out: dict[_Spec, int] = {}
    for k, copies in lands.items():
        if copies <= 0:
            continue
        r = rules[k]
        code = "u" if r == UNTAPPED else "t" if r == TAPPED else r
        param = tuple(sorted(k.rule.types)) if r == TYPES else ()
        n = k.rule.n if r == BASICS else 0
        spec = (
            "".join(c for c in colors if c in k.colors),
            code,
            param,
            n,
            tuple(sorted(k.types & needed_types)),
            k.basic and basics_matter,
        )
        out[spec] = out.get(spec, 0) + copies
    return tuple(sorted(out.items()))


def cast_probability_tapped(
    deck_size: int,
    lands: Mapping[TappedKind, int],
    pips: Mapping[str, int],
    turn: int,
    *,
    on_play: bool = True,
    commander: bool = False,
) -> float:
    """P(the spell is cast on turn ``turn`` | at least ``turn`` lands seen), by the model above. Raises
    ``CastabilityError`` on bad input and when no game reaches ``turn`` lands."""
    if turn < 1:
        raise CastabilityError(f"turn must be at least 1, got {turn}")
    land_count = sum(lands.values())
    if not deck_size >= HAND_SIZE or land_count > deck_size or any(n < 0 for n in lands.values()):
        raise CastabilityError(f"{land_count} lands do not make a deck of {deck_size} cards")
    wanted = tuple((c, pips[c]) for c in COLOR_ORDER if pips.get(c, 0) > 0)
    classes = project(lands, wanted, turn)
    draws = turn if (commander or not on_play) else turn - 1
    success, condition = probabilities_tapped(classes, deck_size - land_count, wanted, turn, draws, commander)
    if condition == GAVE_UP:
        raise TooManyKinds(
            f"more than {MAX_WORK} steps of the dynamic programs or {MAX_PROFILES} profiles of lands seen"
            f" ({len(classes)} kinds of land for this spell)"
        )
    if condition <= 0.0:
        raise CastabilityError(f"no game reaches {turn} lands with {land_count} lands in {deck_size} cards")
    return min(1.0, success / condition)


def _caps(specs: tuple[_Spec, ...], wanted: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    """Per kind, the most lands of it a set of lands seen can use (module docstring): the symbols of its
    colors (the matching), one more if it can be the land played last, and the witnesses a rule may ask
    of it (its land types or its basic supertype). A kind that can be none of those is never looked at."""
    pips = dict(wanted)
    witness = max((max(1, spec[3]) for spec in specs if spec[1] in (TYPES, BASICS)), default=0)
    out = []
    for spec in specs:
        cap = sum(pips[c] for c in spec[0]) + (spec[1] != "t")
        if spec[4] or spec[5]:
            cap += witness
        out.append(cap)
    return tuple(out)


_NONE: Final = 0
"""A partial set's last land: not chosen yet."""
_DONE: Final = 1
"""The last land is chosen and enters untapped."""
_PENDING_TYPES: Final = 2
"""Plus a check-land condition's index: the last land waits for a land of those types among the others."""
_PENDING_BASICS: Final = 1 << 20
"""Plus a count: the last land (a battle land) waits for that many basic lands among the others (above
every check-land condition's index: a deck has far fewer distinct conditions)."""

_Entry = tuple[tuple[int, ...], int, int, int, int]
"""A partial set of lands: (symbols paid per color, its last land's status, the check-land conditions its
other lands meet (a bit mask), its other basic lands (capped), its size)."""


class _Sets:
    """The decision (module docstring) as a finite automaton read class by class in a fixed order: a
    *profile* is every partial set ``S`` the classes read so far can give, each as an ``_Entry``, without
    the entries another one beats (``_pareto``) and those the classes still to come cannot complete (too
    few lands of a color left, no land left that could be played last or be the witness awaited, more
    lands than the turn). Two land vectors with the same profile decide every continuation alike, so the
    dynamic programs carry the profile instead of the vector: many vectors share one, which is what keeps
    a deck with twenty kinds of land small; every profile holding a set that casts the spell is one
    (``cast``), which no step leaves. Profiles are numbered; steps memoized per call, as int look-ups."""

    def __init__(
        self,
        specs: tuple[_Spec, ...],
        copies: tuple[int, ...],
        wanted: tuple[tuple[str, int], ...],
        turn: int,
        order: list[int],
    ) -> None:
        colors = tuple(c for c, _ in wanted)
        self.pips = tuple(n for _, n in wanted)
        self.turn = turn
        params = sorted({spec[2] for spec in specs if spec[1] == TYPES})
        self.basics_max = max((spec[3] for spec in specs if spec[1] == BASICS), default=0)
        self.last: list[int] = []
        self.meets: list[int] = []
        self.basic: list[bool] = []
        self.splits: list[list[list[tuple[int, ...]]]] = []
        caps = _caps(specs, wanted)
        for spec, cap in zip(specs, caps, strict=True):
            if spec[1] == "u":
                last = _DONE
            elif spec[1] == TYPES:
                last = _PENDING_TYPES + params.index(spec[2])
            elif spec[1] == BASICS:
                last = _PENDING_BASICS + spec[3]
            else:
                last = -1  # enters tapped: never the last land
            self.last.append(last)
            self.meets.append(sum(1 << i for i, p in enumerate(params) if set(spec[4]) & set(p)))
            self.basic.append(spec[5])
            produced = tuple(i for i, c in enumerate(colors) if c in spec[0])
            self.splits.append([_splits(produced, self.pips, m) for m in range(cap + 1)])
        self.caps = caps
        self.order = order
        # What the classes read after each one can still bring (``order`` is the reading order): an entry
        # they cannot complete is dropped, and what no later class asks of the others is forgotten, so
        # that more vectors share a profile. ``later_*[kind]``: over the classes after ``kind``.
        self.later_last: list[bool] = [False] * len(specs)
        self.later_meets: list[int] = [0] * len(specs)
        self.later_asks: list[int] = [0] * len(specs)
        self.later_basics: list[int] = [0] * len(specs)
        self.later_battle: list[bool] = [False] * len(specs)
        self.later_supply: list[tuple[int, ...]] = [(0,) * len(self.pips)] * len(specs)
        can_last, meets_after, asks_after, basics_after, battle_after = False, 0, 0, 0, False
        supply = [0] * len(self.pips)
        for kind in reversed(order):
            self.later_last[kind] = can_last
            self.later_meets[kind] = meets_after
            self.later_asks[kind] = asks_after
            self.later_basics[kind] = basics_after
            self.later_battle[kind] = battle_after
            self.later_supply[kind] = tuple(supply)
            usable = min(copies[kind], caps[kind])
            can_last = can_last or self.last[kind] >= 0
            meets_after |= self.meets[kind] if usable else 0
            if _PENDING_TYPES <= self.last[kind] < _PENDING_BASICS:
                asks_after |= 1 << (self.last[kind] - _PENDING_TYPES)
            basics_after += usable if self.basic[kind] else 0
            battle_after = battle_after or self.last[kind] >= _PENDING_BASICS
            for i, c in enumerate(colors):
                if c in specs[kind][0]:
                    supply[i] += usable
        self.work = 0
        self.ids: dict[tuple[_Entry, ...], int] = {}
        self.profiles: list[tuple[_Entry, ...]] = []
        # per class and count: profile -> next profile (the programs' innermost look-up, by int keys)
        self.tables: list[list[dict[int, int]]] = [[{} for _ in range(cap + 1)] for cap in caps]
        self.start = self._number((((0,) * len(self.pips), _NONE, 0, 0, 0),))
        # A set that casts the spell casts it whatever lands come after: every profile holding one is this
        # one profile, which no step leaves.
        self.cast = self._number(((self.pips, _DONE, 0, 0, 0),))

    def checkpoint(self, steps: int) -> None:
        """The deadline, and the bound on the work of one spell (``MAX_WORK``), ``steps`` into a loop."""
        deadline.check()
        if self.work + steps > MAX_WORK or len(self.profiles) > MAX_PROFILES:
            raise TooManyKinds("past the bound")  # caught by ``probabilities_tapped``

    def _number(self, profile: tuple[_Entry, ...]) -> int:
        found = self.ids.get(profile)
        if found is None:
            found = self.ids[profile] = len(self.profiles)
            self.profiles.append(profile)
        return found

    def decide(self, profile: int) -> bool:
        """Whether some set of the profile pays every symbol with its last land untapped."""
        return profile == self.cast

    def step(self, profile: int, kind: int, k: int) -> int:
        """The profile after ``k`` lands of class ``kind`` (``k`` within its cap)."""
        table = self.tables[kind][k]
        found = table.get(profile)
        if found is None:
            if profile == self.cast:
                found = profile
            else:
                found = self._number(self._step(self.profiles[profile], kind, k))
                self.checkpoint(0)  # a step of a large profile is work too: it counts in ``work``
            table[profile] = found
        return found

    def _step(self, profile: tuple[_Entry, ...], kind: int, k: int) -> tuple[_Entry, ...]:
        last = self.last[kind]
        meets = self.meets[kind]
        basic = self.basic[kind]
        pips = self.pips
        can_last = self.later_last[kind]
        asks = self.later_asks[kind]
        battle = self.later_battle[kind]
        basics_left = self.later_basics[kind]
        meets_left = self.later_meets[kind]
        supply = self.later_supply[kind]
        out: dict[tuple[tuple[int, ...], int, int, int], int] = {}
        for i, (a, status, met, basics, size) in enumerate(profile):
            if not i & STATES_PER_CHECK:
                deadline.check()  # every few dozen partial sets of a large profile
            for m in range(min(k, self.turn - size) + 1):
                # m lands of the class join S: y of them (0 or 1) the last land, the others witnesses
                for y in (0, 1):
                    if y and (m == 0 or status != _NONE or last < 0):
                        continue
                    others = m - y
                    met2 = met | meets if others else met
                    basics2 = min(self.basics_max, basics + others) if basic else basics
                    status2 = _resolved(last if y else status, met2, basics2)
                    # a waiting last land asks only its own witnesses; once untapped, nothing more
                    if status2 == _DONE:
                        met2 = basics2 = 0
                    elif status2 >= _PENDING_BASICS:
                        met2 = 0
                    elif status2 >= _PENDING_TYPES:
                        met2 = basics2 = 0
                    if status2 == _NONE:
                        if not can_last:
                            continue  # no later land can be the last one
                        met2 &= asks  # witnesses only a later check land looks for
                        basics2 = basics2 if battle else 0
                    elif status2 >= _PENDING_BASICS:
                        if basics2 + basics_left < status2 - _PENDING_BASICS:
                            continue
                    elif status2 >= _PENDING_TYPES and not meets_left >> (status2 - _PENDING_TYPES) & 1:
                        continue
                    for add in self.splits[kind][m]:
                        a2 = tuple(x + d for x, d in zip(a, add, strict=True))
                        short = 0
                        for x, p, more in zip(a2, pips, supply, strict=True):
                            if x > p or x + more < p:
                                short = -1
                                break
                            short += p - x
                        if short < 0 or size + m + short > self.turn:
                            continue  # pays too much, cannot be completed, or needs too many lands
                        if status2 == _DONE and a2 == pips:
                            return self.profiles[self.cast]
                        entry = (a2, status2, met2, basics2)
                        if out.get(entry, size + m + 1) > size + m:
                            out[entry] = size + m
            self.work += len(out)  # the entries made so far: about the partial sets tried
        kept = _pareto(out)
        self.work += len(out) * len(kept)  # the comparisons that left out the beaten entries
        return kept


def _resolved(status: int, met: int, basics: int) -> int:
    """A waiting last land's status once its witnesses are among the other lands."""
    if status >= _PENDING_BASICS:
        return _DONE if basics >= status - _PENDING_BASICS else status
    if status >= _PENDING_TYPES:
        return _DONE if met >> (status - _PENDING_TYPES) & 1 else status
    return status


def _splits(produced: tuple[int, ...], pips: tuple[int, ...], most: int) -> list[tuple[int, ...]]:
    """Every way at most ``most`` lands producing the colors ``produced`` pay symbols (symbols per color)."""
    out: list[tuple[int, ...]] = [tuple(0 for _ in pips)]
    for i in produced:
        grown = []
        for vec in out:
            used = sum(vec)
            for n in range(min(pips[i], most - used) + 1):
                grown.append(tuple(n if j == i else v for j, v in enumerate(vec)))
        out = grown
    return out


def _pareto(entries: dict[tuple[tuple[int, ...], int, int, int], int]) -> tuple[_Entry, ...]:
    """The entries no other beats, sorted (a canonical profile). One beats another when it is no larger,
    pays at least as many symbols of each color, has its last land untapped or waiting for the same, and
    its other lands meet every condition and count every basic the other's do: any lands completing the
    beaten one complete it too."""
    ranked = sorted(
        entries.items(),
        key=lambda e: (e[1], -sum(e[0][0]), e[0][1] != _DONE, -e[0][2].bit_count(), -e[0][3], e[0]),
    )
    kept: list[_Entry] = []
    for i, ((a, status, met, basics), size) in enumerate(ranked):
        if not i & STATES_PER_CHECK:
            deadline.check()  # every few dozen entries, each compared with those kept
        beaten = False
        for ka, kstatus, kmet, kbasics, ksize in kept:
            if (
                ksize <= size
                and kstatus in (_DONE, status)
                and kmet & met == met
                and kbasics >= basics
                and all(x >= y for x, y in zip(ka, a, strict=True))
            ):
                beaten = True
                break
        if not beaten:
            kept.append((a, status, met, basics, size))
    kept.sort()
    return tuple(kept)


def _bottom_order(specs: tuple[_Spec, ...]) -> list[int]:
    """The classes in the order lands are bottomed (module docstring): off-color first, then fewer of the
    spell's colors, a land entering tapped before one entering untapped."""
    return sorted(
        range(len(specs)), key=lambda j: (len(specs[j][0]) > 0, len(specs[j][0]), specs[j][1] != "t", j)
    )


@bounded("tapped", lambda args: (args, args))
def probabilities_tapped(
    classes: tuple[tuple[_Spec, int], ...],
    nonlands: int,
    wanted: tuple[tuple[str, int], ...],
    turn: int,
    draws: int,
    commander: bool,
) -> tuple[float, float]:
    """(P(success and at least ``turn`` lands), P(at least ``turn`` lands)) over the mulligan stages, or
    ``GAVE_UP``: the work counted is the same on every call, so giving up is an answer and is cached like
    one (a deck asked again does not spend the bound again); running out of time is not (an exception)."""
    try:
        return _probabilities(classes, nonlands, wanted, turn, draws, commander)
    except TooManyKinds:
        return GAVE_UP, GAVE_UP


def _probabilities(
    classes: tuple[tuple[_Spec, int], ...],
    nonlands: int,
    wanted: tuple[tuple[str, int], ...],
    turn: int,
    draws: int,
    commander: bool,
) -> tuple[float, float]:
    specs = tuple(s for s, _ in classes)
    copies = tuple(c for _, c in classes)
    order = _bottom_order(specs)[::-1]  # the bottoming program reads the classes in this order: both do
    sets = _Sets(specs, copies, wanted, turn, order)
    land_total = sum(copies)
    deck = land_total + nonlands
    seen = HAND_SIZE + draws
    weight, bottoming = mulligan_weights(land_total, nonlands, draws, turn, commander)
    success = 0.0
    condition = 0.0
    # Hands that bottomed no land: the lands among the first `seen` cards, by profile and in all.
    states: dict[tuple[int, int], int] = {(sets.start, 0): 1}
    for kind in order:
        deadline.check()  # one land kind of the dynamic program
        c = copies[kind]
        cap = sets.caps[kind]
        grown: dict[tuple[int, int], int] = {}
        for step, ((profile, t), w) in enumerate(states.items()):
            if not step & STATES_PER_CHECK:
                sets.checkpoint(step)  # every few dozen states of the kind
            for k in range(min(c, seen - t) + 1):
                state = (sets.step(profile, kind, min(k, cap)), t + k)
                grown[state] = grown.get(state, 0) + w * comb(c, k)
        sets.work += len(states)
        states = grown
    norm = comb(deck, seen)
    for (profile, t), w in states.items():
        if t < turn or weight[t] == 0.0:
            continue
        p = w * comb(nonlands, seen - t) / norm * weight[t]
        condition += p
        if sets.decide(profile):
            success += p
    # Hands that bottomed lands: one dynamic program per number of lands bottomed.
    for to_bottom in sorted({b for _, b in bottoming}):
        sums = _bottoming(
            specs, copies, wanted, draws, to_bottom, {n for n, b in bottoming if b == to_bottom}, sets
        )
        for (lands, b), chance in bottoming.items():
            if b != to_bottom or lands not in sums:
                continue
            spells_in_hand = HAND_SIZE - lands
            if spells_in_hand > nonlands:
                continue
            library_nonlands = nonlands - spells_in_hand
            scale = comb(nonlands, spells_in_hand) / comb(deck, HAND_SIZE) / comb(deck - HAND_SIZE, draws)
            s_sum = 0
            c_sum = 0
            for drawn, (s, cnd) in sums[lands].items():
                if lands - to_bottom + drawn < turn:
                    continue
                fill = comb(library_nonlands, draws - drawn)
                s_sum += s * fill
                c_sum += cnd * fill
            success += chance * s_sum * scale
            condition += chance * c_sum * scale
    return success, condition


_NON_BASIS: Final = 0
"""Phase: the lands bottomed are the earliest of the lands outside the greedy basis (none bottomed yet
while the count is 0)."""
_BASIS_WAITING: Final = 1
"""Phase: every land outside the basis is bottomed, and some of the basis too, none of them yet."""
_BASIS_STARTED: Final = 2
"""Phase: every land outside the basis is bottomed, and the earliest of the basis, started."""


def _bottoming(
    specs: tuple[_Spec, ...],
    copies: tuple[int, ...],
    wanted: tuple[tuple[str, int], ...],
    draws: int,
    to_bottom: int,
    hand_lands: set[int],
    sets: _Sets,
) -> dict[int, dict[int, tuple[int, int]]]:
    """Per 7-card hand land count and lands drawn: the weighted counts (ways to draw those hand lands and
    those lands, not yet the nonlands) that succeed, and all of them, for hands that bottom ``to_bottom``
    lands.

    The bottoming (one land at a time: the first in ``_bottom_order`` whose loss keeps the most symbols
    payable, else the first) is a matroid greedy: the lands paying symbols together form a transversal
    matroid, a land can go without loss iff it is spanned by the others, and the first such land is the
    first land outside the basis the greedy builds from the last land in that order backwards (a land
    joins the basis iff it adds a paid symbol to the later ones). So the lands bottomed are the earliest
    lands outside that basis, and when there are too few of them, all of them and the earliest lands of
    the basis. Reading the classes in the reverse order, a Hall state of the hand's lands tells how many
    of each class join the basis, and the phase and the count bottomed so far which are bottomed: every
    hand is counted once, in the one phase its lands outside the basis lead to."""
    hall = Hall.of(tuple(spec[0] for spec in specs), wanted)
    most = max(hand_lands)
    fewest = min(hand_lands)
    zero = hall.of_lands(())
    paid_memo: dict[tuple[int, ...], int] = {}

    def paid(h: tuple[int, ...]) -> int:
        found = paid_memo.get(h)
        if found is None:
            found = paid_memo[h] = hall.matched(h) if h else 0  # a colorless spell: no symbol, no basis
        return found

    # (Hall state, lands in hand, phase, lands bottomed) -> (lands drawn, profile) -> weighted count: the
    # hand's bookkeeping is done once for all the draws that share it
    states: dict[tuple[tuple[int, ...], int, int, int], dict[tuple[int, int], int]] = {
        (zero, 0, _NON_BASIS, 0): {(0, sets.start): 1},
    }
    if any(lands - min(hall.pip_total, lands) < to_bottom for lands in hand_lands):
        # a basis has at most one land per symbol: with fewer symbols than that, every hand has enough
        # lands outside it, and no hand bottoms a land of the basis
        states[(zero, 0, _BASIS_WAITING, 0)] = {(0, sets.start): 1}
    left = sum(copies)
    for kind in sets.order:
        deadline.check()  # one land kind of the dynamic program
        c = copies[kind]
        left -= c
        cap = sets.caps[kind]
        tables = sets.tables[kind]
        grown: dict[tuple[tuple[int, ...], int, int, int], dict[tuple[int, int], int]] = {}
        step = 0
        for (h, lands, phase, gone), seen in states.items():
            before = paid(h)
            for k in range(min(c, most - lands) + 1):
                if lands + k + left < fewest:
                    continue  # the later classes cannot fill the hand
                h2 = hall.add(h, kind, k)
                basis = paid(h2) - before
                for phase2, bottomed in _removals(phase, gone, k - basis, basis, to_bottom):
                    if gone + bottomed + most - lands - k < to_bottom:
                        continue  # too few lands can still come to the hand to bottom enough of them
                    kept = k - bottomed
                    into = grown.setdefault((h2, lands + k, phase2, gone + bottomed), {})
                    ways = [comb(c, k) * comb(c - k, d) for d in range(c - k + 1)]
                    counts = [min(kept + d, cap) for d in range(c - k + 1)]
                    for (drawn, profile), w in seen.items():
                        step += 1
                        if not step & STATES_PER_CHECK:
                            sets.checkpoint(step)  # every few dozen states of the kind
                        for d in range(min(c - k, draws - drawn) + 1):
                            n = counts[d]
                            nxt = tables[n].get(profile)
                            if nxt is None:
                                nxt = sets.step(profile, kind, n)
                            state = (drawn + d, nxt)
                            into[state] = into.get(state, 0) + w * ways[d]
        sets.work += step
        states = grown
    sums: dict[int, dict[int, tuple[int, int]]] = {}
    for (_, lands, phase, gone), seen in states.items():
        if lands not in hand_lands or gone != to_bottom or phase == _BASIS_WAITING:
            continue
        by_drawn = sums.setdefault(lands, {})
        for (drawn, profile), w in seen.items():
            s, cnd = by_drawn.get(drawn, (0, 0))
            by_drawn[drawn] = (s + w if sets.decide(profile) else s, cnd + w)
    return sums


def _removals(phase: int, gone: int, spanned: int, basis: int, to_bottom: int) -> list[tuple[int, int]]:
    """(next phase, lands of this class bottomed) for a class with ``spanned`` lands outside the basis and
    ``basis`` in it, read after the later classes (``_bottoming``)."""
    if phase == _NON_BASIS:
        # the earliest lands outside the basis: once one is bottomed, every earlier one is
        options = [spanned] if gone else list(range(spanned + 1))
        return [(phase, n) for n in options if gone + n <= to_bottom]
    # every land outside the basis, and the earliest of the basis
    if phase == _BASIS_STARTED:
        return [(phase, spanned + basis)] if gone + spanned + basis <= to_bottom else []
    return [
        (_BASIS_STARTED if n else _BASIS_WAITING, spanned + n)
        for n in range(basis + 1)
        if gone + spanned + n <= to_bottom
    ]
