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
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any

REQUEST_ID_HEADER = "X-Request-ID"
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_request_id: ContextVar[str | None] = ContextVar("manacalc_request_id", default=None)

access_logger = logging.getLogger("manacalc.access")


def current_request_id() -> str | None:
    """The id of the request being served, if any."""
    return _request_id.get()


# Our record factory when it wraps LogRecord itself, else None: a record made by it holds exactly
# LogRecord's attributes and request_id. The access line's fast path (app.access_log) requires it; a factory
# another library installs may add attributes a JSON line would show.
plain_factory: Any = None


def _install_record_factory() -> None:
    """Every log record, from any logger, carries ``request_id`` (``-`` outside a request)."""
    global plain_factory
    previous = logging.getLogRecordFactory()
    if getattr(previous, "_manacalc", False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        record.request_id = _request_id.get() or "-"
        return record

    factory._manacalc = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)
    if previous is logging.LogRecord:
        plain_factory = factory


class PlainFormatter(logging.Formatter):
    """``time level logger [request id] message``, the time as ``logging.Formatter`` writes it.

    The date and time to the second is formatted once per second, not per line: ``time.strftime`` was
    a third of the access line's cost. Records are formatted under the handler's lock.
    """

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")
        self._second = -1
        self._text = ""

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        if datefmt is not None:
            return super().formatTime(record, datefmt)
        return self.time_text(record.created, record.msecs)

    def time_text(self, created: float, msecs: float) -> str:
        """``%(asctime)s`` of a record made at ``created`` (``LogRecord.msecs`` beside it), under the
        handler's lock (the per-second text is shared); ``app.access_log`` writes its time with it too."""
        second = int(created)
        if second != self._second:
            self._text = time.strftime(self.default_time_format, self.converter(created))
            self._second = second
        return (self.default_msec_format or "%s,%03d") % (self._text, msecs)


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
        handler.setFormatter(PlainFormatter())
    root.addHandler(handler)
    root.setLevel(level)
    # uvicorn's own access log would duplicate ours, which carries the request id and duration.
    logging.getLogger("uvicorn.access").disabled = True
    # Alembic narrates every context it opens (each /readyz); migrations are summarised by our own lines.
    logging.getLogger("alembic").setLevel(max(logging.WARNING, root.level))


def bind_request(rid: str) -> Token[str | None]:
    """Make ``rid`` the request id of every log line written until ``unbind_request``."""
    return _request_id.set(rid)


def unbind_request(token: Token[str | None]) -> None:
    _request_id.reset(token)


_CONTROL = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029)} | {
    ord("\\"): "\\\\"
}


def escape_control(text: str) -> str:
    """``text`` with control characters (CR, LF, ESC...) and backslashes escaped: a path decoded from
    ``%0A`` cannot start a forged line in a plain-text log."""
    return text.translate(_CONTROL) if not text.isprintable() or "\\" in text else text
