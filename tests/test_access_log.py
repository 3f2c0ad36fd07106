"""The access line's fast path (``app.access_log``, issue 30): the very bytes ``logging`` writes, and
``logging`` itself whenever its configuration is not the one ``configure_logging`` installs."""

from __future__ import annotations

import io
import json
import logging
import re
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any
from unittest import mock

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.access_log import fast_path_applies, utc_time, write_access_line
from app.logs import PlainFormatter, access_logger, bind_request, configure_logging, unbind_request

PLAIN_LINE = re.compile(
    r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO manacalc\.access \[(?P<rid>[^\]]+)\] (?P<message>.*)\n"
)
PATHS = (
    "/v1/spells/cost",
    "/v1/cards/x\n2026-01-01 INFO manacalc.access [-] GET /admin 200 0.1ms",  # escaped, never a line
    "/v1/cards/\x1b[31mred\r",
    "/v1/cards/Jötun Grunt/Æther Vial ☃ \u2028 \U0001f409",
    '/v1/cards/"quoted"\\back\tslash',
    "",
)
Configure = Callable[[bool], tuple[logging.Handler, io.StringIO]]


def _pass(record: logging.LogRecord) -> bool:
    return True


@pytest.fixture
def served_logging() -> Iterator[Configure]:
    """Logging as ``manacalc serve`` sets it up (level INFO), its stream a StringIO. Pytest's own handlers
    on the root (its log capture, added around each test's call) are taken off: with them the fast path
    steps aside. Our handler, the root's level, the record factory and the access logger as they were
    afterwards."""
    root = logging.getLogger()
    ours = [h for h in root.handlers if getattr(h, "_manacalc", False)]
    saved = (root.level, logging.getLogRecordFactory())
    logger_state = (access_logger.level, access_logger.propagate, access_logger.disabled)

    def configure(json_lines: bool) -> tuple[logging.Handler, io.StringIO]:
        for other in root.handlers[:]:
            root.removeHandler(other)  # pytest removes its own after the call: no need to put them back
        configure_logging("INFO", json_lines=json_lines)
        handler = next(h for h in root.handlers if getattr(h, "_manacalc", False))
        stream = io.StringIO()
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(stream)
        return handler, stream

    yield configure
    for handler in root.handlers[:]:
        if getattr(handler, "_manacalc", False):
            root.removeHandler(handler)
    for handler in ours:
        root.addHandler(handler)
    root.setLevel(saved[0])
    logging.setLogRecordFactory(saved[1])
    access_logger.setLevel(logger_state[0])
    access_logger.propagate, access_logger.disabled = logger_state[1:]


def _line(
    stream: io.StringIO,
    method: str,
    path: str,
    status: int,
    elapsed_s: float,
    rid: str | None,
    created: float,
) -> str:
    """What one access line writes to ``stream``, the clock stopped at ``created``."""
    start = len(stream.getvalue())
    tokens = bind_request(rid) if rid is not None else None
    try:
        with mock.patch.object(time, "time", return_value=created):
            write_access_line(method, path, status, elapsed_s, __file__)
    finally:
        if tokens is not None:
            unbind_request(tokens)
    return stream.getvalue()[start:]


def _both(handler: logging.Handler, stream: io.StringIO, *args: Any) -> tuple[str, str]:
    """The line the fast path writes and the line ``logging`` writes for the same request, same clock."""
    assert fast_path_applies()
    fast = _line(stream, *args)
    handler.addFilter(_pass)  # a filter that passes everything: the fast path must step aside
    try:
        assert not fast_path_applies()
        slow = _line(stream, *args)
    finally:
        handler.removeFilter(_pass)
    return fast, slow


# --- the same bytes -----------------------------------------------------------------------------------


