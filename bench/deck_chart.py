"""Deck chart timing (``app.services.deck_chart``, the drawing behind ``POST /v1/decks/chart`` and
``/v1/decks/chart/vega-lite``), once the deck is analyzed.

The 40-card limited deck, the 60-card Modern deck and the 100-card Commander deck of
``tests/api/test_decks.py``, analyzed once on a temporary SQLite catalogue (the bundled one plus the lands of
``tests/deck_cards.py``); then the median of 50 calls of ``render_svg`` and of ``vega_lite`` (serialized),
against a baseline measured in the same run: serializing the analysis itself as JSON
(``model_dump_json``), which every ``decks/analyze`` answer pays. Target: an SVG in under 5 ms (the
matplotlib chart it replaces took about 400 ms).

    .venv/bin/python bench/deck_chart.py
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy.orm import Session

from app.config import Settings
from app.db.migrate import upgrade_to_head
from app.db.session import get_engine
from app.main import run_startup_hooks
from app.schemas.decks import DeckAnalyzeRequest
from app.services import deck_chart, decks
from tests.api.test_decks import LIMITED, MODERN, commander_list
from tests.deck_cards import add_extra_cards

RUNS = 50
TARGET_MS = 5.0


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db")
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings)
        with Session(engine) as session:
            add_extra_cards(session)
            session.commit()
        head = f"{'deck':<20} {'svg ms':>7} {'KB':>5} {'vega ms':>8} {'json ms':>8} {'svg/json':>9}"
        print(f"{head} {'target':>7}")
        failed = False
        for label, decklist in (
            ("40-card limited", LIMITED),
            ("60-card Modern", MODERN),
            ("100-card Commander", commander_list()),
        ):
            with Session(engine) as session:
                answer = decks.analyze(
                    request=DeckAnalyzeRequest(decklist=decklist), session=session, settings=settings
                )
            size = len(deck_chart.render_svg(answer)) / 1024
            svg = median_ms(lambda answer=answer: deck_chart.render_svg(answer))
            vega = median_ms(lambda answer=answer: json.dumps(deck_chart.vega_lite(answer)))
            base = median_ms(lambda answer=answer: answer.model_dump_json())
            ok = svg <= TARGET_MS
            failed |= not ok
            print(
                f"{label:<20} {svg:7.2f} {size:5.1f} {vega:8.2f} {base:8.3f} {svg / base:8.1f}x"
                f" {'<=' if ok else '>'}{TARGET_MS:4.0f}ms"
            )
        engine.dispose()
        if failed:
            raise SystemExit("a chart missed its target")


if __name__ == "__main__":
    main()
