"""Real decks from five formats, pasted as their sites export them (tests/real_decks.py): counts and sources
counted by hand from the lists and the lands' text, legality against the card data read independently
(app/data/cards.json.gz, not through the service), and castability in both models against values worked
out independently (by hand where the answer is certain, by Karsten's model on an equivalent deck where the
tapped-lands model reduces to it on turn 1)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.config import Settings
from app.main import create_app
from app.rules.decks.castability import DeckMana, cast_probability
from tests.real_decks import DECKS
from tests.sessions import bind_app_to_session

F = frozenset


@pytest.fixture
def app(settings: Settings, db_session: Session) -> FastAPI:
    application = create_app(settings.model_copy(update={"compute_budget_s": 60.0}))
    bind_app_to_session(application, db_session)
    return application


@cache
def _card_data() -> dict[str, dict[str, Any]]:
    path = Path(__file__).resolve().parents[2] / "app" / "data" / "cards.json.gz"
    return {c["name"]: c for c in json.loads(gzip.open(path).read())}


def _analyze(client: TestClient, name: str, model: str = "karsten-2022") -> dict[str, Any]:
    fmt, text = DECKS[name]
    body: dict[str, Any] = {"decklist": text, "castability_model": model}
    if fmt != "limited":
        body["format"] = fmt
    r = client.post("/v1/decks/analyze", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


# counts (main, sideboard, commander) and sources (W U B R G), by hand from each list:
EXPECTED = {
    # 15 lines of 4 = 60; sideboard Lurrus once + 3 + 3 + 4 + 2 + 2 = 15. Red: Searstep Pathway 4, Blood
    # Crypt 4, Mire 4 (finds Blood Crypt, Mountain, Swamp), Mountain 4 = 16; black the same.
    "Modern Rakdos (MTG Arena, companion)": ((60, 15, 0), (0, 0, 16, 16, 0)),
    # 10 spells x 4 = 40, lands 4 + 4 + 2 + 10 = 20; sideboard 3 + 4 + 2 + 2 + 4 = 15. Red: all 20 lands;
    # white: Vantage 4, Foundry 4, Canyon 2 ("Add {R} or {W}") = 10.
    "Modern Boros Burn (MTGO .txt)": ((60, 15, 0), (10, 0, 0, 20, 0)),
    # 8 x 4 + 2 + 2 + 4 = 40 spells, 16 Forest + 4 Castle Garenbrig ("{T}: Add {G}") = 20 green lands, and
    # Kazandu Mammoth // Kazandu Valley is a modal spell // land card whose land "{T}: Add {G}" counts as a
    # source (API 1.2, `modal_lands`): 24.
    "Pioneer Mono-Green (MTGGoldfish)": ((60, 15, 0), (0, 0, 0, 0, 24)),
    # 12 + 20 + 10 + 18 = 60; 16 Mountain + 2 Forgotten Cave ("{T}: Add {R}") = 18 red.
    "Pauper Mono-Red (Moxfield)": ((60, 15, 0), (0, 0, 0, 18, 0)),
    # 4+4+4+4+4+4+4+4+4+4 = 40 spells, lands 4 Wasteland + 4 Volcanic + 4 Tarn + 4 Delta + 3 Island + 1
    # Mountain = 20. Blue: Volcanic 4, Tarn 4, Delta 4 ("a Swamp or Island card": Volcanic Island is an
    # Island, the Islands), Island 3 = 15. Red: Volcanic 4, Tarn 4 ("an Island or Mountain card"), Delta 4
    # (it finds Volcanic Island, which adds {R}), Mountain 1 = 13. No Swamp: Delta is no black source.
    "Legacy Izzet Delver (MTGO .dek)": ((60, 15, 0), (0, 15, 0, 13, 0)),
    # 28 singletons + 36 + 35 = 99 and Meren as commander (MTGO form). Green: Command Tower (Meren's
    # identity B G), Overgrown Tomb, Woodland Cemetery, Llanowar Wastes, Golgari Rot Farm, Evolving Wilds
    # (finds a Forest or a Swamp) = 6, + 36 Forest = 42; black 6 + 35 Swamp = 41.
    "Commander Meren (MTGO .txt)": ((99, 0, 1), (0, 0, 41, 0, 42)),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_counts_and_sources(client: TestClient, name: str) -> None:
    body = _analyze(client, name)
    (main, side, commander), sources = EXPECTED[name]
    assert body["problems"] == []
    assert (body["counts"]["main"], body["counts"]["sideboard"], body["counts"]["commander"]) == (
        main,
        side,
        commander,
    )
    assert tuple(body["sources"][c] for c in "WUBRG") == sources


@pytest.mark.parametrize("name", list(EXPECTED))
def test_legality_matches_the_card_data(client: TestClient, name: str) -> None:
    body = _analyze(client, name)
    fmt = body["legality"]["format"]
    data = _card_data()
    expected: set[tuple[str, str]] = set()
    for line in body["cards"]:
        card = data[line["card"]["name"]]
        status = card.get("legalities", {}).get(fmt)
        if status == "banned":
            expected.add((card["name"], "banned"))
        elif status not in ("legal", "restricted"):
            expected.add((card["name"], "not_legal"))
    found = {
        (r["card"], r["reason"])
        for r in body["legality"]["reasons"]
        if r["reason"] in ("banned", "not_legal")
    }
    assert found == expected
    assert body["legality"]["legalities_as_of"] == "2022-04-25"


def test_the_rakdos_companion_is_banned_in_modern_as_of_the_data(client: TestClient) -> None:
    # Lurrus of the Dream-Den was banned in Modern in February 2022: the 2022-04-25 data says so.
    body = _analyze(client, "Modern Rakdos (MTG Arena, companion)")
    assert ("Lurrus of the Dream-Den", "banned") in {
        (r["card"], r["reason"]) for r in body["legality"]["reasons"]
    }


def _probability(body: dict[str, Any], card: str) -> float:
    row = next(
        r for r in body["castability"] if r["card"]["name"].split(" // ")[0] == card and r["face"] is None
    )
    p: float = row["probability"]
    return p


@pytest.mark.parametrize(
    ("name", "spell", "color", "reference"),
    [
        # Pioneer: every land (and Kazandu Valley) is green, so with one land Llanowar Elves ({G}) is cast:
        # 1 in Karsten's model. Castle Garenbrig "enters the battlefield tapped unless you control a
        # Forest": on turn 1 there is no other land, so it is tapped; "Kazandu Valley enters the battlefield
        # tapped.": the tapped-lands value is Karsten's with the 4 Castles and 4 Valleys colorless.
        ("Pioneer Mono-Green (MTGGoldfish)", "Llanowar Elves", "G", DeckMana(60, {F("G"): 16, F(): 8})),
        # Pauper: "Forgotten Cave enters the battlefield tapped.": the same with the 2 Caves colorless.
        ("Pauper Mono-Red (Moxfield)", "Lightning Bolt", "R", DeckMana(60, {F("R"): 16, F(): 2})),
    ],
)
def test_castability_both_models_on_turn_one(
    client: TestClient, name: str, spell: str, color: str, reference: DeckMana
) -> None:
    karsten = _analyze(client, name)
    tapped = _analyze(client, name, "tapped-lands")
    assert _probability(karsten, spell) == 1.0
    expected = cast_probability(reference, {color: 1}, 1)
    assert _probability(tapped, spell) == pytest.approx(expected, abs=1e-6)
    assert _probability(tapped, spell) < 1.0


def test_legacy_delver_castability_both_models(client: TestClient) -> None:
    # Delver of Secrets ({U}, turn 1): 15 blue sources of 20 lands, all untapped (Volcanic Island, the
    # fetch lands find untapped lands, Islands): both models agree. Karsten's model on the same land kinds
    # (15 blue, 5 not) gives the reference.
    karsten = _analyze(client, "Legacy Izzet Delver (MTGO .dek)")
    tapped = _analyze(client, "Legacy Izzet Delver (MTGO .dek)", "tapped-lands")
    reference = cast_probability(DeckMana(60, {F("U"): 15, F(): 5}), {"U": 1}, 1)
    assert _probability(karsten, "Delver of Secrets") == pytest.approx(reference, abs=1e-6)
    assert _probability(tapped, "Delver of Secrets") == pytest.approx(reference, abs=1e-6)
