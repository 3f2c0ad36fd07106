"""Bounded memory (issue 27): 1,000 distinct hostile decks and boards keep a worker under 400 MB.

Five-color deck requests grew a worker from 218 MB to 1,142 MB in 90 requests before the castability and
text memos were bounded. The requests run in a process of their own (``tests/memory_worker.py``), whose
peak resident memory is the figure checked. Measured on this branch: boards alone stay at 226 MB (the
board memo and the text memos hold their bounds); decks take the worker to 533 MB, all of it castability's
``Hall`` memos, which the decks room bounds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.db_free  # never reaches the database under test

PEAK_MB = 400
REQUESTS = 1_000


@pytest.mark.slow
def test_a_thousand_distinct_hostile_requests_stay_under_400_mb(tmp_path: Path) -> None:
    # A database of its own holding the bundled catalogue, as a new deployment's: the session's test
    # database may hold a whole imported catalogue by now, and a worker holds its catalogue in memory.
    url = f"sqlite:///{tmp_path / 'memory.db'}"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-m", "tests.memory_worker", url, str(REQUESTS)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert sum(report["statuses"].values()) == REQUESTS + REQUESTS // 2
    assert "500" not in report["statuses"], report
    assert report["peak_mb"] < PEAK_MB, report
