"""A cooperative deadline for the rules core: long loops stop at safe points, never at any bytecode.

The service bounds every computation in time (a request's budget, the event loop's short slice) and stops
it when its client leaves. Interrupting a thread from outside (an asynchronous exception) can land
anywhere: inside a cache update, a lock, logging. So instead the caller opens a ``Deadline`` around the
work (``running(deadline)``) and the rules core's loops call ``check()`` where stopping leaves nothing
half-done: between two steps of a search, before a cache is written. ``check()`` raises
``DeadlineExceeded`` once the deadline has passed or the deadline was cancelled, and lets other threads
run when the work has held the interpreter for ``HOLD_S``: so a check is due every few milliseconds of
work, in every loop that grows with the input.

Work in worker threads takes ``Turns``: at most one of them runs the rules core at a time, and at each
``HOLD_S`` it lets the next one in, first come first served. One running thread is all the GIL allows
anyway; what the turns add is who competes for it. Compiled, a thread lets the GIL go only at a check, and
CPython hands it to whichever waiting thread the system wakes: with eight workers computing, the event loop
won one hand-over in nine, and ``/healthz`` waited for several of them in a row. With turns it competes
with one worker only.

The deadline is carried by a context variable: each worker thread, and the event loop's task running an
inline slice, sees only its own. Without one, ``check()`` does nothing, so pure callers (tests, the CLI)
need not know of it. Once a deadline has raised it is *tripped*: every later ``check()`` raises again, and
the caller discards the result even if some ``except RulesError`` on the way turned the first raise into
an answer.
"""

from __future__ import annotations

import select
import threading
import time
from collections import deque
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


TURN_WAIT_S: Final = 0.05
"""The longest a thread waits for its turn before it runs without one. Turns pass every ``HOLD_S``, so a
wait this long means the thread holding the turn is blocked elsewhere (a database call, a lock that the
waiting thread's own work needs): running anyway never deadlocks, and only shares the GIL more widely."""


class Turns:
    """Threads take turns at the rules core, first come first served (``take``, ``give``).

    A ticket queue of gates rather than one ``threading.Lock``: a lock goes to whichever thread grabs it
    first, and the thread that has just given it up is running and grabs it again, so one request would
    keep the turn until it ends while the others wait out their budgets."""

    __slots__ = ("_held", "_mutex", "_queue")

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._queue: deque[threading.Lock] = deque()

    def take(self, timeout: float = TURN_WAIT_S) -> bool:
        """Wait for the turn; True once it is this thread's (``give`` it back), False if the wait timed
        out (the thread then runs without it and gives nothing)."""
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            gate = threading.Lock()
            gate.acquire()
            self._queue.append(gate)
        if gate.acquire(timeout=timeout):  # released by ``give``: the turn passed to this thread
            return True
        with self._mutex:
            if gate in self._queue:
                self._queue.remove(gate)
                return False
        # Given just as the wait ended: the turn is this thread's after all.
        gate.acquire()
        return True

    def give(self) -> None:
        """Pass the turn to the thread that has waited longest, or free it."""
        with self._mutex:
            if self._queue:
                self._queue.popleft().release()
            else:
                self._held = False

    @property
    def waiting(self) -> int:
        with self._mutex:
            return len(self._queue)


class _Flags:
    """The two things about a deadline that change: set once, never cleared, each by a single store; and
    when the work last let other threads run, and whether it holds its turn (both written by the working
    thread only).

    Plain attributes, not ``threading.Event``s: a flag is written by one thread and read by another, and
    under the GIL a store and a load of an attribute are atomic; nobody waits on them. Two events (a
    condition and a lock each) were built for every request's deadline, a measurable share of
    a varied ``spells/cost``."""

    __slots__ = ("asked", "cancelled", "has_turn", "since", "tripped")

    def __init__(self) -> None:
        self.cancelled = False
        self.tripped = False
        self.asked = False  # for a turn, since the work last gave one back
        self.has_turn = False
        self.since = time.monotonic()


@dataclass(frozen=True, slots=True)
class Deadline:
    """Work may run until ``at`` (``time.monotonic()`` seconds) unless ``cancel()`` is called first; with
    ``turns``, its checks take turns with the other work sharing them (the worker threads).

    Frozen: the flags are the only state that changes, so the thread that owns the request may cancel the
    work of another."""

    at: float
    turns: Turns | None = field(default=None, repr=False, compare=False)
    _flags: _Flags = field(init=False, default_factory=_Flags, repr=False, compare=False)

    def __init__(self, at: float, turns: Turns | None = None) -> None:
        # Written out rather than generated: mypyc compiles this one, and leaves the dataclass module's
        # generated ``__init__`` interpreted (13 x slower; ``tests/rules/test_native_inits.py``).
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "turns", turns)
        object.__setattr__(self, "_flags", _Flags())

    @classmethod
    def after(cls, seconds: float, turns: Turns | None = None) -> Deadline:
        return cls(time.monotonic() + seconds, turns)

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
            self.give_turn()
            raise DeadlineExceeded("the computation was cancelled", cancelled=True)
        now = time.monotonic()
        if now > self.at:
            flags.tripped = True
            self.give_turn()
            raise DeadlineExceeded
        turns = self.turns
        if turns is not None and not flags.asked:
            # Asked once, not at every check: a wait that timed out (the turn's holder blocked elsewhere)
            # is not waited again before the next hand-over.
            flags.has_turn = turns.take()
            flags.asked = True
            flags.since = now = time.monotonic()
        if now - flags.since > HOLD_S:
            self.give_turn()
            # Compiled (mypyc), the core never returns to the interpreter's loop, which is where CPython
            # hands the GIL to a waiting thread: the event loop and every other request would wait for
            # the whole computation. An empty select releases it (and, unlike ``time.sleep(0)``, does
            # not give the CPU away); a thread waiting longer than the switch interval has asked for it
            # and takes it now. The pure build switches anyway; this costs it one system call per
            # ``HOLD_S`` of work (docs/performance.md).
            select.select((), (), (), 0)
            if turns is not None:
                flags.has_turn = turns.take()
                flags.asked = True
            flags.since = time.monotonic()

    def give_turn(self) -> None:
        """Give back the turn this work holds, if any (its checks take it again): when it stops, and
        whenever it leaves the rules core for long (``running`` gives it on leaving)."""
        flags = self._flags
        flags.asked = False
        if flags.has_turn:
            flags.has_turn = False
            turns = self.turns
            if turns is not None:
                turns.give()


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
        self.deadline.give_turn()
        if self._token is not None:
            _CURRENT.reset(self._token)
            self._token = None
