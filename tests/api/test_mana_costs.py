"""``POST /v1/mana-costs/parse`` and ``GET /v1/symbols`` over HTTP."""

from __future__ import annotations

import pytest


def test_parse_canonical(client) -> None:
    r = client.post("/v1/mana-costs/parse", json={"mana_cost": "{2}{W/U}{G/P}"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["mana_cost"] == "{2}{W/U}{G/P}"
    assert body["mana_value"] == 4
    assert body["colors"] == ["W", "U", "G"]
    assert [s["kind"] for s in body["symbols"]] == ["generic", "hybrid", "phyrexian"]
    assert body["rules_edition"] and body["data_version"]


@pytest.mark.parametrize(
    ("loose", "canonical", "mv"),
    [
        ("2WW", "{2}{W}{W}", 4),
        ("2{g}2", "{4}{G}", 5),
        ("{HW}", "{HW}", 0.5),
        ("", "{0}", 0),
        ("xr", "{X}{R}", 1),
    ],
)
def test_parse_loose(client, loose: str, canonical: str, mv: float) -> None:
    body = client.post("/v1/mana-costs/parse", json={"mana_cost": loose}).json()
    assert (body["mana_cost"], body["mana_value"]) == (canonical, mv)


def test_infinity(client) -> None:
    body = client.post("/v1/mana-costs/parse", json={"mana_cost": "{∞}"}).json()
    assert body["mana_value"] is None and body["infinite"] is True


def test_malformed_cost_names_symbol_and_position(client) -> None:
    r = client.post("/v1/mana-costs/parse", json={"mana_cost": "{2}{Q}"})
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    p = r.json()
    assert p["type"].endswith("/problems/malformed-cost")
    assert "{Q}" in p["detail"] and "3" in p["detail"]
    assert p["errors"][0]["loc"][-1] == "mana_cost"


def test_too_long_and_unknown_fields(client) -> None:
    assert client.post("/v1/mana-costs/parse", json={"mana_cost": "{1}" * 400}).status_code == 422
    r = client.post("/v1/mana-costs/parse", json={"mana_cost": "{W}", "manacost": "x"})
    assert r.status_code == 422 and "manacost" in r.text


def test_symbols(client) -> None:
    body = client.get("/v1/symbols").json()
    by_symbol = {s["symbol"]: s for s in body["data"]}
    assert by_symbol["{W/U}"]["kind"] == "hybrid" and by_symbol["{W/U}"]["colors"] == ["W", "U"]
    assert by_symbol["{2/W}"]["mana_value"] == 2
    assert by_symbol["{HW}"]["mana_value"] == 0.5
    assert by_symbol["{∞}"]["mana_value"] is None
    assert by_symbol["{1000000}"]["mana_value"] == 1_000_000
    assert body["has_more"] is False
