"""Rate limits: token buckets per API key or client address, 429 problem+json with Retry-After. Time is
driven by a fake clock, so every expectation is exact."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.api.deps import get_db_read_session, get_db_session
from app.api.rate_limit import TokenBucketLimiter
from app.config import Settings
from app.main import create_app
from app.services.api_keys import create_api_key


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

    def test_session():  # type: ignore[no-untyped-def]
        try:
            yield db_session
        except BaseException:
            db_session.rollback()
            raise
        else:
            db_session.commit()

    application.dependency_overrides[get_db_session] = test_session

    application.dependency_overrides[get_db_read_session] = test_session
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
