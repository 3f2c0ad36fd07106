"""The ``tapped-lands`` castability model: Karsten's model (``castability``) where a land that enters tapped
cannot pay on the turn it is played. Exact, by enumeration over land kinds, with the same mulligan rule.

The model. A spell of mana value ``T`` is tested on turn ``T``, given at least ``T`` lands seen by then (as
in Karsten's model, the turn each land was drawn is not tracked: the lands seen are played in the best
order). On turn ``T`` the player controls ``T`` lands, one played each turn; the lands played on turns 1 to
``T - 1`` have untapped (CR 502.3), and the one played on turn ``T`` pays only if it entered untapped
(CR 110.5b, 107.5), which its rule (``entering.EntryRule``) decides from the ``T - 1`` other lands. So the
spell is cast on curve when some set ``S`` of ``T`` lands seen holds a land ``l`` that enters untapped with
``S - {l}`` already in play, and ``S`` pays the spell's colored symbols together (a matching, one land one
symbol, CR 106.7, 601.2g-h). The other ``T - P`` lands of ``S`` (``P`` colored symbols) pay generic mana.

A check land needs a land of its types among the others, a battle land two basic lands: those lands are
*witnesses* that must be in ``S``. With ``R`` = ``l`` and its witnesses, ``S`` exists iff the lands seen
pay the symbols with a matching that uses at least ``P + |R| - T`` of ``R`` (the rest of ``S`` is any other
lands seen, and at least ``T`` were seen). That is decided (``_decide``) on the lands seen per kind capped
at what a set ``S`` can use of it (``_caps``): the symbols of its colors (the matching), one more if it may
be played last, ``w`` more if it may be a witness (``w`` the most witnesses a rule asks); the rest of ``S``
are fillers, any lands.

The mulligans are Karsten's (``castability_exact``): 7-card hands mulliganed with 0, 1, 6 or 7 lands, the
bottomed cards aiming for 3 lands (spells first), lands bottomed one at a time: first those producing none
of the spell's colors, then the one whose loss keeps the most symbols payable, then the one with the
fewest of the spell's colors, a land entering tapped before one entering untapped; Commander's free first
mulligan and turn-1 draw. Hands that bottom no land are summed by a dynamic program over the kinds on the
first ``7 + draws`` cards; hands that bottom lands are enumerated, each followed by a dynamic program over
its draws, as in ``castability_exact``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Final

from app.rules import deadline
from app.rules.decks.castability_cache import bounded
from app.rules.decks.castability_exact import HAND_SIZE, STATES_PER_CHECK, CastabilityError, mulligan_weights
from app.rules.decks.entering import BASICS, TAPPED, TYPES, UNTAPPED, EntryRule

COLOR_ORDER: Final = "WUBRG"
MAX_STATES: Final = 30000
"""The most land-seen vectors (the product over kinds of the copies a set of lands can use, plus one) the
exact enumeration takes on; past it the spell's probability is not given (``TooManyKinds``)."""


MAX_HANDS: Final = 4_000
"""The most 7-card hands of 4 to 7 lands (by kind) the exact enumeration of bottomed hands takes on."""


def _count_hands(copies: tuple[int, ...]) -> int:
    """How many per-kind land vectors of 4 to 7 lands (each within its copies) there are."""
    ways = [1] + [0] * HAND_SIZE
    for c in copies:
        ways = [sum(ways[t - k] for k in range(min(c, t) + 1)) for t in range(HAND_SIZE + 1)]
    return sum(ways[4:])


class TooManyKinds(CastabilityError):
    """The deck's lands fall into more distinct kinds for this spell than the exact enumeration takes on."""


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
    caps = _caps(tuple(s for s, _ in classes), wanted)
    space = 1
    for (_, copies), cap in zip(classes, caps, strict=True):
        space *= min(copies, cap) + 1
    hands = _count_hands(tuple(c for _, c in classes))
    if space > MAX_STATES or hands > MAX_HANDS:
        raise TooManyKinds(
            f"{len(classes)} kinds of land for this spell ({space} vectors of lands seen, at most"
            f" {MAX_STATES};"
            f" {hands} hands that bottom lands, at most {MAX_HANDS})"
        )
    draws = turn if (commander or not on_play) else turn - 1
    success, condition = probabilities_tapped(classes, deck_size - land_count, wanted, turn, draws, commander)
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