@pytest.mark.parametrize("json_lines", [False, True], ids=["plain", "json"])
@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize(
    ("method", "status", "elapsed_s", "rid"),
    [
        ("POST", 200, 0.000234, "client-id.7:x"),
        ("GET", 404, 1.5, None),
        ("other", 499, 0.0, "a" * 128),
        ("DELETE", 500, 12.3456789, "-"),
    ],
)
def test_the_fast_line_is_the_logging_line(
    served_logging: Configure,
    json_lines: bool,
    path: str,
    method: str,
    status: int,
    elapsed_s: float,
    rid: str | None,
) -> None:
    handler, stream = served_logging(json_lines)
    for created in (1_700_000_000.0, 1_700_000_000.9995, 1_780_000_123.4567891):
        fast, slow = _both(handler, stream, method, path, status, elapsed_s, rid, created)
        assert fast == slow
        assert fast.endswith("\n") and fast.count("\n") == 1  # a control character never breaks the line
        if json_lines:
            doc = json.loads(fast)
            assert list(doc) == [
                *("time", "level", "logger", "message", "request_id"),
                *("method", "path", "status", "duration_ms"),
            ]
            assert (doc["request_id"], doc["status"], doc["logger"]) == (
                rid or "-",
                status,
                "manacalc.access",
            )
        else:
            found = PLAIN_LINE.fullmatch(fast)
            assert found is not None, fast
            assert found["rid"] == (rid or "-")
            assert found["message"].startswith(f"{method} ")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    json_lines=st.booleans(),
    path=st.text(max_size=40),
    status=st.integers(min_value=100, max_value=599),
    elapsed_s=st.floats(min_value=0, max_value=1e4, allow_nan=False),
    created=st.floats(min_value=0, max_value=4_000_000_000, allow_nan=False),
)
@example(json_lines=True, path="", status=200, elapsed_s=0.0, created=1_700_000_000.9999996)  # carries
def test_any_request_at_any_time_writes_the_logging_line(
    served_logging: Configure, json_lines: bool, path: str, status: int, elapsed_s: float, created: float
) -> None:
    handler, stream = served_logging(json_lines)
    fast, slow = _both(handler, stream, "GET", path, status, elapsed_s, "hyp-1", created)
    assert fast == slow


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=-2_000_000_000, max_value=30_000_000_000, allow_nan=False))
@example(1_700_000_000.9999996)  # rounds up to the next second
@example(1_700_000_000.0000005)  # a half microsecond: to even
@example(-0.0000004)
def test_the_json_time_is_what_datetime_writes(created: float) -> None:
    expected = datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds")
    assert utc_time(created) == expected
    assert utc_time(created) == expected  # from the per-second text too


def test_the_plain_time_shares_the_formatters_per_second_text() -> None:
    formatter = PlainFormatter()
    record = logging.makeLogRecord({"created": 1_700_000_000.25, "msecs": 250.0})
    assert formatter.time_text(1_700_000_000.25, 250.0) == formatter.formatTime(record)


# --- anything else: logging, unchanged ----------------------------------------------------------------


def _manacalc_logger_with_handler() -> Callable[[], None]:
    parent = logging.getLogger("manacalc")
    extra = logging.NullHandler()
    parent.addHandler(extra)
    return lambda: parent.removeHandler(extra)


def _set(target: Any, name: str, value: Any) -> Callable[[], None]:
    had = name in vars(target)
    old = vars(target).get(name)

    def undo() -> None:
        if had:
            setattr(target, name, old)
        else:
            delattr(target, name)

    setattr(target, name, value)
    return undo


def _root_extra_handler() -> Callable[[], None]:
    extra = logging.NullHandler()
    logging.getLogger().addHandler(extra)
    return lambda: logging.getLogger().removeHandler(extra)


def _root_filter() -> Callable[[], None]:
    logging.getLogger().addFilter(_pass)
    return lambda: logging.getLogger().removeFilter(_pass)


def _logger_filter() -> Callable[[], None]:
    access_logger.addFilter(_pass)
    return lambda: access_logger.removeFilter(_pass)


def _another_factory() -> Callable[[], None]:
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return previous(*args, **kwargs)

    logging.setLogRecordFactory(factory)
    return lambda: logging.setLogRecordFactory(previous)


def _levels_apart() -> Callable[[], None]:
    logging.getLogger().setLevel(logging.WARNING)
    access_logger.setLevel(logging.INFO)

    def undo() -> None:
        access_logger.setLevel(logging.NOTSET)
        logging.getLogger().setLevel(logging.INFO)

    return undo


def _our_handler() -> logging.Handler:
    return next(h for h in logging.getLogger().handlers if getattr(h, "_manacalc", False))


def _wrapped(owner: type, name: str) -> Callable[[], None]:
    original = vars(owner)[name]

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return original(*args, **kwargs)

    return _set(owner, name, wrapper)


CHANGES: dict[str, Callable[[], Callable[[], None]]] = {
    "another handler on the root": _root_extra_handler,
    "a filter on the root": _root_filter,
    "a filter on the access logger": _logger_filter,
    "a handler on the manacalc logger": _manacalc_logger_with_handler,
    "a record factory over ours": _another_factory,
    "Logger.callHandlers wrapped": lambda: _wrapped(logging.Logger, "callHandlers"),
    "StreamHandler.emit wrapped": lambda: _wrapped(logging.StreamHandler, "emit"),
    "a date format on the formatter": lambda: _set(_our_handler().formatter, "datefmt", "%H:%M:%S"),
    "another formatter": lambda: _set(_our_handler(), "formatter", logging.Formatter("%(message)s")),
    "the handler not ours": lambda: _set(_our_handler(), "_manacalc", False),
    "the root at WARNING, the access logger at INFO": _levels_apart,
}
# The changes after which logging still writes the very same line to our stream.
SAME_LINE = {name for name in CHANGES if "format" not in name}


