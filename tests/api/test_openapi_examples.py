"""The docs explorer works on the bundled catalogue: every operation of the served OpenAPI document has a
summary, a description and examples, and sending each example ("Try it out") answers 2xx."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.services.api_keys import create_api_key

BODY_METHODS = {"post", "put", "patch"}
SCENARIO_PREFIX = "/v1/scenarios"


def operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in {"get", "post", "put", "patch", "delete"}
    ]


def parameter_example(parameter: dict[str, Any]) -> Any:
    """The example the docs explorer fills in for a parameter, if any."""
    if "example" in parameter:
        return parameter["example"]
    if parameter.get("examples"):
        return next(iter(parameter["examples"].values()))["value"]
    schema_examples = parameter.get("schema", {}).get("examples")
    return schema_examples[0] if schema_examples else None


def body_examples(operation: dict[str, Any]) -> dict[str, Any]:
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    return {name: example["value"] for name, example in content.get("examples", {}).items()}


def build_url(path: str, operation: dict[str, Any], known: dict[str, str]) -> str:
    """The path with its parameters filled (``known`` first, else their examples) and the query
    parameters that have an example."""
    url = path
    query: list[str] = []
    for parameter in operation.get("parameters", []):
        name = parameter["name"]
        value = known.get(name, parameter_example(parameter))
        if parameter["in"] == "path":
            assert value is not None, f"{path}: path parameter {name} has no example"
            url = url.replace("{" + name + "}", quote(str(value), safe=""))
        elif parameter["in"] == "query" and value is not None:
            query.append(f"{name}={quote(str(value), safe='')}")
    assert not re.search(r"\{\w+\}", url), url
    return url + ("?" + "&".join(query) if query else "")


@pytest.fixture
def document(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    doc: dict[str, Any] = response.json()
    return doc


def test_every_operation_has_a_summary_description_and_examples(document: dict[str, Any]) -> None:
    missing: list[str] = []
    for path, method, operation in operations(document):
        where = f"{method.upper()} {path}"
        if not operation.get("summary", "").strip():
            missing.append(f"{where}: summary")
        if not operation.get("description", "").strip():
            missing.append(f"{where}: description")
        if "requestBody" in operation and not body_examples(operation):
            missing.append(f"{where}: request body example")
        for parameter in operation.get("parameters", []):
            needs_example = parameter["in"] == "path" and parameter["name"] != "scenario_id"
            if needs_example and parameter_example(parameter) is None:
                missing.append(f"{where}: example of {parameter['name']}")
    assert missing == []


def test_every_example_answers_2xx(client: TestClient, document: dict[str, Any], db_session: Session) -> None:
    key = create_api_key(db_session, name="openapi-examples")
    auth = {"Authorization": f"Bearer {key}"}
    sent = 0

    def send(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        nonlocal sent
        sent += 1
        response = client.request(method.upper(), url, json=body, headers=headers)
        assert 200 <= response.status_code < 300, f"{method.upper()} {url} {body!r}: {response.text[:800]}"
        return response

    plain = [op for op in operations(document) if not op[0].startswith(SCENARIO_PREFIX)]
    for path, method, operation in plain:
        url = build_url(path, operation, {})
        if method in BODY_METHODS:
            for body in body_examples(operation).values():
                send(method, url, body)
        else:
            send(method, url)

    # The scenarios: create one from each example, then every other operation on the last one made,
    # following its ETag, and delete it at the end.
    scenario_ops = [op for op in operations(document) if op[0].startswith(SCENARIO_PREFIX)]
    create = next(op for op in scenario_ops if op[:2] == (SCENARIO_PREFIX, "post"))
    created: dict[str, Any] = {}
    for body in body_examples(create[2]).values():
        response = send("post", SCENARIO_PREFIX, body, auth)
        assert response.status_code == 201
        created = {"scenario_id": response.json()["id"], "etag": response.headers["etag"]}
    assert created
    deletes = [op for op in scenario_ops if op[1] == "delete"]
    for path, method, operation in [
        op for op in scenario_ops if op is not create and op not in deletes
    ] + deletes:
        url = build_url(path, operation, {"scenario_id": created["scenario_id"]})
        headers = dict(auth)
        if any(p["name"] == "If-Match" for p in operation.get("parameters", [])):
            headers["If-Match"] = created["etag"]
        bodies = list(body_examples(operation).values()) if method in BODY_METHODS else [None]
        for body in bodies:
            response = send(method, url, body, headers)
            if "etag" in response.headers:
                created["etag"] = response.headers["etag"]
    assert client.get(f"{SCENARIO_PREFIX}/{created['scenario_id']}", headers=auth).status_code == 404
    assert sent >= len(operations(document))


def test_every_operation_has_a_response_example(document: dict[str, Any]) -> None:
    missing = []
    for path, method, operation in operations(document):
        status = min(s for s in operation["responses"] if s.startswith("2"))
        content = operation["responses"][status].get("content", {})
        if status != "204" and not any(media.get("examples") for media in content.values()):
            missing.append(f"{method.upper()} {path} {status}")
    assert missing == []


def test_response_examples_are_what_the_service_answers(
    client: TestClient, document: dict[str, Any], db_session: Session
) -> None:
    """The recorded examples (tools/response_examples.py) still match the answers to the same requests,
    ids, times and the catalogue's version aside: rerun the tool and `make openapi` when this fails."""
    from tools.response_examples import RESPONSE_EXAMPLES_FILE, UNCOMPARED, normalised, record

    key = create_api_key(db_session, name="response-examples")
    recorded = json.loads(RESPONSE_EXAMPLES_FILE.read_text(encoding="utf-8"))
    answered = record(client, key, document)
    assert set(answered) == set(recorded)
    drifted = []
    for op, answer in answered.items():
        expected = recorded[op]
        assert (answer["status"], answer["media_type"]) == (expected["status"], expected["media_type"]), op
        if op not in UNCOMPARED and normalised(answer["value"]) != normalised(expected["value"]):
            drifted.append(op)
    assert drifted == [], (
        f"{drifted}: the answers differ from app/data/response_examples.json: run"
        " tools/response_examples.py, then make openapi"
    )
