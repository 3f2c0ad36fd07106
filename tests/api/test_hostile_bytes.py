"""Raw-bytes fuzzing of every endpoint that reads a body: mutated request bodies sent as bytes (never
through a JSON encoder, which would only ever produce valid UTF-8 and finite numbers), and what comes
back is never a 5xx, and every refusal is a problem+json document (issue 27: a lone surrogate sent as raw
UTF-8 bytes and an overflowing ``1e999`` were 500s)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BOARD = {
    "permanents": [
        {"id": "f", "card": "Forest", "counters": {"charge": 2}},
        {"id": "e", "card": "Llanowar Elves", "tapped": False},
    ],
    "players": {"you": {"life": 20, "hand_size": 3, "graveyard": ["Forest"]}},
}
SEEDS: dict[str, dict[str, Any]] = {
    "/v1/mana-costs/parse": {"mana_cost": "{2}{W/U}{G}"},
    "/v1/spells/cost": {"board": BOARD, "spell": {"card": "Grizzly Bears", "x": 2}},
    "/v1/spells/cost/batch": {"board": BOARD, "spells": [{"card": "Forest"}, {"card": "Shock"}]},
    "/v1/payments/plan": {"board": BOARD, "player": "you", "cost": "{1}{G}"},
    "/v1/boards/analyze": {"board": BOARD},
    "/v1/decks/analyze": {"decklist": "4 Llanowar Elves\n20 Forest\n", "play": "first"},
    "/v1/mental-magic/options": {"card": "Savannah Lions"},
    "/v1/cards/collection": {"identifiers": [{"name": "Forest"}, {"oracle_id": "x"}]},
}
# Byte strings a hostile client sends: raw surrogates and other invalid UTF-8, numbers that overflow a
# float or Python's int-to-text limit, escapes no database stores, framing of JSON itself.
HOSTILE = [
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xff",
    b"\xc0\xaf",
    b"\xf4\x90\x80\x80",
    b"1e999",
    b"-1e999",
    b"1E+400",
    b"1e-999",
    b"9" * 400,
    b"9" * 5000,
    b"-0",
    b"0.1e1",
    b"NaN",
    b"-Infinity",
    b'"\\ud800"',
    b'"\\u0000"',
    b'"\xed\xa0\x80"',
    b"\x00",
    b"[" * 40,
    b"{" * 40,
    b"]",
    b"}",
    b'"',
    b"\\",
    b"null",
    b"true",
    b"[]",
    b"{}",
    b'""',
    b"\xef\xbb\xbf",
]


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes]:
    path = draw(st.sampled_from(sorted(SEEDS)))
    body = bytearray(json.dumps(SEEDS[path]).encode())
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        at = draw(st.integers(min_value=0, max_value=len(body)))
        kind = draw(st.sampled_from(["insert", "replace", "byte", "cut"]))
        if kind == "insert":
            body[at:at] = draw(st.sampled_from(HOSTILE))
        elif kind == "replace":
            # Replace a value-ish run (up to 12 bytes) with a hostile token.
            end = min(len(body), at + draw(st.integers(min_value=1, max_value=12)))
            body[at:end] = draw(st.sampled_from(HOSTILE))
        elif kind == "byte" and at < len(body):
            body[at] = draw(st.integers(min_value=0, max_value=255))
        else:
            del body[at:]
    return path, bytes(body)


def check(client: TestClient, path: str, body: bytes) -> None:
    response = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code < 500, (path, body[:300], response.text[:500])
    if response.status_code >= 400:
        assert response.headers["content-type"] == "application/problem+json", response.headers
        problem = response.json()
        assert problem["status"] == response.status_code
        if "errors" in problem:
            assert len(problem["errors"]) <= 100


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=mutated())
def test_mutated_bodies_never_get_a_5xx(client: TestClient, case: tuple[str, bytes]) -> None:
    check(client, *case)


def test_each_hostile_token_in_each_body_never_gets_a_5xx(client: TestClient) -> None:
    """Every hostile token in place of each seed body's first string value (one app for all: building
    one per case cost 0.4 s each)."""
    for path, seed in sorted(SEEDS.items()):
        body = json.dumps(seed).encode()
        start = body.index(b'"', body.index(b":"))
        end = body.index(b'"', start + 1) + 1
        for token in HOSTILE:
            check(client, path, body[:start] + token + body[end:])


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        # The raw bytes of U+D800 in a card name: not UTF-8, whatever Python's decoder lets through.
        (b'{"board": {"permanents": []}, "spell": {"card": "\xed\xa0\x80"}}', 400, "utf8_invalid"),
        (b'{"board": {"permanents": []}, "\xed\xa0\x80": 1}', 400, "utf8_invalid"),
        # 1e999 overflows a float to infinity: refused as NaN and Infinity are, naming where it is.
        (b'{"board": {"permanents": []}, "spell": {"card": "Forest", "x": 1e999}}', 422, "finite_number"),
        (
            b'{"board": {"players": {"you": {"life": -1e999}}}, "spell": {"card": "Forest"}}',
            422,
            "finite_number",
        ),
    ],
)
def test_raw_surrogates_and_overflowing_numbers_are_named(
    client: TestClient, body: bytes, status: int, kind: str
) -> None:
    response = client.post("/v1/spells/cost", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status, response.text
    assert response.json()["errors"][0]["type"] == kind
