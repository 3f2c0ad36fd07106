"""The OpenAPI document shaped for client generators (``shape_for_generators``): unique operationIds, the
headers and common problem answers of every operation, security per operation, one ``Color`` schema, a
typed ``oneOf`` batch item, open enumerations in answers, request defaults in words, recorded response
examples. ``app.api.docs`` builds the document and runs this on it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.errors import PROBLEM_MEDIA_TYPE

PROBLEM_REF = "#/components/schemas/Problem"


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
    _typed_maps(schemas)
    _stored_answers(schema)
    _request_defaults_in_words(schema)
    _response_examples(schema)


OPEN_NOTE = (
    " Open enumeration: the values listed are those of this version; later versions may add others,"
    " which a client must accept."
)


SYMBOL_KIND_DESCRIPTION = "The kind of a mana symbol (CR 107.4)."


def _open(enum_schema: dict[str, Any], description: str) -> dict[str, Any]:
    """The enumeration as open. Its description is given, never read from the enum: pydantic takes an enum's
    docstring, and a class compiled with mypyc has a filler one that would reach the document."""
    closed = {k: v for k, v in enum_schema.items() if k not in ("description", "title")}
    out: dict[str, Any] = {"anyOf": [closed, {"type": "string"}]}
    out["description"] = (description + OPEN_NOTE).strip()
    if "title" in enum_schema:
        out["title"] = enum_schema["title"]
    return out


def _open_enums(schemas: dict[str, Any]) -> None:
    """Enumerations in answers that may grow (symbol kinds, cost step kinds) are documented as open, so
    generated clients accept a value they do not know yet. Enumerations in requests stay closed: the
    server rejects values it does not know."""
    if "SymbolKind" in schemas and "enum" in schemas["SymbolKind"]:
        schemas["SymbolKind"] = _open(schemas["SymbolKind"], SYMBOL_KIND_DESCRIPTION)
    step = schemas.get("CostStepOut", {}).get("properties", {})
    if "enum" in step.get("kind", {}):
        step["kind"] = _open(step["kind"], step["kind"].get("description") or "")


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


def _reached(schemas: dict[str, Any], todo: set[str]) -> set[str]:
    """``todo`` and every component schema they reference, directly or through others."""
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen or name not in schemas:
            continue
        seen.add(name)
        todo |= _refs(schemas[name], set()) - seen
    return seen


def _typed_maps(node: Any) -> None:
    """A map keyed by a pattern (players by name, counters by kind) is written with ``additionalProperties``
    for its values and ``propertyNames`` for its keys, which say the same as pydantic's ``patternProperties``
    for one pattern: generators read ``additionalProperties`` and ignore ``patternProperties``, so they typed
    the values ``unknown``."""
    if isinstance(node, dict):
        pattern = node.get("patternProperties")
        if isinstance(pattern, dict) and len(pattern) == 1 and "additionalProperties" not in node:
            ((key_pattern, values),) = pattern.items()
            del node["patternProperties"]
            node["propertyNames"] = {"pattern": key_pattern, **node.get("propertyNames", {})}
            node["additionalProperties"] = values
        for value in node.values():
            _typed_maps(value)
    elif isinstance(node, list):
        for value in node:
            _typed_maps(value)


def _stored_name(name: str) -> str:
    return "Stored" + name.removesuffix("In")


def _renamed(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            target = ref.rsplit("/", 1)[1]
            if target in names:
                node = {**node, "$ref": "#/components/schemas/" + names[target]}
        return {k: _renamed(v, names) if k != "$ref" else v for k, v in node.items()}
    if isinstance(node, list):
        return [_renamed(v, names) for v in node]
    return node


def _stored_answers(schema: dict[str, Any]) -> None:
    """A request schema that an answer carries back (a stored scenario's board, its permanents and
    players) gets a copy of its own for answers, ``StoredBoard`` beside ``BoardIn``: the server sends every
    field of a stored board, so each is required in the copy, while the request's stay optional. Without it
    a generated client typed ``scenario.board.permanents`` as possibly undefined."""
    schemas = schema["components"]["schemas"]
    answered: set[str] = set()
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                _refs(operation.get("responses", {}), answered)
    requested = request_schemas(schema)
    reached = _reached(schemas, answered)
    shared = {n for n in reached & requested if "properties" in schemas[n]}
    names = {name: _stored_name(name) for name in sorted(shared)}
    for name, stored in names.items():
        copy = _renamed(json.loads(json.dumps(schemas[name])), names)  # a JSON schema, copied as JSON
        copy["required"] = list(copy["properties"])
        copy["title"] = stored
        schemas[stored] = copy
    for name in sorted(reached - requested):
        schemas[name] = _renamed(schemas[name], names)
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"] = _renamed(operation["responses"], names)


def request_schemas(schema: dict[str, Any]) -> set[str]:
    """Every component schema a request body reaches (directly or through other schemas)."""
    schemas = schema["components"]["schemas"]
    todo: set[str] = set()
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                _refs(operation.get("requestBody", {}), todo)
    return _reached(schemas, todo)


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
