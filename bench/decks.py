"""Deck analysis and the mana-base advisor timed as a site sees them (``app.services.decks``).

Decks: a 60-card Naya Modern deck with duals, fetch lands and a triome, a 100-card Naya Commander deck (the
decks of ``tests/api/test_decks.py``), and for the advisor the 60-card two-color deck of its tests (21
Mountains, 4 Plains, Lightning Helix, Sacred Foundry as a candidate), in-process on a temporary SQLite
catalogue (the bundled one plus ``tests/deck_cards.py``).

An honest first call: before every "cold" run the castability caches are emptied
(``castability_cache.cache_clear``), so each one costs what a deck never seen before costs; cards are
looked up
through the catalogue's cache as in production (a site's decks share their cards). "warm" repeats the same
deck (the caches hit). The baseline, measured in the same run, is board analysis
(``app.services.analysis.analyze``: what each land could produce) of a board holding the deck's distinct
lands, with the board memo emptied before each call so it is not a cache hit either.

Each deck is also timed with ``castability_model: "tapped-lands"`` (its own exact enumeration, which
tracks each land kind's entering rule and land types, not only its colors).

Targets: a deck's cold call <= 100 ms for 60 cards and <= 400 ms for Commander (tapped-lands: 1 s and
2 s); the advisor cold <= 1 s. Each
call's wall time and CPU time (``time.process_time``) are both printed; the targets are checked on CPU time,
which other processes on a shared machine do not inflate (with 8 jobs on 2 cores the wall time is 2 to 4
times it, and varies as much from run to run).

    .venv/bin/python bench/decks.py [runs]
"""

from __future__ import annotations

import os
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
from app.rules.decks import castability_cache, faces
from app.schemas.analysis import AnalyzeRequest
from app.schemas.decks import DeckAnalyzeRequest, DeckManabaseRequest
from app.services import analysis, deck_manabase, deck_reading, decks
from app.services.board_memo import BOARDS
from app.services.catalogue import Catalogue
from tests.api.test_decks import BOROS, MODERN, commander_list
from tests.deck_cards import add_extra_cards

TARGETS_MS = {
    "60-card Modern": 100.0,
    "60-card Modern, tapped": 1000.0,
    "100-card Commander": 400.0,
    "100-card Commander, tapped": 2000.0,
    "advisor, 60 cards, 2 colors": 1000.0,
}
TAPPED = "tapped-lands"


def timed(work: Callable[[], object], *, cold: bool) -> tuple[float, float]:
    """(wall ms, this process's CPU ms) of one call."""
    if cold:
        castability_cache.cache_clear()
        BOARDS.clear()
    started, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000


def median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def lands_board(decklist: str, session: Session) -> AnalyzeRequest:
    """The baseline's request: one permanent per distinct main-deck land of the decklist."""
    catalogue = Catalogue(session)
    deck = deck_reading.read(DeckAnalyzeRequest(decklist=decklist), session)
    names = [h.card.name for h in deck.lands if faces.is_land_card(h.card)]
    assert all(catalogue.by_name(n) for n in names)
    return AnalyzeRequest.model_validate(
        {"board": {"permanents": [{"id": f"p{i}", "card": n} for i, n in enumerate(names)]}}
    )


def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{tmp}/bench.db")
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings)
        with Session(engine) as session:
            add_extra_cards(session)
            session.commit()
        print(f"load average {os.getloadavg()[0]:.1f}; cold and warm: median of {runs} calls")
        print(
            f"{'deck':<28} {'cold wall':>9} {'cold cpu':>9} {'warm cpu':>9} {'base cpu':>9} {'cold/base':>9}"
            "  target (cold cpu)"
        )
        failed = False
        cases: list[tuple[str, str, Callable[[Session], object]]] = [
            (
                "60-card Modern",
                MODERN,
                lambda s: decks.analyze(
                    request=DeckAnalyzeRequest(decklist=MODERN), session=s, settings=settings
                ),
            ),
            (
                "60-card Modern, tapped",
                MODERN,
                lambda s: decks.analyze(
                    request=DeckAnalyzeRequest(decklist=MODERN, castability_model=TAPPED),
                    session=s,
                    settings=settings,
                ),
            ),
            (
                "100-card Commander, tapped",
                commander_list(),
                lambda s: decks.analyze(
                    request=DeckAnalyzeRequest(decklist=commander_list(), castability_model=TAPPED),
                    session=s,
                    settings=settings,
                ),
            ),
            (
                "100-card Commander",
                commander_list(),
                lambda s: decks.analyze(
                    request=DeckAnalyzeRequest(decklist=commander_list()), session=s, settings=settings
                ),
            ),
            (
                "advisor, 60 cards, 2 colors",
                BOROS,
                lambda s: deck_manabase.advise(
                    request=DeckManabaseRequest(decklist=BOROS, candidates=["Sacred Foundry"]),
                    session=s,
                    settings=settings,
                ),
            ),
        ]
        for label, decklist, call in cases:
            with Session(engine) as session:
                call(session)  # the cards into the catalogue's cache, as on a running service

                def run(call: Callable[[Session], object] = call, session: Session = session) -> object:
                    return call(session)

                cold_wall, cold = median([timed(run, cold=True) for _ in range(runs)])
                _, warm = median([timed(run, cold=False) for _ in range(runs)])
                board = lands_board(decklist, session)

                def base(board: AnalyzeRequest = board, session: Session = session) -> object:
                    return analysis.analyze(request=board, session=session, settings=settings)

                _, baseline = median([timed(base, cold=True) for _ in range(runs)])
            target = TARGETS_MS[label]
            ok = cold <= target
            failed |= not ok
            print(
                f"{label:<28} {cold_wall:9.1f} {cold:9.1f} {warm:9.2f} {baseline:9.2f}"
                f" {cold / baseline:8.1f}x  {'<=' if ok else '>'}{target:5.0f} ms"
            )
        engine.dispose()
        if failed:
            raise SystemExit("a case missed its target")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
