"""POST /v1/mental-magic/options over HTTP on the bundled catalogue (ruling:richard-garfield-phd)."""

from __future__ import annotations

from fastapi.testclient import TestClient

RICHARD = {"id": "richard-1", "card": "Richard Garfield, Ph.D."}


def _all_options(client: TestClient, body: dict[str, object]) -> tuple[list[dict[str, object]], list[object]]:
    """Every option over all pages (the whole catalogue holds hundreds of {W} cards), and the exclusions."""
    data: list[dict[str, object]] = []
    cursor = None
    for _ in range(50):
        r = client.post("/v1/mental-magic/options", json={**body, "limit": 1000, "cursor": cursor})
        assert r.status_code == 200, r.text
        page = r.json()
        data += page["data"]
        cursor = page["next_cursor"]
        if cursor is None:
            return data, page["excluded"]
    raise AssertionError("more than 50 pages of options")


def test_options_by_format_exclude_what_this_richard_chose(client: TestClient) -> None:
    body = {
        "card": "Savannah Lions",
        "via": "richard-1",
        "board": {"permanents": [RICHARD]},
        "format": "legacy",
    }
    r = client.post("/v1/mental-magic/options", json=body)
    assert r.status_code == 200, r.text
    assert set(r.json()) >= {"has_more", "next_cursor", "excluded", "rules_edition", "data_version"}
    data, _ = _all_options(client, body)
    names = [d["name"] for d in data]
    assert "Swords to Plowshares" in names and "Savannah Lions" not in names
    assert all(d["mana_cost"] == "{W}" for d in data)
    chosen = {**RICHARD, "played_as": ["Swords to Plowshares"]}
    data, excluded = _all_options(client, {**body, "board": {"permanents": [chosen]}})
    assert "Swords to Plowshares" not in [d["name"] for d in data]
    assert {"name": "Swords to Plowshares", "reason": "already chosen through richard-1"} in excluded
    other = {"id": "richard-2", "card": "Richard Garfield, Ph.D."}
    data, _ = _all_options(client, {**body, "via": "richard-2", "board": {"permanents": [chosen, other]}})
    assert "Swords to Plowshares" in [d["name"] for d in data]


def test_pool_and_pagination(client: TestClient) -> None:
    body = {
        "card": "Avacynian Priest",
        "via": "richard-1",
        "board": {"permanents": [RICHARD]},
        "format": "pool",
        "pool": ["Disenchant", "Swords to Plowshares", "Avacynian Priest"],
    }
    r = client.post("/v1/mental-magic/options", json=body)
    assert r.status_code == 200, r.text
    assert [d["name"] for d in r.json()["data"]] == ["Disenchant"]
    first = client.post(
        "/v1/mental-magic/options", json={**body, "format": "unsanctioned", "pool": None, "limit": 1}
    ).json()
    assert len(first["data"]) <= 1
    if first["has_more"]:
        second = client.post(
            "/v1/mental-magic/options",
            json={**body, "format": "unsanctioned", "pool": None, "limit": 1, "cursor": first["next_cursor"]},
        ).json()
        assert second["data"] != first["data"]


def test_bad_requests(client: TestClient) -> None:
    base = {
        "card": "Savannah Lions",
        "via": "richard-1",
        "board": {"permanents": [RICHARD]},
        "format": "legacy",
    }
    assert client.post("/v1/mental-magic/options", json={**base, "format": "legcy"}).status_code == 422
    horn = {"permanents": [{"id": "richard-1", "card": "Herald's Horn"}]}
    r = client.post("/v1/mental-magic/options", json={**base, "board": horn})
    assert r.status_code == 422 and r.json()["type"].endswith("/rules-violation")
    r = client.post("/v1/mental-magic/options", json={**base, "via": "nobody"})
    assert r.status_code == 422 and r.json()["type"].endswith("/invalid-choice")
    assert client.post("/v1/mental-magic/options", json={**base, "format": "pool"}).status_code == 422