class _Decider:
    """Decides, for the lands seen (a capped count vector over the projected kinds), whether the spell is
    cast on curve (module docstring); memoized per vector."""

    def __init__(self, specs: tuple[_Spec, ...], wanted: tuple[tuple[str, int], ...], turn: int) -> None:
        self.specs = specs
        self.colors = tuple(c for c, _ in wanted)
        self.pips = tuple(n for _, n in wanted)
        self.total = sum(self.pips)
        self.turn = turn
        self.subsets = [
            tuple(s)
            for size in range(1, len(self.colors) + 1)
            for s in combinations(range(len(self.colors)), size)
        ]
        self.touch = tuple(
            tuple(any(self.colors[c] in spec[0] for c in s) for s in self.subsets) for spec in specs
        )
        self.caps = _caps(specs, wanted)
        self.draws_memo: dict[tuple[object, ...], tuple[int, int]] = {}
        self.matched_memo: dict[tuple[int, ...], int] = {}
        self.memo: dict[tuple[int, ...], bool] = {}

    def pays(self, vec: list[int] | tuple[int, ...], need: tuple[int, ...]) -> bool:
        """Hall's condition: every set of the spell's colors is touched by at least its symbols' lands."""
        for j, s in enumerate(self.subsets):
            wanted = sum(need[c] for c in s)
            if wanted and sum(v for v, t in zip(vec, self.touch, strict=True) if t[j]) < wanted:
                return False
        return True

    def decide(self, vec: tuple[int, ...]) -> bool:
        found = self.memo.get(vec)
        if found is None:
            found = self._decide(vec)
            if len(self.memo) > 50_000:
                self.memo.clear()
            self.memo[vec] = found
        return found

    def _decide(self, vec: tuple[int, ...]) -> bool:
        if not self.pays(vec, self.pips):
            return False
        for last, spec in enumerate(self.specs):
            if vec[last] == 0 or spec[1] == "t":
                continue
            for required in self._required_sets(vec, last, spec):
                if self._fits(vec, required):
                    return True
        return False

    def _required_sets(self, vec: tuple[int, ...], last: int, spec: _Spec) -> list[tuple[int, ...]]:
        """The land ``last`` played on the turn with the witnesses its rule asks among the other lands, as
        count vectors (every minimal choice)."""
        base = [0] * len(vec)
        base[last] = 1
        if spec[1] == "u":
            return [tuple(base)]
        if spec[1] == TYPES:
            out = []
            for j, other in enumerate(self.specs):
                if set(other[4]) & set(spec[2]) and vec[j] - base[j] >= 1:
                    r = list(base)
                    r[j] += 1
                    out.append(tuple(r))
            return out
        # basics: spec[3] basic lands among the others, chosen among the basic kinds
        basic_kinds = [j for j, other in enumerate(self.specs) if other[5]]
        out = []
        for chosen in _multisets(basic_kinds, spec[3]):
            r = list(base)
            for j in chosen:
                r[j] += 1
            if all(r[j] <= vec[j] for j in range(len(vec))):
                out.append(tuple(r))
        return out

    def _fits(self, vec: tuple[int, ...], required: tuple[int, ...]) -> bool:
        """Whether a set of ``turn`` lands holds ``required`` and pays the symbols: the matching must use at
        least ``P + |R| - T`` of the required lands."""
        size = sum(required)
        must = self.total + size - self.turn
        if must <= 0:
            return True  # the lands pay the symbols (checked); R and fillers complete the set
        if must > size:
            return False
        items = [j for j, n in enumerate(required) for _ in range(n)]
        return any(self._matched_with(vec, used) for used in set(combinations(items, must)))

    def _matched_with(self, vec: tuple[int, ...], used: tuple[int, ...]) -> bool:
        """Whether a matching paying every symbol uses each land of ``used`` (kinds, repeated per land)."""
        rest = list(vec)
        for j in used:
            rest[j] -= 1

        def assign(i: int, need: list[int]) -> bool:
            if i == len(used):
                return self.pays(rest, tuple(need))
            spec_colors = self.specs[used[i]][0]
            for c, color in enumerate(self.colors):
                if color in spec_colors and need[c] > 0:
                    need[c] -= 1
                    ok = assign(i + 1, need)
                    need[c] += 1
                    if ok:
                        return True
            return False

        return assign(0, list(self.pips))

    def matched(self, vec: list[int]) -> int:
        """The most symbols these lands pay together (Hall's deficiency form), memoized."""
        key = tuple(vec)
        found = self.matched_memo.get(key)
        if found is None:
            if len(self.matched_memo) > 50_000:
                self.matched_memo.clear()
            found = self.matched_memo[key] = self._matched(vec)
        return found

    def _matched(self, vec: list[int]) -> int:
        worst = 0
        for j, s in enumerate(self.subsets):
            lack = sum(self.pips[c] for c in s) - sum(v for v, t in zip(vec, self.touch, strict=True) if t[j])
            worst = max(worst, lack)
        return self.total - worst


