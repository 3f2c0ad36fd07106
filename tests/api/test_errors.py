"""Every error is RFC 9457 problem+json; rules errors and validation errors map to their problem types."""

from __future__ import annotations

import logging
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import AfterValidator

from app import errors as E
from app.cursors import decode_cursor, encode_cursor
from app.rules.errors import AmbiguousError, IllegalError, InvalidChoiceError, ManaCostSyntaxError, RulesError
from app.rules.values.costs import ManaCost
from app.schemas.common import StrictModel

PROBLEM = "application/problem+json"


def _choice(value: str) -> str:
    if value != "Elf":
        raise InvalidChoiceError(f"{value!r} is not a creature type", field="creature_type")
    return value


class Chosen(StrictModel):
    creature_type: Annotated[str, AfterValidator(_choice)]


class Permanent(StrictModel):
    id: str
    tapped: bool = False
    chosen: Chosen | None = None


class Body(StrictModel):
    cost: Annotated[str, AfterValidator(lambda t: str(ManaCost.parse(t)))] = "{0}"
    permanents: list[Permanent] = []


RAISING: dict[str, Exception] = {
    "bad-request": E.BadRequest("nope"),
    "unauthorized": E.Unauthorized("no key"),
    "not-found": E.NotFound("no such scenario"),
    "conflict": E.Conflict("exists"),
    "precondition-failed": E.PreconditionFailed("stale"),
    "too-large": E.TooLarge("too many spells"),
    "precondition-required": E.PreconditionRequired("need If-Match"),
    "rate-limited": E.RateLimited("slow down", retry_after=7),
    "service-unavailable": E.ServiceUnavailable("db down"),
    "unknown-card": E.UnknownCard("No card named 'Foo'", status=404),
    "ambiguous-card": E.AmbiguousCard(
        "Several", extra={"candidates": [{"oracle_id": "a"}, {"oracle_id": "b"}]}
    ),
    "rules-violation-rules": IllegalError("cannot choose a land", rule="ruling:richard-garfield-phd"),
    "invalid-choice-rules": InvalidChoiceError("'Foo' is not a creature type", field="creature_type"),
    "malformed-cost-rules": ManaCostSyntaxError("bad symbol", symbol="{Q}", position=3),
    "ambiguous-rules": AmbiguousError(
        "which Urza?", candidates=("Urza, Lord High Artificer", "Urza, Academy Headmaster")
    ),
    "rules-other": RulesError("odd"),
    "crash": RuntimeError("secret internal state"),
}


@pytest.fixture
def app_with_test_routes(app: FastAPI) -> FastAPI:
    router = APIRouter()

    @router.get("/_test/raise/{kind}")
    def raise_it(kind: str) -> dict[str, str]:
        raise RAISING[kind]

    @router.post("/_test/body")
    def body(payload: Body) -> dict[str, Any]:
        return payload.model_dump()

    app.include_router(router)
    return app


@pytest.fixture
def tclient(app_with_test_routes: FastAPI) -> TestClient:
    return TestClient(app_with_test_routes)


