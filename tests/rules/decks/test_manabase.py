"""The mana-base advisor's search (app/rules/decks/manabase.py): fewest swaps, exact against brute force on
small mana bases, honest at its bound."""

from __future__ import annotations

import time
from itertools import combinations_with_replacement

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.decks.manabase import LandKind, best_plan, plan, sources

F = frozenset


def test_duals_keep_the_other_color() -> None:
    # 16 Mountains, 4 Plains; 8 white sources and 16 red wanted: each Mountain that becomes a Sacred Foundry
    # adds white and keeps red, four of them (the most a deck holds).
    lands = [
        LandKind("Mountain", F("R"), 16, 40),
        LandKind("Plains", F("W"), 4, 40),
        LandKind("Foundry", F("RW"), 0, 4),
    ]
    found = plan(lands, {"W": 8, "R": 16}, max_changes=10)
    assert found.swaps is not None
    assert [(s.remove, s.add, s.count) for s in found.swaps] == [("Mountain", "Foundry", 4)]
    assert found.complete


def test_no_plan_is_proven_within_the_bound() -> None:
    lands = [
        LandKind("Mountain", F("R"), 16, 40),
        LandKind("Plains", F("W"), 4, 40),
        LandKind("Foundry", F("RW"), 0, 4),
    ]
    found = plan(lands, {"W": 10, "R": 16}, max_changes=10)  # 4 Foundries give 8 white; a Plains costs red
    assert found.swaps is None and found.complete


def test_bound_reached_says_so() -> None:
    basics = [LandKind(c, F(c), 5, 99) for c in "WUBRG"]
    duals = [LandKind(p, F(p), 0, 1) for p in ("WU", "UB", "BR", "RG", "GW", "WB", "UR", "BG", "RW", "GU")]
    found = plan(basics + duals, dict.fromkeys("WUBRG", 7), max_changes=12, max_nodes=500)
    assert not found.complete and found.swaps is None
    assert (
        found.proven_below >= 5
    )  # no color can gain 2 in fewer than 2 swaps, nor the total 10 in fewer than 5


def test_modal_lands_are_never_taken_out() -> None:
    lands = [
        LandKind("Call", F("W"), 4, 0, removable=False),
        LandKind("Mountain", F("R"), 16, 40),
        LandKind("Plains", F("W"), 0, 40),
    ]
    found = plan(lands, {"W": 6}, max_changes=5)
    assert found.swaps is not None and {s.remove for s in found.swaps} == {"Mountain"}


def _brute(lands: list[LandKind], need: dict[str, int], limit: int) -> int | None:
    pairs = [(r, a) for r in range(len(lands)) for a in range(len(lands)) if r != a]
    for k in range(limit + 1):
        for combo in combinations_with_replacement(pairs, k):
            counts = [land.count for land in lands]
            added = [0] * len(lands)
            ok = True
            for r, a in combo:
                counts[r] -= 1
                counts[a] += 1
                added[a] += 1
                if counts[r] < 0 or added[a] > lands[a].addable or not lands[r].removable:
                    ok = False
            if ok and all(sources(lands, counts)[c] >= n for c, n in need.items()):
                return k
    return None


KINDS = st.sampled_from([F("W"), F("U"), F("R"), F("WU"), F("UR"), F("WR"), F(), F("WUR")])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(KINDS, st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=4),
    st.dictionaries(st.sampled_from("WUR"), st.integers(0, 6), max_size=3),
)
def test_fewest_swaps_match_brute_force(
    kinds: list[tuple[frozenset[str], int, int]], need: dict[str, int]
) -> None:
    lands = [LandKind(str(i), colors, count, addable) for i, (colors, count, addable) in enumerate(kinds)]
    found = plan(lands, need, max_changes=4)
    expected = _brute(lands, need, 4)
    assert found.complete
    if expected is None:
        assert found.swaps is None
    else:
        assert found.swaps is not None and sum(s.count for s in found.swaps) == expected


def test_a_thousand_lands_are_searched_by_their_colors() -> None:
    # Only colors count toward the target, so 1,000 distinct lands are at most 32 groups a side: the search
    # answers at once, and its swaps name real lands within their copies.
    sets = [F(c) for c in ("W", "U", "B", "R", "G", "WU", "UB", "BR", "RG", "GW")]
    lands = [LandKind(f"l{i}", sets[i % 10], 1, 0) for i in range(900)]
    lands += [LandKind(f"c{i}", sets[i % 10] | F("W"), 0, 1) for i in range(100)]
    started = time.perf_counter()
    found = plan(lands, {"W": 280}, max_changes=30)
    assert time.perf_counter() - started < 1.0
    assert found.swaps is not None and sum(s.count for s in found.swaps) == 10  # 270 white now, +1 a swap
    by_key = {land.key: land for land in lands}
    for swap in found.swaps:
        assert swap.count <= by_key[swap.remove].count and swap.count <= by_key[swap.add].addable
        assert "W" not in by_key[swap.remove].colors and "W" in by_key[swap.add].colors


# --- the best plan when not every spell can get there ----------------------------------------------------


def _best_brute(lands: list[LandKind], needs: list[dict[str, int]], limit: int) -> tuple[int, int, int]:
    """(spells reached, -shortfall, -swaps) of the best plan, by trying every multiset of swaps."""
    pairs = [(r, a) for r in range(len(lands)) for a in range(len(lands)) if r != a]
    best: tuple[int, int, int] | None = None
    for k in range(limit + 1):
        for combo in combinations_with_replacement(pairs, k):
            counts = [land.count for land in lands]
            added = [0] * len(lands)
            ok = True
            for r, a in combo:
                counts[r] -= 1
                counts[a] += 1
                added[a] += 1
                if counts[r] < 0 or added[a] > lands[a].addable or not lands[r].removable:
                    ok = False
            if not ok:
                continue
            have = sources(lands, counts)
            reached = sum(all(have[c] >= n for c, n in need.items()) for need in needs)
            short = sum(max(0, n - have[c]) for need in needs for c, n in need.items())
            score = (reached, -short, -k)
            if best is None or score > best:
                best = score
    assert best is not None
    return best


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(KINDS, st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=4),
    st.lists(st.dictionaries(st.sampled_from("WUR"), st.integers(0, 6), max_size=2), min_size=1, max_size=3),
)
def test_best_plan_matches_brute_force(
    kinds: list[tuple[frozenset[str], int, int]], needs: list[dict[str, int]]
) -> None:
    # The best plan (API 1.3: "the most spells reached, then the smallest total shortfall"), then the
    # fewest swaps, against every multiset of up to 3 swaps.
    lands = [LandKind(str(i), colors, count, addable) for i, (colors, count, addable) in enumerate(kinds)]
    found = best_plan(lands, needs, max_changes=3)
    assert found.complete
    counts = {land.key: land.count for land in lands}
    for s in found.swaps:
        counts[s.remove] -= s.count
        counts[s.add] += s.count
    have = sources(lands, [counts[land.key] for land in lands])
    reached = sum(all(have[c] >= n for c, n in need.items()) for need in needs)
    short = sum(max(0, n - have[c]) for need in needs for c, n in need.items())
    swaps = sum(s.count for s in found.swaps)
    assert (reached, -short, -swaps) == _best_brute(lands, needs, 3)
    assert (len(found.reached), found.shortfall) == (reached, short)
