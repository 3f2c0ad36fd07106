"""The chart's layout rules (``app.services.deck_chart``), without a server."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.services import deck_chart


@given(st.integers(min_value=1, max_value=10**6))
def test_tick_step_is_whole_and_gives_at_most_five_steps(top: int) -> None:
    step = deck_chart.tick_step(top)
    assert isinstance(step, int) and step >= 1
    assert top <= 5 * step
    assert str(step).strip("0") in ("1", "2", "5")


def test_curve_buckets_merge_the_highest_values_and_floor_halves() -> None:
    # Gleemax (mana value 1,000,000) and Draco (16) share "10+"; a half value counts at the value below.
    buckets = deck_chart.curve_buckets({"1": 4, "2.5": 1, "16": 1, "1000000": 1})
    assert buckets[-1] == ("10+", 2)
    assert dict(buckets)["2"] == 1
    assert [label for label, _ in buckets] == [*map(str, range(10)), "10+"]


def test_empty_curve_still_draws_an_axis() -> None:
    assert deck_chart.curve_buckets({}) == [("0", 0), ("1", 0)]


def test_spell_colors_in_wubrg_order() -> None:
    assert deck_chart.spell_colors("{1}{G}{W}") == ("W", "G")
    assert deck_chart.spell_colors("{3}") == ()