@pytest.mark.parametrize(
    ("change", "json_lines"),
    [
        (change, json_lines)
        for change in CHANGES
        for json_lines in (False, True)
        if not (json_lines and "date format" in change)  # JsonFormatter writes no date format
    ],
)
def test_any_other_configuration_goes_through_logging(
    served_logging: Configure, json_lines: bool, change: str
) -> None:
    _, stream = served_logging(json_lines)
    expected = _line(stream, "GET", "/healthz", 200, 0.001, "rid-1", 1_700_000_000.5)
    undo = CHANGES[change]()
    try:
        assert not fast_path_applies()
        with mock.patch.object(access_logger, "handle", wraps=access_logger.handle) as handle:
            line = _line(stream, "GET", "/healthz", 200, 0.001, "rid-1", 1_700_000_000.5)
        [(record,), _] = handle.call_args
        assert record.getMessage() == "GET /healthz 200 1.00ms"
        assert (vars(record)["request_id"], vars(record)["status"]) == ("rid-1", 200)
        if change in SAME_LINE:
            assert line == expected
        else:
            assert line and line != expected
    finally:
        undo()
    assert fast_path_applies()
    assert _line(stream, "GET", "/healthz", 200, 0.001, "rid-1", 1_700_000_000.5) == expected


@pytest.mark.parametrize("json_lines", [False, True], ids=["plain", "json"])
def test_a_placeholder_manacalc_logger_keeps_the_fast_path(
    served_logging: Configure, json_lines: bool
) -> None:
    served_logging(json_lines)
    logging.getLogger("manacalc")  # a logger between ours and the root, with nothing of its own
    assert fast_path_applies()


def test_a_level_raised_at_run_time_stops_the_line(served_logging: Configure) -> None:
    handler, stream = served_logging(False)
    handler.setLevel(logging.WARNING)
    try:
        assert not fast_path_applies()
        assert _line(stream, "GET", "/healthz", 200, 0.001, None, 1_700_000_000.5) == ""
    finally:
        handler.setLevel(logging.NOTSET)
    logging.getLogger().setLevel(logging.WARNING)
    assert not fast_path_applies()
    assert _line(stream, "GET", "/healthz", 200, 0.001, None, 1_700_000_000.5) == ""


def test_caplog_sees_the_record_and_our_handler_still_writes_it(
    served_logging: Configure, caplog: pytest.LogCaptureFixture
) -> None:
    _, stream = served_logging(False)
    logging.getLogger().addHandler(caplog.handler)  # as pytest had it, with our handler beside it
    with caplog.at_level(logging.INFO, logger="manacalc.access"):
        assert not fast_path_applies()
        line = _line(stream, "POST", "/v1/spells/cost", 201, 0.0042, "cap-1", 1_700_000_000.5)
    [record] = [r for r in caplog.records if r.name == "manacalc.access"]
    assert vars(record)["request_id"] == "cap-1"
    fields = {key: vars(record)[key] for key in ("method", "path", "status", "duration_ms")}
    assert fields == {"method": "POST", "path": "/v1/spells/cost", "status": 201, "duration_ms": 4.2}
    assert record.pathname == __file__
    assert line.endswith(" INFO manacalc.access [cap-1] POST /v1/spells/cost 201 4.20ms\n")


def test_a_failing_stream_is_reported_as_logging_reports_it(
    served_logging: Configure, monkeypatch: pytest.MonkeyPatch
) -> None:
    handler, stream = served_logging(False)
    reported: list[logging.LogRecord] = []
    monkeypatch.setattr(handler, "handleError", reported.append)
    monkeypatch.setattr(stream, "write", mock.Mock(side_effect=OSError("disk full")))
    write_access_line("GET", "/healthz", 200, 0.001, __file__)
    [record] = reported
    assert record.getMessage() == "GET /healthz 200 1.00ms"
    assert vars(record)["path"] == "/healthz"


# --- through the application ----------------------------------------------------------------------------


@pytest.mark.parametrize("json_lines", [False, True], ids=["plain", "json"])
def test_a_served_request_writes_its_line_on_the_fast_path(
    served_logging: Configure, client: TestClient, json_lines: bool
) -> None:
    _, stream = served_logging(json_lines)
    with mock.patch.object(access_logger, "handle", wraps=access_logger.handle) as handle:
        response = client.get("/nowhere/x%0Ay%1B", headers={"X-Request-ID": "app-7"})
    assert response.status_code == 404
    assert not handle.called  # the fast path wrote it
    [line] = [line for line in stream.getvalue().splitlines(keepends=True) if "manacalc.access" in line]
    if json_lines:
        doc = json.loads(line)
        assert (doc["request_id"], doc["path"], doc["status"]) == ("app-7", "/nowhere/x\\x0ay\\x1b", 404)
    else:
        found = PLAIN_LINE.fullmatch(line)
        assert found is not None and found["rid"] == "app-7"
        assert found["message"].startswith("GET /nowhere/x\\x0ay\\x1b 404 ")
