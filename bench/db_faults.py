"""PostgreSQL stopped under load: the service answers 503 problems quickly, then recovers by itself.

It STOPS THIS MACHINE'S PostgreSQL cluster for a few seconds, so it runs only when asked to:

    .venv/bin/python bench/db_faults.py --stop-postgres [--down-seconds 8] [--workers 2]

(without the flag, e.g. under ``make bench``, it says so and exits 0). Needs root or the postgres user
(``pg_ctlcluster``) and a local server on 127.0.0.1:5432 reachable as ``postgres`` (trust auth), or set
``--admin-url``. Steps: create a temporary database; start ``manacalc serve --workers N`` on it; create an
API key and some scenarios; keep client threads calling it (a compute endpoint, a scenario read, a
scenario write, /readyz); stop PostgreSQL (``pg_ctlcluster --skip-systemctl-redirect <version> main
stop``); check that /healthz still answers 200, that /readyz and every request needing the database answer
503 ``application/problem+json`` with ``Retry-After`` within ``--bound`` seconds (no hang), while the
compute endpoints and card look-ups answer from the catalogue each worker holds in memory; start
PostgreSQL again; check the same server process recovers (no restart) and every scenario written before is
there, unchanged. PostgreSQL is started again in every case (``finally``), the database dropped.

Exit status 0 when every check passed, 1 otherwise; the report lists each check.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

import httpx  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402
from sqlalchemy.pool import NullPool  # noqa: E402

PROBLEM = "application/problem+json"
BOARD = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "forest", "card": "Forest"},
        {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
    ]
}
COST_BODY = {"board": BOARD, "spell": {"card": "Llanowar Elves"}}


@dataclass
class Report:
    checks: list[tuple[bool, str]] = field(default_factory=list)

    def check(self, ok: bool, what: str) -> bool:
        self.checks.append((ok, what))
        print(f"  [{'ok' if ok else 'FAIL'}] {what}", flush=True)
        return ok

    @property
    def ok(self) -> bool:
        return all(ok for ok, _ in self.checks)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def pg_version() -> str:
    versions = sorted(os.listdir("/etc/postgresql"), key=lambda v: [int(p) for p in v.split(".")])
    return versions[-1]


def pg_ctl(action: str) -> None:
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", pg_version(), "main", action],
        check=True,
        capture_output=True,
        timeout=120,
    )


def pg_is_up() -> bool:
    return subprocess.run(["pg_isready", "-q", "-h", "127.0.0.1", "-p", "5432"], timeout=30).returncode == 0


def wait_until(predicate: Callable[[], bool], timeout: float, step: float = 0.1) -> float | None:
    """Seconds until ``predicate()`` held, None if it did not within ``timeout``."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if predicate():
            return time.monotonic() - started
        time.sleep(step)
    return None


@contextmanager
def temporary_database(admin_url: str) -> Iterator[str]:
    base = make_url(admin_url)
    name = f"manacalc_faults_{uuid.uuid4().hex[:10]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)  # none outlives the stop
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        if not pg_is_up():
            pg_ctl("start")
            wait_until(pg_is_up, 60, 0.5)
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def server(database_url: str, workers: int, log: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
    env.update(
        MANACALC_DATABASE_URL=database_url,
        MANACALC_DB_POOL_TIMEOUT="3",
        MANACALC_RATE_LIMIT_PER_MINUTE="0",  # the clients below are one address hammering on purpose
        MANACALC_LOG_LEVEL="WARNING",
    )
    # The wheel `make run` serves (make install-run) when built, else this interpreter's install.
    served = ROOT / ".venv-run" / "bin" / "manacalc"
    manacalc = served if served.exists() else Path(sys.executable).parent / "manacalc"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(manacalc), "serve", "--port", str(port), "--workers", str(workers)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        ready = wait_until(lambda: _status(base + "/readyz") == 200, 120, 0.2)
        if ready is None:
            raise SystemExit(f"the server did not become ready; its log:\n{log.read_text()[-3000:]}")
        yield base, process
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(5)


def _status(url: str) -> int | None:
    try:
        return httpx.get(url, timeout=2).status_code
    except httpx.TransportError:
        return None


class Load:
    """Client threads calling the service until stopped; every answer is recorded with the phase it
    started in ("up", "down", "recovering")."""

    def __init__(self, base: str, headers: dict[str, str], scenario_path: str, threads: int) -> None:
        self.base = base
        self.headers = headers
        self.scenario_path = scenario_path
        self.phase = "up"
        self.stop = threading.Event()
        self.results: dict[str, list[tuple[str, int | str, float]]] = defaultdict(list)
        self._lock = threading.Lock()
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(threads)]

    def __enter__(self) -> Load:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        for thread in self._threads:
            thread.join(30)

    def _run(self, i: int) -> None:
        calls: list[tuple[str, str, str, dict[str, Any] | None]] = [
            ("cost", "POST", "/v1/spells/cost", COST_BODY),
            ("read", "GET", self.scenario_path, None),
            ("write", "POST", "/v1/scenarios", None),
            ("readyz", "GET", "/readyz", None),
        ]
        n = 0
        with httpx.Client(base_url=self.base, headers=self.headers, timeout=30) as client:
            while not self.stop.is_set():
                name, method, path, body = calls[(i + n) % len(calls)]
                if name == "write":
                    body = {"name": f"load-{i}-{n}-{uuid.uuid4().hex[:6]}", "board": BOARD}
                phase = self.phase
                started = time.monotonic()
                try:
                    response = client.request(method, path, json=body)
                    outcome: int | str = response.status_code
                    if (
                        response.status_code == 503
                        and (
                            response.headers.get("content-type") != PROBLEM
                            or "retry-after" not in response.headers
                        )
                        and name != "readyz"
                    ):
                        outcome = "503-without-problem-or-retry-after"
                except httpx.TransportError as exc:
                    outcome = exc.__class__.__name__
                with self._lock:
                    self.results[phase].append((name, outcome, time.monotonic() - started))
                n += 1
                time.sleep(0.01)


