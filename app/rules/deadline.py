"""A cooperative deadline for the rules core: long loops stop at safe points, never at any bytecode.

The service bounds every computation in time (a request's budget, the event loop's short slice) and stops
it when its client leaves. Interrupting a thread from outside (an asynchronous exception) can land
anywhere: inside a cache update, a lock, logging. So instead the caller opens a ``Deadline`` around the
work (``running(deadline)``) and the rules core's loops call ``check()`` where stopping leaves nothing
half-done: between two steps of a search, before a cache is written. ``check()`` raises
``DeadlineExceeded`` once the deadline has passed or the deadline was cancelled, and lets other threads
run when the work has held the interpreter for ``HOLD_S``: so a check is due every few milliseconds of
work, in every loop that grows with the input.

The deadline is carried by a context variable: each worker thread, and the event loop's task running an
inline slice, sees only its own. Without one, ``check()`` does nothing, so pure callers (tests, the CLI)
need not know of it. Once a deadline has raised it is *tripped*: every later ``check()`` raises again, and
the caller discards the result even if some ``except RulesError`` on the way turned the first raise into
an answer.
"""

from __future__ import annotations

import select
import time
from contextvars import ContextVar, Token
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


HOLD_S: Final = 0.002
"""How long work under a deadline runs before a check lets other threads take the interpreter."""


class _Flags:
    """The two things about a deadline that change: set once, never cleared, each by a single store; and
    when the work last let other threads run (written by the working thread only).

    Plain attributes, not ``threading.Event``s: a flag is written by one thread and read by another, and
    under the GIL a store and a load of an attribute are atomic; nobody waits on them. Two events (a
    condition and a lock each) were built for every request's deadline, a measurable share of
    a varied ``spells/cost``."""

    __slots__ = ("cancelled", "since", "tripped")

    def __init__(self) -> None:
        self.cancelled = False
        self.tripped = False
        self.since = time.monotonic()


@dataclass(frozen=True, slots=True)
class Deadline:
    """Work may run until ``at`` (``time.monotonic()`` seconds) unless ``cancel()`` is called first.

    Frozen: the flags are the only state that changes, so the thread that owns the request may cancel the
    work of another."""

    at: float
    _flags: _Flags = field(init=False, default_factory=_Flags, repr=False, compare=False)

    def __init__(self, at: float) -> None:
        # Written out rather than generated: mypyc compiles this one, and leaves the dataclass module's
        # generated ``__init__`` interpreted (13 x slower; ``tests/rules/test_native_inits.py``).
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "_flags", _Flags())

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    def cancel(self) -> None:
        """Stop the work at its next check (a client gone, a shutdown)."""
        self._flags.cancelled = True

    @property
    def cancelled(self) -> bool:
        return self._flags.cancelled

    @property
    def tripped(self) -> bool:
        """True once a ``check()`` under this deadline has raised: the work's result is not to be used."""
        return self._flags.tripped

    def remaining(self) -> float:
        return self.at - time.monotonic()

    def check(self) -> None:
        flags = self._flags
        if flags.cancelled:
            flags.tripped = True
            raise DeadlineExceeded("the computation was cancelled", cancelled=True)
        now = time.monotonic()
        if now > self.at:
            flags.tripped = True
            raise DeadlineExceeded
        if now - flags.since > HOLD_S:
            # Compiled (mypyc), the core never returns to the interpreter's loop, which is where CPython
            # hands the GIL to a waiting thread: the event loop and every other request would wait for
            # the whole computation. An empty select releases it (and, unlike ``time.sleep(0)``, does
            # not give the CPU away); a thread waiting longer than the switch interval has asked for it
            # and takes it now. The pure build switches anyway; this costs it one system call per
            # ``HOLD_S`` of work (docs/performance.md).
            select.select((), (), (), 0)
            flags.since = time.monotonic()


_CURRENT: Final[ContextVar[Deadline | None]] = ContextVar("manacalc_deadline", default=None)


def check() -> None:
    """Raise ``DeadlineExceeded`` if the running work's deadline has passed or was cancelled (a no-op
    outside ``running``). Cheap (a context-variable read and a clock read): call it once per loop step."""
    deadline = _CURRENT.get()
    if deadline is not None:
        deadline.check()


def current() -> Deadline | None:
    return _CURRENT.get()


class running:  # lowercase: it reads as a function, ``with running(deadline):``
    """Run the block under ``deadline`` (nested blocks restore the outer one on leaving).

    A class rather than a ``@contextmanager`` generator: mypyc compiles its methods, where contextlib's
    wrapper around a generator stays interpreted."""

    __slots__ = ("_token", "deadline")

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self._token: Token[Deadline | None] | None = None

    def __enter__(self) -> Deadline:
        self._token = _CURRENT.set(self.deadline)
        return self.deadline

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _CURRENT.reset(self._token)
            self._token = None