def _problem(response: Any, status: int, slug: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM
    body: dict[str, Any] = response.json()
    assert body["type"] == f"/problems/{slug}"
    assert body["status"] == status
    assert body["title"] and body["detail"]
    return body


@pytest.mark.parametrize(
    ("kind", "status", "slug"),
    [
        ("bad-request", 400, "bad-request"),
        ("unauthorized", 401, "unauthorized"),
        ("not-found", 404, "not-found"),
        ("conflict", 409, "conflict"),
        ("precondition-failed", 412, "precondition-failed"),
        ("too-large", 413, "too-large"),
        ("precondition-required", 428, "precondition-required"),
        ("rate-limited", 429, "rate-limited"),
        ("service-unavailable", 503, "service-unavailable"),
        ("unknown-card", 404, "unknown-card"),
        ("ambiguous-card", 422, "ambiguous-card"),
        ("rules-violation-rules", 422, "rules-violation"),
        ("invalid-choice-rules", 422, "invalid-choice"),
        ("malformed-cost-rules", 422, "malformed-cost"),
        ("ambiguous-rules", 422, "ambiguous-card"),
        ("rules-other", 422, "validation-error"),
    ],
)
def test_each_error_kind_is_a_problem(tclient: TestClient, kind: str, status: int, slug: str) -> None:
    body = _problem(tclient.get(f"/_test/raise/{kind}"), status, slug)
    assert body["instance"] == f"/_test/raise/{kind}"
    # Every problem type resolves to its description.
    described = tclient.get(body["type"])
    assert described.status_code == 200
    assert described.json()["status"] in (status, 422)


def test_headers_and_extension_members(tclient: TestClient) -> None:
    assert tclient.get("/_test/raise/unauthorized").headers["www-authenticate"] == "Bearer"
    assert tclient.get("/_test/raise/rate-limited").headers["retry-after"] == "7"
    ambiguous = tclient.get("/_test/raise/ambiguous-card").json()
    assert ambiguous["candidates"] == [{"oracle_id": "a"}, {"oracle_id": "b"}]
    rules = tclient.get("/_test/raise/rules-violation-rules").json()
    assert rules["rule"] == "ruling:richard-garfield-phd"
    urza = tclient.get("/_test/raise/ambiguous-rules").json()
    assert urza["candidates"] == ["Urza, Lord High Artificer", "Urza, Academy Headmaster"]


def test_rules_cost_error_names_symbol_and_position(tclient: TestClient) -> None:
    body = tclient.get("/_test/raise/malformed-cost-rules").json()
    assert "'{Q}'" in body["detail"] and "position 3" in body["detail"]
    assert body["errors"][0]["symbol"] == "{Q}" and body["errors"][0]["position"] == 3


def test_unknown_route_and_wrong_method(tclient: TestClient) -> None:
    _problem(tclient.get("/no/such/route"), 404, "not-found")
    body = _problem(tclient.delete("/healthz"), 405, "method-not-allowed")
    assert "DELETE" in body["detail"]


def test_malformed_json_body_is_a_400_problem(tclient: TestClient) -> None:
    response = tclient.post("/_test/body", content=b'{"cost": ', headers={"content-type": "application/json"})
    body = _problem(response, 400, "bad-request")
    assert body["errors"][0]["type"] == "json_invalid"


def test_unknown_field_names_its_path(tclient: TestClient) -> None:
    response = tclient.post("/_test/body", json={"permanents": [{"id": "elves", "taped": True}]})
    body = _problem(response, 422, "validation-error")
    assert body["errors"] == [
        {
            "loc": ["body", "permanents", 0, "taped"],
            "msg": "Extra inputs are not permitted",
            "type": "extra_forbidden",
            "input": True,
        }
    ]
    assert "body.permanents.0.taped" in body["detail"]


def test_bad_cost_in_a_body_field_is_malformed_cost_with_path_symbol_position(tclient: TestClient) -> None:
    response = tclient.post("/_test/body", json={"cost": "{2}{Q}"})
    body = _problem(response, 422, "malformed-cost")
    error = body["errors"][0]
    assert error["loc"] == ["body", "cost"]
    assert error["type"] == "malformed_cost"
    assert error["symbol"] == "{Q}" and error["position"] == 3
    assert "body.cost" in body["detail"] and "'{Q}'" in body["detail"] and "position 3" in body["detail"]


def test_bad_choice_in_a_body_is_invalid_choice(tclient: TestClient) -> None:
    response = tclient.post(
        "/_test/body", json={"permanents": [{"id": "horn", "chosen": {"creature_type": "Lnad"}}]}
    )
    body = _problem(response, 422, "invalid-choice")
    assert body["errors"][0]["loc"] == ["body", "permanents", 0, "chosen", "creature_type"]


def test_huge_input_is_never_echoed(tclient: TestClient) -> None:
    response = tclient.post("/_test/body", json={"permanents": [{"id": "x" * 5000, "tapped": "y" * 5000}]})
    body = _problem(response, 422, "validation-error")
    assert len(response.text) < 2000
    assert all(len(str(e.get("input", ""))) <= 101 for e in body["errors"])


def test_unexpected_exception_is_500_without_traceback(
    tclient: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="manacalc.errors"):
        response = tclient.get("/_test/raise/crash")
    body = _problem(response, 500, "internal-error")
    assert "secret internal state" not in response.text
    assert "Traceback" not in response.text and "RuntimeError" not in response.text
    assert response.headers["x-request-id"] in body["detail"]
    assert any("secret internal state" in (r.exc_text or "") or r.exc_info for r in caplog.records)


def test_body_too_large_and_wrong_media_type(settings: Any, tclient: TestClient) -> None:
    big = b'{"cost": "' + b"1" * (settings.max_body_bytes + 10) + b'"}'
    _problem(
        tclient.post("/_test/body", content=big, headers={"content-type": "application/json"}),
        413,
        "too-large",
    )
    _problem(
        tclient.post(
            "/_test/body", content=b"cost=1", headers={"content-type": "application/x-www-form-urlencoded"}
        ),
        415,
        "unsupported-media-type",
    )


def test_problem_types_list_and_unknown_slug(tclient: TestClient) -> None:
    slugs = {p["type"] for p in tclient.get("/problems").json()}
    for required in (
        "malformed-cost",
        "unknown-card",
        "ambiguous-card",
        "invalid-choice",
        "rules-violation",
        "too-large",
        "rate-limited",
        "conflict",
        "precondition-failed",
    ):
        assert f"/problems/{required}" in slugs
    _problem(tclient.get("/problems/no-such-thing"), 404, "not-found")


def test_cursor_round_trip_and_tampering(tclient: TestClient) -> None:
    position = {"name": "Llanowar Elves", "id": 7}
    assert decode_cursor(encode_cursor(position)) == position
    with pytest.raises(E.BadRequest):
        decode_cursor("not a cursor!")
    with pytest.raises(E.BadRequest):
        decode_cursor(encode_cursor({"a": 1})[:-3] + "%%%")
