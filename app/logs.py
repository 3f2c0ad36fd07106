"""Logging: plain or JSON lines, one line per request, and the ``X-Request-ID`` of each request.

The request id is accepted from the client when it looks sane (so ids can be followed across services),
else generated; it is echoed in the response and carried by every log line written during the request.

A served process writes its lines from a thread of their own (``configure_logging(background=True)``):
the event loop only queues each record. Written on the loop, every line was a ``write`` to standard
error, and a reader that falls behind (a full pipe to a log collector) would stop every request until it
caught up; formatting took its share of each request's time too (issue 30).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import logging.handlers
import queue
import re
import sys
import time
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any

from starlette.types import Receive, Scope

REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
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


class PlainFormatter(logging.Formatter):
    """``time level logger [request id] message``, the time as ``logging.Formatter`` writes it.

    The date and time to the second is formatted once per second, not per line: ``time.strftime`` was
    a third of the access line's cost (issue 14). Records are formatted under the handler's lock.
    """

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        self._second = -1
        self._text = ""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        second = int(record.created)
        if second != self._second:
            self._text = time.strftime(self.default_time_format, self.converter(record.created))
            self._second = second
        return (self.default_msec_format or "%s,%03d") % (self._text, record.msecs)


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


QUEUED_LINES = 10_000
"""Lines waiting for the writer thread at most; past it lines are dropped (and their number written), so
a log reader that stops reading costs memory of a bounded size and never stops the service."""
_PLAIN_ARGS = (str, int, float, bool, type(None))


class _Handoff(logging.handlers.QueueHandler):
    """Hands records to the writer thread as they are: formatted there, off the event loop.

    ``QueueHandler.prepare`` formats every record in the caller's thread (so that it can cross to another
    process); within one process only a message whose arguments could still change (not plain values)
    is fixed before it is queued."""

    def __init__(self, q: queue.Queue[logging.LogRecord]) -> None:
        super().__init__(q)
        self.dropped = 0

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        args = record.args
        if args and not (isinstance(args, tuple) and all(isinstance(a, _PLAIN_ARGS) for a in args)):
            record.msg = record.getMessage()
            record.args = None
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            if self.dropped:
                self.queue.put_nowait(self._dropped_record())
                self.dropped = 0
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1

    def _dropped_record(self) -> logging.LogRecord:
        return logging.makeLogRecord(
            {
                "name": "manacalc.logs",
                "levelno": logging.WARNING,
                "levelname": "WARNING",
                "msg": "%d log lines dropped: the log's reader fell behind",
                "args": (self.dropped,),
                "request_id": "-",
            }
        )


class _Writer(logging.handlers.QueueListener):
    def enqueue_sentinel(self) -> None:
        # Blocking, unlike QueueListener's: the queue may be full, and the thread is emptying it.
        self.queue.put(self._sentinel, timeout=5)  # type: ignore[attr-defined]


def configure_logging(level: str = "INFO", *, json_lines: bool = False, background: bool = False) -> None:
    """Set up the root logger once per process (calling again replaces our handler, never duplicates it);
    ``background``: lines written by a thread of their own (a served process, see the module)."""
    _install_record_factory()
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_manacalc", False):
            root.removeHandler(old)
            _stop_writer(old)
    stream = logging.StreamHandler(sys.stderr)
    stream.setFormatter(JsonFormatter() if json_lines else PlainFormatter())
    handler: logging.Handler = stream
    if background:
        lines: queue.Queue[logging.LogRecord] = queue.Queue(QUEUED_LINES)
        handler = _Handoff(lines)
        writer = _Writer(lines, stream)
        writer.start()
        handler._manacalc_writer = writer  # type: ignore[attr-defined]
        atexit.register(_stop_writer, handler)  # the last lines (uvicorn's "Finished") are written
    handler._manacalc = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # uvicorn's own access log would duplicate ours, which carries the request id and duration.
    logging.getLogger("uvicorn.access").disabled = True
    # Alembic narrates every context it opens (each /readyz); migrations are summarised by our own lines.
    logging.getLogger("alembic").setLevel(max(logging.WARNING, root.level))


def _stop_writer(handler: logging.Handler) -> None:
    """Write what ``handler``'s writer thread still holds and stop it (nothing for a plain handler)."""
    writer: _Writer | None = getattr(handler, "_manacalc_writer", None)
    if writer is not None and writer._thread is not None:
        # A full queue: the reader of the log is stuck, and its lines are lost, not the process.
        with contextlib.suppress(queue.Full):
            writer.stop()


def bind_request(rid: str, scope: Scope, receive: Receive) -> tuple[Token[str | None], Any]:
    """Make ``rid`` and the request current for every log line and compute job until ``unbind_request``."""
    return _request_id.set(rid), _request.set((scope, receive))


def unbind_request(tokens: tuple[Token[str | None], Any]) -> None:
    _request.reset(tokens[1])
    _request_id.reset(tokens[0])


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)} | {
    ord("\\"): "\\\\"
}


def escape_control(text: str) -> str:
    """``text`` with control characters (CR, LF, ESC...) and backslashes escaped: a path decoded from
    ``%0A`` cannot start a forged line in a plain-text log (issue 15)."""
    return text.translate(_CONTROL) if not text.isprintable() or "\\" in text else text
