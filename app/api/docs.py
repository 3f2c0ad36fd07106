"""The docs explorer (Swagger UI 5 and ReDoc, served from the ``fastapi-offline`` package: no request to
any other host) and the OpenAPI document, in which every error response is described as problem+json.

Routes list their errors with ``responses=problem_responses(UnknownCard, MalformedCost)``. What makes the
document generator-friendly (headers, common problems, shared schemas) is ``app.api.openapi_shape``.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

from app.api.caching import STATIC_CACHE_CONTROL, etag_of, matches
from app.api.compute import light
from app.api.openapi_shape import (
    PROBLEM_REF,
    shape_for_generators,
)
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
REDOC_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "script-src 'self' 'unsafe-inline'; worker-src 'self' blob:; font-src 'self' data:"
)

TAGS: list[dict[str, str]] = [
    {"name": "mana costs", "description": "Parse mana costs and list the mana symbols (CR 107.4)."},
    {"name": "cards", "description": "The card catalogue: look-up by name or id, search, creature types."},
    {"name": "boards", "description": "What the permanents on a board could produce (CR 106.7)."},
    {"name": "spells", "description": "The total cost of a spell on a board (CR 601.2f), one or in a batch."},
    {"name": "payments", "description": "Whether and how a cost can be paid from a board's mana."},
    {
        "name": "decks",
        "description": "Decklists: curve, colors, sources, legality, odds of casting each spell on curve.",
    },
    {"name": "mental magic", "description": "Which cards could be cast as Mental Magic's copy."},
    {"name": "health", "description": "Liveness and readiness probes, and Prometheus metrics."},
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


ProblemSpec = type[AppError] | tuple[type[AppError], int]
"""A problem a route may answer: its class (answered with the class's status), or the class and the status
this route answers it with (``(UnknownCard, 404)`` for a GET look-up, whose path is the unknown name)."""


def problem_responses(*errors: ProblemSpec) -> dict[int | str, dict[str, Any]]:
    """``responses=`` entries for a route that may raise ``errors``: problem+json, grouped by status, each
    status's description naming its problem types as ``Title (`/problems/slug`)`` (which
    ``tests/api/test_openapi_truth.py`` reads back and checks against what the server answers)."""
    out: dict[int | str, dict[str, Any]] = {}
    for spec in errors:
        err, status = spec if isinstance(spec, tuple) else (spec, spec.status)
        entry = out.setdefault(
            status,
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
    shape_for_generators(schema)
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
    text = json.dumps(schema.get("paths", {}))
    components = schema["components"]["schemas"]
    for name in names:
        if f"#/components/schemas/{name}" not in text:
            components.pop(name, None)


def _assets_dir() -> Path:
    """Swagger UI 5 and ReDoc 2 as shipped inside the ``fastapi-offline`` package (no CDN)."""
    import fastapi_offline

    return Path(fastapi_offline.__file__).resolve().parent / "static"


REDOC_JS_PATH = "/static/redoc/redoc.standalone.js"
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def _local_redoc_js() -> bytes:
    """ReDoc's bundle with its one remote asset (the footer logo) replaced by an empty inline image, so
    the page makes no request to another host."""
    script = (_assets_dir() / "redoc.standalone.js").read_bytes()
    return script.replace(
        REDOC_LOGO.encode(), b"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"
    )


def install_docs(app: FastAPI) -> None:
    """Serve ``/docs`` (Swagger UI 5), ``/redoc`` and their assets locally, and install the
    problem+json-aware OpenAPI builder."""
    app.mount(ASSETS_PATH, StaticFiles(directory=str(_assets_dir())), name="swagger-ui-assets")
    oauth2_redirect = "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    @light(app, "/docs", "GET", "a constant page")
    def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API explorer",
            swagger_js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_PATH}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_PATH}/favicon.png",
            oauth2_redirect_url=oauth2_redirect,
        )

    redoc_js = _local_redoc_js()

    @app.get(REDOC_JS_PATH, include_in_schema=False)
    @light(app, REDOC_JS_PATH, "GET", "a constant script")
    def redoc_script() -> Response:
        return Response(redoc_js, media_type="text/javascript", headers={"Cache-Control": "max-age=3600"})

    @app.get("/redoc", include_in_schema=False)
    @light(app, "/redoc", "GET", "a constant page")
    def redoc() -> HTMLResponse:
        page = get_redoc_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} — API reference",
            redoc_js_url=REDOC_JS_PATH,
            redoc_favicon_url=f"{ASSETS_PATH}/favicon.png",
            with_google_fonts=False,
        )
        # ReDoc's footer logo is an image on another host: the policy keeps the page on this one.
        page.headers["Content-Security-Policy"] = REDOC_CSP
        return page

    @app.get(oauth2_redirect, include_in_schema=False)
    @light(app, oauth2_redirect, "GET", "a constant page")
    def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    app.openapi = lambda: build_openapi(app)  # type: ignore[method-assign]
    _validated_openapi_route(app)


def _validated_openapi_route(app: FastAPI) -> None:
    """``/openapi.json`` with ``ETag`` and ``Cache-Control`` (a 304 for a matching ``If-None-Match``): the
    document is fixed for a release, and generators and the explorer fetch it often. Replaces FastAPI's
    own route, which sends neither."""
    url = app.openapi_url or "/openapi.json"
    app.router.routes = [r for r in app.router.routes if getattr(r, "path", None) != url]
    encoded: list[tuple[bytes, bytes, str]] = []

    def encode() -> tuple[bytes, bytes, str]:
        """The document, its gzip form and its ETag, made once per process (a flood costs no
        compression). The lifespan makes them before serving: made by the first request, they cost it
        over 100 ms, and a /healthz beside a flood of such first requests waited 445 ms."""
        if not encoded:
            body = json.dumps(app.openapi(), ensure_ascii=False).encode()
            encoded.append((body, gzip.compress(body, compresslevel=9, mtime=0), etag_of(body)))
        return encoded[0]

    app.state.encode_openapi = encode

    def openapi_document(request: Request) -> Response:
        body, compressed, etag = encode()
        headers = {"ETag": etag, "Cache-Control": STATIC_CACHE_CONTROL, "Vary": "Accept-Encoding"}
        if matches(request, etag):
            return Response(status_code=304, headers=headers)
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            # Already encoded: the gzip middleware passes an answer with Content-Encoding through.
            return Response(
                compressed, media_type="application/json", headers={**headers, "Content-Encoding": "gzip"}
            )
        return Response(body, media_type="application/json", headers=headers)

    # HEAD too, as FastAPI's own route answered it (RFC 9110 9.3.2).
    app.add_api_route(url, openapi_document, methods=["GET", "HEAD"], include_in_schema=False)
    light(app.router, url, "GET", "a document encoded once per process, then the same bytes")(
        openapi_document
    )