def _multisets(kinds: list[int], size: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    if not kinds:
        return []
    first, rest = kinds[0], kinds[1:]
    out = [(first, *m) for m in _multisets(kinds, size - 1)]
    return out + _multisets(rest, size)


def _capped(vec: list[int] | tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(min(v, cap) for v, cap in zip(vec, caps, strict=True))


def _compositions(copies: tuple[int, ...], total: int) -> list[tuple[int, ...]]:
    """Every per-kind count vector (each within its copies) summing to ``total``."""
    out: list[tuple[int, ...]] = []
    vec = [0] * len(copies)

    def rec(i: int, left: int) -> None:
        if i == len(copies):
            if left == 0:
                out.append(tuple(vec))
            return
        for k in range(min(copies[i], left) + 1):
            vec[i] = k
            rec(i + 1, left - k)
        vec[i] = 0

    rec(0, total)
    return out


def _bottom(hand: tuple[int, ...], count: int, decider: _Decider) -> tuple[int, ...]:
    """The hand's lands after bottoming ``count`` lands one at a time (module docstring's order)."""
    specs = decider.specs
    vec = list(hand)
    order = sorted(
        range(len(vec)), key=lambda j: (len(specs[j][0]) > 0, len(specs[j][0]), specs[j][1] != "t", j)
    )
    for _ in range(count):
        now = decider.matched(vec)
        chosen = -1
        for j in order:
            if vec[j] == 0:
                continue
            if chosen < 0:
                chosen = j
            vec[j] -= 1
            keeps = decider.matched(vec) == now
            vec[j] += 1
            if keeps:
                chosen = j
                break
        vec[chosen] -= 1
    return tuple(vec)


@bounded("tapped", lambda args: (args, args))
def probabilities_tapped(
    classes: tuple[tuple[_Spec, int], ...],
    nonlands: int,
    wanted: tuple[tuple[str, int], ...],
    turn: int,
    draws: int,
    commander: bool,
) -> tuple[float, float]:
    """(P(success and at least ``turn`` lands), P(at least ``turn`` lands)) over the mulligan stages."""
    specs = tuple(s for s, _ in classes)
    copies = tuple(c for _, c in classes)
    decider = _Decider(specs, wanted, turn)
    caps = decider.caps
    land_total = sum(copies)
    deck = land_total + nonlands
    seen = HAND_SIZE + draws
    weight, bottoming = mulligan_weights(land_total, nonlands, draws, turn, commander)
    success = 0.0
    condition = 0.0
    # Hands that bottomed no land: the lands among the first `seen` cards, by kind (capped) and in all.
    states: dict[tuple[tuple[int, ...], int], int] = {(tuple(0 for _ in copies), 0): 1}
    for kind, c in enumerate(copies):
        deadline.check()  # one land kind of the dynamic program
        grown: dict[tuple[tuple[int, ...], int], int] = {}
        for step, ((vec, t), w) in enumerate(states.items()):
            if not step & STATES_PER_CHECK:
                deadline.check()  # every few dozen states of the kind
            for k in range(min(c, seen - t) + 1):
                nxt = list(vec)
                nxt[kind] = min(k, caps[kind])
                state = (tuple(nxt), t + k)
                grown[state] = grown.get(state, 0) + w * comb(c, k)
        states = grown
    norm = comb(deck, seen)
    for (vec, t), w in states.items():
        if t < turn or weight[t] == 0.0:
            continue
        p = w * comb(nonlands, seen - t) / norm * weight[t]
        condition += p
        if decider.decide(vec):
            success += p
    # Hands that bottomed lands: each 7-card hand by kind, then its draws.
    for (lands, to_bottom), chance in bottoming.items():
        spells_in_hand = HAND_SIZE - lands
        if spells_in_hand > nonlands:
            continue
        library_nonlands = nonlands - spells_in_hand
        scale = comb(nonlands, spells_in_hand) / comb(deck, HAND_SIZE) / comb(deck - HAND_SIZE, draws)
        lands_needed = turn - (lands - to_bottom)
        s_sum = 0
        c_sum = 0
        for hand in _compositions(copies, lands):
            deadline.check()  # one kept hand
            w_hand = 1
            for k, c in zip(hand, copies, strict=True):
                w_hand *= comb(c, k)
            start = _capped(_bottom(hand, to_bottom, decider), caps)
            library = tuple(c - k for c, k in zip(copies, hand, strict=True))
            s, cnd = _draws(start, library, library_nonlands, draws, lands_needed, decider)
            s_sum += w_hand * s
            c_sum += w_hand * cnd
        success += chance * s_sum * scale
        condition += chance * c_sum * scale
    return success, condition


def _draws(
    start: tuple[int, ...],
    library: tuple[int, ...],
    nonlands: int,
    draws: int,
    lands_needed: int,
    decider: _Decider,
) -> tuple[int, int]:
    """Weighted counts of the ``draws`` cards after a kept hand that (succeed, reach ``lands_needed``).

    Kinds the kept hand already holds up to their cap change nothing when drawn: they are pooled as plain
    lands (counted, not tracked), as ``castability_exact`` does; the rest go through a dynamic program
    whose state is (lands seen per kind, capped; lands drawn). Memoized per call of the model."""
    caps = decider.caps
    lacking = tuple(-1 if start[j] >= caps[j] else n for j, n in enumerate(library))
    pool = sum(n for j, n in enumerate(library) if lacking[j] < 0)
    key = (start, lacking, pool, nonlands, draws, lands_needed)
    found = decider.draws_memo.get(key)
    if found is not None:
        return found
    states: dict[tuple[tuple[int, ...], int], int] = {(start, 0): 1}
    for kind, n in enumerate(lacking):
        if n <= 0:
            continue
        grown: dict[tuple[tuple[int, ...], int], int] = {}
        cap = caps[kind]
        for (vec, drawn), w in states.items():
            for k in range(min(n, draws - drawn) + 1):
                if k:
                    nxt = list(vec)
                    nxt[kind] = min(nxt[kind] + k, cap)
                    state = (tuple(nxt), drawn + k)
                else:
                    state = (vec, drawn)
                grown[state] = grown.get(state, 0) + w * comb(n, k)
        states = grown
    # tail[m]: ways to fill the draws after m tracked lands with pooled lands and nonlands, enough lands.
    tail = [
        sum(
            comb(pool, q) * comb(nonlands, draws - m - q)
            for q in range(max(0, lands_needed - m), draws - m + 1)
        )
        for m in range(draws + 1)
    ]
    success = 0
    condition = 0
    for (vec, drawn), w in states.items():
        ways = w * tail[drawn]
        if ways:
            condition += ways
            if decider.decide(vec):
                success += ways
    out = (success, condition)
    if len(decider.draws_memo) > 20_000:
        decider.draws_memo.clear()
    decider.draws_memo[key] = out
    return out
