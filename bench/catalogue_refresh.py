"""How long a running worker takes to rebuild its in-memory catalogue after ``update-cards`` (or any import).

    .venv/bin/python bench/catalogue_refresh.py [--database-url URL] [--rounds 3]

A worker polls the catalogue's ``data_version`` once a second; on a change it rebuilds the whole index from
the database (every name, every card with its faces and legalities), and that rebuild, not the poll, is
what answers wait for after an import. The baseline, measured in the same run and in alternation, is the
refresher's former rebuild (``CardIndex.build(..., preload=True)`` with the collector running); the
measured one is ``app.services.card_index._rebuild`` (the collector paused, as at start-up). Target: the
rebuild under 3 s on a quiet machine, below the baseline.

The database is ``--database-url`` (its catalogue is loaded if missing: a database you may write to),
else a temporary SQLite file with the bundled catalogue (loading it takes about 15 s before the rounds).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.config import Settings  # noqa: E402
from app.db.migrate import upgrade_to_head  # noqa: E402
from app.db.session import get_engine, get_sessionmaker  # noqa: E402
from app.main import run_startup_hooks  # noqa: E402
from app.services.card_import import bundled_catalogue_hook, data_version  # noqa: E402
from app.services.card_index import CardIndex, _rebuild  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="manacalc-bench-") as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'bench.db'}"
        settings = Settings(database_url=url, statement_timeout_ms=0)
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings, [bundled_catalogue_hook])
        factory = get_sessionmaker(engine)
        times: dict[str, list[float]] = {"baseline (collector on)": [], "_rebuild (collector paused)": []}
        builders = {
            "baseline (collector on)": lambda s, v: CardIndex.build(s, v, preload=True),
            "_rebuild (collector paused)": _rebuild,
        }
        cards = 0
        for _ in range(args.rounds):
            for label, build in builders.items():
                with factory() as session:
                    version = data_version(session)
                    started = time.perf_counter()
                    index = build(session, version)
                    times[label].append(time.perf_counter() - started)
                    cards = len(index.cards)
                del index
                gc.unfreeze()  # what preload froze: each round starts alike
                gc.collect()
        engine.dispose()
    base = statistics.median(times["baseline (collector on)"])
    print(
        f"catalogue rebuild, {cards} cards, {engine.url.get_backend_name()}, median of {args.rounds} rounds"
    )
    for label, values in times.items():
        median = statistics.median(values)
        each = ", ".join(f"{v:.2f}" for v in values)
        print(f"  {label:<30} {median:6.2f} s   ratio {median / base:5.2f}   ({each})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
