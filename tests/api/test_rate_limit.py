"""Rate limits: token buckets per API key or client address, 429 problem+json with Retry-After. Time is
driven by a fake clock, so every expectation is exact."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.api.rate_limit import TokenBucketLimiter
from app.config import Settings
from app.main import create_app
from app.services.api_keys import create_api_key
from tests.sessions import bind_app_to_session


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# --- the bucket ---------------------------------------------------------------------------------------


def test_bucket_allows_a_burst_then_refills_at_the_rate() -> None:
    clock = FakeClock()
    limiter = TokenBucketLimiter(per_minute=60, burst=3, clock=clock)  # one token a second
    assert [limiter.acquire("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.acquire("a") == pytest.approx(1.0)
    clock.now += 0.5
    assert limiter.acquire("a") == pytest.approx(0.5)  # a refused request takes nothing
    clock.now += 0.5
    assert limiter.acquire("a") == 0.0
    assert limiter.acquire("a") == pytest.approx(1.0)
    assert limiter.acquire("b") == 0.0  # buckets are separate
    clock.now += 3600
    assert [limiter.acquire("a") for _ in range(4)][:3] == [0.0, 0.0, 0.0]  # refills up to burst only
    assert limiter.acquire("a") > 0


def test_bucket_memory_is_bounded() -> None:
    limiter = TokenBucketLimiter(per_minute=60, burst=1, clock=FakeClock(), max_buckets=100)
    for i in range(1000):
        limiter.acquire(f"addr:{i}")
    assert len(limiter) == 100


def test_limiter_rejects_a_zero_rate() -> None:
    with pytest.raises(ValueError):
        TokenBucketLimiter(per_minute=0, burst=1)


# --- the middleware -----------------------------------------------------------------------------------


@pytest.fixture
def limited(settings: Settings, db_session: Session) -> tuple[FastAPI, FakeClock]:
    """The app with 60 requests a minute and a burst of 2, on the test's session, with a fake clock."""
    application = create_app(settings.model_copy(update={"rate_limit_per_minute": 60, "rate_limit_burst": 2}))

    bind_app_to_session(application, db_session)
    clock = FakeClock()
    application.state.rate_limiter.clock = clock
    return application, clock


def test_429_is_a_problem_with_retry_after(limited: tuple[FastAPI, FakeClock]) -> None:
    app, clock = limited
    client = TestClient(app)
    assert client.get("/v1/symbols").status_code == 200
    assert client.post("/v1/mana-costs/parse", json={"mana_cost": "2WW"}).status_code == 200
    refused = client.get("/v1/symbols", headers={"X-Request-ID": "limited-1"})
    assert refused.status_code == 429
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert refused.headers["retry-after"] == "1"
    assert refused.headers["x-request-id"] == "limited-1"
    problem = refused.json()
    assert problem["type"] == "/problems/rate-limited" and problem["status"] == 429
    assert problem["instance"] == "/v1/symbols"
    clock.now += 0.4
    assert client.get("/v1/symbols").headers["retry-after"] == "1"  # 0.6 s rounds up
    clock.now += 0.6
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols").status_code == 429


def test_retry_after_is_whole_seconds_until_a_token(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"rate_limit_per_minute": 6, "rate_limit_burst": 1}))
    app.state.rate_limiter.clock = clock = FakeClock()
    client = TestClient(app)
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols").headers["retry-after"] == "10"
    clock.now += 7.5
    assert client.get("/v1/symbols").headers["retry-after"] == "3"


def test_exempt_paths_never_count(limited: tuple[FastAPI, FakeClock]) -> None:
    app, _ = limited
    client = TestClient(app)
    for _ in range(5):
        for path in ("/healthz", "/readyz", "/openapi.json", "/docs", "/problems"):
            assert client.get(path).status_code == 200, path
        # /metrics is off the API by default (app.api.metrics): its 404 must not count either.
        assert client.get("/metrics").status_code == 404
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols").status_code == 429


