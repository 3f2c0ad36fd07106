"""Deck analysis timing (``app.services.decks.analyze``, the work behind ``POST /v1/decks/analyze``).

Two Naya (R G W) decks with duals, fetch lands and a triome: a 60-card Modern deck and a 100-card Commander
deck (the decks of ``tests/api/test_decks.py``), analyzed in-process on a temporary SQLite catalogue (the
bundled one plus the fetches, shocks and triome of ``tests/deck_cards.py``). Prints the first call (cold
castability caches and card look-ups) and the median of 20 cache-warm calls, and as a ratio against a
baseline measured in the same run: board analysis (``app.services.analysis.analyze``, the code that says
what each land could produce) of a board holding the deck's distinct lands.
Targets: 60 cards <= 100 ms, Commander <= 400 ms (cache-warm median of 20).

    .venv/bin/python bench/decks.py
"""

from __future__ import annotations

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
from app.rules.decks.decklist import parse_decklist
from app.schemas.analysis import AnalyzeRequest
from app.schemas.decks import DeckAnalyzeRequest
from app.services import analysis, decks
from app.services.catalogue import Catalogue
from tests.api.test_decks import MODERN, commander_list
from tests.deck_cards import add_extra_cards

RUNS = 20
TARGETS_MS = {"60-card Modern": 100.0, "100-card Commander": 400.0}


def timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return (time.perf_counter() - started) * 1000


def lands_board(decklist: str, session: Session, settings: Settings) -> AnalyzeRequest:
    """The baseline's request: one permanent per distinct main-deck land of the decklist."""
    request = DeckAnalyzeRequest(decklist=decklist)
    answer = decks.analyze(request=request, session=session, settings=settings)
    names = {e.name for e in parse_decklist(decklist).entries}
    land_names = [c.card.name for c in answer.cards if c.section == "main" and c.card.name in names]
    catalogue = Catalogue(session)
    lands = [n for n in dict.fromkeys(land_names) if decks.is_land(catalogue.by_name(n))]
    return AnalyzeRequest.model_validate(
        {"board": {"permanents": [{"id": f"p{i}", "card": n} for i, n in enumerate(lands)]}}
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db")
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings)
        with Session(engine) as session:
            add_extra_cards(session)
            session.commit()
        print(
            f"{'deck':<20} {'first ms':>9} {'median ms':>10} {'baseline ms':>12} {'ratio':>7} {'target':>8}"
        )
        failed = False
        for label, decklist in (("60-card Modern", MODERN), ("100-card Commander", commander_list())):
            with Session(engine) as session:
                request = DeckAnalyzeRequest(decklist=decklist)

                def run(request: DeckAnalyzeRequest = request, session: Session = session) -> object:
                    return decks.analyze(request=request, session=session, settings=settings)

                first = timed(run)
                warm = statistics.median(timed(run) for _ in range(RUNS))
                board = lands_board(decklist, session, settings)

                def base(board: AnalyzeRequest = board, session: Session = session) -> object:
                    return analysis.analyze(request=board, session=session, settings=settings)

                base()
                baseline = statistics.median(timed(base) for _ in range(RUNS))
            target = TARGETS_MS[label]
            ok = warm <= target
            failed |= not ok
            print(
                f"{label:<20} {first:9.1f} {warm:10.2f} {baseline:12.2f} {warm / baseline:6.1f}x"
                f" {'<=' if ok else '>'}{target:5.0f}ms"
            )
        engine.dispose()
        if failed:
            raise SystemExit("a deck missed its target")


if __name__ == "__main__":
    main()
