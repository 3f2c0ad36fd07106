"""Pydantic's validation errors rendered as one problem (``validation_problem``).

A request's mistakes become one answer: a bad cost anywhere is ``malformed-cost``, a bad choice
``invalid-choice``, invalid JSON ``bad-request``, anything else ``validation-error``; its ``errors`` list
the first ``MAX_LISTED_ERRORS`` of them, each with its location, and ``error_count`` counts them all.
Like ``app.errors``, whose error tree it renders into, this module sits below every layer.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from app.errors import (
    MAX_ECHO,
    MAX_LISTED_ERRORS,
    TRUNCATED_ERRORS_TYPE,
    AppError,
    BadRequest,
    InputError,
    InvalidChoice,
    MalformedCost,
    cost_error_item,
)
from app.rules.errors import InvalidChoiceError, ManaCostSyntaxError

SHOWN_IN_DETAIL = 5
"""The errors the ``detail`` sentence names; the rest are counted."""


def validation_problem(errors: Sequence[Mapping[str, Any]]) -> AppError:
    """Pydantic errors as one problem: a bad cost anywhere is ``malformed-cost``, a bad choice
    ``invalid-choice``, invalid JSON ``bad-request``; otherwise ``validation-error``."""
    errors, total = _counted(errors)
    items: list[dict[str, Any]] = []
    kind: type[AppError] = InputError
    for err in errors[:MAX_LISTED_ERRORS]:
        item, asks = _item(err)
        items.append(item)
        kind = _kind(kind, asks)
    if kind is BadRequest:
        items = [i for i in items if i["type"] == "json_invalid"]
        return BadRequest(items[0]["msg"], errors=items, extra={"error_count": len(items)})
    return kind(_detail(kind, items, total), errors=items, extra={"error_count": total})


def _counted(errors: Sequence[Mapping[str, Any]]) -> tuple[Sequence[Mapping[str, Any]], int]:
    """The errors built and how many there were: when only some were built (``app.api.validation``),
    the last item counts them all."""
    total = len(errors)
    if errors and errors[-1].get("type") == TRUNCATED_ERRORS_TYPE:
        return errors[:-1], int((errors[-1].get("ctx") or {}).get("error_count", total - 1))
    return errors, total


def _item(err: Mapping[str, Any]) -> tuple[dict[str, Any], type[AppError]]:
    """One pydantic error as an ``errors`` item, and the problem type it asks the answer to be."""
    loc = [p if isinstance(p, int) else str(p) for p in err.get("loc", ())]
    cause = (err.get("ctx") or {}).get("error")
    if isinstance(cause, ManaCostSyntaxError):
        return cost_error_item(cause, loc), MalformedCost
    if isinstance(cause, InvalidChoiceError):
        return {"loc": loc, "msg": str(cause), "type": "invalid_choice"}, InvalidChoice
    if err.get("type") == "json_invalid":
        msg = f"Invalid JSON: {cause}" if cause else "Invalid JSON"
        return {"loc": loc, "msg": msg, "type": "json_invalid"}, BadRequest
    item: dict[str, Any] = {"loc": loc, "msg": str(err.get("msg", "")), "type": str(err.get("type", ""))}
    if "input" in err and err.get("type") != "missing":
        short = _short(err["input"])
        if short is not None or err["input"] is None:
            item["input"] = short
    return item, InputError


def _kind(current: type[AppError], asks: type[AppError]) -> type[AppError]:
    """The answer's type once an item asking for ``asks`` is read: a bad cost or invalid JSON wins (the
    last one read), a bad choice wins over a plain validation error only."""
    if asks is InvalidChoice:
        return asks if current is InputError else current
    return current if asks is InputError else asks


def _detail(kind: type[AppError], items: list[dict[str, Any]], total: int) -> str:
    """The ``detail`` sentence: the first bad cost, or the first few errors and how many there are."""
    if kind is MalformedCost:
        first = next(i for i in items if i["type"] == "malformed_cost")
        return (
            f"Malformed mana cost at {_dotted(first['loc'])}: symbol {first['symbol']!r} "
            f"at position {first['position']}"
        )
    shown = "; ".join(f"{_dotted(i['loc'])}: {i['msg']}" for i in items[:SHOWN_IN_DETAIL])
    more = f" (and {total - SHOWN_IN_DETAIL} more)" if total > SHOWN_IN_DETAIL else ""
    left_out = total - len(items)
    listed = f"; `errors` lists {len(items)} of them, {left_out} left out" if left_out > 0 else ""
    return f"{total} invalid value{'s' if total != 1 else ''}: {shown}{more}{listed}"


def _short(value: Any) -> Any:
    """Client input echoed back only when small and scalar (never a huge body)."""
    if isinstance(value, str):
        return value if len(value) <= MAX_ECHO else value[:MAX_ECHO] + "…"
    if isinstance(value, float) and not math.isfinite(value):
        return None  # JSON cannot hold it (an overflowing 1e999 was a 500 here)
    if value is None or isinstance(value, bool | int | float):
        return value
    return None


def _dotted(loc: Sequence[str | int]) -> str:
    return ".".join(str(p) for p in loc) or "request"
