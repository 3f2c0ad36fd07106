"""Issue 15's input attacks, each a small regression: 4xx problems, never a 500, the same on both
databases (this module runs on SQLite and, with MANACALC_TEST_DATABASE_URL, on PostgreSQL)."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.api.limits import body_hygiene_errors
from app.services.api_keys import create_api_key

SPELL = {"board": {"permanents": [{"id": "f", "card": "Forest"}]}, "spell": {"card": "Llanowar Elves"}}
RAW = json.dumps(SPELL)


def post_raw(client: TestClient, path: str, text: str) -> Any:
    return client.post(path, content=text.encode("utf-8"), headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("text", "loc", "kind"),
    [
        (
            RAW.replace('"Forest"', '"Fo\\ud800rest"'),
            ["body", "board", "permanents", 0, "card"],
            "string_unicode",
        ),
        (
            RAW.replace('"Forest"', '"Fo\\udc00"'),
            ["body", "board", "permanents", 0, "card"],
            "string_unicode",
        ),
        (
            RAW.replace('"Forest"', '"Fo\\u0000rest"'),
            ["body", "board", "permanents", 0, "card"],
            "string_unicode",
        ),
        (RAW.replace('"f"', '"f", "x": NaN'), ["body", "board", "permanents", 0, "x"], "finite_number"),
        (RAW.replace('"f"', '"f", "x": -Infinity'), ["body", "board", "permanents", 0, "x"], "finite_number"),
        (
            RAW.replace('"f"', '"f", "\\ud800": 1'),
            ["body", "board", "permanents", 0, "\\ud800"],
            "string_unicode",
        ),
    ],
)
def test_unstorable_values_are_422_naming_their_path(
    client: TestClient, text: str, loc: list[Any], kind: str
) -> None:
    response = post_raw(client, "/v1/spells/cost", text)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["type"].endswith("/validation-error")
    assert body["errors"][0]["loc"] == loc and body["errors"][0]["type"] == kind
    assert body["error_count"] == 1


def test_a_surrogate_pair_is_fine(client: TestClient) -> None:
    text = RAW.replace(
        '"Llanowar Elves"', '{"name": "Grinning \\ud83d\\ude00", "mana_cost": "{G}", "type_line": "Creature"}'
    )
    assert body_hygiene_errors(text.encode()) == []
    assert post_raw(client, "/v1/spells/cost", text).status_code == 200


def test_nan_inside_a_string_is_text(client: TestClient) -> None:
    assert body_hygiene_errors(b'{"a": "NaN Infinity \\\\u0000"}') == []


def test_nul_in_a_scenario_is_refused_before_the_database(client: TestClient) -> None:
    """SQLite stored it and PostgreSQL refused it (500): now both refuse it alike."""
    response = post_raw(client, "/v1/scenarios", json.dumps({"name": "a\u0000b", "board": SPELL["board"]}))
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == ["body", "name"]


def test_many_bad_values_list_100_and_count_all(client: TestClient) -> None:
    permanents = ",".join(f'{{"id": "p{i}", "card": "Fo\\u0000rest"}}' for i in range(150))
    text = f'{{"board": {{"permanents": [{permanents}]}}, "spell": {{"card": "Forest"}}}}'
    body = post_raw(client, "/v1/spells/cost", text).json()
    assert body["status"] == 422 and body["error_count"] == 150 and len(body["errors"]) == 100


def test_a_pydantic_422_gives_error_count(client: TestClient) -> None:
    body = client.post("/v1/spells/cost", json={"board": {"permanents": []}, "spel": 1}).json()
    assert body["status"] == 422 and body["error_count"] == len(body["errors"]) >= 2


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 1500 + b"]" * 1500,  # nested 1,500 deep: RecursionError, a 500
        b'{"c": {"d": 1}}',
        b'{"c": "\\u0000", "i": "x"}',
        b'{"c": "\\ud800", "i": "x"}',
        b'{"offset": NaN}',
        b'{"offset": Infinity}',
        b'"just a string"',
    ],
)
def test_hostile_cursors_are_400(client: TestClient, raw: bytes) -> None:
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    for path in ("/v1/cards", "/v1/scenarios"):
        response = client.get(path, params={"cursor": cursor})
        assert response.status_code in (400, 401, 422), (path, response.text)
        assert response.status_code != 500


def test_an_oversized_cursor_is_4xx(client: TestClient) -> None:
    response = client.get("/v1/cards", params={"cursor": "A" * 60_000})
    assert 400 <= response.status_code < 500


@pytest.mark.parametrize("url", ["/v1/cards/For%00est", "/v1/cards?q=%00", "/v1/scenarios/%00"])
def test_nul_in_the_url_is_400(client: TestClient, url: str) -> None:
    assert client.get(url).status_code == 400


def test_a_body_without_content_type_is_415(client: TestClient) -> None:
    response = client.post("/v1/spells/cost", content=RAW.encode())
    assert response.status_code == 415
    assert response.json()["type"].endswith("/unsupported-media-type")


def test_a_json_suffix_media_type_is_accepted(client: TestClient) -> None:
    response = client.post(
        "/v1/spells/cost", content=RAW.encode(), headers={"Content-Type": "application/vnd.x+json"}
    )
    assert response.status_code == 200


def test_vorthos_hostile_character_answers_at_once(client: TestClient) -> None:
    """Issue 15: this 230-byte request took 12 s and held the event loop."""
    card = {
        "name": "Odd Spell",
        "mana_cost": "{1}",
        "type_line": "Sorcery",
        "flavor_text": "a" + " " * 200 + "c",
    }
    body = {
        "board": {
            "permanents": [
                {"id": "v", "card": "Vorthos, Steward of Myth", "chosen": {"character": "a" + "-" * 20 + "b"}}
            ]
        },
        "spell": {"card": card},
    }
    started = time.perf_counter()
    response = client.post("/v1/spells/cost", json=body)
    assert response.status_code == 200, response.text
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "created",
    [
        "9999-12-31T23:59:59.999999+00:00",
        "9999-12-31T23:59:59-14:00",  # past year 9999 once in UTC
        "0001-01-01T00:00:00+14:00",  # before year 1 once in UTC
        "0001-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00+23:59",
    ],
)
def test_extreme_cursor_dates_are_a_400_or_an_empty_page(
    client: TestClient, db_session: Session, created: str
) -> None:
    """Issue 27: a far-future cursor date was a 500. A date the database can compare is a position like
    any other (a page, empty or not); one that is not a date any database holds is a 400."""
    headers = {"Authorization": f"Bearer {create_api_key(db_session, name='cursor-dates')}"}
    raw = json.dumps({"c": created, "i": "x"}).encode()
    cursor = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    response = client.get("/v1/scenarios", params={"cursor": cursor}, headers=headers)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        assert response.json()["errors"][0]["loc"] == ["query", "cursor"]
