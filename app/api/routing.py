"""The route classes of the service, through FastAPI's documented ``route_class`` extension (``APIRouter(
route_class=...)``, "Custom Request and APIRoute class" in FastAPI's guide): every route of the app is a
``BoundedBodyRoute``, and the routes that compute from a JSON body alone are ``ComputeRoute``\\s.

``BoundedBodyRoute`` adds what FastAPI lacks for a large body: FastAPI validates a body on the event loop
and builds every one of its errors (seconds, and hundreds of MB, for a 1 MB body of 340,000 mistakes).
A body over ``INLINE_BODY_BYTES`` is first validated in a worker thread within the compute budget, with
at most ``MAX_LISTED_ERRORS`` errors built (``app.api.validation``); an invalid one raises FastAPI's own
``RequestValidationError``, which the app's one handler renders, and a valid one goes on to FastAPI's
handler.

``ComputeRoute`` serves an endpoint ``async def f(request, body, session, settings) -> Response`` whose
work goes through ``app.api.compute.compute``. A profile of the served ``POST /v1/spells/cost`` put about
a third of the event loop's time in FastAPI's dependency solving and body handling around such an
endpoint (2.5-3.3x the endpoint's own share of CPU), so its handler does that work itself, the way
FastAPI's guide suggests for a route that takes ``Request``: the body parsed and validated in one pass
by pydantic's JSON parser (``TypeAdapter.validate_json``), failures raised as FastAPI's
``RequestValidationError`` with FastAPI's locations, and the endpoint called with the app's settings and
``OFFLINE_SESSION`` (``compute`` opens a read session only when the work runs in a worker thread). The
route is otherwise FastAPI's: matched by the router, documented from the endpoint's signature, its
answers through every middleware. It refuses, when the app is built, an endpoint or route with anything
else to solve (a router-level dependency, another parameter): such a thing would be silently skipped.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Coroutine, Iterator
from typing import Annotated, Any, Final, get_args, get_origin, get_type_hints

from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.api.compute import OFFLINE_SESSION, run_bounded
from app.api.deps import settings_of
from app.api.validation import BoundedInvalid, loads_in_pieces, validate

INLINE_BODY_BYTES: Final = 64 * 1024
"""Bodies up to this size are parsed and validated on the event loop (a few ms at most); larger ones in a
worker thread within the compute budget."""

COMPUTE_PARAMETERS: Final = ("request", "body", "session", "settings")
"""The parameters of a ``ComputeRoute`` endpoint, all of which its handler provides."""


class BoundedBodyRoute(APIRoute):
    """A FastAPI route whose large JSON body is validated in a worker thread, errors bounded, before
    FastAPI's handler sees it (see the module)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        adapter = json_body_adapter(self)
        if adapter is None:
            return handler

        async def bounded(request: Request) -> Response:
            body = await request.body()  # kept by the request: FastAPI's handler reads it from there
            if len(body) > INLINE_BODY_BYTES:
                await run_bounded(lambda: validated_as_fastapi(adapter, body), request)
            return await handler(request)

        return bounded


class ComputeRoute(APIRoute):
    """A route whose endpoint computes from its JSON body alone (see the module)."""

    _handler: Callable[[Request], Coroutine[Any, Any, Response]]

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if kwargs.get("max_body_size") is not None:  # FastAPI applies it around the app replaced below
            raise TypeError(f"ComputeRoute {path!r}: max_body_size is not served (app.api.limits bounds it)")
        super().__init__(path, endpoint, **kwargs)
        # Served as Starlette serves an endpoint that is an ASGI app (``Route``'s ``self.app``): FastAPI's
        # wrapper adds the exit stacks of dependencies with ``yield`` and of uploaded files, and this
        # route has neither. Starlette's ``request_response`` would add a lookup of the app's exception
        # handlers and a ``send`` wrapper around each answer; ``ExceptionMiddleware``, one layer out,
        # renders what the handler raises with those same handlers (tests/api/test_routing.py compares
        # every answer with FastAPI's own handler's). The handler is the one APIRoute.__init__ had built.
        self.app = self._serve

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = await self._handler(Request(scope, receive, send))
        await response(scope, receive, send)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        # Called by APIRoute.__init__ once the endpoint's dependencies are read.
        parameters = tuple(inspect.signature(self.endpoint).parameters)
        if parameters != COMPUTE_PARAMETERS or self.dependencies:
            raise TypeError(
                f"ComputeRoute {self.path!r} serves endpoints of exactly {COMPUTE_PARAMETERS} and no route"
                f" dependencies; {self.endpoint.__qualname__} has {parameters} and"
                f" {len(self.dependencies)} dependencies: use BoundedBodyRoute"
            )
        self._handler = self._compute_handler()
        return self._handler

    def _compute_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        adapter = json_body_adapter(self)
        if adapter is None:
            raise TypeError(f"ComputeRoute {self.path!r}: the endpoint's body is not one JSON body parameter")
        endpoint = self.endpoint

        async def compute_handler(request: Request) -> Response:
            body = await request.body()
            if len(body) <= INLINE_BODY_BYTES:
                model = validated(adapter, body)
            else:
                model = await run_bounded(lambda: validated(adapter, body), request)
            settings = settings_of(request.app)
            response: Response = await endpoint(
                request=request, body=model, session=OFFLINE_SESSION, settings=settings
            )
            return response

        return compute_handler


