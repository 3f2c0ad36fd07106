"""The castability caches stay within their entries and bytes (a five-color deck once grew a worker from
218 MB to 1.1 GB), and bounding them changes no answer."""

from __future__ import annotations

import pytest

from app.rules.decks import castability_cache, castability_exact
from app.rules.decks.castability import DeckMana, cast_probability
from app.rules.decks.castability_cache import Bounded, estimated_size
from app.rules.decks.castability_exact import Hall

F = frozenset
FIVE = DeckMana(60, {F("WU"): 4, F("BR"): 4, F("G"): 4, F("WUB"): 3, F("RGW"): 3, F("UB"): 4, F("R"): 2})
PIPS = {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}


def test_bounded_by_entries_and_by_bytes() -> None:
    cache: Bounded[int, tuple[int, ...]] = Bounded(max_entries=3, max_bytes=1000)
    for i in range(5):
        cache.put(i, (i,), 100)
    assert cache.stats() == (3, 300)
    assert cache.get(0) is None and cache.get(4) == (4,)  # the least recently used went first
    cache.put(9, (9,), 800)  # 1,100 bytes with the three: the oldest goes, by bytes this time
    assert cache.stats() == (3, 1000)
    assert cache.get(2) is None and cache.get(9) == (9,)
    cache.put(10, (10,), 1001)  # bigger than the whole cache: never kept
    assert cache.get(10) is None


def test_size_counts_containers_and_big_integers() -> None:
    assert estimated_size((10**300, (1, 2))) > estimated_size((1, (1, 2)))


def test_five_color_computations_stay_within_the_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {turn: cast_probability(FIVE, PIPS, turn) for turn in (5, 6)}
    small = {
        "probabilities": Bounded(2, 4_000),
        "hands": Bounded(3, 40_000),
        "draws": Bounded(200, 60_000),
    }
    monkeypatch.setattr(castability_cache, "CACHES", small)
    monkeypatch.setattr(castability_exact, "HALL_MEMO_MAX", 100)
    for turn in (5, 6, 5):
        # Same answers with caches too small to hold one computation's states.
        assert cast_probability(FIVE, PIPS, turn) == pytest.approx(expected[turn], abs=1e-12)
        for name, (entries, size) in castability_cache.cache_stats().items():
            assert entries <= small[name].max_entries and size <= small[name].max_bytes


def test_hall_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(castability_exact, "HALL_MEMO_MAX", 10)
    hall = Hall.of(("W", "U", "WU"), (("U", 2), ("W", 2)))
    for a in range(5):
        for b in range(5):
            hall.of_lands((a, b, 0))
    assert len(hall.memo) <= 10
