"""The docs explorer (Swagger UI served from the ``swagger_ui_bundle`` package: no request to any other
host) and the OpenAPI document, in which every error response is described as problem+json.

Routes list their errors with ``responses=problem_responses(UnknownCard, MalformedCost)``.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from app.errors import (
    PROBLEM_BASE,
    PROBLEM_MEDIA_TYPE,
    AmbiguousCard,
    AppError,
    InputError,
    InvalidChoice,
    MalformedCost,
    RulesViolation,
    UnknownCard,
)
from app.schemas.common import Problem

ASSETS_PATH = "/static/swagger-ui"
PROBLEM_REF = "#/components/schemas/Problem"

TAGS: list[dict[str, str]] = [
    {"name": "health", "description": "Liveness and readiness probes."},
    {"name": "problems", "description": "What each problem type (the `type` of an error answer) means."},
    {
        "name": "scenarios",
        "description": "Stored boards (need `Authorization: Bearer <api key>`; use Authorize). Changes are"
        " optimistic: send the `ETag` back as `If-Match`.",
    },
]
"""OpenAPI tags, in display order. Add one entry per new resource tag."""

DESCRIPTION = """\
Answers, by the Magic: The Gathering Comprehensive Rules and official rulings, questions about spell costs
and mana: parsing mana costs, the total cost of a spell on a given board (CR 601.2f), what permanents could
produce (CR 106.7), whether and how a cost can be paid.

Every computing answer carries `rules_edition` and `data_version`. Every error is an RFC 9457
`application/problem+json` document whose `type` resolves under `/problems/`.
"""


BOARD_PROBLEMS: tuple[type[AppError], ...] = (
    InputError,
    UnknownCard,
    AmbiguousCard,
    InvalidChoice,
    MalformedCost,
    RulesViolation,
)
"""What any endpoint reading a board (and a spell) may answer."""


def problem_responses(*errors: type[AppError]) -> dict[int | str, dict[str, Any]]:
    """``responses=`` entries for a route that may raise ``errors``: problem+json, grouped by status."""
    out: dict[int | str, dict[str, Any]] = {}
    for err in errors:
        entry = out.setdefault(
            err.status,
            {"description": "", "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}}},
        )
        names = [n for n in entry["description"].split("; ") if n]
        names.append(f"{err.title} (`{PROBLEM_BASE}{err.type_slug}`)")
        entry["description"] = "; ".join(names)
    return out


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI document, with error responses rewritten as problem+json (cached on the app)."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    problem_schema = Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    components.update(problem_schema.pop("$defs", {}))
    components["Problem"] = problem_schema
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict) and "responses" in operation:
                _problem_errors(operation["responses"])
    _drop_unused(schema, ("HTTPValidationError", "ValidationError"))
    app.openapi_schema = schema
    return schema


def _problem_errors(responses: dict[str, Any]) -> None:
    for status, response in responses.items():
        if not (status.isdigit() and int(status) >= 400):
            continue
        content = response.setdefault("content", {})
        content.pop("application/json", None)
        content[PROBLEM_MEDIA_TYPE] = {"schema": {"$ref": PROBLEM_REF}}
        if status == "422" and response.get("description") == "Validation Error":
            response["description"] = "Invalid input (`/problems/validation-error` or a more specific type)"


def _drop_unused(schema: dict[str, Any], names: tuple[str, ...]) -> None:
    import json

    text = json.dumps(schema.get("paths", {}))
    components = schema["components"]["schemas"]
    for name in names:
        if f"#/components/schemas/{name}" not in text:
            components.pop(name, None)


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets locally and install the problem+json-aware OpenAPI builder."""
    app.mount(ASSETS_PATH, StaticFiles(directory=str(swagger_ui_path)), name="swagger-ui-assets")
    oauth2_redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API explorer",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon-32x32.png",
            oauth2_redirect_url=oauth2_redirect,
        )

    @app.get(oauth2_redirect, include_in_schema=False)
    def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]
