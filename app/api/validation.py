"""Bounded validation errors: a body with 340,000 mistakes costs what one with 100 does.

Issue 27: pydantic finds every error of a body in one pass (tens of milliseconds for 1 MiB), but turning
them into Python dicts (``ValidationError.errors()``), then FastAPI relocating each under ``body``, then
listing them, took 1.3 to 1.7 s for 90,000 errors and 9 s for 340,000, all of it holding the event loop
(or the GIL) and hundreds of MB. A 422 lists at most ``MAX_LISTED_ERRORS`` of them (API.md 1.1), so
only that many are ever built:

- ``error_count()`` counts them all without building any;
- the first ones are found by validating a *pruned* copy of the input, its long lists cut to their first
  ``k`` items and its large objects to their first ``MAX_KEPT_KEYS`` keys, ``k`` doubling from 1 until
  the pruned copy has enough errors; each round validates a small input and builds few errors;
- only the errors the cut cannot have changed are kept: those at a node of the input none of whose
  descendants (nor itself) was cut. Pydantic validates a node from its own subtree, so such an error is
  an error of the whole body, as the whole body's validation reports it (a ``missing`` field of an
  object whose keys were cut, a ``too_short`` list, a board-level check of a cut board are not kept).

The answer then lists up to ``MAX_LISTED_ERRORS`` errors and a last item of type ``errors_truncated``
whose ``ctx.error_count`` is the true total; ``app.errors.validation_problem`` reads it.

Where: the direct lane validates its bodies itself (``app.api.direct``); for every other route taking a
JSON body, ``ServiceMiddleware`` validates a body over ``INLINE_BODY_BYTES`` first, in a worker thread
within the compute budget (``body_checks``, ``direct.refuse_invalid``), and answers its 422 there, so
FastAPI (which builds every error, on the event loop) only sees large bodies that are valid. What is
left is pydantic's own pass over the body, one C call that holds the GIL: about 0.3 s for 90,000 errors,
1 s for 340,000, on a busy two-core machine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.routing import BaseRoute

from app.errors import MAX_LISTED_ERRORS, TRUNCATED_ERRORS_TYPE

MAX_KEPT_KEYS = 64
"""An object of more keys is cut to this many when pruned (no request model has half as many fields)."""
MAX_BUILT_ERRORS = 4 * MAX_LISTED_ERRORS * 8
"""A pruned round with more errors than this is not built (``k`` doubles: at most 8 x per round for the
three levels of lists a request nests), and the errors found so far are listed."""
_MAX_ROUNDS = 16  # k up to 2**15 covers every list a body under its size limit can hold


def bounded_errors(adapter: TypeAdapter[Any], value: Any, exc: ValidationError) -> list[dict[str, Any]]:
    """``exc.errors()`` of ``adapter.validate_python(value)`` when there are at most
    ``MAX_LISTED_ERRORS``; else some of them (the first the pruned rounds find, at most that many) and an
    ``errors_truncated`` item counting them all. Without the URL, as FastAPI asks for them."""
    total = exc.error_count()
    if total <= MAX_LISTED_ERRORS:
        return [dict(err) for err in exc.errors(include_url=False)]
    found: list[dict[str, Any]] = []
    k = 1
    for _ in range(_MAX_ROUNDS):
        pruned, tainted = _pruned(value, k)
        try:
            adapter.validate_python(pruned, from_attributes=True)
        except ValidationError as round_exc:
            if round_exc.error_count() > MAX_BUILT_ERRORS:
                break
            found = [
                dict(err)
                for err in round_exc.errors(include_url=False)
                if not _touched(value, err["loc"], tainted)
            ]
            if len(found) >= MAX_LISTED_ERRORS:
                break
        if not tainted:
            break  # nothing was cut: that was the body itself
        k *= 2
    listed = found[:MAX_LISTED_ERRORS]
    truncated = {
        "type": TRUNCATED_ERRORS_TYPE,
        "loc": (),
        "msg": f"{total} errors in all; {len(listed)} listed",
        "input": None,
        "ctx": {"error_count": total},
    }
    return [*listed, truncated]


def _pruned(value: Any, k: int) -> tuple[Any, set[int]]:
    """A copy of ``value`` with lists cut to ``k`` items and objects to ``MAX_KEPT_KEYS`` keys, and the
    ids of the original containers that were cut or hold one that was."""
    tainted: set[int] = set()

    def prune(node: Any) -> Any:
        # Only what is kept is visited: a round costs the size of the pruned copy, not of the body.
        if isinstance(node, list):
            kept_items = node[:k] if len(node) > k else node
            items = [prune(item) for item in kept_items]
            if len(node) > k or any(id(item) in tainted for item in kept_items):
                tainted.add(id(node))
            return items
        if isinstance(node, dict):
            kept = list(islice(node.items(), MAX_KEPT_KEYS))
            copy = {key: prune(item) for key, item in kept}
            if len(node) > MAX_KEPT_KEYS or any(id(item) in tainted for _, item in kept):
                tainted.add(id(node))
            return copy
        return node

    return prune(value), tainted


def _touched(value: Any, loc: Sequence[int | str], tainted: set[int]) -> bool:
    """Whether the node an error's ``loc`` reaches in ``value`` was cut or holds a cut node. A part of
    ``loc`` that is no key or index of the node it is read at (a union member's tag, a missing field) is
    skipped: the error belongs to the node reached so far."""
    node = value
    for part in loc:
        if isinstance(node, dict):
            node = node.get(part, node) if isinstance(part, str) else node
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
    return id(node) in tainted


@dataclass(frozen=True, slots=True)
class BodyCheck:
    """A FastAPI route's JSON body, to validate before FastAPI does (``ServiceMiddleware``)."""

    methods: frozenset[str]
    pattern: re.Pattern[str]
    adapter: TypeAdapter[Any]


def body_checks(routes: Sequence[BaseRoute]) -> list[BodyCheck]:
    """The body of every route of ``routes`` (and of the routers they include) taking one JSON body
    parameter, validated as FastAPI validates it."""
    checks: list[BodyCheck] = []
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            checks.extend(body_checks(inner.routes))
        if isinstance(route, APIRoute) and len(route.dependant.body_params) == 1:
            field = route.dependant.body_params[0]
            annotation = field.field_info.annotation
            if annotation is not None and not getattr(field.field_info, "embed", False):
                adapter: TypeAdapter[Any] = TypeAdapter(annotation)
                checks.append(BodyCheck(frozenset(route.methods or ()), route.path_regex, adapter))
    return checks
