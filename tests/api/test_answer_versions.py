"""Issue 28: API.md, "Every computing answer carries `rules_edition` ... and `data_version` (when the card
catalogue was last imported), so clients can cache answers." Walked over every operation the OpenAPI
document describes that computes (``app.api.compute.COMPUTE_ROUTES``): its success answer's schema requires
both, and a real answer gives both, equal to the app's rules edition and the catalogue's data_version (the
SVG chart in its footer, the Vega-Lite specification in its ``usermeta``)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from app.api.compute import COMPUTE_ROUTES
from app.config import Settings
from app.main import create_app
from app.services.api_keys import create_api_key
from app.services.card_import import data_version
from tests.api.test_compute_boundary import BOARD, _requests
from tests.sessions import bind_app_to_session

BOTH = {"rules_edition", "data_version"}


def _openapi_path(route_path: str) -> str:
    return route_path.replace("{ref:path}", "{ref}")


def _schema(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    return document["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else schema


def _success(operation: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    (code,) = [c for c in operation["responses"] if c.startswith("2")]
    ((media, content),) = operation["responses"][code]["content"].items()
    return media, content.get("schema", {})


def test_every_computing_operation_declares_both(app: FastAPI) -> None:
    document = app.openapi()
    assert len(COMPUTE_ROUTES) >= 20
    for method, path in sorted(COMPUTE_ROUTES):
        operation = document["paths"][_openapi_path(path)][method.lower()]
        media, schema = _success(operation)
        if media == "image/svg+xml":  # a picture has no JSON schema: its footer says both (checked below)
            continue
        schema = _schema(document, schema)
        holder = schema["properties"].get("usermeta", schema)  # Vega-Lite's free metadata
        assert set(holder.get("required", ())) >= BOTH, (method, path, holder.get("required"))


def test_every_computing_answer_carries_both(settings: Settings, db_session: Session) -> None:
    application = create_app(settings)
    bind_app_to_session(application, db_session)
    client = TestClient(application)
    auth = {"Authorization": f"Bearer {create_api_key(db_session, name='versions')}"}
    made = client.post("/v1/scenarios", json={"name": "versions", "board": BOARD}, headers=auth)
    assert made.status_code == 201, made.text
    version = data_version(db_session)
    assert made.json()["data_version"] == version
    assert made.json()["rules_edition"] == settings.rules_edition
    tried: set[str] = set()
    for method, path, kwargs in _requests(made.json()["id"]):
        if method == "PUT":  # the stored scenario keeps its own name (another's is a 409)
            kwargs["json"] = {**kwargs["json"], "name": "versions"}
        response = client.request(method, path, headers={**auth, **kwargs.pop("headers", {})}, **kwargs)
        tried.add(path)
        if path.startswith("/v1/cards/No Such Card"):
            assert response.status_code == 404  # an error answer: a problem, not a computing answer
            continue
        assert response.status_code in (200, 201), (path, response.text)
        if response.headers["content-type"].startswith("image/svg+xml"):
            footer = f"Comprehensive Rules of {settings.rules_edition}; card data {version}"
            assert re.search(re.escape(footer), response.text), path
            continue
        body = response.json()
        holder = body.get("usermeta", body)
        assert (holder.get("rules_edition"), holder.get("data_version")) == (
            settings.rules_edition,
            version,
        ), path
    assert len(tried) >= len(COMPUTE_ROUTES) - 1
