"""The docs explorer (Swagger UI 5 and ReDoc, served from the ``fastapi-offline`` package: no request to
any other host) and the OpenAPI document, in which every error response is described as problem+json.

Routes list their errors with ``responses=problem_responses(UnknownCard, MalformedCost)``.
"""

from __future__ import annotations

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
PROBLEM_REF = "#/components/schemas/Problem"

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


COMMON_PROBLEMS: dict[str, str] = {
    "400": "Malformed request: bad JSON, NUL characters, a bad cursor (`/problems/bad-request`)",
    "413": "The body is larger than the server accepts (`/problems/too-large`)",
    "415": "The body is not `application/json` (`/problems/unsupported-media-type`)",
    "422": "Invalid input (`/problems/validation-error` or a more specific type)",
    "408": "The body did not arrive in time (`/problems/request-timeout`)",
    "429": "Too many requests from this client: wait `Retry-After` seconds (`/problems/rate-limited`)",
    "503": "Overloaded, or the database is not reachable: retry after `Retry-After` seconds"
    " (`/problems/service-unavailable`)",
}
"""Answers any operation may give (body guard, rate limiter, overload), documented on every operation."""

HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "description": "The request's id (the client's `X-Request-ID` when it sent a sane one);"
        " also in the logs.",
        "schema": {"type": "string"},
    },
    "ETag": {
        "description": 'The scenario\'s version tag (`"<id>-v<version>"`): send it back as `If-Match`.',
        "schema": {"type": "string"},
    },
    "Location": {"description": "The new scenario's URL.", "schema": {"type": "string"}},
    "Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}},
    "RateLimit-Policy": {
        "description": 'The rate limit (IETF httpapi draft): `"default";q=<burst>;w=<seconds to refill>`.',
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": 'What is left of the limit: `"default";r=<requests>;t=<seconds until full>`.',
        "schema": {"type": "string"},
    },
    "Link": {
        "description": 'The next page (RFC 8288): `</path?...&cursor=...>; rel="next"`, when `has_more`.',
        "schema": {"type": "string"},
    },
}

COLOR_ENUM = ["W", "U", "B", "R", "G"]
VEGA_LITE_SPEC: dict[str, Any] = {
    "type": "object",
    "title": "VegaLiteSpec",
    "description": "A Vega-Lite v5 specification (https://vega.github.io/schema/vega-lite/v5.json) of the"
    " deck chart, its data inline: the curve and the castability of each spell side by side.",
    "properties": {
        "$schema": {"type": "string", "description": "The Vega-Lite schema this specification follows."},
        "title": {"type": "string", "description": "The chart's title (cards and lands of the deck)."},
        "usermeta": {
            "type": "object",
            "description": "Vega-Lite's free metadata: the answer's dates, as every computing answer gives.",
            "properties": {
                "rules_edition": {"type": "string", "description": "The Comprehensive Rules followed."},
                "data_version": {"type": "string", "description": "When the card catalogue was imported."},
            },
            "required": ["rules_edition", "data_version"],
        },
        "hconcat": {
            "type": "array",
            "description": "The two views, left to right: the curve, then the castability table.",
            "items": {
                "type": "object",
                "description": "A Vega-Lite unit view (`title`, `data.values`, `mark`, `encoding`), as"
                " Vega-Lite's own schema defines it.",
                "additionalProperties": True,
            },
        },
    },
    "required": ["$schema", "title", "usermeta", "hconcat"],
}
CARD_REF = {
    "type": "object",
    "description": "A card named in a problem: its name and Oracle id.",
    "properties": {
        "name": {"type": "string", "description": "The card's name."},
        "oracle_id": {"type": "string", "description": "The card's Oracle id."},
    },
    "required": ["name"],
}


