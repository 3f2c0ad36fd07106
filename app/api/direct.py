"""The direct lane: compute routes answered from memory without FastAPI's routing and dependency solving.

A profile of ``POST /v1/spells/cost`` put about a third of the event loop's time in FastAPI
around the endpoint: route matching scanned the included routers one regex at a time, solving the
session and settings dependencies took as much, plus the exception, exit-stack and routing layers. The
catalogue is in memory (``app.services.card_index``), so the usual request needs neither the database
nor a session.

A route marked ``@direct(router, path)`` is still an ordinary FastAPI route (documented, and served by
FastAPI when the lane steps aside). ``ServiceMiddleware`` hands each ``POST`` to a marked path, body
read and checked, to ``serve``: the body is parsed and validated as FastAPI would (same errors), the
endpoint runs with the offline session (``app.api.compute.OFFLINE_SESSION``) and the app's settings, and
any exception goes to the app's exception handlers (the same problem+json answers). When the work needs
the database or overruns the inline slice, ``compute`` raises ``Fallback`` and the request goes through
FastAPI, with its session, to a worker thread within the compute budget (the inline attempt is not
repeated).

A ``GET`` route marked ``@direct_read(router, path, pattern)`` is served the same way from its path match
(``serve_read``): its reader answers, or returns None to let FastAPI serve the request (a key not yet in
the key cache, a header FastAPI would refuse). Route matching and dependency solving were about
half of a scenario read's event-loop time.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.api.compute import NOT_ON_THE_LOOP, OFFLINE_SESSION, Fallback, run_bounded
from app.api.deps import settings_of
from app.api.encoding import encode
from app.api.validation import BoundedInvalid, loads_in_pieces, validate

Endpoint = Callable[..., Awaitable[Response]]

INLINE_BODY_BYTES = 64 * 1024
"""Bodies up to this size are parsed and validated on the event loop; larger
ones in a worker thread within the compute budget: a 1 MB body of 340,000 invalid items built its errors
on the event loop for seconds."""


@dataclass(frozen=True, slots=True)
class _RouteTemplate:
    """What ``scope["route"]`` holds for a direct answer (the metrics read ``path_format``)."""

    path: str
    path_format: str


@dataclass(frozen=True, slots=True)
class DirectRoute:
    path: str
    endpoint: Endpoint
    body: TypeAdapter[Any]
    template: _RouteTemplate


ROUTES: dict[str, DirectRoute] = {}
"""Marked ``POST`` paths (filled when the route modules are imported); ``create_app`` hands them to the
middleware."""


Reader = Callable[[Scope, "re.Match[str]"], Awaitable[Response | None]]


@dataclass(frozen=True, slots=True)
class DirectRead:
    pattern: re.Pattern[str]
    reader: Reader
    template: _RouteTemplate


READS: list[DirectRead] = []
"""Marked ``GET`` paths, each with the reader that answers it from the path's match (filled when the route
modules are imported); ``create_app`` hands them to the middleware."""


def direct_read(router: APIRouter, path: str, pattern: str, reader: Reader) -> Callable[[Any], Any]:
    """Mark a ``GET`` route whose answer ``reader(scope, match)`` gives (None: FastAPI serves it);
    ``pattern`` matches the whole path after the router's prefix. Put it under ``@router.get``."""

    def mark(endpoint: Any) -> Any:
        full = router.prefix + path
        READS.append(
            DirectRead(re.compile(re.escape(router.prefix) + pattern), reader, _RouteTemplate(full, full))
        )
        return endpoint

    return mark


def direct(router: APIRouter, path: str, body: type[BaseModel]) -> Callable[[Endpoint], Endpoint]:
    """Mark a ``POST`` endpoint ``async def f(body, session, settings) -> Response`` whose work runs through
    ``app.api.compute.compute`` for the direct lane. Put it under the ``@router.post`` decorator."""

    def mark(endpoint: Endpoint) -> Endpoint:
        full = router.prefix + path
        ROUTES[full] = DirectRoute(full, endpoint, TypeAdapter(body), _RouteTemplate(full, full))
        return endpoint

    return mark


async def serve(route: DirectRoute, scope: Scope, receive: Receive, send: Send, body: bytes) -> bool:
    """Answer the request; False (nothing sent) when it must go through FastAPI instead: a body with card
    text of its own goes there before any work, to run in a worker thread (``NOT_ON_THE_LOOP``)."""
    if scope.get(NOT_ON_THE_LOOP):
        return False
    scope["route"] = route.template
    scope["endpoint"] = route.endpoint
    try:
        if len(body) <= INLINE_BODY_BYTES:
            model = _validated(route.body, body)
        else:
            model = await run_bounded(lambda: _validated(route.body, body))
        app = scope["app"]
        response = await route.endpoint(body=model, session=OFFLINE_SESSION, settings=settings_of(app))
    except Fallback:
        del scope["route"], scope["endpoint"]
        return False
    except Exception as exc:
        response = await _handled(scope, receive, exc)
    await encode(response, scope)(scope, receive, send)
    return True


