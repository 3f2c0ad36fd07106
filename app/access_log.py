"""The access line: one per request, written by ``logging`` or, when nothing could tell, straight to the
stream.

Through ``logging``, a line cost a large share of a small request: the record factory, ``LogRecord``
with its thread and process look-ups, the logger and handler walks, ``Formatter.format`` and ``%`` over a
dict, ``StreamHandler.emit``. When logging is set up exactly as ``configure_logging`` leaves it (checked
on every line, see ``_our_handler``), ``write_access_line`` writes the very bytes that path would, under
the same lock, to the same stream, flushed the same way, synchronously (a queue to a thread lost
uvicorn's last lines at shutdown, and was reverted). Anything else (pytest's ``caplog``, a user's logging
configuration, a filter, another handler, a level changed at run time, a record factory or a logging
method replaced) and the line goes through ``logging`` as before, every handler and filter seeing it.

The check is repeated per line rather than cached: ``logging`` has no change counter, and its state lives
in mutable lists and attributes any code may change at any time; reading them costs about a microsecond.
"""

from __future__ import annotations

import json
import logging
import math
import time
from json.encoder import encode_basestring
from typing import Any

from app import logs as _logs
from app.logs import (
    JsonFormatter,
    PlainFormatter,
    access_logger,
    current_request_id,
    escape_control,
)

ACCESS_MESSAGE = "%s %s %s %.2fms"

_root = logging.getLogger()
_Logger = logging.Logger
_StreamHandler = logging.StreamHandler


# The methods a line goes through in logging: an instrumentation library that wraps one of them (as some
# error trackers wrap Logger.callHandlers) must see every line, so the fast path steps aside.
def _methods() -> tuple[object, ...]:
    return (
        _Logger.handle,
        _Logger.callHandlers,
        _Logger.makeRecord,
        logging.Handler.handle,
        _StreamHandler.emit,
        _StreamHandler.flush,
    )


_ORIGINAL_METHODS = _methods()


def _our_handler() -> logging.StreamHandler[Any] | None:
    """The handler ``configure_logging`` installed, when a line written past ``logging`` would be exactly
    the line ``logging`` would write there and nowhere else; else None."""
    logger = access_logger
    if (
        logger.handlers
        or logger.filters
        or logger.disabled
        or not logger.propagate
        or type(logger) is not _Logger
        or logging.getLogRecordFactory() is not _logs.plain_factory
    ):
        return None
    parent = logger.parent
    while parent is not _root:  # a "manacalc" logger, if one was made: it must pass lines on untouched
        if parent is None or parent.handlers or parent.filters or parent.disabled or not parent.propagate:
            return None
        parent = parent.parent
    handlers = _root.handlers
    if len(handlers) != 1 or _root.filters or _root.level > logging.INFO:
        return None
    handler = handlers[0]
    if (
        type(handler) is not _StreamHandler
        or not getattr(handler, "_manacalc", False)
        or handler.filters
        or handler.level > logging.INFO
    ):
        return None
    formatter = handler.formatter
    if type(formatter) is PlainFormatter:
        if formatter.datefmt is not None:
            return None
    elif type(formatter) is not JsonFormatter:
        return None
    if _methods() != _ORIGINAL_METHODS:
        return None
    return handler


def fast_path_applies() -> bool:
    """Whether the next access line would be written past ``logging`` (tests, ``bench/access_log.py``)."""
    return access_logger.isEnabledFor(logging.INFO) and _our_handler() is not None


