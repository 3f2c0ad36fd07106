"""Every operation of the committed OpenAPI document as a call a generated client makes: what the TypeScript
client tests (``tests/api/test_typescript_clients.py``) write out as a program for each generator.

Bodies and parameters are the document's own examples (the named request examples of ``app/api/examples.py``
and the parameters' ``examples``); the scenario operations run in an order that works (create, read, list,
choose, record, cost, replace with ``If-Match``, delete) on the scenario the first one creates.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DOCUMENT = REPO / "openapi" / "openapi.json"

SCENARIO_ORDER = (
    "scenarioCreate",
    "scenarioGet",
    "scenarioList",
    "scenarioChoiceSet",
    "scenarioPlayedAsAdd",
    "scenarioSpellCost",
    "scenarioReplace",
    "scenarioDelete",
)
"""The scenario operations in an order that works on one scenario; ``scenarioCreate`` sets ``scenarioId``."""

EXPRESSIONS = {"scenario_id": "scenarioId", "If-Match": "etag"}
"""Parameters whose value comes from an earlier answer: a TypeScript variable of the calling program."""

OPTIONAL_SKIPPED = {"If-None-Match", "Idempotency-Key", "cursor", "fuzzy"}
"""Optional parameters left out (a conditional read, a retry key, a page cursor, the other look-up)."""


@dataclass(frozen=True)
class Call:
    operation_id: str
    method: str
    path: str
    status: int
    text: bool
    """The success answer is not JSON (an SVG, Prometheus text): read it as text."""
    body: Any = None
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    """``{"path": {...}, "query": {...}, "header": {...}}``: JSON values, or ``Expr`` for a variable."""


@dataclass(frozen=True)
class Expr:
    """A TypeScript expression (a variable set by an earlier call)."""

    code: str


def _example(parameter: dict[str, Any]) -> Any:
    schema = parameter.get("schema", {})
    for holder in (parameter, schema):
        if "example" in holder:
            return holder["example"]
        examples = holder.get("examples")
        if isinstance(examples, list) and examples:
            return examples[0]
        if isinstance(examples, dict) and examples:
            return next(iter(examples.values()))["value"]
    raise LookupError(f"parameter {parameter['name']} has no example")


def calls(document: dict[str, Any] | None = None) -> list[Call]:
    """One call per operation of ``document`` (default: the committed one), scenario operations last."""
    document = document or json.loads(DOCUMENT.read_text(encoding="utf-8"))
    out: dict[str, Call] = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            status = min(int(s) for s in operation["responses"] if s.startswith("2"))
            media = list(operation["responses"][str(status)].get("content", {}))
            params: dict[str, dict[str, Any]] = {}
            for parameter in operation.get("parameters", []):
                name, where = parameter["name"], parameter["in"]
                if name in EXPRESSIONS:
                    value: Any = Expr(EXPRESSIONS[name])
                elif not parameter.get("required") and (name in OPTIONAL_SKIPPED or where == "header"):
                    continue
                else:
                    try:
                        value = _example(parameter)
                    except LookupError:
                        if parameter.get("required"):
                            raise
                        continue
                params.setdefault(where, {})[name] = value
            body = None
            content = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if content is not None:
                body = next(iter(content["examples"].values()))["value"]
            op_id = operation["operationId"]
            out[op_id] = Call(
                operation_id=op_id,
                method=method.upper(),
                path=path,
                status=status,
                text=bool(media) and not any(m.endswith("json") for m in media),
                body=body,
                params=params,
            )
    scenario = [out.pop(op) for op in SCENARIO_ORDER if op in out]
    return [*out.values(), *scenario]


def ts_value(value: Any) -> str:
    """``value`` as a TypeScript expression (JSON, or an ``Expr``'s code)."""
    if isinstance(value, Expr):
        return value.code
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)}: {ts_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(ts_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)
