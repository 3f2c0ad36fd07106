"""The OpenAPI document tells the truth about errors: every problem type it names resolves, each is
documented under the status the server answers it with, and for the answers any operation may give (a bad
body, a body too large, a wrong media type, the rate limit) every operation answers as documented. Also: no
untyped object schema is left for generators to guess."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.cli import openapi_json
from app.config import Settings
from app.errors import PROBLEM_TYPES
from app.main import create_app
from tests.sessions import bind_app_to_session

SLUG = re.compile(r"`/problems/([a-z0-9-]+)`")

# A problem answered with another status than its type's own, and the request showing it is: a look-up's
# unknown name is a 404 (the URL names a resource that does not exist), a body's unknown name a 422.
RESTATUSED = {("unknown-card", "404"): ("GET", "/v1/cards/Nonexistent%20Card%20Name", None)}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return json.loads(openapi_json())


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if isinstance(operation, dict) and "responses" in operation:
                yield method.upper(), path, operation


def _named(response: dict[str, Any]) -> set[str]:
    return set(SLUG.findall(response.get("description", "")))


def test_every_named_problem_type_resolves(document: dict[str, Any], client: TestClient) -> None:
    named = set(re.findall(r"/problems/([a-z0-9-]+)", json.dumps(document["paths"])))
    assert {"too-large", "unknown-card", "rate-limited"} <= named
    for slug in sorted(named):
        answer = client.get(f"/problems/{slug}")
        assert answer.status_code == 200, slug
        assert answer.json()["status"] == PROBLEM_TYPES[slug].status


def test_every_error_response_names_its_types_under_their_status(
    document: dict[str, Any], client: TestClient
) -> None:
    for method, path, operation in operations(document):
        for status, response in operation["responses"].items():
            if int(status) < 400:
                continue
            slugs = _named(response)
            assert slugs, (method, path, status, "names no /problems/ type")
            for slug in slugs:
                if PROBLEM_TYPES[slug].status == int(status):
                    continue
                assert (slug, status) in RESTATUSED, (method, path, status, slug)
    for (slug, status), (method, url, body) in RESTATUSED.items():
        answer = client.request(method, url, json=body)
        assert (answer.status_code, answer.json()["type"]) == (int(status), f"/problems/{slug}")


def test_no_untyped_object_schema(document: dict[str, Any]) -> None:
    def untyped(node: Any, where: str) -> Iterator[str]:
        if isinstance(node, dict):
            if node.get("type") == "object" and not (
                {"properties", "additionalProperties", "patternProperties"} & set(node)
            ):
                yield where
            for key, value in node.items():
                yield from untyped(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from untyped(value, f"{where}/{i}")

    assert list(untyped(document["components"]["schemas"], "#/components/schemas")) == []


def _documented(operation: dict[str, Any], answer: Any) -> None:
    status = str(answer.status_code)
    assert status in operation["responses"], (operation["operationId"], status, answer.text[:200])
    slug = answer.json()["type"].removeprefix("/problems/")
    assert slug in _named(operation["responses"][status]), (operation["operationId"], status, slug)


def test_body_errors_are_answered_as_documented(document: dict[str, Any], client: TestClient) -> None:
    """Every operation with a body: not JSON (400), not `application/json` (415), too large (413)."""
    too_large = b'{"x": "' + b"a" * (1024 * 1024 + 10) + b'"}'
    probes = [
        (b"{not json", "application/json", 400),
        (b"{}", "text/plain", 415),
        (too_large, "application/json", 413),
    ]
    checked = 0
    for method, path, operation in operations(document):
        if "requestBody" not in operation:
            continue
        url = re.sub(r"\{[^}]+\}", "x", path)
        for content, media_type, expected in probes:
            answer = client.request(method, url, content=content, headers={"Content-Type": media_type})
            assert answer.status_code == expected, (method, path, answer.status_code, answer.text[:200])
            _documented(operation, answer)
            checked += 1
    assert checked >= 3 * 15


@pytest.fixture
def limited_client(settings: Settings, db_session: Session) -> Iterator[TestClient]:
    application: FastAPI = create_app(
        settings.model_copy(update={"rate_limit_per_minute": 1, "rate_limit_burst": 1})
    )
    bind_app_to_session(application, db_session)
    with TestClient(application) as client:
        yield client


def test_rate_limit_is_answered_as_documented(document: dict[str, Any], limited_client: TestClient) -> None:
    """Once the one-request bucket is empty, every limited operation answers the documented 429."""
    limited_client.get("/v1/symbols")
    limited = 0
    for method, path, operation in operations(document):
        if not path.startswith("/v1/"):
            continue  # health, the problem catalogue and metrics are exempt from the limit
        url = re.sub(r"\{[^}]+\}", "x", path)
        answer = limited_client.request(method, url, json={})
        assert answer.status_code == 429, (method, path)
        assert int(answer.headers["retry-after"]) >= 1
        _documented(operation, answer)
        limited += 1
    assert limited >= 20


def test_every_schema_and_field_has_a_description(document: dict[str, Any]) -> None:
    """A field's description says what it is; a request field's "Default: ..." note alone does not."""
    missing = []
    for name, schema in document["components"]["schemas"].items():
        if not (schema.get("description") or "").strip():
            missing.append(name)
        for field, prop in schema.get("properties", {}).items():
            words = re.sub(r"\s*Default: .*$", "", prop.get("description", ""), flags=re.S).strip()
            if not words:
                missing.append(f"{name}.{field}")
    assert missing == []
