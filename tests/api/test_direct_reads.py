"""The direct lane of ``GET /v1/scenarios/{id}`` (``app.api.direct.serve_read``, issue 14): a key in the
key cache is answered without FastAPI's routing and dependency solving, with the same answers as FastAPI
gives; anything the lane does not handle is left to FastAPI. Run on the app as in production (the lane
steps aside when dependency overrides are installed, as in the rest of the suite)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.api import direct
from app.services.api_keys import forget_accepted_keys
from tests.api.test_observability import requests_total, scrape

BOARD: dict[str, Any] = {"permanents": [{"id": "forest", "card": "Forest"}]}
Real = tuple[TestClient, Engine, dict[str, str]]


@pytest.fixture
def lane() -> Iterator[list[str]]:
    """What the lane's readers answered, per request: a status, or "fastapi" when they stepped aside."""
    seen: list[str] = []

    def spying(read: direct.DirectRead) -> direct.DirectRead:
        async def reader(scope: Any, match: re.Match[str]) -> Any:
            try:
                response = await read.reader(scope, match)
            except Exception:
                seen.append("raised")
                raise
            seen.append("fastapi" if response is None else str(response.status_code))
            return response

        return direct.DirectRead(read.pattern, reader, read.template)

    original = list(direct.READS)
    direct.READS[:] = [spying(r) for r in original]  # in place: the app's middleware holds this list
    try:
        yield seen
    finally:
        direct.READS[:] = original


def _stored(real: Real) -> tuple[str, str]:
    client, _, auth = real
    created = client.post("/v1/scenarios", json={"name": "lane", "board": BOARD}, headers=auth)
    assert created.status_code == 201, created.text
    return created.json()["id"], created.headers["etag"]


def _through_fastapi(client: TestClient, url: str, headers: dict[str, str]) -> Any:
    forget_accepted_keys()  # the lane serves cached keys only
    return client.get(url, headers=headers)


def test_a_cached_key_reads_through_the_lane_with_fastapis_answer(real: Real, lane: list[str]) -> None:
    client, _, auth = real
    sid, etag = _stored(real)
    url = f"/v1/scenarios/{sid}"
    fast = client.get(url, headers=auth)
    assert lane == ["200"]
    slow = _through_fastapi(client, url, auth)
    assert lane == ["200", "fastapi"]
    assert fast.status_code == slow.status_code == 200
    assert fast.json() == slow.json()
    assert fast.json()["id"] == sid and fast.json()["board"]["permanents"][0]["card"] == "Forest"
    assert fast.headers["etag"] == slow.headers["etag"] == etag
    assert fast.headers["content-type"] == slow.headers["content-type"] == "application/json"
    assert fast.headers["x-request-id"]


def test_if_none_match_gives_304_through_the_lane(real: Real, lane: list[str]) -> None:
    client, _, auth = real
    sid, etag = _stored(real)
    url = f"/v1/scenarios/{sid}"
    same = client.get(url, headers={**auth, "If-None-Match": f'W/{etag}, "other"'})
    assert (same.status_code, same.content, same.headers["etag"]) == (304, b"", etag)
    other = client.get(url, headers={**auth, "If-None-Match": '"other-v9"'})
    assert other.status_code == 200
    assert lane == ["304", "200"]


def test_an_unknown_scenario_is_the_same_404_problem_either_way(real: Real, lane: list[str]) -> None:
    client, _, auth = real
    _stored(real)  # the key is now cached
    fast = client.get("/v1/scenarios/no-such-id", headers=auth)
    slow = _through_fastapi(client, "/v1/scenarios/no-such-id", auth)
    assert lane == ["raised", "fastapi"]  # NotFound, answered by the app's handler within the lane
    assert fast.status_code == slow.status_code == 404
    assert fast.headers["content-type"] == slow.headers["content-type"] == "application/problem+json"
    assert fast.json() == slow.json()
    assert "no-such-id" in fast.json()["detail"]


def test_what_the_lane_does_not_check_goes_to_fastapi(real: Real, lane: list[str]) -> None:
    client, _, auth = real
    sid, _ = _stored(real)
    url = f"/v1/scenarios/{sid}"
    too_long = client.get(url, headers={**auth, "If-None-Match": "x" * 2001})
    assert too_long.status_code == 422
    assert too_long.json()["errors"][0]["loc"] == ["header", "If-None-Match"]
    long_id = client.get("/v1/scenarios/" + "a" * 65, headers=auth)
    assert long_id.status_code == 422  # not matched by the lane's pattern at all
    no_key = client.get(url)
    assert no_key.status_code == 401
    unknown_key = client.get(url, headers={"Authorization": "Bearer mck_not-a-key"})
    assert unknown_key.status_code == 401
    assert lane == ["fastapi", "fastapi", "fastapi"]


def test_lane_answers_are_counted_under_the_route_template(real: Real, lane: list[str]) -> None:
    client, _, auth = real
    sid, _ = _stored(real)
    template = "/v1/scenarios/{scenario_id}"
    before = requests_total(scrape(client), route=template, status="200", method="GET")
    for _ in range(3):
        assert client.get(f"/v1/scenarios/{sid}", headers=auth).status_code == 200
    after = requests_total(scrape(client), route=template, status="200", method="GET")
    assert lane == ["200"] * 3
    assert after - before == 3