def shape_for_generators(schema: dict[str, Any]) -> None:
    """Make the document generator-friendly: unique operationIds, documented headers and common problem
    answers, security per operation, one ``Color`` schema, a typed ``oneOf`` batch item, typed problem
    extensions, a ``servers`` entry. Runs on every build, so later endpoints get the same treatment."""
    schema["servers"] = [{"url": "/", "description": "This server (the address the document was read from)."}]
    components = schema["components"]
    schemas = components["schemas"]
    seen: dict[str, int] = {}
    for path_item in schema.get("paths", {}).values():
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            op_id = operation.get("operationId", "")
            if op_id in seen:  # one function on two methods (GET and HEAD): make the second unique
                operation["operationId"] = op_id + method.capitalize()
            seen[operation.get("operationId", "")] = 1
            _shape_operation(operation)
    schemas["Color"] = {
        "type": "string",
        "enum": COLOR_ENUM,
        "description": "A color (CR 105.1): W white, U blue, B black, R red, G green.",
    }
    _share_color(schemas)
    problem = schemas.get("Problem")
    if problem is not None:
        schemas["CardRef"] = CARD_REF
        props = problem.setdefault("properties", {})
        props.setdefault(
            "candidates",
            {
                "type": "array",
                "items": {"$ref": "#/components/schemas/CardRef"},
                "description": "With `/problems/ambiguous-card`: the cards the name could mean.",
            },
        )
        props.setdefault(
            "suggestions",
            {
                "type": "array",
                "items": {"$ref": "#/components/schemas/CardRef"},
                "description": "With `/problems/unknown-card`: close names that do exist.",
            },
        )
    _typed_batch_item(schemas)
    _open_enums(schemas)
    schemas["VegaLiteSpec"] = VEGA_LITE_SPEC
    _request_defaults_in_words(schema)
    _response_examples(schema)


OPEN_NOTE = (
    " Open enumeration: the values listed are those of this version; later versions may add others,"
    " which a client must accept."
)


def _open(enum_schema: dict[str, Any]) -> dict[str, Any]:
    closed = {k: v for k, v in enum_schema.items() if k not in ("description", "title")}
    out: dict[str, Any] = {"anyOf": [closed, {"type": "string"}]}
    out["description"] = (enum_schema.get("description") or "").strip() + OPEN_NOTE
    if "title" in enum_schema:
        out["title"] = enum_schema["title"]
    return out


def _open_enums(schemas: dict[str, Any]) -> None:
    """Enumerations in answers that may grow (symbol kinds, cost step kinds) are documented as open, so
    generated clients accept a value they do not know yet. Enumerations in requests stay closed: the
    server rejects values it does not know."""
    if "SymbolKind" in schemas and "enum" in schemas["SymbolKind"]:
        schemas["SymbolKind"] = _open(schemas["SymbolKind"])
    step = schemas.get("CostStepOut", {}).get("properties", {})
    if "enum" in step.get("kind", {}):
        step["kind"] = _open(step["kind"])


def _shape_operation(operation: dict[str, Any]) -> None:
    responses: dict[str, Any] = operation["responses"]
    scenario = "scenarios" in operation.get("tags", [])
    if scenario:
        operation.setdefault("security", [{"ApiKey": []}])
    else:
        operation["security"] = []
    for status, description in COMMON_PROBLEMS.items():
        responses.setdefault(
            status,
            {"description": description, "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": PROBLEM_REF}}}},
        )
    limited = operation.get("tags", [""])[0] not in ("health", "problems")
    paged = any(p.get("name") == "cursor" for p in operation.get("parameters", []))
    for status, response in responses.items():
        headers = response.setdefault("headers", {})
        headers["X-Request-ID"] = HEADERS["X-Request-ID"]
        if limited:  # the limiter runs first: every answer of a limited path carries them
            headers["RateLimit"] = HEADERS["RateLimit"]
            headers["RateLimit-Policy"] = HEADERS["RateLimit-Policy"]
        if paged and status == "200":
            headers["Link"] = HEADERS["Link"]
        if status in ("429", "503"):
            headers["Retry-After"] = HEADERS["Retry-After"]
        if scenario and status in ("200", "201"):
            headers["ETag"] = HEADERS["ETag"]
        if status == "201":
            headers["Location"] = HEADERS["Location"]
    if "428" in responses:
        for parameter in operation.get("parameters", []):
            if parameter.get("in") == "header" and parameter.get("name") == "If-Match":
                parameter["required"] = True
                parameter["schema"] = {"type": "string", "maxLength": 2000}


