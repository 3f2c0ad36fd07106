"""Driving an ASGI app in process, as the in-process benchmarks do: its lifespan started and stopped, and
one HTTP request sent and its status read, with no server, socket or client measured.

Imported by its bare name (``import _asgi``) from the scripts beside it: a script run as
``python bench/x.py`` has this directory on its path, and importing ``bench`` as a package would put this
checkout's ``app`` ahead of the build a script measures (``--builds``, ``MANACALC_BENCH_CORE``). It imports
nothing of the app."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any


def http_scope(path: str, body: bytes, method: str = "POST") -> dict[str, Any]:
    """The scope uvicorn gives a JSON request from 127.0.0.1 to 127.0.0.1:8000."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"127.0.0.1:8000"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def start_lifespan(app: Any) -> Callable[[], Awaitable[None]]:
    """Start the application's lifespan; return what shuts it down."""
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    started, stopped = asyncio.Event(), asyncio.Event()

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "lifespan.startup.failed":
            raise SystemExit(str(message.get("message", "start-up failed")).strip().splitlines()[-1])
        if message["type"] == "lifespan.startup.complete":
            started.set()
        elif message["type"].startswith("lifespan.shutdown"):
            stopped.set()

    task = asyncio.create_task(app({"type": "lifespan", "asgi": {"version": "3.0"}}, inbox.get, send))
    await inbox.put({"type": "lifespan.startup"})
    await started.wait()

    async def shutdown() -> None:
        await inbox.put({"type": "lifespan.shutdown"})
        await stopped.wait()
        await task

    return shutdown


async def request(app: Any, scope: dict[str, Any], body: bytes) -> int:
    """Send one request with ``body``; the status the app answered."""
    status = 0
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            await asyncio.sleep(3600)  # the client stays: no disconnect while the answer is computed
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(dict(scope), receive, send)
    return status
