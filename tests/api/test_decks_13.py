"""Deck analysis, API 1.3 ("Decks"): true sources (Pathways, fetch lands), the Companion section, copy limits
from card text, legality data's date, charts per castable half, the ``tapped-lands`` castability model and
the advisor's best plan. Expectations are worked out by hand from the cards' text (quoted) and the rules."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.api import examples
from app.config import Settings
from app.main import create_app
from tests.api.test_decks import DECKLISTS
from tests.sessions import bind_app_to_session

ANALYZE = "/v1/decks/analyze"
ADVISE = "/v1/decks/manabase"


@pytest.fixture
def app(settings: Settings, db_session: Session) -> FastAPI:
    application = create_app(settings.model_copy(update={"compute_budget_s": 30.0}))
    bind_app_to_session(application, db_session)
    return application


def _post(client: TestClient, url: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = client.post(url, json=body)
    assert r.status_code == status, r.text
    out: dict[str, Any] = r.json()
    return out


RAKDOS = next(c for c in DECKLISTS if c["name"].startswith("MTG Arena export whose companion"))["text"]


def test_pathways_count_each_face_and_fetches_what_the_deck_holds(client: TestClient) -> None:
    # Blightstep Pathway // Searstep Pathway: "{T}: Add {B}." // "{T}: Add {R}." (CR 712.12: played as a
    # land, "chooses one of its faces that's a land"): a source of B and of R. Bloodstained Mire: "Search
    # your library for a Swamp or Mountain card": the deck's Swamps, Mountains and Blood Crypt ("Land —
    # Swamp Mountain"). Red: Pathway 4 + Blood Crypt 4 + Mire 4 + Mountain 4 = 16; black likewise 16.
    body = _post(client, ANALYZE, {"decklist": RAKDOS})
    assert body["sources"] == {"W": 0, "U": 0, "B": 16, "R": 16, "G": 0}
    red = {s["card"]["name"]: s for s in body["source_cards"]["R"]}
    assert set(red) == {
        "Blightstep Pathway // Searstep Pathway",
        "Blood Crypt",
        "Bloodstained Mire",
        "Mountain",
    }
    assert red["Blightstep Pathway // Searstep Pathway"]["faces"] == ["Searstep Pathway"]
    assert sorted(red["Bloodstained Mire"]["finds"]) == ["Blood Crypt", "Mountain"]
    assert red["Mountain"]["finds"] is None and red["Mountain"]["count"] == 4
    black = {s["card"]["name"]: s for s in body["source_cards"]["B"]}
    assert black["Blightstep Pathway // Searstep Pathway"]["faces"] == ["Blightstep Pathway"]
    assert sum(s["count"] for s in body["source_cards"]["B"]) == body["sources"]["B"]


def test_a_fetch_never_counts_a_color_the_deck_cannot_find(client: TestClient) -> None:
    # Boros with Bloodstained Mire ("a Swamp or Mountain card"): no Swamp in the deck, so the Mire is a red
    # source only: R = 8 Mountain + 4 Mire = 12, B = 0 (the false "4 black sources").
    deck = "4 Bloodstained Mire\n8 Mountain\n8 Plains\n20 Lightning Bolt\n20 Lightning Helix"
    body = _post(client, ANALYZE, {"decklist": deck})
    assert body["sources"] == {"W": 8, "U": 0, "B": 0, "R": 12, "G": 0}
    assert body["source_cards"]["B"] == []


def test_the_companion_is_counted_once(client: TestClient) -> None:
    body = _post(client, ANALYZE, {"decklist": RAKDOS})
    assert body["counts"] == {"main": 60, "sideboard": 15, "commander": 0}
    lurrus = [c for c in body["cards"] if c["card"]["name"] == "Lurrus of the Dream-Den"]
    assert [(c["line"], c["count"], c["section"], c["companion"]) for c in lurrus] == [
        (2, 1, "sideboard", True)
    ]
    assert any("counted once" in w["text"] for w in body["warnings"])
    # The same with the cards as JSON, section "companion" beside "sideboard".
    cards = [
        {"card": "Lurrus of the Dream-Den", "section": "companion"},
        {"card": "Lurrus of the Dream-Den", "section": "sideboard"},
        {"card": "Terminate", "count": 3, "section": "sideboard"},
        {"card": "Swamp", "count": 60},
    ]
    body = _post(client, ANALYZE, {"cards": cards})
    assert body["counts"] == {"main": 60, "sideboard": 4, "commander": 0}


def test_mtgo_commander_list_reads_as_a_commander_deck(client: TestClient) -> None:
    case = next(c for c in DECKLISTS if c["name"].startswith("MTGO Commander export (.txt)"))
    body = _post(client, ANALYZE, {"decklist": case["text"], "format": "commander"})
    assert body["counts"] == {"main": 99, "sideboard": 0, "commander": 1}
    meren = next(c for c in body["cards"] if c["card"]["name"] == "Meren of Clan Nel Toth")
    assert meren["section"] == "commander"
    reasons = [r["reason"] for r in body["legality"]["reasons"]]
    assert "no_commander" not in reasons and "deck_size" not in reasons
    # A 60-card list with a one-card sideboard stays a constructed deck.
    body = _post(client, ANALYZE, {"decklist": "20 Swamp\n40 Fatal Push\n\n1 Meren of Clan Nel Toth"})
    assert body["counts"] == {"main": 60, "sideboard": 1, "commander": 0}


def test_copy_limits_follow_the_cards_text(client: TestClient) -> None:
    # Seven Dwarves: "A deck can have up to seven cards named Seven Dwarves." Relentless Rats: "A deck can
    # have any number of cards named Relentless Rats" (CR 100.2a: "no more than four of any card ... other
    # than basic land cards", the card's text overriding the rule).
    seven = _post(client, ANALYZE, {"decklist": "7 Seven Dwarves\n53 Mountain", "format": "legacy"})
    assert [r for r in seven["legality"]["reasons"] if r["reason"] == "too_many_copies"] == []
    eight = _post(client, ANALYZE, {"decklist": "8 Seven Dwarves\n52 Mountain", "format": "legacy"})
    too_many = [r for r in eight["legality"]["reasons"] if r["reason"] == "too_many_copies"]
    assert [(r["card"], r["detail"]) for r in too_many] == [("Seven Dwarves", "8 copies; at most 7")]
    rats = _post(client, ANALYZE, {"decklist": "30 Relentless Rats\n30 Swamp", "format": "legacy"})
    assert [r for r in rats["legality"]["reasons"] if r["reason"] == "too_many_copies"] == []


def test_legality_data_is_dated_and_old_data_is_warned(client: TestClient) -> None:
    # The bundled data is dated 2022-04-25 (app/data/cards.meta.json): more than 180 days old.
    body = _post(client, ANALYZE, {"decklist": "60 Mountain", "format": "modern"})
    assert body["legality"]["legalities_as_of"] == "2022-04-25"
    assert any("dated 2022-04-25" in w["text"] and "days old" in w["text"] for w in body["warnings"])


def test_stale_days() -> None:
    from datetime import date

    from app.services.deck_legality import stale_days

    assert stale_days("2022-04-25", date(2022, 10, 22)) is None  # 180 days: not more than 180
    assert stale_days("2022-04-25", date(2022, 10, 23)) == 181
    assert stale_days("not a date", date(2026, 1, 1)) is None


SPLIT = "4 Fire // Ice\n4 Bonecrusher Giant // Stomp\n10 Mountain\n10 Island\n32 Lightning Bolt"


def test_charts_have_one_bar_per_castable_half(client: TestClient) -> None:
    spec = _post(client, "/v1/decks/chart/vega-lite", {"decklist": SPLIT})
    _, spells = spec["hconcat"]
    labels = [v["label"] for v in spells["data"]["values"]]
    assert sorted(labels) == [
        "Bonecrusher Giant",
        "Fire (Fire // Ice)",
        "Ice (Fire // Ice)",
        "Lightning Bolt",
        "Stomp (Bonecrusher Giant // Stomp)",
    ]
    assert len(set(labels)) == len(labels)  # one bar per label: nothing stacks past 100%
    assert spells["encoding"]["y"]["field"] == "label"
    assert all(0.0 <= v["probability"] <= 1.0 for v in spells["data"]["values"])
    assert spec["usermeta"]["castability_model"] == "karsten-2022"
    assert "Karsten 2022" in spells["title"]["subtitle"]
    svg = client.post("/v1/decks/chart", json={"decklist": SPLIT, "castability_model": "tapped-lands"}).text
    root = ET.fromstring(svg)
    texts = {t.get("class"): t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert "tapped lands" in (texts["model"] or "")
    names = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "name"]
    assert any(n and n.startswith("Stomp (") for n in names) and any(
        n and n.startswith("Ice (") for n in names
    )


# --- the tapped-lands model, end to end ----------------------------------------------------------------

GAIN = "8 Mountain\n8 Swamp\n8 Bloodfell Caves\n18 Lightning Bolt\n18 Terminate"
WASTES = "8 Mountain\n8 Swamp\n8 Wastes\n18 Lightning Bolt\n18 Terminate"


def _rows(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["card"]["name"]: c for c in body["castability"]}


def test_tapped_lands_model_end_to_end(client: TestClient) -> None:
    karsten = _post(client, ANALYZE, {"decklist": GAIN})
    tapped = _post(client, ANALYZE, {"decklist": GAIN, "castability_model": "tapped-lands"})
    assert (karsten["castability_model"], tapped["castability_model"]) == ("karsten-2022", "tapped-lands")
    # Bloodfell Caves: "Bloodfell Caves enters the battlefield tapped." On turn 1 the one land in play was
    # played that turn, so Lightning Bolt ({R}) needs a Mountain among the lands seen: exactly Karsten's
    # model for a deck whose Caves produce nothing, i.e. the Caves replaced by Wastes (colorless; the
    # mulligan bottoms the Caves or Wastes and the Swamps before the Mountains in both).
    wastes = _post(client, ANALYZE, {"decklist": WASTES})
    assert _rows(tapped)["Lightning Bolt"]["probability"] == pytest.approx(
        _rows(wastes)["Lightning Bolt"]["probability"], abs=1e-6
    )
    assert _rows(tapped)["Lightning Bolt"]["probability"] < _rows(karsten)["Lightning Bolt"]["probability"]
    # Terminate ({B}{R}, turn 2): a Cave can be the first land, never the second: lower, not zero.
    assert 0 < _rows(tapped)["Terminate"]["probability"] < _rows(karsten)["Terminate"]["probability"]
    # Sources and Karsten's table cells do not change with the model.
    assert tapped["sources"] == karsten["sources"]
    assert _rows(tapped)["Terminate"]["sources_needed"] == _rows(karsten)["Terminate"]["sources_needed"]


def test_tapped_lands_model_warns_of_what_it_assumed(client: TestClient) -> None:
    deck = "8 Mountain\n8 Blood Crypt\n8 Port Town\n36 Lightning Bolt"
    body = _post(client, ANALYZE, {"decklist": deck, "castability_model": "tapped-lands"})
    warned = {w["card"]: w["text"] for w in body["warnings"] if w.get("card")}
    assert "assumed the 2 life is paid" in warned["Blood Crypt"]
    assert "treated as entering tapped" in warned["Port Town"]
    karsten = _post(client, ANALYZE, {"decklist": deck})
    assert not any("tapped-lands model" in w["text"] for w in karsten["warnings"])


def test_unknown_model_is_a_422(client: TestClient) -> None:
    r = client.post(ANALYZE, json={"decklist": "60 Mountain", "castability_model": "frank"})
    assert r.status_code == 422
    assert r.headers["content-type"] == "application/problem+json"


# --- the advisor's best plan ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(examples.DECK_MANABASE))
def test_documented_advisor_examples_give_a_plan(client: TestClient, name: str) -> None:
    request = examples.DECK_MANABASE[name]["value"]
    body = _post(client, ADVISE, request)
    assert body["changes"], body["warnings"]
    targets = {(t["card"]["name"], t["face"]) for t in body["reached"] + body["unreached"]}

    def shortfall(rows: list[dict[str, Any]]) -> int:
        return sum(
            max(0, (row["sources_needed"][c] or 0) - row["sources"][c])
            for row in rows
            if (row["card"]["name"], row["face"]) in targets
            for c in row["sources_needed"]
        )

    # The plan helps: fewer sources missing over the target spells than before, and the answer's total
    # is what the rows after the plan show.
    assert shortfall(body["castability_after"]) < shortfall(body["castability_before"])
    assert body["total_shortfall"] == shortfall(body["castability_after"])


def test_readme_advisor_example_gives_a_plan(client: TestClient) -> None:
    readme = {
        "decklist": "4 Lightning Helix\n31 Lava Spike\n21 Mountain\n4 Plains",
        "candidates": ["Sacred Foundry"],
    }
    body = _post(client, ADVISE, readme)
    assert body["changes"] and body["unreached"] == [] and body["complete"] is True


def test_modal_land_spell_face_is_a_target_only_when_named(client: TestClient) -> None:
    # Emeria's Call ({4}{W}{W}{W}, turn 7) played as Emeria, Shattered Skyclave is a land: in a red deck its
    # spell face needs white sources the deck would have to be rebuilt for; by default it is no target.
    deck = "4 Emeria's Call\n20 Mountain\n36 Lightning Bolt"
    body = _post(client, ADVISE, {"decklist": deck})
    assert body["changes"] == [] and body["unreached"] == []
    assert [t["card"]["name"] for t in body["reached"]] == ["Lightning Bolt"]
    named = _post(client, ADVISE, {"decklist": deck, "spells": ["Emeria's Call"]})
    assert [t["cost"] for t in named["reached"] + named["unreached"]] == ["{4}{W}{W}{W}"]


def test_the_commander_can_be_named(client: TestClient) -> None:
    case = next(c for c in DECKLISTS if c["name"].startswith("MTGO Commander export (.txt)"))
    body = _post(client, ADVISE, {"decklist": case["text"], "spells": ["Meren of Clan Nel Toth"]})
    targets = body["reached"] + body["unreached"]
    assert [(t["card"]["name"], t["cost"]) for t in targets] == [("Meren of Clan Nel Toth", "{2}{B}{G}")]