def write_access_line(method: str, raw_path: str, status: int, elapsed_s: float, origin: str) -> None:
    """Log ``method path status duration`` at INFO on ``manacalc.access``, with the request's id and the
    fields ``method``, ``path`` (control characters escaped), ``status`` and ``duration_ms``; a record,
    when one is made, names ``origin`` (the caller's ``__file__``) as where it was logged."""
    if not access_logger.isEnabledFor(logging.INFO):
        return
    duration_ms = round(elapsed_s * 1000, 2)
    path = escape_control(raw_path)
    handler = _our_handler()
    if handler is None:
        access_logger.handle(_record(method, path, status, duration_ms, origin))
        return
    created = time.time()  # as LogRecord takes it, before the handler's lock
    request_id = current_request_id() or "-"
    message = ACCESS_MESSAGE % (method, path, status, duration_ms)
    level = logging.getLevelName(logging.INFO)
    formatter = handler.formatter
    with handler.lock:  # type: ignore[union-attr]  # a StreamHandler always has one
        try:
            if type(formatter) is PlainFormatter:
                # LogRecord's msecs; "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
                stamp = formatter.time_text(created, int((created - int(created)) * 1000) + 0.0)
                line = f"{stamp} {level} {access_logger.name} [{request_id}] {message}"
            else:
                line = _json_line(created, level, message, request_id, method, path, status, duration_ms)
            stream = handler.stream  # StreamHandler.emit, then its flush (the lock is held already)
            stream.write(line + handler.terminator)
            if stream and hasattr(stream, "flush"):
                stream.flush()
        except RecursionError:  # as StreamHandler.emit
            raise
        except Exception:
            handler.handleError(_record(method, path, status, duration_ms, origin))


def _record(method: str, path: str, status: int, duration_ms: float, origin: str) -> logging.LogRecord:
    """The access line's record, as every handler and filter sees it."""
    # makeRecord, not Logger.info: info would also walk the stack for a caller no line shows.
    return access_logger.makeRecord(
        access_logger.name,
        logging.INFO,
        origin,
        0,
        ACCESS_MESSAGE,
        (method, path, status, duration_ms),
        None,
        extra={"method": method, "path": path, "status": status, "duration_ms": duration_ms},
    )


def _json_line(
    created: float,
    level: str,
    message: str,
    request_id: str,
    method: str,
    path: str,
    status: int,
    duration_ms: float,
) -> str:
    """``JsonFormatter.format`` of the access record: its fixed keys, then the record's extra fields in the
    order given, as ``json.dumps(doc, default=str, ensure_ascii=False)`` writes them (the dict and the
    encoder it builds per call were half the JSON line's cost)."""
    if type(status) is not int or type(duration_ms) is not float or type(level) is not str:
        doc = {
            "time": utc_time(created),
            "level": level,
            "logger": access_logger.name,
            "message": message,
            "request_id": request_id,
            "method": method,
            "path": path,
            "status": status,
            "duration_ms": duration_ms,
        }
        return json.dumps(doc, default=str, ensure_ascii=False)  # unusual types: json's own writing
    # The encoder writes a str with encode_basestring (ensure_ascii=False), an int with int.__repr__ and
    # a finite float with float.__repr__, separated by ", " and ": ".
    duration = float.__repr__(duration_ms) if math.isfinite(duration_ms) else json.dumps(duration_ms)
    return (
        f'{{"time": "{utc_time(created)}", "level": {encode_basestring(level)}, "logger": {_LOGGER}, '
        f'"message": {encode_basestring(message)}, "request_id": {encode_basestring(request_id)}, '
        f'"method": {encode_basestring(method)}, "path": {encode_basestring(path)}, '
        f'"status": {int.__repr__(status)}, "duration_ms": {duration}}}'
    )


_LOGGER = encode_basestring(access_logger.name)
# The UTC date and time to the second, ISO 8601, of the last second written: (second, text), one tuple so
# a thread never reads one second's text with another's number.
_utc_second: tuple[float, str] = (math.nan, "")


def utc_time(created: float) -> str:
    """``datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")``, its text to the second
    built once a second (datetime per line cost more). Rounded as datetime rounds a timestamp (CPython's
    ``_PyTime_ObjectToTimeval``: microseconds rounded half to even, a fraction rounded up to a whole second
    carried into the seconds), then truncated to milliseconds as ``isoformat`` truncates."""
    global _utc_second
    fraction, second = math.modf(created)
    micros = round(fraction * 1e6)  # float.__round__: the same half-even rounding as CPython's pytime
    if micros >= 1_000_000:
        micros -= 1_000_000
        second += 1.0
    elif micros < 0:
        micros += 1_000_000
        second -= 1.0
    cached, text = _utc_second
    if second != cached:
        t = time.gmtime(second)
        text = f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}T{t.tm_hour:02d}:{t.tm_min:02d}:{t.tm_sec:02d}"
        _utc_second = (second, text)
    return f"{text}.{micros // 1000:03d}+00:00"
