"""Scryfall card objects accepted inline as a permanent's or a spell's ``card`` (API.md's inline card, in
the shape Scryfall serves): recognised by ``"object": "card"``, read for the fields manacalc needs, their
other fields ignored. The excerpts below are written here after Scryfall's objects (a few of their many
fields kept to show they are ignored); the last test posts whole objects from ``../shared/data`` when it
is there."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

CRADLE: dict[str, Any] = {
    "object": "card",
    "id": "25b0b816-0583-44aa-9dc5-f3ff48993a51",
    "oracle_id": "7c427c3d-ecd8-45ef-bebd-8f10f4a311db",
    "name": "Gaea's Cradle",
    "lang": "en",
    "layout": "normal",
    "cmc": 0.0,
    "type_line": "Legendary Land",
    "colors": [],
    "color_identity": ["G"],
    "keywords": [],
    "legalities": {"commander": "legal", "legacy": "legal"},
    "reserved": True,
    "set": "usg",
    "mana_cost": "",
    "oracle_text": "{T}: Add {G} for each creature you control.",
}
ARCHERS: dict[str, Any] = {
    "object": "card",
    "oracle_id": "534ce8e2-53a1-407c-9881-d3b5347d43c3",
    "name": "Elvish Archers",
    "layout": "normal",
    "cmc": 2.0,
    "type_line": "Creature — Elf Archer",
    "colors": ["G"],
    "keywords": ["First strike"],
    "mana_cost": "{1}{G}",
    "oracle_text": "First strike",
    "power": "2",
    "toughness": "1",
    "prices": {"usd": None},
}
DELVER: dict[str, Any] = {
    "object": "card",
    "name": "Delver of Secrets // Insectile Aberration",
    "layout": "transform",
    "type_line": "Creature — Human Wizard // Creature — Human Insect",
    "colors": ["U"],
    "keywords": ["Transform"],
    "card_faces": [
        {
            "object": "card_face",
            "name": "Delver of Secrets",
            "mana_cost": "{U}",
            "type_line": "Creature — Human Wizard",
            "oracle_text": "At the beginning of your upkeep, look at the top card of your library. You may"
            " reveal that card. If an instant or sorcery card is revealed this way, transform Delver of"
            " Secrets.",
            "colors": ["U"],
            "power": "1",
            "toughness": "1",
        },
        {
            "object": "card_face",
            "name": "Insectile Aberration",
            "mana_cost": "",
            "type_line": "Creature — Human Insect",
            "oracle_text": "Flying",
            "colors": ["U"],
            "power": "3",
            "toughness": "2",
        },
    ],
}


def _cradle_board(cradle: dict[str, Any]) -> dict[str, Any]:
    return {
        "permanents": [
            {"id": "cradle", "card": cradle},
            {"id": "elves-1", "card": "Llanowar Elves"},
            {"id": "elves-2", "card": "Llanowar Elves"},
        ]
    }


def test_scryfall_land_as_a_permanent(client: TestClient) -> None:
    # "{T}: Add {G} for each creature you control." with two creatures: {G}{G} (CR 106.7).
    r = client.post("/v1/boards/analyze", json={"board": _cradle_board(CRADLE)})
    assert r.status_code == 200, r.text
    cradle = next(p for p in r.json()["permanents"] if p["id"] == "cradle")
    assert cradle["name"] == "Gaea's Cradle"
    assert [a["produces"] for a in cradle["abilities"]] == ["{G}{G}"]


def test_scryfall_spell_is_costed_from_its_own_text(client: TestClient) -> None:
    # Herald's Horn: "Creature spells you cast of the chosen type cost {1} less to cast." Elf chosen, and
    # Elvish Archers is an Elf: {1}{G} - {1} = {G} (CR 601.2f).
    board = {"permanents": [{"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}}]}
    r = client.post("/v1/spells/cost", json={"board": board, "spell": {"card": ARCHERS}})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{G}"
    assert r.json()["card"]["name"] == "Elvish Archers"


def test_scryfall_double_faced_card_reads_its_faces(client: TestClient) -> None:
    # The back face of a transforming card has no mana cost; cast, the card is its front: {U}.
    r = client.post("/v1/spells/cost", json={"spell": {"card": DELVER}})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{U}"


def test_only_the_object_marker_relaxes_strictness(client: TestClient) -> None:
    # Without "object": "card", an inline card stays strict: a stray field is a 422 naming it.
    inline = {k: v for k, v in ARCHERS.items() if k != "object"}
    r = client.post("/v1/spells/cost", json={"spell": {"card": inline}})
    assert r.status_code == 422
    assert any("prices" in [str(x) for x in e["loc"]] for e in r.json()["errors"]), r.json()
    # A Scryfall object still needs its name, and its fields keep their bounds.
    r = client.post("/v1/spells/cost", json={"spell": {"card": {"object": "card", "type_line": "Land"}}})
    assert r.status_code == 422
    bad = dict(ARCHERS, mana_cost="{1}{Q}")
    r = client.post("/v1/spells/cost", json={"spell": {"card": bad}})
    assert r.status_code == 422 and r.json()["type"] == "/problems/malformed-cost"


SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "scryfall-oracle-cards.json"


@pytest.mark.skipif(not SHARED.is_file(), reason="../shared/data/scryfall-oracle-cards.json is absent")
def test_whole_objects_from_scryfalls_bulk_data(client: TestClient) -> None:
    wanted = {"Gaea's Cradle", "Elvish Archers"}
    cards = {c["name"]: c for c in json.loads(SHARED.read_text(encoding="utf-8")) if c["name"] in wanted}
    r = client.post("/v1/boards/analyze", json={"board": _cradle_board(cards["Gaea's Cradle"])})
    assert r.status_code == 200, r.text
    cradle = next(p for p in r.json()["permanents"] if p["id"] == "cradle")
    assert [a["produces"] for a in cradle["abilities"]] == ["{G}{G}"]
    board = {"permanents": [{"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}}]}
    r = client.post("/v1/spells/cost", json={"board": board, "spell": {"card": cards["Elvish Archers"]}})
    assert r.status_code == 200, r.text
    assert r.json()["total_cost"] == "{G}"
