"""Emerge and offering over HTTP: the permanent sacrificed is on the board, the reduction computed, the way
names it (CR 702.119a, 702.48a); with nothing to sacrifice the way is refused naming its rule."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_emerge_names_the_creature_it_sacrifices(client: TestClient) -> None:
    # Elder Deep-Fiend {8}: "Emerge {5}{U}{U}"; Stonehorn Dignitary {3}{W}, mana value 4: {1}{U}{U}
    board = {"permanents": [{"id": "rhino", "card": "Stonehorn Dignitary"}]}
    r = client.post(
        "/v1/spells/cost", json={"board": board, "spell": {"card": "Elder Deep-Fiend", "method": "emerge"}}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["method"], body["total_cost"]) == ("emerge", "{1}{U}{U}")
    assert body["other_costs"] == [{"text": "Sacrifice Stonehorn Dignitary (rhino)"}]
    assert not [w for w in body["warnings"] if "emerge" in w["message"]]
    emerge = [w for w in body["ways"] if w["method"] == "emerge"]
    assert [(w["total_cost"], w["other_costs"]) for w in emerge] == [
        ("{1}{U}{U}", [{"text": "Sacrifice Stonehorn Dignitary (rhino)"}])
    ]


def test_offering_without_its_quality_is_refused(client: TestClient) -> None:
    # Patron of the Orochi: "Snake offering"; a Grizzly Bears is no Snake
    board = {"permanents": [{"id": "bears", "card": "Grizzly Bears"}]}
    spell = {"card": "Patron of the Orochi", "method": "offering"}
    r = client.post("/v1/spells/cost", json={"board": board, "spell": spell})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "702.48a" and "Snake" in r.json()["detail"]
    # cast normally, the answer lists offering as not available and says why (API 1.3)
    normal = client.post("/v1/spells/cost", json={"board": board, "spell": {"card": "Patron of the Orochi"}})
    ways = normal.json()["ways"]
    assert [(w["method"], w["available"]) for w in ways] == [("normal", True), ("offering", False)]
    assert "Snake" in ways[1]["reason"] and ways[1]["rule"] == "702.48a"
