"""CPU time per request of the hot routes in process (the compute routes and the scenario read), one build
against another in the same run (issue 40: one request pipeline, speed kept within 5%).

Each build is an interpreter whose ``app`` is the build to measure: ``.venv/bin/python`` for this
checkout's sources, ``.venv-run/bin/python`` for the wheel ``make run`` serves (its rules core compiled),
or the same of another checkout (a base commit's ``git worktree``). For each, a child process builds the
app with ``create_app()`` on a temporary SQLite database, starts its lifespan (the catalogue in memory)
and drives it as ASGI (``await app(scope, receive, send)``), so no server, socket or client is measured.
Log level WARNING: no access line. The rows:

- ``spells/cost, one board``: the same 7-permanent body every time (the board memo's case);
- ``spells/cost, varied``: that body with a permanent id that changes every request (the board read anew);
- ``payments/plan, varied``: a 25-permanent board varied the same way (``bench/load.sh``'s VARIED rows);
- ``spells/cost, load.sh's board varied``: ``bench/load.sh``'s own varied spells/cost body (10 permanents,
  Thalia among them), so that a served ratio can be set beside this one;
- ``scenarios/{id}, GET``: one stored 7-permanent scenario read again and again, its API key cached (the
  worker thread's read is counted: ``process_time`` is the whole process's).

The children run in alternation, ``--rounds`` times each, so that a machine growing busier or quieter moves
both builds alike; each row is the median over rounds of the CPU microseconds per request, and the
second build's ratio to the first. ``--framework`` stubs the services (``spell_cost`` and ``plan`` answer a
constant), so only the path around them is measured, and reports the least of the rounds. ``--layers``
(this checkout only) measures that path in one process with the app's middleware layers switched off one at
a time, in alternated blocks: what each layer costs a request.

    .venv/bin/python bench/pipeline.py --builds BASE/.venv-run/bin/python .venv-run/bin/python
    .venv/bin/python bench/pipeline.py    # this checkout's sources alone

Run without ``--builds``, it measures this checkout's ``.venv`` once (as ``make bench`` runs it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _asgi import http_scope, request, start_lifespan  # bench/_asgi.py: why a bare name

ROOT = Path(__file__).resolve().parents[1]
PERMANENTS_7: list[dict[str, Any]] = [
    {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}},
    {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
    {"id": "elves", "card": "Llanowar Elves"},
    *({"id": f"forest-{i}", "card": "Forest"} for i in range(4)),
]
PERMANENTS_10 = [  # bench/load.sh's spells/cost board: Thalia and the rest besides
    *PERMANENTS_7[:2],
    {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
    PERMANENTS_7[2],
    *({"id": f"f{i}", "card": "Forest"} for i in range(1, 4)),
    *({"id": f"p{i}", "card": "Plains"} for i in range(1, 4)),
]
PAY_CARDS = ["Forest", "Island", "Llanowar Elves", "Sol Ring", "Birds of Paradise", "Swamp", "Plains"]
PERMANENTS_25 = [{"id": f"p{i}", "card": PAY_CARDS[i % len(PAY_CARDS)]} for i in range(25)]


def _cost_body(varied: int | None) -> bytes:
    permanents = list(PERMANENTS_7)
    if varied is not None:
        permanents[-1] = {"id": f"forest-v{varied}", "card": "Forest"}
    board = {"players": {"you": {}, "opponent": {}}, "permanents": permanents}
    return json.dumps({"board": board, "caster": "you", "spell": {"card": "Avacynian Priest"}}).encode()


def _load_cost_body(varied: int) -> bytes:
    """``bench/load.sh``'s varied spells/cost body, byte for byte: its first permanent's id changes."""
    permanents = [{**PERMANENTS_10[0], "id": f"v{varied}"}, *PERMANENTS_10[1:]]
    body = {"board": {"permanents": permanents}, "spell": {"card": "Avacynian Priest"}}
    return json.dumps(body, separators=(",", ":")).encode()


def _plan_body(varied: int) -> bytes:
    permanents = [*PERMANENTS_25[:-1], {"id": f"v{varied}", "card": "Forest"}]
    return json.dumps({"player": "you", "cost": "{3}{G}{U}", "board": {"permanents": permanents}}).encode()


ROWS: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "spells/cost, one board": ("/v1/spells/cost", lambda _i: _cost_body(None)),
    "spells/cost, varied": ("/v1/spells/cost", _cost_body),
    "payments/plan, varied": ("/v1/payments/plan", _plan_body),
    "spells/cost, load.sh's board varied": ("/v1/spells/cost", _load_cost_body),
}


class _Constant:
    def model_dump_json(self) -> str:
        return '{"stub":true}'


def _stub_services() -> None:
    import app.services.payments as payments
    import app.services.spells as spells

    spells.spell_cost = lambda **_kw: _Constant()  # type: ignore[assignment,return-value]
    payments.plan = lambda **_kw: _Constant()  # type: ignore[assignment,return-value]


async def _child(requests: int, offset: int, stub: bool = False) -> dict[str, float]:
    from app.main import create_app

    if stub:
        _stub_services()
    app = create_app()
    shutdown = await start_lifespan(app)
    out: dict[str, float] = {}
    for name, (path, body_of) in ROWS.items():
        for i in range(50):  # warm: caches, the board memo, the first answer's lazy work
            warm = body_of(offset - 1 - i)
            await request(app, http_scope(path, warm), warm)
        bodies = [body_of(offset + i) for i in range(requests)]
        start = time.process_time()
        statuses = [await request(app, http_scope(path, body), body) for body in bodies]
        spent = time.process_time() - start
        if statuses.count(200) != requests:
            raise SystemExit(f"{name}: answered {sorted(set(statuses))}, not always 200")
        out[name] = spent / requests * 1e6
    if not stub:
        out[SCENARIO_READ] = await _scenario_reads(app, requests)
    await shutdown()
    return out


SCENARIO_READ = "scenarios/{id}, GET"


async def _scenario_reads(app: Any, requests: int) -> float:
    """CPU us per ``GET /v1/scenarios/{id}`` of one stored scenario with its key cached (the steady
    state): the event loop's share and the worker thread's read, both counted by ``process_time``."""
    from sqlalchemy import text

    from app.config import get_settings
    from app.db.session import get_engine, get_sessionmaker
    from app.services.api_keys import create_api_key

    engine = get_engine(get_settings())
    with get_sessionmaker(engine)() as session, session.begin():
        key = create_api_key(session, name="bench")
    auth = (b"authorization", f"Bearer {key}".encode())
    body = json.dumps({"name": "bench", "board": {"permanents": PERMANENTS_7}}).encode()
    store = http_scope("/v1/scenarios", body)
    store["headers"].append(auth)
    if await request(app, store, body) != 201:
        raise SystemExit("POST /v1/scenarios did not store the scenario")
    with get_sessionmaker(engine)() as session:
        scenario_id = session.execute(text("SELECT id FROM scenarios")).scalar_one()
    read = http_scope(f"/v1/scenarios/{scenario_id}", b"", method="GET")
    read["headers"] = [(b"host", b"127.0.0.1:8000"), auth]
    for _ in range(50):
        await request(app, read, b"")
    start = time.process_time()
    statuses = [await request(app, read, b"") for _ in range(requests)]
    spent = time.process_time() - start
    if statuses.count(200) != requests:
        raise SystemExit(f"{SCENARIO_READ}: answered {sorted(set(statuses))}, not always 200")
    return spent / requests * 1e6


async def _layers(blocks: int, requests: int) -> None:
    """The stubbed path with each layer between the service middleware and the router switched off in
    turn (``--layers``)."""
    from app.main import create_app

    _stub_services()
    app = create_app()
    shutdown = await start_lifespan(app)
    path, body_of = ROWS["spells/cost, one board"]
    body = body_of(0)
    for _ in range(300):
        await request(app, http_scope(path, body), body)
    chain: list[Any] = []
    layer: Any = app.middleware_stack
    while hasattr(layer, "app") and not hasattr(layer, "routes"):
        chain.append(layer)
        layer = layer.app
    wiring = [(outer, outer.app) for outer in chain]
    variants = ["all layers"] + [f"without {type(inner).__name__}" for inner in chain[1:]]
    times: dict[str, list[float]] = {v: [] for v in variants}
    for _ in range(blocks):
        for i, variant in enumerate(variants):
            for outer, inner in wiring:
                outer.app = inner
            if i:
                skipped = chain[i]
                chain[i - 1].app = skipped.app
            start = time.process_time()
            for _ in range(requests):
                await request(app, http_scope(path, body), body)
            times[variant].append((time.process_time() - start) / requests * 1e6)
    for outer, inner in wiring:
        outer.app = inner
    await shutdown()
    base = min(times["all layers"])
    print(f"== the stubbed spells/cost path, CPU us per request (least of {blocks} blocks of {requests})")
    for variant in variants:
        least = min(times[variant])
        print(f"   {variant:40} {least:7.1f}  {least - base:+6.1f}")


def _run_child(python: str, requests: int, offset: int, stub: bool = False) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "MANACALC_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
            "MANACALC_CATALOGUE_SNAPSHOT_DIR": "off",
            "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
            "MANACALC_LOG_LEVEL": "WARNING",
        }
        manacalc = Path(python).with_name("manacalc")
        subprocess.run([str(manacalc), "migrate"], check=True, capture_output=True, env=env, cwd=tmp)
        done = subprocess.run(
            [python, str(Path(__file__).resolve()), "--child", str(requests), str(offset), str(int(stub))],
            check=True,
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,  # the interpreter's own app, not a checkout's by the working directory
        )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        print(json.dumps(asyncio.run(_child(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"))))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--builds", nargs="+", default=[str(ROOT / ".venv" / "bin" / "python")])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=1500)
    parser.add_argument("--framework", action="store_true", help="stub the services: the path alone")
    parser.add_argument("--layers", action="store_true", help="what each middleware layer costs")
    ns = parser.parse_args()
    if ns.layers:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ.update(
                MANACALC_DATABASE_URL=f"sqlite:///{tmp}/bench.db",
                MANACALC_CATALOGUE_SNAPSHOT_DIR="off",
                MANACALC_RATE_LIMIT_PER_MINUTE="0",
                MANACALC_LOG_LEVEL="WARNING",
            )
            manacalc = Path(sys.executable).with_name("manacalc")
            subprocess.run([str(manacalc), "migrate"], check=True, capture_output=True, cwd=tmp)
            asyncio.run(_layers(15, 500))
        return
    rounds = ns.rounds if len(ns.builds) > 1 else 1
    rows = [*ROWS, *(() if ns.framework else (SCENARIO_READ,))]
    seen: dict[str, dict[str, list[float]]] = {b: {name: [] for name in rows} for b in ns.builds}
    offset = 1_000_000
    for _ in range(rounds):
        for build in ns.builds:
            for name, us in _run_child(build, ns.requests, offset, ns.framework).items():
                seen[build][name].append(us)
            offset += 10 * ns.requests
    pick = min if ns.framework else statistics.median
    what = "services stubbed, least" if ns.framework else "median"
    print(f"== hot routes in process, CPU us per request ({what} of {rounds} rounds of {ns.requests})")
    first = ns.builds[0]
    for name in seen[first]:
        base = pick(seen[first][name])
        cells = []
        for build in ns.builds:
            us = pick(seen[build][name])
            spread = f"{min(seen[build][name]):.0f}-{max(seen[build][name]):.0f}"
            cells.append(f"{us:7.1f} ({spread})" + (f" x{us / base:.3f}" if build != first else ""))
        print(f"   {name:24} " + " | ".join(cells))
    for i, build in enumerate(ns.builds):
        print(f"   [{i}] {build}")


if __name__ == "__main__":
    main()
