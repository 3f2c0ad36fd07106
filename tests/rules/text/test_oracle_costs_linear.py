"""The cost reader answers in linear time on hostile text (issue 10): no pattern sees a long sentence.

Before the length guard, a 5,000-character "If a, a, a, ..., spells cost {1} less to cast" took 0.16 s
(quadratic: ten times the text, a hundred times the time); each text here is 50,000 characters, which
a quadratic reader needs many seconds for.
"""

from __future__ import annotations

import time

import pytest

from app.rules.text.oracle_costs import read_cost_effects

N = 50_000
HOSTILE = {
    "if-commas": "If " + "a, " * N,
    "as-long-as": "As long as " + "x costs {1} less to cast for each " * (N // 34),
    "costs-repeated": "Spells " + "cost " * (N // 5) + "{1} less to cast for each",
    "less-more": "costs " + "less more " * (N // 10) + "to cas",
    "own-if": "This spell costs {1} less to cast if " + "if , " * (N // 5),
    "grant": "spells " * (N // 7) + "have convoke!",
    "for-each": "Spells cost {1} more to cast for each " + "for each " * (N // 9) + ".x",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_is_read_quickly_and_warned(name: str) -> None:
    text = HOSTILE[name][:N] + " spells cost {1} less to cast."
    read_cost_effects.cache_clear()
    start = time.perf_counter()
    found = read_cost_effects("Hostile", text)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5, f"{name}: {elapsed:.2f} s"
    # nothing silent: a long sentence about costs is warned about, never read as an effect
    assert not found.effects and not found.own
    assert found.unsupported or found.own_unsupported


def test_real_sentences_are_still_read() -> None:
    found = read_cost_effects(
        "Thalia, Guardian of Thraben", "First strike\nNoncreature spells cost {1} more to cast."
    )
    assert len(found.effects) == 1
