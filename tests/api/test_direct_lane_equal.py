"""The direct lane (``app.api.direct``) answers byte for byte what FastAPI's routed path answers: the same
status, the same headers (the request id aside) and the same body, for a representative set of requests
to every direct route: answers, problems of the rules, of validation and of JSON, inline cards, a board
too big for the event loop (which falls back to FastAPI), batches, and compressed answers (issue 27)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.api import direct
from app.main import create_app

FOREST = {"id": "f", "card": "Forest"}
ELVES = {"card": "Llanowar Elves"}
INLINE = {
    "name": "Test Bauble",
    "mana_cost": "{1}{G}",
    "type_line": "Artifact",
    "oracle_text": "{T}: Add one mana of any color. (Reminder text.)",
}
BIG_BOARD = {"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(2_100)]}
BOARD = {"permanents": [FOREST, {"id": "e", "card": "Llanowar Elves"}, {"id": "b", "card": INLINE}]}

BODIES: dict[str, list[Any]] = {
    "/v1/spells/cost": [
        {"board": BOARD, "spell": ELVES},
        {"board": BOARD, "spell": {"card": INLINE}},
        {"board": BOARD, "spell": {"card": "No Such Card Anywhere"}},
        {"board": {"permanents": [FOREST, FOREST]}, "spell": ELVES},
        {"board": BOARD},
        {"board": BIG_BOARD, "spell": ELVES},
        {"board": BOARD, "spell": ELVES, "extra": 1},
        {"board": {"permanents": "none"}, "spell": ELVES},
    ],
    "/v1/spells/cost/batch": [
        {"board": BOARD, "spells": [ELVES, {"card": "Forest"}, {"card": "No Such Card"}]},
        {"board": BOARD, "spells": []},
        {"board": BOARD, "spells": [ELVES] * 300},
    ],
    "/v1/payments/plan": [
        {"board": BOARD, "cost": "{G}{G}"},
        {"board": BOARD, "cost": "{W}{W}{W}"},
        {"board": BOARD, "cost": "{Q}"},
        {"board": BOARD, "spell": ELVES},
        {"board": BIG_BOARD, "cost": "{G}"},
    ],
}
RAW = [b"", b"{", b'{"board": ' + b"1" * 5000 + b"}", b"[]", b"null", b'{"board": {"permanents": []}}']
HEADER_SETS = [{}, {"Accept-Encoding": "gzip"}, {"Content-Type": "text/plain"}]


def _answers(client: TestClient) -> list[tuple[str, int, dict[str, str], bytes]]:
    out = []
    for path, bodies in BODIES.items():
        for headers in HEADER_SETS:
            sent = [(b, None) for b in bodies] + [(None, raw) for raw in RAW]
            for body, raw in sent:
                h = {"Content-Type": "application/json", **headers}
                if raw is None:
                    raw = json.dumps(body).encode()
                r = client.post(path, content=raw, headers=h)
                kept = {k: v for k, v in r.headers.items() if k != "x-request-id"}
                out.append((path, r.status_code, kept, r.content))
    return out


def test_the_direct_lane_answers_byte_for_byte_as_fastapi_does(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    served: list[bool] = []
    real_serve = direct.serve

    async def counting_serve(route, scope, receive, send, body):  # type: ignore[no-untyped-def]
        answered = await real_serve(route, scope, receive, send, body)
        served.append(answered)
        return answered

    monkeypatch.setattr("app.api.middleware.serve", counting_serve)
    through_direct = _answers(TestClient(app))
    assert served.count(True) > len(served) // 2, "the direct lane answered too little to compare"
    assert served.count(False) > 0, "nothing fell back to FastAPI (the big boards should)"

    overrides = dict(app.dependency_overrides)
    for path in list(direct.ROUTES):
        monkeypatch.delitem(direct.ROUTES, path)
    plain = create_app(app.state.settings)
    plain.dependency_overrides.update(overrides)
    through_fastapi = _answers(TestClient(plain))
    assert len(through_direct) == len(through_fastapi)
    for lane, routed in zip(through_direct, through_fastapi, strict=True):
        assert lane == routed