def _refs(node: Any, out: set[str]) -> set[str]:
    """The component schema names ``node`` references, directly."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/components/schemas/"):
                out.add(value.rsplit("/", 1)[1])
            else:
                _refs(value, out)
    elif isinstance(node, list):
        for value in node:
            _refs(value, out)
    return out


def request_schemas(schema: dict[str, Any]) -> set[str]:
    """Every component schema a request body reaches (directly or through other schemas)."""
    schemas = schema["components"]["schemas"]
    todo: set[str] = set()
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                _refs(operation.get("requestBody", {}), todo)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo |= _refs(schemas[name], set()) - seen
    return seen


def _request_defaults_in_words(schema: dict[str, Any]) -> None:
    """A request field with a default is optional: its ``default`` moves into its description.

    Why: openapi-typescript (default options) types every component property that has a ``default`` as
    required, which is right for answers (the server always sends the field) and wrong for requests (the
    client may leave it out): with defaults kept, a TypeScript client had to send every defaulted field. A
    schema reached by requests and answers (a stored scenario's board) is read as a request's."""
    schemas = schema["components"]["schemas"]
    for name in sorted(request_schemas(schema)):
        for prop in schemas[name].get("properties", {}).values():
            if "default" not in prop:
                continue
            default = prop.pop("default")
            words = f"Default: `{json.dumps(default, ensure_ascii=False)}`."
            text = (prop.get("description") or "").rstrip()
            prop["description"] = f"{text} {words}" if text else words


RESPONSE_EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "response_examples.json"
"""Each operation's answer to its first request example, recorded by ``tools/response_examples.py`` (and
checked against the service by ``tests/api/test_openapi_examples.py``)."""


def _response_examples(schema: dict[str, Any]) -> None:
    """A realistic response example on every operation's success answer: what the service answered to the
    operation's own request example, on the bundled catalogue."""
    if not RESPONSE_EXAMPLES.is_file():
        return
    recorded: dict[str, dict[str, Any]] = json.loads(RESPONSE_EXAMPLES.read_text(encoding="utf-8"))
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or operation.get("operationId") not in recorded:
                continue
            example = recorded[operation["operationId"]]
            media = (
                operation["responses"]
                .get(str(example["status"]), {})
                .get("content", {})
                .get(example["media_type"])
            )
            if media is not None and example["value"] is not None:
                media["examples"] = {
                    "answer": {
                        "summary": "The answer to the first request example, on the bundled catalogue",
                        "value": example["value"],
                    }
                }


def _share_color(node: Any) -> None:
    """Every inline copy of the W/U/B/R/G enum becomes a reference to ``Color``."""
    if isinstance(node, dict):
        for key, value in list(node.items()):
            if isinstance(value, dict) and value.get("enum") == COLOR_ENUM and key != "Color":
                node[key] = {"$ref": "#/components/schemas/Color"}
            else:
                _share_color(value)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            if isinstance(value, dict) and value.get("enum") == COLOR_ENUM:
                node[i] = {"$ref": "#/components/schemas/Color"}
            else:
                _share_color(value)


def _typed_batch_item(schemas: dict[str, Any]) -> None:
    """``SpellCostBatchItem`` is one of: a computed ``result`` or a ``problem``, never both."""
    if "SpellCostBatchItem" not in schemas or "SpellCostOut" not in schemas:
        return
    index = {"type": "integer", "description": "The spell's position in the request (from 0)."}
    schemas["SpellCostBatchResult"] = {
        "type": "object",
        "title": "SpellCostBatchResult",
        "description": "A spell whose cost was computed.",
        "properties": {
            "index": index,
            "result": {
                "$ref": "#/components/schemas/SpellCostOut",
                "description": "The spell's cost answer.",
            },
        },
        "required": ["index", "result"],
    }
    schemas["SpellCostBatchFailure"] = {
        "type": "object",
        "title": "SpellCostBatchFailure",
        "description": "A spell whose cost could not be computed: the problem+json it would have answered.",
        "properties": {
            "index": index,
            "problem": {"$ref": PROBLEM_REF, "description": "The problem the spell alone would answer."},
        },
        "required": ["index", "problem"],
    }
    schemas["SpellCostBatchItem"] = {
        "title": "SpellCostBatchItem",
        "description": "One spell of a batch: `result` or `problem`, never both.",
        "oneOf": [
            {"$ref": "#/components/schemas/SpellCostBatchResult"},
            {"$ref": "#/components/schemas/SpellCostBatchFailure"},
        ],
    }


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
    encoded: list[bytes] = []

    def openapi_document(request: Request) -> Response:
        if not encoded:  # built once, on first use (the app's start-up builds the document already)
            encoded.append(json.dumps(app.openapi(), ensure_ascii=False).encode())
        body = encoded[0]
        etag = etag_of(body)
        headers = {"ETag": etag, "Cache-Control": STATIC_CACHE_CONTROL}
        if matches(request, etag):
            return Response(status_code=304, headers=headers)
        return Response(body, media_type="application/json", headers=headers)

    # HEAD too, as FastAPI's own route answered it (RFC 9110 9.3.2).
    app.add_api_route(url, openapi_document, methods=["GET", "HEAD"], include_in_schema=False)
    light(app.router, url, "GET", "a document encoded once per process, then the same bytes")(
        openapi_document
    )
