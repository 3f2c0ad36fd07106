"""The one service middleware (issue 14) and the holes it closes (issue 15): control characters in the
access log, X-Forwarded-For only from trusted proxies, a deadline for trickled bodies, unhandled errors."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.types import Message, Receive, Scope, Send

from app.api.middleware import ServiceMiddleware
from app.config import Settings
from app.logs import escape_control
from app.main import create_app

JSON = {"Content-Type": "application/json"}


def test_escape_control_leaves_ordinary_text_alone() -> None:
    assert escape_control("/v1/cards/Llanowar Elves") == "/v1/cards/Llanowar Elves"
    assert escape_control("/v1/cards/Æther Vial") == "/v1/cards/Æther Vial"
    assert escape_control("a\nb\rc\x1b[31m") == "a\\x0ab\\x0dc\\x1b[31m"
    # A backslash is escaped too, so a path cannot spell a fake escape that reads as a real one.
    assert escape_control("a\\x0ab") == "a\\\\x0ab"
    assert escape_control("a\u2028b") == "a\\x2028b"


def test_a_newline_in_the_path_cannot_forge_an_access_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    forged = "/v1/cards/x%0A2026-01-01 INFO manacalc.access [-] GET /admin 200 0.1ms"
    with caplog.at_level(logging.INFO, logger="manacalc.access"):
        response = client.get(forged)
    assert response.status_code == 404
    lines = [r.getMessage() for r in caplog.records if r.name == "manacalc.access"]
    assert len(lines) == 1
    assert "\n" not in lines[0] and "\r" not in lines[0]
    assert "x\\x0a2026-01-01" in lines[0]
    assert all("\n" not in str(r.__dict__.get("path", "")) for r in caplog.records)


# --- X-Forwarded-For ----------------------------------------------------------------------------------


def _limited(settings: Settings, **update: object) -> TestClient:
    limits = {"rate_limit_per_minute": 60, "rate_limit_burst": 2}
    app = create_app(settings.model_copy(update={**limits, **update}))
    app.state.rate_limiter.clock = lambda: 1000.0  # time stands still: no token comes back meanwhile
    return TestClient(app)


def _statuses(client: TestClient, forwarded_for: list[str]) -> list[int]:
    body = json.dumps({"mana_cost": "{W}"})
    return [
        client.post("/v1/mana-costs/parse", content=body, headers={**JSON, "X-Forwarded-For": ip}).status_code
        for ip in forwarded_for
    ]


def test_forwarded_for_does_not_choose_the_bucket_by_default(settings: Settings) -> None:
    # Issue 15: a local client sending X-Forwarded-For got a fresh bucket for every made-up address.
    client = _limited(settings)
    assert _statuses(client, ["10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"]) == [200, 200, 429, 429]


def test_forwarded_for_is_believed_from_a_trusted_proxy(settings: Settings) -> None:
    # The TestClient's peer is "testclient": as a configured proxy, the address it forwards counts.
    client = _limited(settings, trusted_proxies=["testclient"])
    assert _statuses(client, ["10.0.0.1", "10.0.0.1", "10.0.0.1", "10.0.0.2"]) == [200, 200, 429, 200]
    # A client cannot prepend its own hop: the right-most untrusted address is the client.
    assert _statuses(client, ["1.2.3.4, 10.0.0.1"]) == [429]


def test_trusted_proxies_setting_reads_a_comma_separated_list() -> None:
    assert Settings(trusted_proxies="10.0.0.5, 10.0.0.6").trusted_proxies == ["10.0.0.5", "10.0.0.6"]  # type: ignore[arg-type]
    assert Settings().trusted_proxies == []


# --- the body deadline and unhandled errors, on the middleware alone ----------------------------------


async def _echo_app(scope: Scope, receive: Receive, send: Send) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": body})


def _run(middleware: ServiceMiddleware, chunks: list[tuple[float, bytes]]) -> list[Message]:
    """Serve one POST whose body arrives as ``chunks`` (delay before each, bytes); the messages sent."""
    sent: list[Message] = []
    pending = list(chunks)

    async def receive() -> Message:
        if not pending:
            await asyncio.sleep(3600)
        delay, chunk = pending.pop(0)
        await asyncio.sleep(delay)
        return {"type": "http.request", "body": chunk, "more_body": bool(pending)}

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/v1/spells/cost",
        "query_string": b"",
        "headers": [(b"content-type", b"application/json")],
        "client": ("127.0.0.1", 5000),
    }
    asyncio.run(middleware(scope, receive, send))
    return sent


def test_a_trickled_body_gets_408_at_the_deadline() -> None:
    middleware = ServiceMiddleware(_echo_app, max_body_bytes=1024, body_read_timeout_s=0.2)
    sent = _run(middleware, [(0.0, b'{"a":'), (0.1, b" "), (0.1, b" "), (0.1, b" "), (0.1, b"1}")])
    assert sent[0]["status"] == 408
    headers = dict(sent[0]["headers"])
    assert headers[b"content-type"] == b"application/problem+json"
    assert headers[b"connection"] == b"close"
    assert b"x-request-id" in headers
    assert json.loads(sent[1]["body"])["type"].endswith("/request-timeout")


def test_a_body_in_time_reaches_the_app_whole() -> None:
    middleware = ServiceMiddleware(_echo_app, max_body_bytes=1024, body_read_timeout_s=1.0)
    sent = _run(middleware, [(0.0, b'{"a":'), (0.05, b" 1}")])
    assert sent[0]["status"] == 200
    assert sent[1]["body"] == b'{"a": 1}'


def test_an_error_no_handler_took_is_a_500_problem_with_the_request_id() -> None:
    async def broken(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("secret detail")

    sent = _run(ServiceMiddleware(broken, max_body_bytes=1024), [(0.0, b"{}")])
    assert sent[0]["status"] == 500
    assert b"x-request-id" in dict(sent[0]["headers"])
    assert b"secret detail" not in sent[1]["body"]


def test_the_service_middleware_is_the_one_outermost_layer_of_ours(app: FastAPI) -> None:
    stack = app.build_middleware_stack()
    assert isinstance(stack, ServiceMiddleware)
    layers = []
    layer: Any = stack.app
    while hasattr(layer, "app"):
        layers.append(type(layer))
        layer = layer.app
    assert not [cls for cls in layers if cls.__module__.startswith("app.")]
    # Its 500 problem stands in for Starlette's: a second error layer would log each failure twice.
    assert ServerErrorMiddleware not in layers


def test_native_telemetry_is_fastapis_switch_set_from_the_settings(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off by default, through FastAPI's documented ``telemetry`` parameter: FastAPI then asks nothing of
    OpenTelemetry per request (4.5 us of a 200 us request); on, it asks for the process's providers."""
    from opentelemetry import trace

    asked: list[bool] = []
    real = trace.get_tracer_provider
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: asked.append(True) or real())
    with TestClient(create_app(settings)) as client:
        for _ in range(3):
            assert client.get("/healthz").status_code == 200
    assert asked == []
    with TestClient(create_app(settings.model_copy(update={"telemetry": True}))) as client:
        assert client.get("/healthz").status_code == 200
    assert asked
