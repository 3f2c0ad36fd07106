"""One spell's cold cost in the ``tapped-lands`` castability model on Commander decks of many land kinds:
the Naya deck of 23 kinds and the five-color deck of 32 kinds of
``tests/rules/decks/test_castability_tapped_kinds.py``.

Each spell is computed with the castability caches emptied first (the cost of a spell never seen), in
this process's CPU time (``time.process_time``), one call each; a spell past ``MAX_WORK`` prints its warning
instead of a probability.

    .venv/bin/python bench/tapped_kinds.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.decks import castability_cache
from app.rules.decks.castability_tapped import TooManyKinds, cast_probability_tapped
from tests.rules.decks.test_castability_tapped_kinds import FIVE, NAYA

SPELLS = [
    ("NAYA", {"R": 1}, 1),
    ("NAYA", {"G": 1, "W": 1}, 2),
    ("NAYA", {"R": 1, "G": 1, "W": 1}, 3),
    ("NAYA", {"G": 2}, 6),
    ("FIVE", {"W": 1}, 1),
    ("FIVE", {"U": 1, "B": 1}, 2),
    ("FIVE", {"W": 2}, 3),
    ("FIVE", {"W": 1, "U": 1, "B": 1}, 3),
    ("FIVE", {"B": 1, "R": 1, "G": 1}, 4),
    ("FIVE", {"U": 1, "B": 1}, 8),
    ("FIVE", {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}, 5),
]


def main() -> None:
    decks = {"NAYA": NAYA, "FIVE": FIVE}
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name, pips, turn in SPELLS:
        castability_cache.cache_clear()
        started = time.process_time()
        try:
            answer = f"{cast_probability_tapped(99, decks[name], pips, turn, commander=True):.6f}"
        except TooManyKinds as exc:
            answer = f"null ({exc})"
        cpu = (time.process_time() - started) * 1000
        cost = "".join(f"{{{c}}}" * n for c, n in pips.items())
        print(f"{name:<5} {cost:<16} turn {turn:<2} {cpu:8.1f} ms  {answer}")


if __name__ == "__main__":
    main()
