"""A replaced catalogue index is freed in slices, and only once no request holds it (issue 27: freeing it
in one piece held the GIL for 57 to 200 ms, a /healthz stall in every reload)."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

import pytest

from app.rules.values.cards import Card
from app.services import card_index
from app.services.card_index import RELEASE_SLICE, CardIndex, Entry, release_retired


def _index(size: int) -> CardIndex:
    names = [f"card {i}" for i in range(size)]
    entries = {n: (Entry(f"id{i}", n, True),) for i, n in enumerate(names)}
    words = {f"w{i}": (n,) for i, n in enumerate(names)}
    cards = cast(dict[str, Card], {f"id{i}": object() for i in range(size)})  # only freed here
    return CardIndex("v", entries, sorted(names), words, cards)


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """This thread's sleeps (``time.sleep`` is patched for all threads: others' pass through)."""
    calls: list[float] = []
    me = threading.get_ident()
    real = time.sleep

    def sleep(seconds: float) -> None:
        if threading.get_ident() == me:
            calls.append(seconds)
        else:
            real(seconds)

    monkeypatch.setattr(card_index.time, "sleep", sleep)
    return calls


def test_an_index_nothing_holds_is_emptied_in_slices(sleeps: list[float]) -> None:
    size = 3 * RELEASE_SLICE + 7
    retired = [_index(size)]
    maps: list[Any] = []
    index = retired[0]
    maps.extend([index.entries, index.words, index.cards, index.sorted_names])
    held = [len(m) for m in maps]
    del index
    maps.clear()
    release_retired(retired)
    assert retired == []
    assert held == [size] * 4
    # Each map of `size` entries in 4 slices, the GIL released after each.
    assert len(sleeps) == 4 * 4


def test_an_index_a_request_still_reads_is_kept_whole_until_it_is_done(sleeps: list[float]) -> None:
    retired = [_index(10)]
    reader = retired[0].cards  # a request in flight holding one of its maps
    release_retired(retired)
    assert len(retired) == 1 and len(reader) == 10 and len(retired[0].entries) == 10
    assert sleeps == []
    index = retired[0]
    assert len(index.sorted_names) == 10
    del index, reader
    release_retired(retired)
    assert retired == []
