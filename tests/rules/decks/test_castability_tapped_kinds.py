"""The ``tapped-lands`` castability model on decks with many distinct kinds of land (``castability_tapped``),
checked against two computations written without any of its code:

1. Exact, by enumeration, on small decks whose every land is a kind of its own: every 7-card hand of every
   mulligan stage and every set of cards drawn after it, the hand kept or bottomed and the spell cast or not
   decided by the brute force of ``test_castability_tapped`` (every set of ``turn`` lands seen, every land
   of it played last, its entering condition read against the others, a matching of the symbols). Equal to
   1e-12: the model is exact, so any wrong count of a hand, a bottomed land or a profile shows.
2. The Monte Carlo simulation of ``test_castability_tapped`` on Commander decks of 36 or 37 lands in 20 to
   30 kinds (check lands, fast lands, tri-lands, fetch lands, shock lands, a battle land, basics) in three
   and five colors, which the model used to answer with no probability. Fixed seed, 20,000 games per case,
   the exact value within 4 standard errors of the simulated frequency; the same simulation puts the value
   of the deck with every land untapped more than 10 standard errors away, so the check can fail.
3. A five-color spell in the five-color deck is past the bound of work: no probability, and the give-up
   kept in the cache like an answer.
"""

from __future__ import annotations

import time
from functools import cache
from itertools import combinations
from math import comb

import pytest

from app.rules.decks import castability_cache
from app.rules.decks.castability_exact import HAND_SIZE
from app.rules.decks.castability_tapped import TappedKind, TooManyKinds, cast_probability_tapped
from app.rules.decks.entering import EntryRule
from tests.rules.decks.test_castability_tapped import _bottom, _cast, _simulate

F = frozenset
U = EntryRule("untapped")
T = EntryRule("tapped")
BASIC_TYPE = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def _basic(color: str) -> TappedKind:
    return TappedKind(F(color), U, F({BASIC_TYPE[color]}), basic=True)


def _check(pair: str) -> TappedKind:
    return TappedKind(F(pair), EntryRule("types", types=tuple(BASIC_TYPE[c] for c in pair)))


def _shock(pair: str) -> TappedKind:
    return TappedKind(F(pair), EntryRule("life", n=2), F(BASIC_TYPE[c] for c in pair))


def _fast(pair: str) -> TappedKind:
    return TappedKind(F(pair), EntryRule("at_most_other", n=2))


def _battle(pair: str) -> TappedKind:
    return TappedKind(F(pair), EntryRule("basics", n=2), F(BASIC_TYPE[c] for c in pair))


# --- 1. exact enumeration on small decks ------------------------------------------------------------------


def _enumerated(
    size: int, lands: dict[TappedKind, int], pips: dict[str, int], turn: int, on_play: bool, commander: bool
) -> float:
    """P(cast on curve | at least ``turn`` lands seen), by enumerating every hand of every mulligan stage and
    every draw after it (each stage a fresh shuffle: its hands and draws are uniform)."""
    kinds = [k for k, n in lands.items() for _ in range(n)]
    cards = list(range(size))  # card i < len(kinds) is the land kinds[i], the others nonlands
    draws = turn if (commander or not on_play) else turn - 1

    @cache
    def outcome(seen: tuple[int, ...]) -> bool:
        return _cast([kinds[i] for i in seen], pips, turn)

    @cache
    def kept_after_bottoming(hand_lands: tuple[int, ...], count: int) -> tuple[int, ...]:
        kept = _bottom([kinds[i] for i in hand_lands], count, pips)
        out: list[int] = []
        for land in kept:  # back to card numbers: the first unused card of that kind
            out.append(next(i for i in hand_lands if kinds[i] == land and i not in out))
        return tuple(sorted(out))

    # (bottomed cards, 7-card land counts mulliganed) per stage, as the simulation plays them
    stages = [(0, {0, 1, 2, 6, 7})] if commander else []
    stages += [(0, {0, 1, 6, 7}), (1, set()), (2, set()), (3, set())]
    reach = 1.0
    success = condition = 0.0
    hands = comb(size, HAND_SIZE)
    for bottom, mulligan_at in stages:
        mulligans = 0.0
        for hand in combinations(cards, HAND_SIZE):
            hand_lands = tuple(i for i in hand if i < len(kinds))
            n = len(hand_lands)
            if bottom == 0:
                kept = hand_lands
                keep = n not in mulligan_at
            else:
                kept = kept_after_bottoming(hand_lands, min(bottom, max(0, n - 3)))
                keep = bottom == 3 or 2 <= len(kept) <= 4
            if not keep:
                mulligans += 1
                continue
            library = [i for i in cards if i not in hand]
            for drawn in combinations(library, draws):
                seen = tuple(sorted(kept + tuple(i for i in drawn if i < len(kinds))))
                if len(seen) < turn:
                    continue
                p = reach / hands / comb(len(library), draws)
                condition += p
                if outcome(seen):
                    success += p
        reach *= mulligans / hands
    return success / condition


