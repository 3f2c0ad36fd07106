"""``POST /v1/decks/chart`` (SVG) and ``/v1/decks/chart/vega-lite``: the deck analysis drawn without a
plotting library. The 40-card limited deck of ``test_decks.py``: its curve is worked out there from the
cards' costs (mv1 4, mv2 4, mv3 2, mv4 10, mv5 2, mv6 1) and its colors are red and green."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from fastapi.testclient import TestClient

from tests.api.test_decks import LIMITED

SVG_NS = "{http://www.w3.org/2000/svg}"


def _texts(svg: str, cls: str) -> list[str]:
    root = ET.fromstring(svg)
    return [t.text or "" for t in root.iter(f"{SVG_NS}text") if t.get("class") == cls]


def test_chart_is_an_svg_of_the_curve_with_whole_counts(client: TestClient) -> None:
    r = client.post("/v1/decks/chart", json={"decklist": LIMITED, "play": "first"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/svg+xml"
    svg = r.text
    # Bars 0..6 (the highest mana value present), each labelled; counts above the non-empty bars.
    assert _texts(svg, "value") == ["0", "1", "2", "3", "4", "5", "6"]
    assert _texts(svg, "count") == ["4", "4", "2", "10", "2", "1"]
    ticks = _texts(svg, "tick")
    assert all(re.fullmatch(r"\d+", t) for t in ticks), ticks  # never 17.5 copies
    assert int(ticks[-1]) >= 10
    # The deck's colors: R and G, with the symbol counts of test_decks (R 16, G 12) and sources (8, 9).
    assert _texts(svg, "color") == ["R  16 symbols / 8 sources", "G  12 symbols / 9 sources"]
    assert "40 cards, 17 lands" in svg
    # Dated as the JSON answer is: the rules edition and the catalogue's data version it was computed with.
    answer = client.post("/v1/decks/analyze", json={"decklist": LIMITED, "play": "first"}).json()
    assert _texts(svg, "footer") == [
        f"Comprehensive Rules of {answer['rules_edition']}; card data {answer['data_version']}"
    ]


def test_castability_table_is_sorted_least_likely_first(client: TestClient) -> None:
    answer = client.post("/v1/decks/analyze", json={"decklist": LIMITED}).json()
    svg = client.post("/v1/decks/chart", json={"decklist": LIMITED}).text
    names = _texts(svg, "name")
    expected = sorted(answer["castability"], key=lambda c: (c["probability"], c["turn"], c["card"]["name"]))
    assert names == [c["card"]["name"] for c in expected]
    percents = [int(p.strip().rstrip("!").strip().rstrip("%")) for p in _texts(svg, "pct")]
    assert percents == sorted(percents)
    # A spell short of Karsten's sources is marked: Keldon Raider needs 11 red sources, the deck has 8.
    raider = names.index("Keldon Raider")
    assert _texts(svg, "pct")[raider].endswith("!")


def test_vega_lite_spec_carries_the_same_data(client: TestClient) -> None:
    r = client.post("/v1/decks/chart/vega-lite", json={"decklist": LIMITED})
    assert r.status_code == 200, r.text
    spec = r.json()
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    dates = client.post("/v1/decks/analyze", json={"decklist": LIMITED}).json()
    assert spec["usermeta"] == {
        "rules_edition": dates["rules_edition"],
        "data_version": dates["data_version"],
        "castability_model": "karsten-2022",
    }
    curve, spells = spec["hconcat"]
    assert [(v["mana_value"], v["copies"]) for v in curve["data"]["values"]] == [
        ("0", 0),
        ("1", 4),
        ("2", 4),
        ("3", 2),
        ("4", 10),
        ("5", 2),
        ("6", 1),
    ]
    probabilities = [v["probability"] for v in spells["data"]["values"]]
    assert probabilities == sorted(probabilities)
    colors = {v["card"]: v["color"] for v in spells["data"]["values"]}
    assert colors["Shock"] == "R" and colors["Grizzly Bears"] == "G"


def test_chart_refuses_what_analyze_refuses(client: TestClient) -> None:
    r = client.post("/v1/decks/chart", json={"decklist": "4 Forest", "cards": []})
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"
