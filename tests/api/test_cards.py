"""``/v1/cards/named``, ``/v1/cards/{name or oracle_id}``, ``/v1/cards`` and ``/v1/creature-types`` on the
bundled catalogue (loaded by the start-up hook)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from app.rules.values.costs import ManaCost
from app.services.card_import import bundled_data_version
from app.services.catalogue import reset_card_cache

PROBLEM = "application/problem+json"
FIRE_ICE_ID = "ae92942b-919c-4ea9-b693-85fcef765d5a"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache()
    yield
    reset_card_cache()


def _card(client: TestClient, ref: str) -> dict[str, object]:
    response = client.get(f"/v1/cards/{quote(ref, safe='')}")
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("Lim-Dûl the Necromancer", "Lim-Dûl the Necromancer"),
        ("lim-dul the necromancer", "Lim-Dûl the Necromancer"),  # accents and case optional
        ("Herald’s Horn", "Herald's Horn"),  # ’ equals '
        ("  richard   garfield, ph.d. ", "Richard Garfield, Ph.D."),
        ("Ice", "Fire // Ice"),  # a face's name finds its card
        ("Finish", "Start // Finish"),  # "Fire" and "Start" each name faces of two cards (ambiguous)
        ("Fire // Ice", "Fire // Ice"),
        ("Lim-Dul", "Lim-Dûl the Necromancer"),  # a unique word prefix; not Lim-Dûl's Vault
        ("Thalia, Guardian", "Thalia, Guardian of Thraben"),  # "Thalia" starts three cards' names
        (FIRE_ICE_ID, "Fire // Ice"),  # an oracle id
    ],
)
def test_lookup_by_name_face_prefix_or_id(client: TestClient, query: str, name: str) -> None:
    assert _card(client, query)["name"] == name


def test_card_json_shape_for_a_split_card(client: TestClient) -> None:
    body = _card(client, "Fire // Ice")
    assert body["oracle_id"] == FIRE_ICE_ID
    assert body["layout"] == "split"
    assert ManaCost.parse(str(body["mana_cost"])) == ManaCost.parse("{2}{U}{R}")  # CR 709.4
    assert body["mana_value"] == 4
    assert body["colors"] == ["U", "R"]
    assert body["types"] == ["Instant"]
    assert body["legalities"]["legacy"] == "legal"  # type: ignore[index]
    faces = body["card_faces"]
    assert isinstance(faces, list)
    assert [(f["name"], f["mana_cost"], f["mana_value"]) for f in faces] == [
        ("Fire", "{1}{R}", 2),
        ("Ice", "{1}{U}", 2),
    ]
    assert body["data_version"] == bundled_data_version()


def test_card_json_shape_for_a_land_and_a_creature(client: TestClient) -> None:
    forest = _card(client, "Forest")
    assert forest["mana_cost"] is None and forest["mana_value"] == 0
    assert (forest["supertypes"], forest["types"], forest["subtypes"]) == (["Basic"], ["Land"], ["Forest"])
    assert forest["card_faces"] is None
    vorthos = _card(client, "Vorthos, Steward of Myth")
    assert vorthos["mana_cost"] == "{1}{R}"
    assert vorthos["subtypes"] == ["Human", "Gamer"]
    assert "Magic character" in str(vorthos["oracle_text"])


def test_named_exact_and_fuzzy(client: TestClient) -> None:
    ok = client.get("/v1/cards/named", params={"exact": "sol ring"})
    assert ok.status_code == 200 and ok.json()["name"] == "Sol Ring"
    assert client.get("/v1/cards/named", params={"exact": "Lim-Dul"}).status_code == 404  # exact: no prefix
    fuzzy = client.get("/v1/cards/named", params={"fuzzy": "Llanowar Elfs"})
    assert fuzzy.status_code == 200 and fuzzy.json()["name"] == "Llanowar Elves"
    neither = client.get("/v1/cards/named")
    assert neither.status_code == 422 and neither.headers["content-type"] == PROBLEM


def test_unknown_name_is_404_with_suggestions(client: TestClient) -> None:
    response = client.get("/v1/cards/Llanowar%20Elfs")
    assert response.status_code == 404
    assert response.headers["content-type"] == PROBLEM
    body = response.json()
    assert body["type"].endswith("/problems/unknown-card")
    assert "Llanowar Elves" in [s["name"] for s in body["suggestions"]]
    assert "Llanowar Elves" in body["detail"]


def test_unknown_oracle_id_is_404(client: TestClient) -> None:
    response = client.get("/v1/cards/00000000-0000-4000-8000-000000000000")
    assert response.status_code == 404
    assert response.json()["type"].endswith("/problems/unknown-card")


def test_ambiguous_name_is_422_with_candidates(client: TestClient) -> None:
    response = client.get("/v1/cards/snow-covered")
    assert response.status_code == 422
    body = response.json()
    assert body["type"].endswith("/problems/ambiguous-card")
    names = {c["name"] for c in body["candidates"]}
    assert names == {f"Snow-Covered {b}" for b in ("Plains", "Island", "Swamp", "Mountain", "Forest")}
    assert all(len(c["oracle_id"]) == 36 for c in body["candidates"])


def test_overlong_name_is_refused(client: TestClient) -> None:
    assert client.get("/v1/cards/" + "x" * 201).status_code == 422
    assert client.get("/v1/cards/named", params={"exact": "x" * 201}).status_code == 422


def _search(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/v1/cards", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_search_by_cost_is_a_multiset_and_color_matters(client: TestClient) -> None:
    braces = _search(client, mana_cost="{W}{1}", limit=1000)
    loose = _search(client, mana_cost="1w", limit=1000)
    names = [c["name"] for c in braces["data"]]
    assert names == [c["name"] for c in loose["data"]]
    assert "Thalia, Guardian of Thraben" in names
    want = ManaCost.parse("{1}{W}")
    for c in braces["data"]:  # the card's own cost or, for a multi-face card, one face's
        costs = [c["mana_cost"], *(f["mana_cost"] for f in c["card_faces"] or ())]
        assert want in [ManaCost.parse(x) for x in costs if x is not None], c["name"]
    blue = [c["name"] for c in _search(client, mana_cost="{1}{U}", limit=1000)["data"]]
    assert "Thalia, Guardian of Thraben" not in blue
    assert "Fire // Ice" in blue  # found under each face's cost
    assert braces["data_version"] == bundled_data_version()


def test_lands_are_not_found_by_zero(client: TestClient) -> None:
    zero = [c["name"] for c in _search(client, mana_cost="{0}", limit=1000)["data"]]
    assert "Mox Diamond" in zero and "Lotus Petal" in zero
    assert "Forest" not in zero and "Savannah" not in zero


def test_search_by_format(client: TestClient) -> None:
    everywhere = {c["name"] for c in _search(client, mana_cost="{0}", limit=1000)["data"]}
    legacy = _search(client, mana_cost="{0}", format="legacy", limit=1000)["data"]
    vintage = {c["name"] for c in _search(client, mana_cost="{0}", format="vintage", limit=1000)["data"]}
    assert "Black Lotus" in everywhere and "Black Lotus" in vintage  # restricted counts as playable
    assert "Black Lotus" not in {c["name"] for c in legacy}  # banned
    assert all(c["legalities"].get("legacy") in ("legal", "restricted") for c in legacy)
    assert _search(client, mana_cost="{0}", format="nosuchformat")["data"] == []


def test_pagination_walks_every_page_once(client: TestClient) -> None:
    whole = [c["oracle_id"] for c in _search(client, mana_cost="{W}{W}{W}", limit=1000)["data"]]
    assert 10 <= len(whole) < 1000
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"mana_cost": "{W}{W}{W}", "limit": 5}
        if cursor:
            params["cursor"] = cursor
        page = _search(client, **params)
        seen.extend(c["oracle_id"] for c in page["data"])
        pages += 1
        assert page["has_more"] == (page["next_cursor"] is not None)
        if not page["has_more"]:
            break
        cursor = str(page["next_cursor"])
    assert seen == whole
    assert pages == -(-len(whole) // 5)


def test_search_by_name(client: TestClient) -> None:
    names = [c["name"] for c in _search(client, name="llanowar")["data"]]
    assert names == sorted(names) and "Llanowar Elves" in names


def test_malformed_cost_names_symbol_and_position(client: TestClient) -> None:
    response = client.get("/v1/cards", params={"mana_cost": "{2}{Q}"})
    assert response.status_code == 422
    body = response.json()
    assert body["type"].endswith("/problems/malformed-cost")
    assert (body["symbol"], body["position"]) == ("{Q}", 3)
    assert body["errors"][0]["loc"] == ["query", "mana_cost"]


@pytest.mark.parametrize(
    ("params", "status"),
    [({"limit": 0}, 422), ({"limit": 1001}, 422), ({"format": "Legacy!"}, 422), ({"cursor": "%%%"}, 400)],
)
def test_bad_parameters(client: TestClient, params: dict[str, Any], status: int) -> None:
    response = client.get("/v1/cards", params=params)
    assert response.status_code == status
    assert response.headers["content-type"] == PROBLEM


def test_creature_types(client: TestClient) -> None:
    body = client.get("/v1/creature-types").json()
    assert len(body["data"]) == 317
    assert body["data"][0] == "Time Lord"
    assert "C’tan" in body["data"] and "Elf" in body["data"]
    assert body["rules_edition"] == "2026-04-17"
    assert body["has_more"] is False
