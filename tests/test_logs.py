"""The plain log line's time (``app.logs.PlainFormatter``): formatted once per second, written exactly as
``logging.Formatter`` writes it."""

from __future__ import annotations

import logging

from hypothesis import given
from hypothesis import strategies as st

from app.logs import PlainFormatter, _install_record_factory

_install_record_factory()
STANDARD = logging.Formatter("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")


def _record(created: float) -> logging.LogRecord:
    record = logging.getLogger("manacalc.test").makeRecord(
        "manacalc.test", logging.INFO, __file__, 1, "line %s", ("one",), None
    )
    record.created = created
    record.msecs = (created - int(created)) * 1000
    return record


@given(st.lists(st.floats(min_value=0, max_value=4_000_000_000, allow_nan=False), min_size=1, max_size=20))
def test_each_line_reads_as_the_standard_formatter_writes_it(times: list[float]) -> None:
    formatter = PlainFormatter()  # one formatter across the times: its per-second text must never be stale
    for created in sorted(times) + times:
        assert formatter.format(_record(created)) == STANDARD.format(_record(created))


def test_a_date_format_asked_for_is_honoured() -> None:
    record = _record(1_700_000_000.25)
    assert PlainFormatter().formatTime(record, "%Y") == STANDARD.formatTime(record, "%Y") == "2023"
