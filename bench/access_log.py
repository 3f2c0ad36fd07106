"""What the access line costs a small request, in process: CPU time per ``POST /v1/spells/cost`` (one board,
a ``ComputeRoute``) with the access line written and without it (issue 30).

The application is built with ``app.main.create_app()`` on a temporary SQLite database (``manacalc
migrate`` first), its lifespan started, and driven directly as ASGI (``await app(scope, receive, send)``)
with a fixed body, so no server, socket or client is measured. Logging is configured as ``manacalc serve``
configures it, its stream ``/dev/null``. Three variants, measured in alternating blocks in the same run:

- ``no line``: log level WARNING, no access line (the baseline);
- ``logging``: level INFO with a pass-through filter on the handler, so the access line goes through
  ``logging``'s machinery (record factory, ``LogRecord``, handler, ``Formatter``): what every line cost
  before ``app.access_log``;
- ``fast``: level INFO as configured, the line written by ``app.access_log``'s fast path when it applies.

Per-request CPU time (``time.process_time``) is the median over blocks; each variant is printed as a ratio
to the baseline and as microseconds above it, and the fast line's extra cost as a share of the logging
line's. Target: a request with the fast line at most x1.10 of one without (through logging: x1.15 plain,
x1.20-1.25 JSON on the compiled build, issue 30).

    .venv/bin/python bench/access_log.py [--json] [--blocks 15] [--requests 400]
    MANACALC_BENCH_CORE=build/compiled-core .venv/bin/python bench/access_log.py   # the compiled build
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _asgi import http_scope, request, start_lifespan  # bench/_asgi.py: why a bare name

ROOT = Path(__file__).resolve().parents[1]
# MANACALC_BENCH_CORE: another build to measure (build/compiled-core: `make compiled`)
CORE = Path(os.environ.get("MANACALC_BENCH_CORE", str(ROOT))).resolve()
sys.path.insert(0, str(CORE))

BODY = json.dumps(
    {
        "board": {
            "players": {"you": {}, "opponent": {}},
            "permanents": [
                {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}},
                {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
                {"id": "elves", "card": "Llanowar Elves"},
                *({"id": f"forest-{i}", "card": "Forest"} for i in range(4)),
            ],
        },
        "caster": "you",
        "spell": {"card": "Avacynian Priest"},
    }
).encode()
SCOPE = http_scope("/v1/spells/cost", BODY)
TARGET = 1.10


def _pass(record: logging.LogRecord) -> bool:
    return True


async def _block(app: Any, requests: int) -> float:
    """CPU microseconds per request over ``requests`` requests."""
    start = time.process_time()
    statuses = [await request(app, SCOPE, BODY) for _ in range(requests)]
    spent = time.process_time() - start
    if statuses.count(200) != requests:
        raise SystemExit(f"POST /v1/spells/cost answered {sorted(set(statuses))}, not always 200")
    return spent / requests * 1e6


async def _run(json_lines: bool, blocks: int, requests: int) -> None:
    from app.access_log import fast_path_applies  # after the core's path is chosen
    from app.logs import configure_logging
    from app.main import create_app

    app = create_app()
    shutdown = await start_lifespan(app)
    status = await request(app, SCOPE, BODY)
    if status != 200:
        raise SystemExit(f"POST /v1/spells/cost answered {status}")

    def variant(name: str) -> None:
        configure_logging("WARNING" if name == "no line" else "INFO", json_lines=json_lines)
        if name == "logging":
            handler = next(h for h in logging.getLogger().handlers if getattr(h, "_manacalc", False))
            handler.addFilter(_pass)  # any filter: the fast path steps aside for it

    names = ("no line", "logging", "fast")
    for name in names:  # warm every path (caches, the board memo, the per-second time text)
        variant(name)
        await _block(app, requests)
    variant("fast")
    applies = fast_path_applies()
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(blocks):
        for name in names:
            variant(name)
            times[name].append(await _block(app, requests))
    configure_logging("WARNING", json_lines=json_lines)
    await shutdown()

    base = statistics.median(times["no line"])
    kind = "JSON" if json_lines else "plain"
    print(f"== POST /v1/spells/cost in process, {kind} lines, CPU µs per request")
    print(f"   (median of {blocks} blocks of {requests}; fast path applies: {applies})")
    for name in names:
        us = statistics.median(times[name])
        print(f"   {name:8} {us:8.1f} µs  x{us / base:.3f}  +{us - base:6.1f} µs")
    slow = statistics.median(times["logging"]) - base
    fast = statistics.median(times["fast"]) - base
    if slow > 0:
        print(f"   the fast line costs {fast / slow:.2f} of the logging line")
    print(f"   fast x{(base + fast) / base:.3f} of no line (target <= x{TARGET:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true", help="JSON lines (MANACALC_LOG_JSON=true)")
    parser.add_argument("--blocks", type=int, default=15)
    parser.add_argument("--requests", type=int, default=400)
    ns = parser.parse_args()
    if not (CORE / "migrations").exists():  # an unpacked wheel holds no migrations; start-up migrates
        (CORE / "migrations").symlink_to(ROOT / "migrations", target_is_directory=True)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["MANACALC_DATABASE_URL"] = f"sqlite:///{tmp}/bench.db"
        os.environ["MANACALC_CATALOGUE_SNAPSHOT_DIR"] = "off"
        os.environ["MANACALC_RATE_LIMIT_PER_MINUTE"] = "0"  # one client, thousands of requests
        os.environ.pop("MANACALC_LOG_LEVEL", None)
        manacalc = Path(sys.executable).with_name("manacalc")
        subprocess.run([str(manacalc), "migrate"], check=True, capture_output=True)
        devnull = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (open for the whole run)
        sys.stderr = devnull  # configure_logging binds its handler to the stderr of the moment
        try:
            asyncio.run(_run(ns.json, ns.blocks, ns.requests))
        finally:
            sys.stderr = sys.__stderr__
            devnull.close()


if __name__ == "__main__":
    main()