async def refuse_invalid(
    adapter: TypeAdapter[Any], scope: Scope, receive: Receive, send: Send, body: bytes
) -> bool:
    """Validate a large body of a route FastAPI serves, in a worker thread within the compute budget, and
    answer its 422 (at most 100 errors built, ``app.api.validation``); False (nothing sent) when it is
    valid and FastAPI must serve it. FastAPI built all the errors of a body on the event
    loop, for seconds."""
    try:
        # Straight to json.loads and validate_python: validate_json first would, for a body with many
        # errors, validate it twice.
        await run_bounded(lambda: _validated_as_fastapi(adapter, body))
    except Exception as exc:
        response = await _handled(scope, receive, exc)
        await encode(response, scope)(scope, receive, send)
        return True
    return False


async def serve_read(reads: Sequence[DirectRead], scope: Scope, receive: Receive, send: Send) -> bool:
    """Answer a ``GET`` on a path of ``reads``; False (nothing sent) when FastAPI must serve it."""
    path: str = scope["path"]
    for read in reads:
        match = read.pattern.fullmatch(path)
        if match is None:
            continue
        scope["route"] = read.template
        try:
            response = await read.reader(scope, match)
        except Exception as exc:
            response = await _handled(scope, receive, exc)
        if response is None:
            del scope["route"]
            return False
        await encode(response, scope)(scope, receive, send)
        return True
    return False


async def _handled(scope: Scope, receive: Receive, exc: Exception) -> Response:
    """The app's answer to ``exc``, as its exception handlers give it (re-raised when none handles it)."""
    handler = _handler_for(scope["app"], exc)
    if handler is None:
        raise exc
    request = Request(scope, receive)
    if inspect.iscoroutinefunction(handler):
        return await handler(request, exc)  # type: ignore[no-any-return]
    return await run_in_threadpool(handler, request, exc)  # type: ignore[no-any-return,unused-ignore]


def _validated(adapter: TypeAdapter[Any], body: bytes) -> Any:
    """The body as FastAPI reads a JSON body parameter: the same errors, located under ``body``.

    A valid body is parsed and validated in one pass by pydantic's own JSON parser (a third faster than
    ``json.loads`` then validation); the same value, as the bodies were already checked for
    what the two parsers read differently (NUL, lone surrogates, non-finite numbers: ``app.api.limits``).
    Any failure is read again the way FastAPI reads it, so that errors are FastAPI's to the letter."""
    if body and len(body) <= INLINE_BODY_BYTES:
        try:
            return adapter.validate_json(body)
        except ValidationError:
            pass
    # A large body is validated in pieces (app.api.validation): validate_json is one GIL-holding call,
    # most of a second for a body of 340,000 errors.
    return _validated_as_fastapi(adapter, body)


def _validated_as_fastapi(adapter: TypeAdapter[Any], body: bytes) -> Any:
    if not body:
        raise RequestValidationError(
            [{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}]
        )
    try:
        value = loads_in_pieces(body)
    except json.JSONDecodeError as e:
        raise RequestValidationError(
            [
                {
                    "type": "json_invalid",
                    "loc": ("body", e.pos),
                    "msg": "JSON decode error",
                    "input": {},
                    "ctx": {"error": e.msg},
                }
            ],
            body=e.doc,
        ) from e
    except Exception as e:  # e.g. a number of more than 4,300 digits
        raise HTTPException(status_code=400, detail="There was an error parsing the body") from e
    try:
        return validate(adapter, value)
    except BoundedInvalid as exc:
        errors = [{**err, "loc": ("body", *err["loc"])} for err in exc.errors]
        raise RequestValidationError(errors, body=value) from None


def _handler_for(app: Any, exc: Exception) -> Callable[..., Any] | None:
    """The handler Starlette's ``ExceptionMiddleware`` would pick (by status for an HTTPException, else by
    class); none for ``Exception`` itself, which ``ServiceMiddleware`` turns into a 500 problem."""
    handlers: dict[Any, Callable[..., Any]] = getattr(app, "exception_handlers", {})
    if isinstance(exc, HTTPException) and exc.status_code in handlers:
        return handlers[exc.status_code]
    for cls in type(exc).__mro__:
        if cls is Exception:
            return None
        if cls in handlers:
            return handlers[cls]
    return None
