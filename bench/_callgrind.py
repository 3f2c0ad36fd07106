"""What the scripts that count with callgrind share (``instructions.py``, ``served_cpu.py``).

Imported by its bare name from the scripts beside it, as ``_asgi`` is (its docstring says why). It imports
nothing of the app at import time."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path


def lift_inline_slice() -> None:
    """Let every request of a counted process run on the event loop. Under valgrind the code runs some 50
    times slower: a request would overrun the 10 ms slice, be abandoned at a check and finish in a worker
    thread, and a count of the event loop's thread would be of part of it."""
    import app.api.compute as compute

    compute.INLINE_SLICE_S = 3600.0  # type: ignore[misc]


def thread_totals(parts: Iterable[Path]) -> Counter[int]:
    """Instructions per thread in callgrind's output files (``--separate-threads=yes``). ``totals:``, not
    ``summary:``, which reads 0 in a part dumped while the program ran."""
    per_thread: Counter[int] = Counter()
    for part in parts:
        text = part.read_text()
        thread = re.search(r"^thread: (\d+)$", text, re.M)
        totals = re.search(r"^totals: (\d+)$", text, re.M)
        if thread and totals:
            per_thread[int(thread.group(1))] += int(totals.group(1))
    return per_thread
