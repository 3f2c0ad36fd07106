"""``deadline.Turns``: work in worker threads takes turns at the rules core, first come first served, and
never waits for a turn for ever.

Each worker's checks hand the turn on every ``HOLD_S``; a thread without the turn waits in ``take``, with
the GIL let go, instead of competing with the event loop for it.
"""

from __future__ import annotations

import threading
import time

import pytest

from app.rules import deadline
from app.rules.deadline import HOLD_S, TURN_WAIT_S, Deadline, DeadlineExceeded, Turns, running


def test_the_turn_goes_to_the_thread_that_waited_longest() -> None:
    turns = Turns()
    assert turns.take()
    order: list[int] = []
    threads = []
    for i in range(3):
        thread = threading.Thread(target=lambda i=i: (turns.take(5.0), order.append(i), turns.give()))
        thread.start()
        threads.append(thread)
        while turns.waiting < i + 1:  # queued in this order
            time.sleep(0.001)
    turns.give()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2]
    assert turns.take(0.0)  # the last one freed it


def test_a_turn_not_given_in_time_is_not_waited_for() -> None:
    turns = Turns()
    assert turns.take()
    started = time.monotonic()
    got: list[bool] = []
    thread = threading.Thread(target=lambda: got.append(turns.take(0.05)))
    thread.start()
    thread.join(5)
    assert got == [False] and 0.04 <= time.monotonic() - started < 1.0
    assert turns.waiting == 0  # the timed-out waiter left the queue: giving frees the turn
    turns.give()
    assert turns.take(0.0)


def test_leaving_running_and_stopping_give_the_turn_back() -> None:
    turns = Turns()
    with running(Deadline.after(60.0, turns)):
        deadline.check()
        assert not turns.take(0.0)  # held by this work
    assert turns.take(0.0)
    turns.give()

    stopped = Deadline.after(60.0, turns)
    with running(stopped):
        deadline.check()
        stopped.cancel()
        with pytest.raises(DeadlineExceeded):
            deadline.check()
        assert turns.take(0.0)  # given back before the raise
        turns.give()


def test_threads_under_shared_turns_never_compute_at_once_and_each_gets_its_share() -> None:
    """Three workers loop on checks for a while: between two checks only the one holding the turn runs (a
    thread without it waits in ``take``), and the turn goes round, so each makes progress."""
    turns = Turns()
    inside = [0]
    overlaps = [0]
    steps = [0, 0, 0]
    lock = threading.Lock()

    def work(i: int) -> None:
        with running(Deadline.after(60.0, turns)):
            until = time.monotonic() + 0.5
            while time.monotonic() < until:
                deadline.check()
                with lock:
                    inside[0] += 1
                    overlaps[0] += inside[0] > 1
                spin = time.perf_counter() + HOLD_S / 4  # a stretch of work between two checks
                while time.perf_counter() < spin:
                    pass
                with lock:
                    inside[0] -= 1
                steps[i] += 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert overlaps == [0]
    assert min(steps) >= max(steps) / 4, steps  # first come first served: nobody starves
    assert turns.take(0.0)


def test_the_wait_for_a_turn_is_bounded_when_its_holder_is_blocked_elsewhere() -> None:
    """A worker holding the turn and blocked outside the rules core (a database call) delays the others by
    ``TURN_WAIT_S`` per hand-over at most, never for ever."""
    turns = Turns()
    blocked = threading.Event()
    release = threading.Event()

    def holder() -> None:
        with running(Deadline.after(60.0, turns)):
            deadline.check()  # takes the turn
            blocked.set()
            release.wait(10)

    thread = threading.Thread(target=holder)
    thread.start()
    blocked.wait(5)
    started = time.monotonic()
    with running(Deadline.after(60.0, turns)):
        for _ in range(1000):
            deadline.check()
    assert time.monotonic() - started < TURN_WAIT_S * 10
    release.set()
    thread.join(5)