def test_client_addresses_have_their_own_buckets(limited: tuple[FastAPI, FakeClock]) -> None:
    app, _ = limited
    first = TestClient(app, client=("203.0.113.1", 5000))
    second = TestClient(app, client=("203.0.113.2", 5000))
    for _ in range(2):
        assert first.get("/v1/symbols").status_code == 200
    assert first.get("/v1/symbols").status_code == 429
    assert second.get("/v1/symbols").status_code == 200


def test_an_accepted_api_key_has_its_own_bucket_and_made_up_keys_do_not(
    limited: tuple[FastAPI, FakeClock], db_session: Session
) -> None:
    app, clock = limited
    key = create_api_key(db_session, name="rate-limit-test")
    client = TestClient(app, client=("198.51.100.7", 5000))
    keyed = {"Authorization": f"Bearer {key}"}
    # The first scenarios call is charged to the address (the key is not known yet) and accepts the key.
    assert client.get("/v1/scenarios", headers=keyed).status_code == 200
    # From now on the key's own bucket: two more requests, from anywhere, then 429.
    assert client.get("/v1/scenarios", headers=keyed).status_code == 200
    assert client.get("/v1/symbols", headers=keyed).status_code == 200
    refused = client.get("/v1/scenarios", headers=keyed)
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
    # The address still has one token of its own; made-up keys are charged to the address.
    assert client.get("/v1/symbols").status_code == 200
    assert client.get("/v1/symbols", headers={"Authorization": "Bearer made-up-1"}).status_code == 429
    assert client.get("/v1/scenarios", headers={"Authorization": "Bearer made-up-2"}).status_code == 429
    clock.now += 1
    assert client.get("/v1/scenarios", headers=keyed).status_code == 200


# Characters Python's str.strip() removes and an ASCII strip keeps (latin-1, as a header value is read).
UNICODE_SPACES = [b"\xa0", b"\x85", b"\x1c", b"\x1d", b"\x1e", b"\x1f"]


def test_every_spelling_of_a_key_authentication_accepts_shares_its_bucket(
    limited: tuple[FastAPI, FakeClock], db_session: Session
) -> None:
    """Issue 27: the limiter stripped ASCII spaces only, authentication every Unicode one, so 30
    spellings of one key, each from its own address, got 30 buckets (3,693 answers against 120)."""
    app, _ = limited
    key = create_api_key(db_session, name="spellings").encode()
    spellings = [
        b"Bearer " + before + key + after
        for before in [b"", b" ", *UNICODE_SPACES]
        for after in UNICODE_SPACES[:4]
    ][:30]

    async def send_all() -> list[int]:
        # httpx's ASGI transport passes header bytes as sent (the TestClient re-encodes them as UTF-8).
        async def get(address: str, authorization: bytes) -> int:
            transport = httpx.ASGITransport(app=app, client=(address, 5000))
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                response = await client.get("/v1/scenarios", headers={"Authorization": authorization})
                return response.status_code

        assert await get("192.0.2.1", b"Bearer " + key) == 200
        return [await get(f"192.0.2.{i + 2}", spelling) for i, spelling in enumerate(spellings)]

    statuses = asyncio.run(send_all())
    assert 401 not in statuses  # authentication accepts every one of them...
    assert statuses.count(200) == 2  # ...and they share the key's bucket: its burst of 2, then 429
    assert statuses.count(429) == len(spellings) - 2


def test_the_limiter_reads_a_key_as_authentication_does() -> None:
    """The limiter's reading of the header is FastAPI's HTTPBearer's, character for character."""
    from fastapi.security import HTTPBearer
    from starlette.requests import Request

    from app.api.rate_limit import bearer

    scheme = HTTPBearer(auto_error=False)
    values = [b"Bearer k", b"bearer  k\xa0", b"BEARER\x85k", b"Bearer", b"Bearer ", b"Basic k", b"Bearer a b"]
    values += [b"Bearer " + space + b"key" + space for space in [*UNICODE_SPACES, b"\t", b"\x0b"]]
    for value in values:
        scope = {"type": "http", "headers": [(b"authorization", value)]}
        credentials = asyncio.run(scheme(Request(scope)))
        assert bearer(scope) == (credentials.credentials if credentials else None), value