def probe(client: httpx.Client, method: str, path: str, body: Any = None) -> tuple[httpx.Response, float]:
    started = time.monotonic()
    response = client.request(method, path, json=body)
    return response, time.monotonic() - started


def run(args: argparse.Namespace) -> Report:
    report = Report()
    with tempfile.TemporaryDirectory() as tmp, temporary_database(args.admin_url) as url:
        log = Path(tmp) / "server.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
        key = subprocess.run(
            [str(Path(sys.executable).parent / "manacalc"), "create-api-key", "faults"],
            env={**env, "MANACALC_DATABASE_URL": url},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout.strip()
        headers = {"Authorization": f"Bearer {key}"}
        with (
            server(url, args.workers, log) as (base, process),
            httpx.Client(base_url=base, headers=headers, timeout=60) as client,
        ):
            print(f"server up on {base} ({args.workers} workers), database {make_url(url).database}")
            before: dict[str, int] = {}
            for i in range(args.scenarios):
                created = client.post("/v1/scenarios", json={"name": f"before-{i}", "board": BOARD})
                created.raise_for_status()
                before[created.json()["id"]] = created.json()["version"]
            first = next(iter(before))
            changed = client.put(
                f"/v1/scenarios/{first}/permanents/horn/choice",
                json={"creature_type": "Goblin"},
                headers={"If-Match": client.get(f"/v1/scenarios/{first}").headers["etag"]},
            )
            changed.raise_for_status()
            before[first] = changed.json()["version"]
            print(f"wrote {len(before)} scenarios (one changed once)")

            with Load(base, headers, f"/v1/scenarios/{first}", args.threads) as load:
                time.sleep(2)
                load.phase = "down"
                stop_started = time.monotonic()
                pg_ctl("stop")
                stopped = time.monotonic() - stop_started
                print(f"PostgreSQL stopped in {stopped:.1f}s; kept down for {args.down_seconds}s")
                try:
                    down_checks(client, first, args.bound, report)
                    time.sleep(max(0.0, args.down_seconds - (time.monotonic() - stop_started)))
                finally:
                    load.phase = "recovering"
                    start_started = time.monotonic()
                    pg_ctl("start")
                    up = wait_until(pg_is_up, 60, 0.2)
                    took = time.monotonic() - start_started
                    print(f"PostgreSQL started in {took:.1f}s (accepting connections: {up is not None})")
                recovered = wait_until(lambda: _status(base + "/readyz") == 200, 60, 0.1)
                report.check(
                    recovered is not None,
                    f"/readyz is 200 again {recovered or 0:.2f}s after PostgreSQL accepts",
                )
                load.phase = "after"
                time.sleep(2)
            summarize(load, args.bound, report)

            report.check(process.poll() is None, "the same server process served throughout (no restart)")
            for scenario_id, version in before.items():
                got = client.get(f"/v1/scenarios/{scenario_id}")
                if got.status_code != 200 or got.json()["version"] != version:
                    report.check(False, f"scenario {scenario_id} kept (got {got.status_code})")
                    break
            else:
                report.check(
                    True, f"all {len(before)} scenarios written before are there, versions unchanged"
                )
            horn = client.get(f"/v1/scenarios/{first}").json()["board"]["permanents"][0]
            report.check(
                horn["chosen"]["creature_type"] == "Goblin", "the change made before the outage is kept"
            )
            after = client.post("/v1/scenarios", json={"name": "after", "board": BOARD})
            report.check(
                after.status_code == 201, f"a new scenario is written after recovery ({after.status_code})"
            )
            cost = client.post("/v1/spells/cost", json=COST_BODY)
            report.check(
                cost.status_code == 200, f"compute endpoints answer after recovery ({cost.status_code})"
            )
        lines = log.read_text().splitlines()
        errors = [i for i, line in enumerate(lines) if "Traceback" in line or " CRITICAL " in line]
        report.check(not errors, f"no traceback or critical line in the server log ({len(errors)})")
        if errors:
            print(
                "the first one, with the lines around it:",
                *lines[max(0, errors[0] - 3) : errors[0] + 30],
                sep="\n",
            )
    return report


def down_checks(client: httpx.Client, scenario_id: str, bound: float, report: Report) -> None:
    time.sleep(0.5)  # the stop has closed every connection by now
    health, took = probe(client, "GET", "/healthz")
    report.check(health.status_code == 200, f"/healthz 200 while PostgreSQL is down ({took * 1000:.0f} ms)")
    ready, took = probe(client, "GET", "/readyz")
    report.check(
        ready.status_code == 503 and ready.headers.get("content-type") == PROBLEM and took < bound,
        f"/readyz {ready.status_code} {ready.headers.get('content-type')} in {took * 1000:.0f} ms",
    )
    # The compute endpoints and card look-ups read the catalogue the worker holds in memory (issue 14):
    # they answer from it while the database is away, as they did before it went (the catalogue cannot
    # have changed meanwhile). Stored scenarios live only in the database: 503.
    for method, path, body, from_memory in (
        ("POST", "/v1/spells/cost", COST_BODY, True),
        ("GET", "/v1/cards/Forest", None, True),
        ("GET", f"/v1/scenarios/{scenario_id}", None, False),
        ("POST", "/v1/scenarios", {"name": "during-outage", "board": BOARD}, False),
    ):
        response, took = probe(client, method, path, body)
        unavailable = (
            response.status_code == 503
            and response.headers.get("content-type") == PROBLEM
            and response.json().get("type") == "/problems/service-unavailable"
            and response.headers.get("retry-after", "").isdigit()
        )
        answered = from_memory and response.status_code == 200
        report.check(
            (unavailable or answered) and took < bound,
            f"{method} {path}: {response.status_code} {response.headers.get('content-type')} "
            f"Retry-After={response.headers.get('retry-after')} in {took * 1000:.0f} ms"
            + (" (from the catalogue in memory)" if answered else ""),
        )


def summarize(load: Load, bound: float, report: Report) -> None:
    print("load while the database went away and came back (answers by phase):")
    for phase in ("up", "down", "recovering", "after"):
        rows = load.results.get(phase, [])
        if not rows:
            continue
        outcomes = Counter(str(outcome) for _, outcome, _ in rows)
        slowest = max(seconds for _, _, seconds in rows)
        counts = dict(sorted(outcomes.items()))
        print(f"  {phase:<10} {len(rows):>5} requests  {counts}  slowest {slowest * 1000:.0f} ms")
    down = load.results.get("down", [])
    report.check(bool(down), "requests were made while PostgreSQL was down")
    bad = Counter(
        str(outcome) for _, outcome, _ in down if outcome not in (200, 201, 503)
    )  # 200: served before the stop took effect, or from no database at all (/healthz is not in the mix)
    report.check(
        not bad, f"while down, every answer was a 503 problem (or a success before the stop): {dict(bad)}"
    )
    slowest = max((seconds for _, _, seconds in down), default=0.0)
    report.check(
        slowest < bound, f"while down, the slowest answer took {slowest * 1000:.0f} ms (bound {bound:.0f}s)"
    )
    after = load.results.get("after", [])
    report.check(
        bool(after) and all(outcome in (200, 201) for _, outcome, _ in after),
        f"after recovery every request succeeds ({len(after)} requests)",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stop-postgres", action="store_true", help="really stop the local PostgreSQL")
    parser.add_argument("--admin-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=8, help="client threads keeping the load on")
    parser.add_argument("--scenarios", type=int, default=20)
    parser.add_argument("--down-seconds", type=float, default=8.0)
    parser.add_argument("--bound", type=float, default=5.0, help="seconds any answer may take while down")
    args = parser.parse_args()
    if not args.stop_postgres:
        print("bench/db_faults.py stops this machine's PostgreSQL: run it with --stop-postgres (skipped)")
        return 0
    if not pg_is_up():
        print("PostgreSQL is not answering on 127.0.0.1:5432", file=sys.stderr)
        return 1
    try:
        report = run(args)
    finally:
        if not pg_is_up():  # whatever happened, leave PostgreSQL running
            pg_ctl("start")
            wait_until(pg_is_up, 60, 0.5)
    passed = sum(ok for ok, _ in report.checks)
    print(f"{passed}/{len(report.checks)} checks passed")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
