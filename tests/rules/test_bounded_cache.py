"""``app.rules.bounded_cache``: the text readers' memo, bounded in entries and in characters (issue 27)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.bounded_cache import text_cache


def test_bounded_in_characters_least_recently_used_out() -> None:
    calls: list[str] = []

    @text_cache(entries=100, chars=1_000)
    def read(text: str) -> int:
        calls.append(text)
        return len(text)

    for i in range(10):
        assert read(chr(65 + i) * 99) == 99  # 100 characters each, counted with the entry
    assert read.held_chars == 1_000 and len(read) == 10
    read("A" * 99)  # a hit: now the most recently used
    read("K" * 99)  # 1,100 > 1,000: "B..." goes, the least recently used
    assert len(calls) == 11
    read("A" * 99)
    assert len(calls) == 11
    read("B" * 99)
    assert len(calls) == 12 and read.held_chars <= 1_000


def test_a_text_over_a_tenth_of_the_bound_is_read_not_kept() -> None:
    @text_cache(entries=100, chars=1_000)
    def read(text: str) -> int:
        return len(text)

    assert read("x" * 200) == 200
    assert len(read) == 0


def test_an_exception_keeps_nothing() -> None:
    @text_cache(entries=10, chars=1_000)
    def read(text: str) -> int:
        raise ValueError(text)

    for _ in range(2):
        with pytest.raises(ValueError):
            read("boom")
    assert len(read) == 0


@given(st.lists(st.text(max_size=30), max_size=60), st.integers(1, 8), st.integers(10, 200))
def test_answers_are_the_functions_and_bounds_always_hold(texts: list[str], entries: int, chars: int) -> None:
    @text_cache(entries=entries, chars=chars)
    def read(text: str, suffix: str = "") -> str:
        return text[::-1] + suffix

    for text in texts:
        assert read(text) == text[::-1]
        assert read(text, suffix="!") == text[::-1] + "!"
        assert len(read) <= entries and read.held_chars <= chars
    read.cache_clear()
    assert len(read) == 0 and read.held_chars == 0
