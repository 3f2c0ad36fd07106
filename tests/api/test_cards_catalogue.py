"""The whole catalogue's look-ups (issue 13, API.md "Card look-up"): card fields, exact names, autocomplete,
collections, and the HTTP basics of catalogue answers (gzip, ETag and 304, HEAD, GET parse)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.config import Settings
from app.main import create_app
from app.services.card_formats import normalize_name
from app.services.catalogue import reset_card_cache
from tests.sessions import bind_app_to_session

PROBLEM = "application/problem+json"
FIRE_ICE_ID = "ae92942b-919c-4ea9-b693-85fcef765d5a"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache()
    yield
    reset_card_cache()


def _card(client: TestClient, ref: str) -> dict[str, Any]:
    response = client.get(f"/v1/cards/{ref}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# -- card fields -------------------------------------------------------------------------------------------


def test_creature_fields(client: TestClient) -> None:
    elves = _card(client, "Llanowar Elves")  # {G} Creature — Elf Druid 1/1, "{T}: Add {G}."
    assert (elves["power"], elves["toughness"], elves["loyalty"]) == ("1", "1", None)
    assert elves["color_identity"] == ["G"]
    assert elves["produced_mana"] == ["G"]


def test_produced_mana_read_from_the_abilities(client: TestClient) -> None:
    assert _card(client, "Birds of Paradise")["produced_mana"] == ["W", "U", "B", "R", "G"]  # any color
    assert _card(client, "Sol Ring")["produced_mana"] == ["C"]  # {T}: Add {C}{C}.
    assert _card(client, "Savannah")["produced_mana"] == ["W", "G"]  # Forest Plains: CR 305.6
    assert _card(client, "Dark Ritual")["produced_mana"] == ["B"]  # a spell ability adds {B}{B}{B}
    assert _card(client, "Lightning Bolt")["produced_mana"] == []
    # Cryptolith Rite grants the ability to creatures: the enchantment itself adds nothing.
    assert _card(client, "Cryptolith Rite")["produced_mana"] == []


def test_planeswalker_loyalty_and_color_identity(client: TestClient) -> None:
    jace = _card(client, "Jace, the Mind Sculptor")  # {2}{U}{U}, loyalty 3
    assert (jace["loyalty"], jace["power"]) == ("3", None)
    assert jace["color_identity"] == ["U"]
    # Color identity counts mana symbols in the rules text (CR 903.4): Alesha's text has {W/B}.
    assert _card(client, "Alesha, Who Smiles at Death")["color_identity"] == ["W", "B", "R"]


def test_a_split_cost_of_the_supplement_has_one_cost_per_face(client: TestClient) -> None:
    body = _card(client, "Amethyst Dragon")  # "{4}{R}{R} // {4}{R}", Creature — Dragon // Sorcery — Adventure
    assert body["name"] == "Amethyst Dragon // Explosive Crystal"
    assert body["layout"] == "adventure"
    faces = body["card_faces"]
    assert [(f["name"], f["mana_cost"], f["power"]) for f in faces] == [
        ("Amethyst Dragon", "{4}{R}{R}", "4"),
        ("Explosive Crystal", "{4}{R}", None),
    ]
    assert body["mana_cost"] == "{4}{R}{R}"  # an adventurer card's mana cost is the creature's


# -- exact look-ups ----------------------------------------------------------------------------------------


def test_exact_is_exact_whatever_was_asked_before(client: TestClient) -> None:
    def exact(name: str) -> int:
        return client.get("/v1/cards/named", params={"exact": name}).status_code

    assert exact("Zada") == 404  # only a word prefix of "Zada, Hedron Grinder"
    assert client.get("/v1/cards/Zada").status_code == 200  # the prefix look-up finds it
    assert exact("Zada") == 404  # and exact stays exact
    assert exact("zada, hedron grinder") == 200


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Æther Vial", "Aether Vial"),  # Æ folds to Ae
        ("aether vial", "Aether Vial"),
        ("Herald’s Horn", "Herald's Horn"),  # ’ equals '
        ("LIM-DÛL THE NECROMANCER", "Lim-Dûl the Necromancer"),
        ("Ice", "Fire // Ice"),  # a face's full name
    ],
)
def test_exact_folds_case_accents_ae_and_apostrophes(client: TestClient, query: str, name: str) -> None:
    response = client.get("/v1/cards/named", params={"exact": query})
    assert response.status_code == 200, response.text
    assert response.json()["name"] == name


def test_unknown_exact_name_is_404_unknown_card(client: TestClient) -> None:
    response = client.get("/v1/cards/named", params={"exact": "Llanowar Elfs"})
    assert response.status_code == 404 and response.headers["content-type"] == PROBLEM
    assert response.json()["type"].endswith("/problems/unknown-card")
    assert "Llanowar Elves" in [s["name"] for s in response.json()["suggestions"]]


# -- autocomplete ------------------------------------------------------------------------------------------


def test_autocomplete_names_starting_first_shorter_first(client: TestClient) -> None:
    response = client.get("/v1/cards/autocomplete", params={"q": "Llanow"})
    assert response.status_code == 200
    names = response.json()["data"]
    assert "Llanowar Elves" in names and 0 < len(names) <= 20
    assert all(normalize_name(n).startswith("llanow") for n in names)
    assert [len(n) for n in names] == sorted(len(n) for n in names)


def test_autocomplete_then_names_with_a_word_starting_with_q(client: TestClient) -> None:
    names = client.get("/v1/cards/autocomplete", params={"q": "elf"}).json()["data"]
    assert len(names) == 20
    starting = [n for n in names if normalize_name(n).startswith("elf")]
    assert names[: len(starting)] == starting  # every name starting with "elf" comes first
    assert starting and len(starting) < 20
    rest = names[len(starting) :]
    assert all(any(w.startswith("elf") for w in re.split(r"[\s\-/\"]", normalize_name(n))) for n in rest)
    assert [len(n) for n in rest] == sorted(len(n) for n in rest)


def test_autocomplete_bounds(client: TestClient) -> None:
    assert client.get("/v1/cards/autocomplete", params={"q": "zzzzqqq"}).json()["data"] == []
    assert client.get("/v1/cards/autocomplete", params={"q": ""}).status_code == 422
    assert client.get("/v1/cards/autocomplete", params={"q": "x" * 201}).status_code == 422
    assert client.get("/v1/cards/autocomplete").status_code == 422


# -- collection --------------------------------------------------------------------------------------------


def test_collection_by_name_and_oracle_id(client: TestClient) -> None:
    body = {
        "identifiers": [
            {"name": "Æther Vial"},
            {"oracle_id": FIRE_ICE_ID},
            {"name": "No Such Card Anywhere"},
            {"name": "Zada"},  # a prefix is not a name
            {"name": "sol ring"},
        ]
    }
    response = client.post("/v1/cards/collection", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert [c["name"] for c in answer["data"]] == ["Aether Vial", "Fire // Ice", "Sol Ring"]
    assert answer["not_found"] == [{"name": "No Such Card Anywhere"}, {"name": "Zada"}]
    assert answer["data_version"]


def test_collection_bounds(client: TestClient) -> None:
    many = {"identifiers": [{"name": "Forest"}] * 1000}
    ok = client.post("/v1/cards/collection", json=many)
    assert ok.status_code == 200 and len(ok.json()["data"]) == 1000
    too_many = client.post("/v1/cards/collection", json={"identifiers": [{"name": "Forest"}] * 1001})
    assert too_many.status_code == 422 and too_many.headers["content-type"] == PROBLEM
    both = client.post("/v1/cards/collection", json={"identifiers": [{"name": "Forest", "oracle_id": "x"}]})
    assert both.status_code == 422
    neither = client.post("/v1/cards/collection", json={"identifiers": [{}]})
    assert neither.status_code == 422
    extra = client.post("/v1/cards/collection", json={"identifiers": [{"nam": "Forest"}]})
    assert extra.status_code == 422


# -- HTTP --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/v1/cards/Forest", {}),
        ("/v1/cards/named", {"exact": "Forest"}),
        ("/v1/cards", {"mana_cost": "{G}"}),
        ("/v1/cards/autocomplete", {"q": "for"}),
    ],
)
def test_catalogue_gets_carry_an_etag_and_answer_304(
    client: TestClient, path: str, params: dict[str, str]
) -> None:
    first = client.get(path, params=params)
    assert first.status_code == 200
    etag = first.headers["etag"]
    assert first.headers["cache-control"].startswith("public")
    again = client.get(path, params=params, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    other = client.get(path, params=params, headers={"If-None-Match": 'W/"something-else"'})
    assert other.status_code == 200


def test_etag_follows_the_data_version(client: TestClient) -> None:
    a = client.get("/v1/cards/Forest")
    b = client.get("/v1/cards/Island")
    assert a.headers["etag"] == b.headers["etag"]  # keyed to the catalogue's version
    assert a.json()["data_version"] == b.json()["data_version"]


def test_etag_follows_the_rules_edition(settings: Settings, db_session: Session) -> None:
    """Card answers carry ``rules_edition`` (their ``produced_mana`` is read by the rules): another edition
    is another answer, so another ETag, with the same catalogue."""
    tags = []
    for edition in ("2026-04-17", "2026-06-12"):
        application = create_app(settings.model_copy(update={"rules_edition": edition}))
        bind_app_to_session(application, db_session)
        answer = TestClient(application).get("/v1/cards/Forest")
        assert answer.json()["rules_edition"] == edition
        tags.append(answer.headers["etag"])
    assert tags[0] != tags[1]


def test_big_answers_are_gzipped(client: TestClient) -> None:
    page = client.get("/v1/cards", params={"limit": 1000}, headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200
    assert page.headers["content-encoding"] == "gzip"
    assert int(page.headers["content-length"]) < len(page.content) / 3  # the body as sent was compressed
    small = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in small.headers  # below the ~1 KB minimum


def test_head_wherever_get(client: TestClient) -> None:
    for path in ("/v1/cards/Forest", "/v1/cards/autocomplete?q=for", "/v1/creature-types", "/v1/symbols"):
        get = client.get(path)
        head = client.head(path)
        assert head.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]


def test_get_parse_beside_the_post(client: TestClient) -> None:
    got = client.get("/v1/mana-costs/parse", params={"mana_cost": "2WW"})
    posted = client.post("/v1/mana-costs/parse", json={"mana_cost": "2WW"})
    assert got.status_code == 200 and got.json() == posted.json()
    assert got.json()["mana_cost"] == "{2}{W}{W}"
    bad = client.get("/v1/mana-costs/parse", params={"mana_cost": "{2}{Q}"})
    assert bad.status_code == 422 and bad.json()["type"].endswith("/problems/malformed-cost")
    assert bad.json()["errors"][0]["loc"] == ["query", "mana_cost"]
