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


def test_document_is_shaped_for_client_generators() -> None:
    """What generators need (issue 13): unique schema names, short operationIds, declared tags, security,
    servers, documented headers and common problems, required If-Match where 428 is answered."""
    document = json.loads(openapi_json())
    schemas = document["components"]["schemas"]
    assert not [name for name in schemas if "__" in name], "duplicate model names leak module paths"
    declared = {tag["name"] for tag in document["tags"]}
    assert all(tag.get("description") for tag in document["tags"])
    assert document["servers"]
    ids = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            where = (method, path)
            op_id = operation["operationId"]
            ids.append(op_id)
            assert re.fullmatch(r"[a-z][a-zA-Z]{2,30}", op_id), where
            assert set(operation["tags"]) <= declared, where
            bearer = [{"ApiKey": []}]
            assert operation["security"] == (bearer if path.startswith("/v1/scenarios") else []), where
            for status in ("400", "413", "415", "422", "429", "503"):
                assert status in operation["responses"], (where, status)
            for status, response in operation["responses"].items():
                assert "X-Request-ID" in response["headers"], (where, status)
            assert "Retry-After" in operation["responses"]["429"]["headers"]
            if "428" in operation["responses"]:
                if_match = [p for p in operation["parameters"] if p["name"] == "If-Match"]
                assert if_match and if_match[0]["required"] is True, where
    assert len(ids) == len(set(ids))
    assert {"spellCost", "boardAnalyze", "paymentPlan", "scenarioCreate"} <= set(ids)
    create = document["paths"]["/v1/scenarios"]["post"]["responses"]["201"]["headers"]
    assert {"Location", "ETag"} <= set(create)
    # One Color schema, referenced wherever a color is; the batch item is a typed oneOf.
    text = json.dumps(document)
    assert text.count('["W", "U", "B", "R", "G"]') == 1
    assert "#/components/schemas/Color" in text
    batch_item = schemas["SpellCostBatchItem"]
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in batch_item["oneOf"]] == [
        "SpellCostBatchResult",
        "SpellCostBatchFailure",
    ]
    problem = schemas["Problem"]["properties"]
    assert problem["candidates"]["items"]["$ref"].endswith("/CardRef")
    assert problem["suggestions"]["items"]["$ref"].endswith("/CardRef")


def test_served_document_is_the_committed_one(client: TestClient) -> None:
    served = client.get("/openapi.json")
    assert served.status_code == 200
    assert served.json() == json.loads(COMMITTED.read_text(encoding="utf-8"))


def _descriptions(node: object) -> list[str]:
    if isinstance(node, dict):
        own = [node["description"]] if isinstance(node.get("description"), str) else []
        return own + [d for value in node.values() for d in _descriptions(value)]
    if isinstance(node, list):
        return [d for value in node for d in _descriptions(value)]
    return []


def test_no_build_artefact_in_any_description() -> None:
    """mypyc gives a compiled enum a filler docstring, which pydantic would take as the schema's description:
    the open enumerations' descriptions are written by the shaping, never read from the class."""
    from app.api.openapi_shape import _open

    texts = _descriptions(json.loads(COMMITTED.read_text(encoding="utf-8")))
    assert texts and not [t for t in texts if re.search(r"mypyc|filler docstring", t, re.I)]
    shaped = _open({"type": "string", "enum": ["generic"], "description": "mypyc filler docstring"}, "Kinds.")
    assert "mypyc" not in shaped["description"] and shaped["description"].startswith(
        "Kinds. Open enumeration"
    )
