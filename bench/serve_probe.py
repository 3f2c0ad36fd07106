"""``manacalc serve`` (one worker) with two probes, for finding where a served request's tail latency goes
(issue 30): the cyclic collector's pauses (``gc.callbacks``) and the compute boundary's runs on the event
loop (``app.api.compute._inline``: done, or abandoned for the database or the 10 ms slice and run in a
worker thread, with that run's time). Drive it with wrk (bench/load.sh's bodies); on SIGINT it prints,
for the time after ``/readyz`` first answered, each generation's pauses and the inline attempts.

    MANACALC_DATABASE_URL=sqlite:////tmp/load.db .venv/bin/python bench/serve_probe.py --port 8100

Run without arguments (as ``make bench`` does), it only says what it is.

Issue 30's findings with it (payments/plan, every request a board of its own, 32 connections, a busy
two-core machine): collections took about 4 % of the time, pauses of 10-55 ms; 0.3 % of the requests
overran the inline slice and took 50-250 ms in a worker; the requests' own time in the server was 1.3 ms
at the median and 37 ms at p99, against wrk's 300-800 ms p99. Neither turning the collector off nor a
100 ms slice moved that p99 out of the run-to-run noise: it is the time a request waits behind the 31
others while the machine's two cores are shared, which the bare twin shows too (p99 about 7x its p50).
"""

from __future__ import annotations

import atexit
import collections
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app.api.compute as compute
from app.cli import main
from app.rules.deadline import DeadlineExceeded

_pauses: list[tuple[float, int, float]] = []  # (when, generation, ms)
_inline: collections.Counter[str] = collections.Counter()
_worker_ms: list[float] = []
_began = [0.0]


def _collected(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _began[0] = time.perf_counter()
    else:
        _pauses.append((time.monotonic(), info["generation"], (time.perf_counter() - _began[0]) * 1000))


def _probe_inline(original: Callable[..., Any]) -> Callable[..., Any]:
    def attempt(work: Any, started: float) -> Any:
        try:
            result = original(work, started)
        except compute.NeedsDatabase:
            _inline["dropped: needs the database"] += 1
            raise
        except DeadlineExceeded:
            _inline["dropped: past the slice"] += 1
            raise
        _inline["answered inline"] += 1
        return result

    return attempt


def _probe_worker(original: Callable[..., Any]) -> Callable[..., Any]:
    async def run(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            _worker_ms.append((time.perf_counter() - began) * 1000)

    return run


def _report() -> None:
    ready = _ready_at()
    by_generation: dict[int, list[float]] = collections.defaultdict(list)
    for when, generation, ms in _pauses:
        if when >= ready:
            by_generation[generation].append(ms)
    print("== serve_probe (after the first request)", file=sys.stderr)
    for generation, pauses in sorted(by_generation.items()):
        pauses.sort()
        print(
            f"  gc gen{generation}: {len(pauses)} pauses, {sum(pauses):.0f} ms in all,"
            f" median {pauses[len(pauses) // 2]:.2f} ms, longest {pauses[-1]:.1f} ms",
            file=sys.stderr,
        )
    for what, count in sorted(_inline.items()):
        print(f"  {what}: {count}", file=sys.stderr)
    if _worker_ms:
        _worker_ms.sort()
        print(
            f"  in a worker thread: median {_worker_ms[len(_worker_ms) // 2]:.0f} ms,"
            f" longest {_worker_ms[-1]:.0f} ms",
            file=sys.stderr,
        )


_first_request = [0.0]


def _ready_at() -> float:
    return _first_request[0] or time.monotonic()


def _probe_first_request(original: Callable[..., Any]) -> Callable[..., Any]:
    async def call(self: Any, scope: Any, receive: Any, send: Any) -> None:
        if not _first_request[0] and scope["type"] == "http":
            _first_request[0] = time.monotonic()
        await original(self, scope, receive, send)

    return call


if __name__ == "__main__":
    if len(sys.argv) == 1:  # as `make bench` runs it: a server to drive by hand, nothing to do alone
        print("bench/serve_probe.py serves with probes: run it with --port PORT and drive it with wrk")
        sys.exit(0)
    from app.api.middleware import ServiceMiddleware

    gc.callbacks.append(_collected)
    compute._inline = _probe_inline(compute._inline)  # type: ignore[assignment]
    compute._in_worker = _probe_worker(compute._in_worker)  # type: ignore[assignment]
    ServiceMiddleware.__call__ = _probe_first_request(ServiceMiddleware.__call__)  # type: ignore[method-assign]
    atexit.register(_report)
    sys.exit(main(["serve", "--workers", "1", *sys.argv[1:]]))
