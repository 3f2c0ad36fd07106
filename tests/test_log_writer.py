"""The served process's log lines are written by a thread of their own (``app.logs``, issue 30): every
line arrives, in order, formatted as before; a stuck reader costs dropped lines, counted, never a wait."""

from __future__ import annotations

import io
import logging
import queue
import sys

import pytest

from app import logs


@pytest.fixture
def stream() -> io.StringIO:
    out = io.StringIO()
    original = sys.stderr
    sys.stderr = out  # configure_logging binds its handler to the stderr of the moment
    try:
        logs.configure_logging("INFO", background=True)
    finally:
        sys.stderr = original
    yield out
    logs.configure_logging("INFO")  # stops the writer, writing what it holds


def test_lines_are_written_in_order_by_the_writer_thread(stream: io.StringIO) -> None:
    log = logging.getLogger("manacalc.test")
    for i in range(500):
        log.info("line %d of %s", i, "many")
    logs.configure_logging("INFO")  # what a replaced handler or the exit does: the queue is written out
    lines = stream.getvalue().splitlines()
    assert [line.rsplit(" ", 3)[-3:] for line in lines] == [[str(i), "of", "many"] for i in range(500)]
    assert all(" INFO manacalc.test [-] line " in line for line in lines)


def test_a_mutable_argument_is_fixed_when_the_line_is_logged(stream: io.StringIO) -> None:
    seen = ["before"]
    logging.getLogger("manacalc.test").info("seen %s", seen)
    seen[0] = "after"
    logs.configure_logging("INFO")
    assert "seen ['before']" in stream.getvalue()


def test_a_full_queue_drops_lines_and_says_how_many(monkeypatch: pytest.MonkeyPatch) -> None:
    lines: queue.Queue[logging.LogRecord] = queue.Queue(2)
    handoff = logs._Handoff(lines)
    record = logging.makeLogRecord({"msg": "x"})
    for _ in range(5):
        handoff.handle(record)
    assert lines.qsize() == 2 and handoff.dropped == 3
    lines.get_nowait()
    lines.get_nowait()
    handoff.handle(record)
    said = lines.get_nowait()
    assert said.getMessage() == "3 log lines dropped: the log's reader fell behind"
    assert lines.get_nowait() is record and handoff.dropped == 0
