"""A cooperative deadline for the rules core: long loops stop at safe points, never at any bytecode.

The service bounds every computation in time (a request's budget, the event loop's short slice) and stops
it when its client leaves. Interrupting a thread from outside (an asynchronous exception) can land
anywhere: inside a cache update, a lock, logging. So instead the caller opens a ``Deadline`` around the
work (``running(deadline)``) and the rules core's loops call ``check()`` where stopping leaves nothing
half-done: between two steps of a search, before a cache is written. ``check()`` raises
``DeadlineExceeded`` once the deadline has passed or the deadline was cancelled.

The deadline is carried by a context variable: each worker thread, and the event loop's task running an
inline slice, sees only its own. Without one, ``check()`` does nothing, so pure callers (tests, the CLI)
need not know of it. Once a deadline has raised it is *tripped*: every later ``check()`` raises again, and
the caller discards the result even if some ``except RulesError`` on the way turned the first raise into
an answer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Final

from app.rules.errors import RulesError


class DeadlineExceeded(RulesError):
    """The work ran out of its time budget or was cancelled: the request must ask for less."""

    def __init__(
        self, message: str = "the computation ran out of its time budget", *, cancelled: bool = False
    ) -> None:
        super().__init__(message)
        self.cancelled = cancelled


@dataclass(frozen=True, slots=True)
class Deadline:
    """Work may run until ``at`` (``time.monotonic()`` seconds) unless ``cancel()`` is called first.

    Frozen: the two events are the only state that changes, and they are thread-safe, so the thread that
    owns the request may cancel the work of another."""

    at: float
    _cancelled: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)
    _tripped: threading.Event = field(default_factory=threading.Event, repr=False, compare=False)

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    def cancel(self) -> None:
        """Stop the work at its next check (a client gone, a shutdown)."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    @property
    def tripped(self) -> bool:
        """True once a ``check()`` under this deadline has raised: the work's result is not to be used."""
        return self._tripped.is_set()

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def check(self) -> None:
        if self._cancelled.is_set():
            self._tripped.set()
            raise DeadlineExceeded("the computation was cancelled", cancelled=True)
        if time.monotonic() > self.at:
            self._tripped.set()
            raise DeadlineExceeded


_CURRENT: Final[ContextVar[Deadline | None]] = ContextVar("manacalc_deadline", default=None)


def check() -> None:
    """Raise ``DeadlineExceeded`` if the running work's deadline has passed or was cancelled (a no-op
    outside ``running``). Cheap (a context-variable read and a clock read): call it once per loop step."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check()


def current() -> Deadline | None:
    return _CURRENT.get()


@contextmanager
def running(deadline: Deadline) -> Iterator[Deadline]:
    """Run the block under ``deadline`` (nested blocks restore the outer one on leaving)."""
    token = _CURRENT.set(deadline)
    try:
        yield deadline
    finally:
        _CURRENT.reset(token)