def test_a_refused_key_falls_back_to_the_address(limited: tuple[FastAPI, FakeClock]) -> None:
    app, _ = limited
    client = TestClient(app)
    wrong = {"Authorization": "Bearer not-a-key"}
    assert client.get("/v1/scenarios", headers=wrong).status_code == 401
    assert client.get("/v1/scenarios", headers=wrong).status_code == 401
    assert client.get("/v1/symbols").status_code == 429  # same bucket: the address's


def test_zero_disables_the_limit(settings: Settings) -> None:
    app = create_app(settings.model_copy(update={"rate_limit_per_minute": 0, "rate_limit_burst": 1}))
    assert app.state.rate_limiter is None
    client = TestClient(app)
    assert all(client.get("/v1/symbols").status_code == 200 for _ in range(20))


def test_the_key_is_never_logged(
    limited: tuple[FastAPI, FakeClock], db_session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    app, _ = limited
    key = create_api_key(db_session, name="rate-limit-log-test")
    client = TestClient(app)
    with caplog.at_level("DEBUG"):
        for _ in range(4):
            client.get("/v1/scenarios", headers={"Authorization": f"Bearer {key}"})
    assert key not in caplog.text


def test_ratelimit_headers_on_every_limited_answer(settings: Settings) -> None:
    """IETF httpapi "RateLimit header fields for HTTP": the policy (quota q = the burst, over w seconds,
    the time an empty bucket takes to fill: 2 tokens at 6 a minute, 20 s) and what is left (r requests,
    t seconds until the bucket is full again), on 2xx and 429 alike; exempt paths carry none."""
    app = create_app(settings.model_copy(update={"rate_limit_per_minute": 6, "rate_limit_burst": 2}))
    app.state.rate_limiter.clock = clock = FakeClock()
    client = TestClient(app)
    first = client.get("/v1/symbols")
    assert first.headers["ratelimit-policy"] == '"default";q=2;w=20'
    assert first.headers["ratelimit"] == '"default";r=1;t=10'  # one token used: 10 s to refill it
    second = client.get("/v1/symbols")
    assert second.headers["ratelimit"] == '"default";r=0;t=20'
    refused = client.get("/v1/symbols")
    assert refused.status_code == 429
    assert refused.headers["ratelimit"] == '"default";r=0;t=20'
    assert refused.headers["retry-after"] == "10"
    clock.now += 10
    assert client.get("/v1/symbols").headers["ratelimit"] == '"default";r=0;t=20'
    assert "ratelimit" not in client.get("/healthz").headers


def test_a_trusted_proxy_range_covers_every_address_in_it() -> None:
    """An ingress controller's pods change address: ``MANACALC_TRUSTED_PROXIES`` takes ranges too."""
    from app.api.rate_limit import RateLimiter, TokenBucketLimiter

    limiter = RateLimiter(TokenBucketLimiter(60, 10), ["10.0.0.0/8", "192.0.2.7"])

    def scope(peer: str, forwarded: str) -> dict[str, object]:
        return {"client": (peer, 1234), "headers": [(b"x-forwarded-for", forwarded.encode())]}

    assert limiter.client_address(scope("10.4.2.9", "203.0.113.5")) == "203.0.113.5"
    assert limiter.client_address(scope("192.0.2.7", "203.0.113.5, 10.1.1.1")) == "203.0.113.5"
    assert limiter.client_address(scope("198.51.100.1", "203.0.113.5")) == "198.51.100.1"  # not a proxy
    assert limiter.client_address(scope("10.4.2.9", "not an address")) == "not an address"
