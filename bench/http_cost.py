"""Requests per second of POST /v1/spells/cost against a bare endpoint, same server, same run (target >= 0.8).

The baseline is added to the same application (same middleware, one uvicorn server process started by
this script on a temporary SQLite database): it validates the same request model (``SpellCostRequest``)
and returns a constant. Both are measured alternately with the same body over keep-alive connections from
client threads in this process; the ratio of the best rounds is printed.

    .venv/bin/python bench/http_cost.py [--seconds 5] [--threads 4] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.config import Settings  # noqa: E402
from app.main import create_app  # noqa: E402
from app.schemas.spells import SpellCostRequest  # noqa: E402

TARGET = 0.8
BODY: dict[str, Any] = {
    "board": {
        "players": {"you": {}, "opponent": {}},
        "permanents": [
            {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}},
            {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
            {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
            {"id": "elves", "card": "Llanowar Elves"},
            *({"id": f"forest-{i}", "card": "Forest"} for i in range(8)),
            *({"id": f"plains-{i}", "card": "Plains"} for i in range(8)),
        ],
    },
    "caster": "you",
    "spell": {"card": "Avacynian Priest"},
}
CONSTANT = {"total_cost": "{0}"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure(url: str, seconds: float, threads: int) -> float:
    done = 0
    lock = threading.Lock()
    stop = time.perf_counter() + seconds

    def worker() -> None:
        nonlocal done
        n = 0
        with httpx.Client(timeout=30) as client:
            while time.perf_counter() < stop:
                r = client.post(url, json=BODY)
                assert r.status_code == 200, r.text
                n += 1
        with lock:
            done += n

    start = time.perf_counter()
    pool = [threading.Thread(target=worker) for _ in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return done / (time.perf_counter() - start)


def bench_app() -> Any:
    """The application with the baseline endpoint added (uvicorn factory, run in the server process)."""
    app = create_app(
        Settings(database_url=os.environ["BENCH_DATABASE_URL"], log_level="WARNING", rate_limit_per_minute=0)
    )

    @app.post("/bench/baseline")
    async def baseline(body: SpellCostRequest) -> dict[str, str]:  # async: no thread-pool hop, the cheapest
        return CONSTANT

    return app


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {**os.environ, "BENCH_DATABASE_URL": f"sqlite:///{tmp}/bench.db"}
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "http_cost:bench_app",
            "--factory",
            "--app-dir",
            str(ROOT / "bench"),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        server = subprocess.Popen(cmd, env=env, cwd=ROOT)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("the server did not start")
                time.sleep(0.2)
            check = httpx.post(f"{base}/v1/spells/cost", json=BODY, timeout=30)
            assert check.status_code == 200 and check.json()["total_cost"] == "{1}{W}", check.text
            measure(f"{base}/v1/spells/cost", 1.0, args.threads)  # warm caches
            cost_rps: list[float] = []
            base_rps: list[float] = []
            for _ in range(args.rounds):  # alternate so drift on a shared machine hits both
                base_rps.append(measure(f"{base}/bench/baseline", args.seconds, args.threads))
                cost_rps.append(measure(f"{base}/v1/spells/cost", args.seconds, args.threads))
        finally:
            server.terminate()
            server.wait(timeout=10)
    best_cost, best_base = max(cost_rps), max(base_rps)
    ratio = best_cost / best_base
    print(f"POST /v1/spells/cost: {best_cost:.0f} req/s; bare endpoint (same model): {best_base:.0f} req/s")
    print(f"ratio {ratio:.2f} (target >= {TARGET}): {'OK' if ratio >= TARGET else 'BELOW TARGET'}")


if __name__ == "__main__":
    main()
