"""What the service relies on inside its dependencies, beyond their documented API: each such hook is
listed in one place, and this test fails when the installed version lacks one (a renamed hook would
otherwise silently turn a protection off, as a uvicorn release could)."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from uvicorn.protocols.http import httptools_impl
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from app.api.http_server import CYCLE_ATTRIBUTES, OVERRIDES, USED_ATTRIBUTES, ManacalcHttpToolsProtocol

ROOT = Path(__file__).resolve().parents[1]

CALLBACKS_NOT_IN_UVICORN = {"on_chunk_header"}
"""Methods of our protocol that httptools calls and uvicorn's protocol does not define."""


@pytest.mark.parametrize(("name", "reason"), OVERRIDES, ids=[name for name, _ in OVERRIDES])
def test_every_overridden_hook_exists_in_the_installed_uvicorn(name: str, reason: str) -> None:
    assert reason
    hook = getattr(HttpToolsProtocol, name, None)
    assert callable(hook), f"uvicorn {uvicorn.__version__}'s HttpToolsProtocol has no {name}: {reason}"
    ours = getattr(ManacalcHttpToolsProtocol, name)
    assert ours is not hook, f"{name} is listed in OVERRIDES but not overridden"
    if name != "__init__":  # same arguments, so uvicorn's callers still reach ours
        assert list(inspect.signature(ours).parameters) == list(inspect.signature(hook).parameters), name


def test_every_override_is_listed_with_its_reason() -> None:
    listed = {name for name, _ in OVERRIDES}
    overridden = {
        name
        for name, value in vars(ManacalcHttpToolsProtocol).items()
        if callable(value) and hasattr(HttpToolsProtocol, name)
    }
    assert overridden == listed
    ours = {name for name, value in vars(ManacalcHttpToolsProtocol).items() if callable(value)}
    assert ours >= CALLBACKS_NOT_IN_UVICORN
    assert not any(hasattr(HttpToolsProtocol, name) for name in CALLBACKS_NOT_IN_UVICORN)


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written = b""

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 8000) if name in ("sockname", "peername") else default

    def write(self, data: Any) -> None:
        self.written += bytes(data)

    def is_closing(self) -> bool:
        return False

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


async def _app(scope: Any, receive: Any, send: Any) -> None:
    await send({"type": "http.response.start", "status": 204, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def test_the_attributes_our_protocol_reads_exist_in_the_installed_uvicorn() -> None:
    """uvicorn's own protocol, fed a request: every attribute of it and of its request cycle that
    ``app.api.http_server`` and ``app.api.corked_writes`` read or replace is there."""
    seen: dict[str, Any] = {}

    async def drive() -> None:
        config = uvicorn.Config(_app, log_config=None, lifespan="off")
        protocol = HttpToolsProtocol(config, ServerState(), {}, asyncio.get_running_loop())
        protocol.connection_made(_Transport())
        cycles: list[Any] = []
        start = protocol._start_asgi_task

        def capture(cycle: Any, app: Any) -> None:
            cycles.append(cycle)
            start(cycle, app)

        protocol._start_asgi_task = capture  # type: ignore[method-assign]
        protocol.data_received(b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nab")
        seen["protocol"] = protocol
        seen["cycle"] = cycles[0]
        seen["missing"] = [name for name in USED_ATTRIBUTES if not hasattr(protocol, name)]
        seen["missing_cycle"] = [name for name in CYCLE_ATTRIBUTES if not hasattr(cycles[0], name)]
        await asyncio.sleep(0)

    asyncio.run(drive())
    assert seen["missing"] == [], f"uvicorn {uvicorn.__version__}"
    assert seen["missing_cycle"] == [], f"uvicorn {uvicorn.__version__}"
    assert seen["cycle"].more_body is True  # what an answer given before the body ended looks like
    assert hasattr(httptools_impl, "STATUS_LINE")


def test_the_starlette_method_the_app_overrides_exists() -> None:
    """``app.main.ManacalcAPI`` overrides Starlette's ``build_middleware_stack`` (no private API of FastAPI
    or Starlette is called): it must still be what Starlette builds its stack with."""
    from starlette.applications import Starlette

    assert "build_middleware_stack" in Starlette.__dict__
    assert "self.build_middleware_stack()" in inspect.getsource(Starlette.__call__)


def test_the_fastapi_route_hooks_app_api_routing_uses_exist() -> None:
    """``app.api.routing`` comes in through FastAPI's documented ``route_class`` and overrides
    ``get_route_handler``, which ``APIRoute`` calls once its endpoint's dependencies are read: a release that
    stopped calling it would serve the compute routes with FastAPI's handler, slower and unnoticed."""
    from fastapi import APIRouter
    from fastapi.routing import APIRoute

    from app.api.routing import BoundedBodyRoute, ComputeRoute, all_routes
    from app.main import create_app

    assert "route_class" in inspect.signature(APIRouter).parameters
    assert "get_route_handler" in APIRoute.__dict__
    calls: list[str] = []

    class Probe(APIRoute):
        def get_route_handler(self) -> Any:
            calls.append(type(self.dependant).__name__)
            return super().get_route_handler()

    router = APIRouter(route_class=Probe)
    router.get("/x")(lambda: None)
    assert calls == ["Dependant"]
    kinds = {type(route).__name__ for route in all_routes(create_app().router)}
    assert {ComputeRoute.__name__, BoundedBodyRoute.__name__} <= kinds


def test_a_compute_route_is_served_through_the_asgi_app_it_sets() -> None:
    """``ComputeRoute`` serves its handler as Starlette serves an endpoint that is an ASGI app: through the
    route's ``app``, which Starlette's ``Route.handle`` calls once the method matches. A release that
    stopped calling it would leave the compute routes unserved; one whose ``ExceptionMiddleware`` stopped
    rendering what a route raises would send raw 500s where tests/api/test_routing.py expects the app's
    problems."""
    from starlette.middleware.exceptions import ExceptionMiddleware
    from starlette.routing import Route

    from app.api.routing import ComputeRoute
    from app.main import create_app

    assert "await self.app(scope, receive, send)" in inspect.getsource(Route.handle)
    assert "wrap_app_handling_exceptions(self.app, conn)" in inspect.getsource(ExceptionMiddleware.__call__)
    routes = [r for r in create_app().router.routes if isinstance(r, ComputeRoute)]
    assert routes and all(getattr(r.app, "__func__", None) is ComputeRoute._serve for r in routes)


def test_serve_uses_uvicorn_s_documented_options_where_they_do_the_job() -> None:
    """What uvicorn's own options cover is left to them; the protocol is ours only for the rest."""
    from app.cli import HTTP_PROTOCOL, server_options
    from app.config import Settings

    options = server_options(Settings(database_url="sqlite://"))
    assert options["http"] == HTTP_PROTOCOL == "app.api.http_server:ManacalcHttpToolsProtocol"
    assert options["ws"] == "none"  # no WebSocket route
    assert options["proxy_headers"] is False  # forwarded headers: the rate limit's, from trusted proxies
    assert options["limit_concurrency"] is None  # it counted idle connections against requests
    assert options["timeout_keep_alive"] == 5
    assert options["backlog"] >= 2048
    uvicorn.Config(lambda *a: None, **options)  # every option is one uvicorn knows
