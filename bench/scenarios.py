"""Stored scenarios over HTTP, on SQLite and on PostgreSQL: create and read requests per second, then 32
concurrent writers on one scenario (target: no lost update, no 500).

For each database this script makes a temporary database (a SQLite file; a PostgreSQL database created
on the server of ``--postgres`` and dropped afterwards), creates an API key with ``manacalc
create-api-key``, starts one uvicorn server process on 127.0.0.1 and measures, from client threads with
keep-alive connections:
- baseline: ``GET /healthz`` (no database) requests per second, the same run's yardstick;
- create: ``POST /v1/scenarios`` (a 20-permanent board with a Herald's Horn) per second, and the ratio
  to the baseline;
- read: ``GET /v1/scenarios/{id}`` per second, and the ratio;
- contention: ``--writers`` threads for ``--contention-seconds`` each looping GET then PUT with
  ``If-Match`` on one scenario: successful writes, 412s, other statuses, and the final version, which
  must be 1 + the successful writes (no lost update). Exit status 1 if it is not, or on any 5xx.

    .venv/bin/python bench/scenarios.py [--seconds 3] [--threads 4] [--writers 32]
        [--contention-seconds 10] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres]
        [--only sqlite|postgresql]
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

BOARD: dict[str, Any] = {
    "players": {"you": {}, "opponent": {}},
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "richard", "card": "Richard Garfield, Ph.D.", "played_as": ["Swords to Plowshares"]},
        {"id": "elves", "card": "Llanowar Elves"},
        *({"id": f"forest-{i}", "card": "Forest"} for i in range(9)),
        *({"id": f"plains-{i}", "card": "Plains"} for i in range(8)),
    ],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def temporary_database(kind: str, postgres_admin: str) -> Iterator[str]:
    """A URL of an empty database of ``kind``, removed afterwards."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="manacalc-bench-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'bench.db'}"
        return
    admin_url = make_url(postgres_admin)
    name = f"manacalc_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield admin_url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def create_key(env: dict[str, str]) -> str:
    """``manacalc create-api-key`` (which also migrates the database); the key is its one output line."""
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "create-api-key", "bench"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    lines = done.stdout.splitlines()
    if len(lines) != 1:
        raise SystemExit(f"create-api-key printed {lines!r}, not one line")
    return lines[0]


@contextmanager
def server(env: dict[str, str], port: int) -> Iterator[str]:
    """One uvicorn process on 127.0.0.1:port, stopped (by its pid) afterwards."""
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env={**env, "MANACALC_LOG_LEVEL": "WARNING"},
        stdout=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited with status {process.returncode}")
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the server did not become ready within 120 s")
            time.sleep(0.2)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def rate(
    threads: int, seconds: float, request: Callable[[httpx.Client, int, int], httpx.Response]
) -> tuple[float, Counter[int]]:
    """Requests per second of ``request(client, thread, n)`` over ``seconds`` from ``threads`` threads."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def work(t: int) -> None:
        mine: Counter[int] = Counter()
        with httpx.Client(timeout=30) as client:
            for n in itertools.count():
                if time.monotonic() >= stop:
                    break
                mine[request(client, t, n).status_code] += 1
        with lock:
            statuses.update(mine)

    started = time.monotonic()
    pool = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    return sum(statuses.values()) / (time.monotonic() - started), statuses


def bench_database(kind: str, args: argparse.Namespace) -> bool:
    """Measure one database; True when the contention run lost nothing and nothing answered 5xx."""
    with temporary_database(kind, args.postgres) as url:
        # Rate limiting off: every request of the bench comes from one address.
        env = {
            **os.environ,
            "MANACALC_DATABASE_URL": url,
            "PYTHONPATH": str(ROOT),
            "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
        }
        key = create_key(env)
        auth = {"Authorization": f"Bearer {key}"}
        with server(env, free_port()) as base:
            baseline, _ = rate(args.threads, args.seconds, lambda c, t, n: c.get(f"{base}/healthz"))
            run = uuid.uuid4().hex[:6]
            created: list[str] = []

            def create(c: httpx.Client, t: int, n: int) -> httpx.Response:
                body = {"name": f"{run}-{t}-{n}", "owner": f"user-{t}", "board": BOARD}
                response = c.post(f"{base}/v1/scenarios", json=body, headers=auth)
                if response.status_code == 201:
                    created.append(response.json()["id"])
                return response

            create_rate, create_statuses = rate(args.threads, args.seconds, create)
            read_rate, read_statuses = rate(
                args.threads,
                args.seconds,
                lambda c, t, n: c.get(
                    f"{base}/v1/scenarios/{created[(t * 7919 + n) % len(created)]}", headers=auth
                ),
            )
            first = httpx.post(
                f"{base}/v1/scenarios", json={"name": f"{run}-hot", "board": BOARD}, headers=auth
            )
            hot = f"{base}{first.headers['location']}"

            def write(c: httpx.Client, t: int, n: int) -> httpx.Response:
                current = c.get(hot, headers=auth)
                if current.status_code != 200:
                    return current
                body = {"name": f"{run}-hot", "description": f"writer {t} write {n}", "board": BOARD}
                return c.put(hot, json=body, headers={**auth, "If-Match": current.headers["etag"]})

            _, writes = rate(args.writers, args.contention_seconds, write)
            final = httpx.get(hot, headers=auth).json()["version"]

    errors = sum(v for s, v in (create_statuses + read_statuses + writes).items() if s >= 500)
    lost = final != 1 + writes[200]
    others = {s: v for s, v in writes.items() if s not in (200, 412)}
    print(f"{kind}:")
    print(f"  baseline GET /healthz        {baseline:9.0f} req/s")
    print(
        f"  create POST /v1/scenarios    {create_rate:9.0f} req/s  ratio {create_rate / baseline:.2f}"
        f"  statuses {dict(create_statuses)}"
    )
    print(
        f"  read GET /v1/scenarios/{{id}}  {read_rate:9.0f} req/s  ratio {read_rate / baseline:.2f}"
        f"  statuses {dict(read_statuses)}"
    )
    print(
        f"  {args.writers} writers x {args.contention_seconds:g} s: {writes[200]} successful writes,"
        f" {writes[412]} x 412, other statuses {others or 'none'}; final version {final}"
        f" (expected {1 + writes[200]}): {'LOST UPDATES' if lost else 'no lost update'},"
        f" {errors} x 5xx"
    )
    return not lost and errors == 0


def postgres_reachable(url: str) -> bool:
    try:
        engine = create_engine(url, connect_args={"connect_timeout": 3})
        with engine.connect():
            pass
        engine.dispose()
        return True
    except Exception:
        return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="per throughput measurement")
    parser.add_argument("--threads", type=int, default=4, help="client threads for throughput")
    parser.add_argument("--writers", type=int, default=32)
    parser.add_argument("--contention-seconds", type=float, default=10.0)
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    kinds = [args.only] if args.only else ["sqlite", "postgresql"]
    ok = True
    for kind in kinds:
        if kind == "postgresql" and not postgres_reachable(args.postgres):
            print(f"postgresql: skipped, {args.postgres} not reachable")
            continue
        ok = bench_database(kind, args) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
