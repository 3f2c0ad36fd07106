"""Meld pairs and a melded permanent's mana value (CR 202.3c: "The mana value of a melded permanent is
calculated as though it had the combined mana cost of the front faces of each card that represents it.")
over the bundled catalogue, the Scryfall data and the card look-up."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from app.rules.values.cards import Card, meld_pairs, meld_sentence, melded_value
from app.services.card_formats import card_from_scryfall, card_to_record
from app.services.card_import import BUNDLED_FILE

SCRYFALL_FILE = Path(__file__).resolve().parents[4] / "shared" / "data" / "scryfall-oracle-cards.json"
needs_shared = pytest.mark.skipif(not SCRYFALL_FILE.is_file(), reason="../shared/data is absent")


def _bundled() -> list[Card]:
    with gzip.open(BUNDLED_FILE, "rt", encoding="utf-8") as fh:
        return [card_from_scryfall(r) for r in json.load(fh)]


def test_the_meld_sentence_names_the_partner_and_the_result() -> None:
    # Gisela, the Broken Blade: "At the beginning of your end step, if you both own and control Gisela, the
    # Broken Blade and a creature named Bruna, the Fading Light, exile them, then meld them into Brisela,
    # Voice of Nightmares."
    text = (
        "Flying, first strike, lifelink\nAt the beginning of your end step, if you both own and control "
        "Gisela, the Broken Blade and a creature named Bruna, the Fading Light, exile them, then meld them "
        "into Brisela, Voice of Nightmares."
    )
    assert meld_sentence(text) == (
        "Bruna, the Fading Light, exile them, then ",
        "Brisela, Voice of Nightmares",
    )
    # a spoiler text whose line breaks were lost: the result ends at its sentence
    lost = "exile them, then meld them into Urza, Planeswalker. Activate only as a sorcery."
    assert meld_sentence("an artifact named The Mightstone and Weakstone, " + lost) == (
        "The Mightstone and Weakstone, exile them, then ",
        "Urza, Planeswalker",
    )
    assert meld_sentence("Flying\n(Melds with Gisela, the Broken Blade.)") is None


def test_every_meld_result_has_its_fronts_summed_mana_value() -> None:
    cards = _bundled()
    pairs = meld_pairs(cards)
    by_name = {c.name: c for c in cards}
    # Every cost-less card of layout "meld" that is not a land is a melded permanent the texts name.
    results = {
        c.name for c in cards if c.layout == "meld" and c.mana_cost is None and not c.front.type_line.is_land
    }
    assert results == set(pairs)
    assert {"Brisela, Voice of Nightmares", "Chittering Host", "Hanweir, the Writhing Township"} <= results
    for result, (first, second) in pairs.items():
        card = by_name[result]
        fronts = (first.front.mana_cost, second.front.mana_cost)
        expected = sum(c.mana_value for c in fronts if c is not None)  # a land front has none: 0 (202.3a)
        assert card.mana_value == card.front.mana_value == expected == melded_value((first, second)), result
        assert card.mana_cost is None  # 202.3c: "as though": the melded permanent still has no mana cost
        assert {first.layout, second.layout} == {"meld"}


def test_the_three_eldritch_moon_pairs() -> None:
    by_name = {c.name: c for c in _bundled()}
    # Bruna {5}{W}{W} + Gisela {2}{W}{W}; Graf Rats {1}{B} + Midnight Scavengers {4}{B}; Hanweir Garrison
    # {2}{R} + Hanweir Battlements (a land, no mana cost)
    assert by_name["Brisela, Voice of Nightmares"].mana_value == 11
    assert by_name["Chittering Host"].mana_value == 7
    assert by_name["Hanweir, the Writhing Township"].mana_value == 3
    assert by_name["Hanweir Battlements"].front.melded_value is None  # a front, not a melded permanent


@needs_shared
def test_scryfall_cmc_of_each_result_is_its_fronts_sum() -> None:
    records = json.loads(SCRYFALL_FILE.read_text(encoding="utf-8"))
    melds = [card_from_scryfall(r) for r in records if r.get("layout") == "meld"]
    pairs = meld_pairs(melds)
    assert len(pairs) == 3
    for result, pair in pairs.items():
        record = next(r for r in records if r["name"] == result)
        assert record["cmc"] == melded_value(pair)
        # the importer keeps Scryfall's cmc for the result, and the bundled record writes it back
        card = card_from_scryfall(record)
        assert card.mana_value == record["cmc"]
        assert card_from_scryfall(card_to_record(card)).front == card.front


def test_the_card_look_up_answers_the_melded_mana_value(client: TestClient) -> None:
    body = client.get(f"/v1/cards/{quote('Brisela, Voice of Nightmares', safe='')}").json()
    assert (body["mana_cost"], body["mana_value"], body["layout"]) == (None, 11, "meld")
    front = client.get(f"/v1/cards/{quote('Bruna, the Fading Light', safe='')}").json()
    assert (front["mana_cost"], front["mana_value"]) == ("{5}{W}{W}", 7)
