"""Logging: plain or JSON lines, one line per request, and the ``X-Request-ID`` of each request.

The request id is accepted from the client when it looks sane (so ids can be followed across services),
else generated; it is echoed in the response and carried by every log line written during the request.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_request_id: ContextVar[str | None] = ContextVar("manacalc_request_id", default=None)

_request: ContextVar[tuple[Scope, Receive] | None] = ContextVar("manacalc_request", default=None)

access_logger = logging.getLogger("manacalc.access")


def current_request_id() -> str | None:
    """The id of the request being served, if any."""
    return _request_id.get()


def current_request() -> tuple[Scope, Receive] | None:
    """The ASGI scope and the client's ``receive`` of the request being served, if any (compute work
    finds the app's budget, and learns that the client has gone, through them)."""
    return _request.get()


def _install_record_factory() -> None:
    """Every log record, from any logger, carries ``request_id`` (``-`` outside a request)."""
    previous = logging.getLogRecordFactory()
    if getattr(previous, "_manacalc", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.request_id = _request_id.get() or "-"
        return record

    factory._manacalc = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, and any ``extra`` fields."""

    _STANDARD = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime", "request_id"}

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        for key, value in vars(record).items():
            if key not in self._STANDARD and not key.startswith("_"):
                doc[key] = value
        if record.exc_info:
            doc["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(doc, default=str, ensure_ascii=False)


def configure_logging(level: str = "INFO", *, json_lines: bool = False) -> None:
    """Set up the root logger once per process (calling again replaces our handler, never duplicates it)."""
    _install_record_factory()
    root = logging.getLogger()
    for handler in list(root.handlers):
        if getattr(handler, "_manacalc", False):
            root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler._manacalc = True  # type: ignore[attr-defined]
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(
            logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        )
    root.addHandler(handler)
    root.setLevel(level)
    # uvicorn's own access log would duplicate ours, which carries the request id and duration.
    logging.getLogger("uvicorn.access").disabled = True
    # Alembic narrates every context it opens (each /readyz); migrations are summarised by our own lines.
    logging.getLogger("alembic").setLevel(max(logging.WARNING, root.level))


class RequestLogMiddleware:
    """Sets the request id, echoes it in ``X-Request-ID``, and logs method, path, status and duration."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, b"x-request-id")
        rid = incoming if incoming and _SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        token = _request_id.set(rid)
        bound = _request.set((scope, receive))
        status = 500
        started = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                headers.append((b"x-request-id", rid.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            duration_ms = round((time.perf_counter() - started) * 1000, 2)
            access_logger.info(
                "%s %s %s %.2fms",
                scope.get("method"),
                scope.get("path"),
                status,
                duration_ms,
                extra={
                    "method": scope.get("method"),
                    "path": scope.get("path"),
                    "status": status,
                    "duration_ms": duration_ms,
                },
            )
            _request.reset(bound)
            _request_id.reset(token)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            try:
                return str(value.decode("ascii"))
            except UnicodeDecodeError:
                return None
    return None
