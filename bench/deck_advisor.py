"""The mana-base advisor (``POST /v1/decks/manabase``) on ten real decks as their sites export them
(``tests/real_decks.py``): a plan every time, how far each gets (target spells reached of all, sources still
missing), whether it is proven best, and the time per deck (cold: castability caches emptied; warm).

Goal: <= 100 ms for a 60-card deck and <= 500 ms for a 100-card one (cold CPU time, the median of the runs).

    .venv/bin/python bench/deck_advisor.py [runs]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.orm import Session

from app.config import Settings
from app.db.migrate import upgrade_to_head
from app.db.session import get_engine
from app.main import run_startup_hooks
from app.rules.decks import castability
from app.schemas.decks import DeckManabaseRequest
from app.services import decks
from tests.real_decks import DECKS


def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db")
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings)
        print(f"load average {os.getloadavg()[0]:.1f}; median of {runs} calls; CPU ms")
        print(
            f"{'deck':<40} {'reached':>8} {'short':>5} {'changes':>7} {'proven':>6} {'cold':>7} {'warm':>7}"
            " goal"
        )
        failed = False
        for name, (fmt, text) in DECKS.items():
            request = DeckManabaseRequest(decklist=text, format=None if fmt == "limited" else fmt)
            with Session(engine) as session:
                answer = decks.advise(request=request, session=session, settings=settings)  # cards cached
                colds = []
                warms = []
                for _ in range(runs):
                    castability.cache_clear()
                    cpu = time.process_time()
                    decks.advise(request=request, session=session, settings=settings)
                    colds.append((time.process_time() - cpu) * 1000)
                for _ in range(runs):
                    cpu = time.process_time()
                    decks.advise(request=request, session=session, settings=settings)
                    warms.append((time.process_time() - cpu) * 1000)
            cold, warm = statistics.median(colds), statistics.median(warms)
            goal = 500.0 if answer.castability_before and "commander" in fmt else 100.0
            ok = cold <= goal
            failed |= not ok
            targets = len(answer.reached) + len(answer.unreached)
            print(
                f"{name:<40} {len(answer.reached):>3}/{targets:<4} {answer.total_shortfall:>5}"
                f" {answer.fewest_changes or 0:>7} {answer.complete!s:>6} {cold:7.1f} {warm:7.1f}"
                f" {'<=' if ok else '>'}{goal:.0f}"
            )
        engine.dispose()
        if failed:
            print("some deck missed its goal")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
