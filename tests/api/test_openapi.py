"""The committed openapi/openapi.json is exactly what the app serves, and its docs need no other host."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.cli import openapi_json

COMMITTED = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def test_committed_openapi_matches_the_app() -> None:
    assert COMMITTED.is_file(), "openapi/openapi.json is missing: run `make openapi`"
    committed = json.loads(COMMITTED.read_text(encoding="utf-8"))
    served = json.loads(openapi_json())
    assert committed == served, (
        "openapi/openapi.json differs from app.openapi(): run `make openapi` and commit it"
    )


def test_openapi_served_and_errors_are_problem_json(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert document["info"]["version"] == "1.0.0"
    assert "Problem" in document["components"]["schemas"]
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    assert list(response["content"]) == ["application/problem+json"], (path, method, status)


def test_docs_are_served_without_any_other_host(client: TestClient) -> None:
    response = client.get("/docs")
    assert response.status_code == 200
    html = response.text
    assert "swagger-ui" in html.lower()
    external = re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"'\s>]+""", html)
    assert external == [], external
    assert "cdn.jsdelivr" not in html and "googleapis" not in html and "tiangolo" not in html
    for asset in re.findall(r"""["'](/static/swagger-ui/[^"']+)["']""", html):
        assert client.get(asset).status_code == 200, asset
    redoc = client.get("/redoc")
    assert redoc.status_code == 200
    assert re.findall(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//[^"'\s>]+""", redoc.text) == []
    script = client.get("/static/redoc/redoc.standalone.js")
    assert script.status_code == 200 and b"cdn.redoc.ly" not in script.content