SMALL_CASES = [
    # every land a kind of its own; the values are 82% to 98%, 1 to 17 points below the same deck with every
    # land untapped, so a wrong entering rule or a wrongly counted hand shows
    pytest.param(
        13,
        {_basic("R"): 1, _basic("G"): 1, _check("RG"): 1, _fast("RG"): 1, TappedKind(F("RG"), T): 1,
         TappedKind(F("RGW"), T): 1},
        {"R": 1, "G": 1}, 2, True, False, id="six-kinds-RG-t2",
    ),
    pytest.param(
        13,
        {_basic("R"): 1, _check("RW"): 1, TappedKind(F("RW"), T): 1, _fast("RW"): 1, TappedKind(F(""), U): 1,
         _basic("W"): 1},
        {"R": 1}, 1, True, False, id="six-kinds-R-t1",
    ),
    pytest.param(
        16,
        {_basic("W"): 1, _basic("U"): 1, _check("WU"): 1, _battle("WU"): 1, TappedKind(F("WUB"), T): 1,
         _fast("WB"): 1, _shock("UB"): 1},
        {"W": 1, "U": 1}, 2, True, False, id="seven-kinds-WU-t2",
    ),
    pytest.param(
        15,
        {_basic("G"): 1, _check("GW"): 1, _battle("GW"): 1, TappedKind(F("GW"), T): 1, _basic("W"): 1,
         TappedKind(F("G"), U, F({"Forest", "Plains"})): 1},
        {"G": 2}, 2, True, True, id="commander-rules-GG-t2",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("size", "lands", "pips", "turn", "on_play", "commander"), SMALL_CASES)
def test_exact_on_small_decks_of_distinct_kinds(
    size: int, lands: dict[TappedKind, int], pips: dict[str, int], turn: int, on_play: bool, commander: bool
) -> None:
    exact = cast_probability_tapped(size, lands, pips, turn, on_play=on_play, commander=commander)
    assert exact == pytest.approx(_enumerated(size, lands, pips, turn, on_play, commander), abs=1e-12)


# --- 2. Commander decks of many kinds, against the simulation --------------------------------------------


def _fetch(pair: str) -> TappedKind:
    """A fetch land finding a basic of either type: untapped, the types and the basic supertype it finds."""
    return TappedKind(F(pair), U, F(BASIC_TYPE[c] for c in pair), basic=True)


def _naya() -> dict[TappedKind, int]:
    """36 lands in 23 kinds: 15 basics, and per pair a shock, a check, a fast land, a fetch land, a gain
    land; a tri-land (2), Command Tower, a battle land, two pathways."""
    deck: dict[TappedKind, int] = {_basic(c): 5 for c in "RGW"}
    for pair in ("RG", "RW", "GW"):
        deck.update({_shock(pair): 1, _check(pair): 1, _fast(pair): 1, _fetch(pair): 1})
        deck[TappedKind(F(pair), T, F({"Desert"}) if pair == "RG" else F())] = 1
    deck[TappedKind(F("RGW"), T, F({"Mountain", "Forest", "Plains"}))] = 2
    deck[TappedKind(F("RGW"), U)] = 1
    deck[_battle("GW")] = 1
    deck[TappedKind(F("RG"), U)] = 1
    deck[TappedKind(F("RW"), U)] = 1
    return deck


def _five_color() -> dict[TappedKind, int]:
    """37 lands in 32 kinds: 10 basics, the ten shock lands, five check lands, three fast lands, three
    tri-lands, three fetch lands, Command Tower, a battle land, a pathway."""
    pairs = [a + b for i, a in enumerate("WUBRG") for b in "WUBRG"[i + 1 :]]
    deck: dict[TappedKind, int] = {_basic(c): 2 for c in "WUBRG"}
    deck.update({_shock(pair): 1 for pair in pairs})
    deck.update({_check(pair): 1 for pair in pairs[:5]})
    deck.update({_fast(pair): 1 for pair in pairs[5:8]})
    deck.update({TappedKind(F(tri), T): 1 for tri in ("WUB", "BRG", "RGW")})
    deck.update({_fetch(pair): 1 for pair in pairs[-3:]})
    deck[TappedKind(F("WUBRG"), U)] = 1
    deck[_battle("RG")] = 1
    deck[TappedKind(F("UB"), U)] = 1
    return deck


NAYA = _naya()
FIVE = _five_color()


@pytest.mark.parametrize(
    ("lands", "pips", "turn"),
    [
        pytest.param(NAYA, {"R": 1}, 1, id="naya-R-t1"),
        pytest.param(NAYA, {"G": 1, "W": 1}, 2, id="naya-GW-t2"),
        pytest.param(NAYA, {"R": 1, "G": 1, "W": 1}, 3, id="naya-RGW-t3"),
        pytest.param(FIVE, {"U": 1, "B": 1}, 2, id="five-UB-t2"),
        pytest.param(FIVE, {"W": 2}, 3, id="five-WW-t3"),
    ],
)
def test_commander_decks_of_many_kinds_match_the_simulation(
    lands: dict[TappedKind, int], pips: dict[str, int], turn: int
) -> None:
    assert len(lands) >= 20 and 36 <= sum(lands.values()) <= 38, (len(lands), sum(lands.values()))
    exact = cast_probability_tapped(99, lands, pips, turn, commander=True)
    simulated, se = _simulate(99, lands, pips, turn, True, True)
    assert abs(exact - simulated) <= 4 * se, (exact, simulated, se)


def test_the_commander_check_can_fail() -> None:
    # The same deck with every land entering untapped: a turn-1 {R} is then cast whenever a red land is seen,
    # far more often; the simulation of the real deck tells the two apart by more than 10 standard errors.
    untapped: dict[TappedKind, int] = {}
    for k, n in NAYA.items():
        plain = TappedKind(k.colors, U, k.types, k.basic)
        untapped[plain] = untapped.get(plain, 0) + n
    wrong = cast_probability_tapped(99, untapped, {"R": 1}, 1, commander=True)
    simulated, se = _simulate(99, NAYA, {"R": 1}, 1, True, True)
    assert abs(wrong - simulated) > 10 * se, (wrong, simulated, se)


def test_a_spell_past_the_bound_gets_no_probability_and_the_answer_is_kept() -> None:
    # {W}{U}{B}{R}{G} on turn 5 over 32 kinds: past MAX_WORK. The work counted is the same on every call, so
    # giving up is cached like an answer: asking again costs a look-up, not the bound again.
    five = {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}
    castability_cache.cache_clear()
    with pytest.raises(TooManyKinds, match="more than"):
        cast_probability_tapped(99, FIVE, five, 5, commander=True)
    started = time.process_time()
    with pytest.raises(TooManyKinds):
        cast_probability_tapped(99, FIVE, five, 5, commander=True)
    assert time.process_time() - started < 0.05