def add_first(app: FastAPI, router: APIRouter) -> None:
    """``router``'s routes added to the app's own table (the app router's ``add_api_route``), where they
    are matched before anything the app includes, each with all it was declared with.

    FastAPI keeps an included router as one entry that, for every request it is asked about, recomputes its
    routers' version and matches its routes twice (once to say it matches, once to choose): 20 us of a
    ``spells/cost`` on the compute routers (``bench/pipeline.py``). ``include_router`` copied routes this way
    before FastAPI 0.16x."""
    for route in router.routes:
        if not isinstance(route, APIRoute):
            raise TypeError(f"add_first takes routers of FastAPI routes, not {route!r}")
        app.router.add_api_route(
            route.path,
            route.endpoint,
            methods=sorted(route.methods or ()),
            response_model=route.response_model,
            status_code=route.status_code,
            tags=route.tags,
            summary=route.summary,
            description=route.description,
            response_description=route.response_description,
            responses=route.responses,
            deprecated=route.deprecated,
            name=route.name,
            include_in_schema=route.include_in_schema,
            openapi_extra=route.openapi_extra,
            response_class=route.response_class,
            route_class_override=type(route),
        )


def routers_within(router: APIRouter) -> Iterator[APIRouter]:
    """``router`` and every router it includes, at any depth (FastAPI keeps an included router as an
    entry of its table holding it as ``original_router``)."""
    yield router
    for route in router.routes:
        inner = getattr(route, "original_router", None)
        if isinstance(inner, APIRouter):
            yield from routers_within(inner)


def all_routes(router: APIRouter) -> Iterator[APIRoute]:
    """Every FastAPI route that ``router`` serves, its included routers' included."""
    for owner in routers_within(router):
        yield from (route for route in owner.routes if isinstance(route, APIRoute))


def json_body_adapter(route: APIRoute) -> TypeAdapter[Any] | None:
    """The validator of ``route``'s one JSON body parameter, as FastAPI validates it; None without one."""
    if len(route.dependant.body_params) != 1:
        return None
    field = route.dependant.body_params[0]
    if getattr(field.field_info, "embed", False):
        return None
    hints = get_type_hints(route.endpoint, include_extras=True)
    annotation = hints.get(field.name)
    if annotation is None:
        return None
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return TypeAdapter(annotation)


def validated(adapter: TypeAdapter[Any], body: bytes) -> Any:
    """The body as FastAPI reads a JSON body parameter: the same value, the same errors located under
    ``body``.

    A valid body is parsed and validated in one pass by pydantic's own JSON parser (a third faster than
    ``json.loads`` then validation), with the same value, as bodies were already checked for what the
    two parsers read differently (NUL, lone surrogates, non-finite numbers: ``app.api.limits``). A failure
    is read again the way FastAPI reads it, so that the errors are FastAPI's to the letter."""
    if body and len(body) <= INLINE_BODY_BYTES:
        try:
            return adapter.validate_json(body)
        except ValidationError:
            pass
    # A large body is validated in pieces (app.api.validation): validate_json is one GIL-holding call,
    # most of a second for a body of 340,000 errors.
    return validated_as_fastapi(adapter, body)


def validated_as_fastapi(adapter: TypeAdapter[Any], body: bytes) -> Any:
    """``json.loads`` then validation, raising what FastAPI raises for the body: ``RequestValidationError``
    (at most ``MAX_LISTED_ERRORS`` errors built) or a 400 for a body it cannot parse."""
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
