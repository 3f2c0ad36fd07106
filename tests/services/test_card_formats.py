"""Card records (Scryfall, inline, MTGJSON, our bundled shape) → ``Card``: faces, costs, types, legalities."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import ManaCost
from app.services.card_formats import (
    BadCardRecord,
    card_from_inline,
    card_from_mtgjson,
    card_from_scryfall,
    card_to_record,
    derived_oracle_id,
    normalize_name,
)

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
BUNDLED = Path(__file__).resolve().parents[2] / "app" / "data" / "cards.json.gz"

FIRE_ICE: dict[str, Any] = {
    "object": "card",
    "oracle_id": "ae92942b-919c-4ea9-b693-85fcef765d5a",
    "name": "Fire // Ice",
    "layout": "split",
    "mana_cost": "{1}{R} // {1}{U}",
    "type_line": "Instant // Instant",
    "colors": ["U", "R"],
    "keywords": [],
    "legalities": {"legacy": "legal", "standard": "not_legal", "vintage": "restricted"},
    "card_faces": [
        {"name": "Fire", "mana_cost": "{1}{R}", "type_line": "Instant", "oracle_text": "Fire deals 2 damage.",
         "colors": ["R"]},
        {"name": "Ice", "mana_cost": "{1}{U}", "type_line": "Instant", "oracle_text": "Tap target permanent.",
         "colors": ["U"]},
    ],
}  # fmt: skip


def test_normalize_name_folds_case_accents_apostrophes_and_spaces() -> None:
    assert normalize_name("Lim-Dûl  the   Necromancer") == "lim-dul the necromancer"
    assert normalize_name("Herald’s Horn") == normalize_name("HERALD'S HORN") == "herald's horn"


def test_derived_oracle_id_is_stable_and_name_insensitive() -> None:
    a = derived_oracle_id("Vorthos, Steward of Myth")
    assert a == derived_oracle_id("vorthos,  steward of myth")
    assert a != derived_oracle_id("The Raven Man")
    assert len(a) == 36


def test_split_card_keeps_each_face_and_combines_costs() -> None:
    card = card_from_scryfall(FIRE_ICE)
    assert [f.name for f in card.faces] == ["Fire", "Ice"]
    assert card.faces[0].mana_cost == ManaCost.parse("{1}{R}")
    assert card.mana_cost == ManaCost.parse("{2}{U}{R}")  # CR 709.4
    assert card.oracle_id == "ae92942b-919c-4ea9-b693-85fcef765d5a"
    assert dict(card.legalities) == {"legacy": "legal", "standard": "not_legal", "vintage": "restricted"}


def test_single_face_card_reads_type_line_tribal_as_kindred_and_keeps_colors() -> None:
    card = card_from_scryfall(
        {"name": "Nameless Race", "mana_cost": "{3}{B}", "type_line": "Tribal Creature — Shapeshifter",
         "oracle_text": "Changeling", "keywords": ["Changeling"], "colors": ["B"], "flavor_text": "Who?"}
    )  # fmt: skip
    face = card.front
    assert face.type_line.types == ("Kindred", "Creature")
    assert face.type_line.subtypes == ("Shapeshifter",)
    assert face.keywords == ("Changeling",)
    assert face.flavor_text == "Who?"
    assert face.colors == ("B",)
    assert card.oracle_id == derived_oracle_id("Nameless Race")


def test_land_has_no_mana_cost_rather_than_zero() -> None:
    land = card_from_scryfall({"name": "Forest", "mana_cost": "", "type_line": "Basic Land — Forest"})
    assert land.mana_cost is None
    zero = card_from_scryfall({"name": "Ornithopter", "mana_cost": "{0}", "type_line": "Artifact Creature"})
    assert zero.mana_cost == ManaCost.zero()


def test_face_keywords_follow_the_face_text() -> None:
    record = {
        "name": "Delver of Secrets // Insectile Aberration", "layout": "transform",
        "keywords": ["Transform", "Flying"],
        "card_faces": [
            {"name": "Delver of Secrets", "mana_cost": "{U}", "type_line": "Creature — Human Wizard",
             "oracle_text": "... transform Delver of Secrets."},
            {"name": "Insectile Aberration", "mana_cost": "", "type_line": "Creature — Human Insect",
             "oracle_text": "Flying", "colors": ["U"]},
        ],
    }  # fmt: skip
    card = card_from_scryfall(record)
    assert card.faces[0].keywords == ("Transform",)
    assert card.faces[1].keywords == ("Flying",)
    assert card.faces[1].mana_cost is None


@pytest.mark.parametrize(
    ("record", "reason"),
    [
        ({"mana_cost": "{W}"}, "name"),
        ({"name": "   "}, "name"),
        ({"name": "Bad Cost", "mana_cost": "{W}{Q}"}, "bad mana cost"),
        ({"name": "Bad Id", "oracle_id": "not-a-uuid"}, "oracle_id"),
        ({"name": "Bad Color", "colors": ["P"]}, "unknown color"),
        ({"name": "Bad Legal", "legalities": {"legacy": "maybe"}}, "legality"),
        ({"name": "Bad Faces", "card_faces": ["x"]}, "card_faces"),
        ({"name": "Bad Text", "oracle_text": 3}, "oracle_text"),
    ],
)
def test_bad_records_raise_bad_card_record_with_the_reason(record: dict[str, Any], reason: str) -> None:
    with pytest.raises(BadCardRecord) as info:
        card_from_scryfall(record)
    assert reason in str(info.value)


def test_not_an_object_is_a_bad_record() -> None:
    with pytest.raises(BadCardRecord):
        card_from_scryfall(["Forest"])  # type: ignore[arg-type]


def test_inline_card_bad_cost_is_a_mana_cost_syntax_error_with_position() -> None:
    with pytest.raises(ManaCostSyntaxError) as info:
        card_from_inline({"name": "Homebrew", "mana_cost": "{2}{Q}", "type_line": "Creature"})
    assert info.value.symbol == "{Q}"
    assert info.value.position == 3


def test_inline_card_has_no_oracle_id_unless_given() -> None:
    card = card_from_inline({"name": "My Homebrew Land", "type_line": "Land", "oracle_text": "{T}: Add {C}."})
    assert card.oracle_id is None
    assert card.front.type_line.is_land
    assert card.mana_cost is None


def test_mtgjson_entry_orders_faces_by_side_and_maps_legalities() -> None:
    faces = [
        {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "manaCost": "{1}{U}", "type": "Instant",
         "text": "Tap.", "colors": ["U"], "layout": "split",
         "legalities": {"legacy": "Legal", "vintage": "Restricted"},
         "identifiers": {"scryfallOracleId": FIRE_ICE["oracle_id"]}},
        {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "manaCost": "{1}{R}", "type": "Instant",
         "text": "Burn.", "colors": ["R"], "layout": "split",
         "legalities": {"legacy": "Legal", "vintage": "Restricted"},
         "identifiers": {"scryfallOracleId": FIRE_ICE["oracle_id"]}},
    ]  # fmt: skip
    card = card_from_mtgjson("Fire // Ice", faces)
    assert [f.name for f in card.faces] == ["Fire", "Ice"]
    assert card.layout == "split"
    assert card.oracle_id == FIRE_ICE["oracle_id"]
    assert dict(card.legalities) == {"legacy": "legal", "vintage": "restricted"}
    assert card.mana_cost == ManaCost.parse("{1}{R}{1}{U}")


def test_mtgjson_without_scryfall_id_derives_one() -> None:
    card = card_from_mtgjson("Plains", [{"name": "Plains", "type": "Basic Land — Plains", "identifiers": {}}])
    assert card.oracle_id == derived_oracle_id("Plains")
    with pytest.raises(BadCardRecord):
        card_from_mtgjson("Empty", [])


def test_record_round_trip_drops_only_not_legal() -> None:
    card = card_from_scryfall(FIRE_ICE)
    back = card_from_scryfall(card_to_record(card))
    assert back.faces == card.faces
    assert dict(back.legalities) == {"legacy": "legal", "vintage": "restricted"}


def test_a_card_legal_nowhere_keeps_its_not_legal_entries() -> None:
    """Absent legalities read as "no legality data" (unknown, never not legal): a card whose every status
    is ``not_legal`` (an Un-card) keeps them, so it still reads as not legal after the round trip."""
    nowhere = {**FIRE_ICE, "legalities": {"legacy": "not_legal", "vintage": "not_legal"}}
    card = card_from_scryfall(nowhere)
    assert card_to_record(card)["legalities"] == {"legacy": "not_legal", "vintage": "not_legal"}
    assert card_from_scryfall(card_to_record(card)).legalities == card.legalities


def test_bundled_file_reads_back_and_holds_the_required_cards() -> None:
    records = json.loads(gzip.decompress(BUNDLED.read_bytes()))
    cards = [card_from_scryfall(r) for r in records]
    names = {c.name for c in cards}
    required = ("Forest", "Snow-Covered Island", "Wastes", "Savannah", "Sol Ring", "Fire // Ice",
                "Vorthos, Steward of Myth", "Herald's Horn", "Richard Garfield, Ph.D.", "Mystic Gate",
                "Lim-Dûl the Necromancer", "Zagras, Thief of Heartbeats", "Azorius Signet")  # fmt: skip
    assert [n for n in required if n not in names] == []
    assert len({c.oracle_id for c in cards}) == len(cards)
    vorthos = next(c for c in cards if c.name == "Vorthos, Steward of Myth")
    assert "character.\nEach spell" in vorthos.front.oracle_text  # supplement's lost line break restored
    keys = [(normalize_name(c.name), c.oracle_id) for c in cards]
    assert keys == sorted(keys)  # deterministic order, small diffs


@pytest.mark.skipif(not (SHARED / "mtgjson-atomic-subset.json").is_file(), reason="../shared/data is absent")
def test_every_mtgjson_subset_entry_converts() -> None:
    data = json.loads((SHARED / "mtgjson-atomic-subset.json").read_text(encoding="utf-8"))["data"]
    cards = [card_from_mtgjson(name, faces) for name, faces in data.items()]
    assert len(cards) == 1486
    who = next(c for c in cards if c.name.startswith("Who // What"))
    assert len(who.faces) == 5
