"""One rate limit for the whole deployment (issue 14): token buckets in Redis, shared by every worker.

Against the local Redis (``MANACALC_TEST_REDIS_URL``, default ``redis://127.0.0.1:6379/5``; CI starts
one). Each test uses its own key prefix, so runs never see each other's buckets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from app.api.rate_limit import RedisTokenBucketLimiter

REDIS_URL = os.environ.get("MANACALC_TEST_REDIS_URL", "redis://127.0.0.1:6379/5")
ROOT = Path(__file__).resolve().parents[2]


def _redis_up() -> bool:
    import redis

    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5) as client:
            return bool(client.ping())
    except redis.RedisError:
        return False


needs_redis = pytest.mark.skipif(not _redis_up(), reason=f"no Redis at {REDIS_URL} (CI starts one)")


def _limiter(per_minute: int, burst: int, prefix: str, url: str = REDIS_URL) -> RedisTokenBucketLimiter:
    return RedisTokenBucketLimiter(url, per_minute, burst, prefix=prefix)


@needs_redis
def test_two_limiters_share_one_bucket() -> None:
    prefix = f"test:{uuid.uuid4().hex}:"

    async def run() -> list[float]:
        a, b = _limiter(60, 3, prefix), _limiter(60, 3, prefix)  # two workers
        taken = [await a.take("addr:x"), await b.take("addr:x"), await a.take("addr:x")]
        taken += [await b.take("addr:x"), await a.take("addr:y")]
        waits = [wait for wait, _ in taken]
        # The tokens left, as the RateLimit header reports them: 2, 1, 0 of the shared burst of 3.
        assert [round(tokens) for _, tokens in taken[:3]] == [2, 1, 0]
        await a.aclose()
        await b.aclose()
        return waits

    waits = asyncio.run(run())
    assert waits[:3] == [0.0, 0.0, 0.0]
    assert 0.9 < waits[3] <= 1.0  # the fourth, from the other worker, waits about a second (1 token/s)
    assert waits[4] == 0.0  # another bucket


@needs_redis
def test_bucket_refills_at_the_rate() -> None:
    prefix = f"test:{uuid.uuid4().hex}:"

    async def run() -> tuple[float, float]:
        limiter = _limiter(600, 1, prefix)  # 10 tokens a second
        await limiter.take("k")
        refused, _ = await limiter.take("k")
        await asyncio.sleep(0.15)
        later, _ = await limiter.take("k")
        await limiter.aclose()
        return refused, later

    refused, later = asyncio.run(run())
    assert refused > 0
    assert later == 0.0


@needs_redis
def test_connections_redis_dropped_are_replaced_without_falling_back() -> None:
    """Issue 27: after a Redis restart every pooled connection is stale; each failed its first command
    and sent the worker to its own buckets for 5 s, in turn (the limit flapped). Redis dropping this
    limiter's connections (as a restart does; only ours, by client name, on a shared Redis) must cost
    no request its shared bucket."""
    import redis

    from app.api.rate_limit import redis_client

    name = f"manacalc-test-{uuid.uuid4().hex[:12]}"
    prefix = f"test:{uuid.uuid4().hex}:"

    def drop_our_connections() -> int:
        with redis.Redis.from_url(REDIS_URL) as admin:
            ours = [c["id"] for c in admin.client_list() if c.get("name") == name]
            for client_id in ours:
                admin.client_kill_filter(_id=client_id)
            return len(ours)

    async def run() -> tuple[int, list[float], bool]:
        limiter = RedisTokenBucketLimiter(
            REDIS_URL, 60, 100, prefix=prefix, client=redis_client(REDIS_URL, client_name=name)
        )
        await asyncio.gather(*(limiter.take("k") for _ in range(6)))  # several pooled connections
        dropped = drop_our_connections()
        # take() answers (seconds to wait, tokens left): only the waits matter here
        waits = [wait for wait, _left in await asyncio.gather(*(limiter.take("k") for _ in range(6)))]
        fell_back = limiter.using_fallback
        await limiter.aclose()
        return dropped, waits, fell_back

    dropped, waits, fell_back = asyncio.run(run())
    assert dropped >= 2
    assert not fell_back
    assert waits == [0.0] * 6
    with redis.Redis.from_url(REDIS_URL) as admin:  # all 12 counted in the shared bucket
        assert 87 <= float(admin.hget(prefix + "k", "tokens") or 0) <= 88.5


def test_unreachable_redis_falls_back_to_the_worker_and_logs_once(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]

    async def run() -> list[float]:
        limiter = _limiter(60, 2, "test:", url=f"redis://127.0.0.1:{port}/0")
        waits = [(await limiter.take("addr:z"))[0] for _ in range(3)]
        assert limiter.using_fallback
        await limiter.aclose()
        return waits

    with caplog.at_level(logging.WARNING, logger="manacalc"):
        waits = asyncio.run(run())
    assert waits[:2] == [0.0, 0.0] and waits[2] > 0  # still limited, by this worker alone
    warnings = [r for r in caplog.records if "Redis unavailable" in r.getMessage()]
    assert len(warnings) == 1


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(url: str) -> int:
    request = urllib.request.Request(
        url, data=json.dumps({"mana_cost": "{W}"}).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@needs_redis
@pytest.mark.db_free  # two workers on a SQLite file of their own (and the real Redis)
def test_two_worker_processes_admit_one_limit_in_all(tmp_path: Path) -> None:
    """``manacalc serve --workers 2`` with Redis: the sum both workers admit is the one burst (plus what
    refills meanwhile at 1 a second), where each worker alone would have admitted a burst of its own."""
    import redis

    burst = 10
    port = _free_port()
    db_url = f"redis://{REDIS_URL.split('://', 1)[1]}"
    env = {
        **os.environ,
        "MANACALC_DATABASE_URL": f"sqlite:///{tmp_path}/two.db",
        "MANACALC_REDIS_URL": db_url,
        "MANACALC_RATE_LIMIT_PER_MINUTE": "60",
        "MANACALC_RATE_LIMIT_BURST": str(burst),
        "MANACALC_LOG_LEVEL": "WARNING",
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    # The bucket of 127.0.0.1 is shared by everything on this machine: start from an empty one.
    with redis.Redis.from_url(REDIS_URL) as client:
        client.delete("manacalc:rl:addr:127.0.0.1")
    log = tmp_path / "server.log"
    out = log.open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=out,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(log.read_text()) from None
                time.sleep(0.1)
        started = time.monotonic()
        with ThreadPoolExecutor(16) as pool:  # a fresh connection each: the kernel spreads them
            statuses = list(
                pool.map(lambda _: _post(f"http://127.0.0.1:{port}/v1/mana-costs/parse"), range(60))
            )
        elapsed = time.monotonic() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
        out.close()
    admitted = statuses.count(200)
    assert set(statuses) <= {200, 429}
    assert burst <= admitted <= burst + int(elapsed) + 1
    assert admitted < 2 * burst  # per-worker buckets would have let a burst through each
