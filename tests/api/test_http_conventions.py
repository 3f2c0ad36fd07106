"""Validators on every cacheable GET (``ETag`` + ``Cache-Control``, 304 on ``If-None-Match``, RFC 9110
13.1.2) and ``Link: <...>; rel="next"`` (RFC 8288) beside a page's ``next_cursor``."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.services.api_keys import create_api_key


@pytest.mark.parametrize(
    "url", ["/v1/symbols", "/v1/creature-types", "/openapi.json", "/v1/cards/Forest", "/v1/cards?limit=1"]
)
def test_cacheable_gets_carry_validators_and_answer_304(client: TestClient, url: str) -> None:
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers["etag"]
    assert etag.startswith('W/"') and "max-age=" in first.headers["cache-control"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert client.get(url, headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_openapi_document_is_the_same_through_its_cached_route(client: TestClient) -> None:
    assert client.get("/openapi.json").json() == client.app.openapi()  # type: ignore[attr-defined]
    head = client.head("/openapi.json")
    assert head.status_code == 200 and head.headers["etag"] and head.content == b""


def test_link_next_beside_the_cursor(client: TestClient) -> None:
    page = client.get("/v1/cards", params={"mana_cost": "{G}", "limit": 2})
    body = page.json()
    assert body["has_more"] is True
    link = page.headers["link"]
    assert link.startswith("</v1/cards?") and link.endswith('>; rel="next"')
    target = link[1 : link.index(">")]
    assert "limit=2" in target and "mana_cost=" in target
    following = client.get(target)
    assert following.status_code == 200
    assert following.json()["data"][0]["name"] > body["data"][-1]["name"]  # the next page, sorted by name
    last = client.get("/v1/cards", params={"name": "Forest", "limit": 1000})
    assert last.json()["has_more"] is False and "link" not in last.headers


def test_scenario_pages_follow_their_link(client: TestClient, db_session: Session) -> None:
    """Following `Link: rel="next"` alone walks every page of a key's scenarios, then stops."""
    auth = {"Authorization": f"Bearer {create_api_key(db_session, name='link-pages')}"}
    ids = [
        client.post("/v1/scenarios", json={"name": f"s{i}", "board": {}}, headers=auth).json()["id"]
        for i in range(5)
    ]
    url: str | None = "/v1/scenarios?limit=2"
    seen: list[str] = []
    while url is not None:
        page = client.get(url, headers=auth)
        seen += [s["id"] for s in page.json()["data"]]
        link = page.headers.get("link")
        assert (link is not None) == page.json()["has_more"]
        url = link[1 : link.index(">")] if link else None
    assert seen == ids


def test_openapi_json_is_compressed_once_and_served_as_sent(client: TestClient) -> None:
    """``/openapi.json`` is exempt from the rate limit: a flood of it must cost no compression each."""
    import gzip
    from unittest import mock

    with mock.patch("gzip.compress", wraps=gzip.compress) as compress:
        plain = client.get("/openapi.json", headers={"Accept-Encoding": "identity"})
        zipped = [client.get("/openapi.json", headers={"Accept-Encoding": "gzip"}) for _ in range(3)]
    assert compress.call_count <= 1
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    for answer in zipped:
        assert answer.headers["content-encoding"] == "gzip"
        assert answer.headers["vary"] == "Accept-Encoding"
        assert answer.json() == plain.json()  # httpx decodes it
        assert answer.headers["etag"] == plain.headers["etag"]
