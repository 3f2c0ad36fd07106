"""``app.rules.deadline``: the cooperative deadline, and the rules core's loops that check it (issue 27).

Each loop named by the issue (payment search, the could-produce fixed point, castability, the deck reader,
the cost-reduction orders) must stop under a deadline that has passed, and leave nothing half-kept: the
same call without a deadline afterwards answers as if the stopped one had never run.
"""

from __future__ import annotations

import threading
import time

import pytest

from app.rules import deadline
from app.rules.deadline import Deadline, DeadlineExceeded, running
from app.rules.decks.castability import DeckMana, cast_probability
from app.rules.decks.decklist import parse_decklist
from app.rules.errors import RulesError
from app.rules.mana.payment import plan_payment
from app.rules.mana.payment_values import ManaSource
from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def passed() -> Deadline:
    return Deadline(time.monotonic() - 1.0)


def test_no_deadline_no_check() -> None:
    assert deadline.current() is None
    deadline.check()


def test_a_passed_deadline_raises_a_rules_error_and_stays_tripped() -> None:
    d = passed()
    assert not d.tripped
    with running(d), pytest.raises(DeadlineExceeded) as caught:
        deadline.check()
    assert isinstance(caught.value, RulesError) and not caught.value.cancelled
    assert d.tripped
    with running(d), pytest.raises(DeadlineExceeded):  # every later check raises again
        deadline.check()


def test_cancel_stops_work_before_its_time() -> None:
    d = Deadline.after(60.0)
    with running(d):
        deadline.check()
        d.cancel()
        with pytest.raises(DeadlineExceeded) as caught:
            deadline.check()
    assert caught.value.cancelled and d.tripped


def test_running_restores_the_outer_deadline_and_threads_see_only_their_own() -> None:
    outer, inner = Deadline.after(60.0), passed()
    seen: list[Deadline | None] = []
    with running(outer):
        with running(inner):
            assert deadline.current() is inner
        assert deadline.current() is outer
        worker = threading.Thread(target=lambda: seen.append(deadline.current()))
        worker.start()
        worker.join()
    assert deadline.current() is None
    assert seen == [None]  # a thread started meanwhile has no deadline of its own


def _land(name: str, color: str) -> Card:
    text = f"{{T}}: Add {{{color}}}."
    return Card(name, (Face(name, None, TypeLine.parse(f"Basic Land — {name}"), text),))


def test_the_payment_search_stops_and_its_node_memo_is_not_left_half_written() -> None:
    sources = [ManaSource(f"s{i}", 0, (("G",), ("U",))) for i in range(6)]
    cost = ManaCost.parse("{G}{G}{U}{U}{G/U}{1}")
    with running(passed()), pytest.raises(DeadlineExceeded):
        plan_payment(cost, sources)
    assert plan_payment(cost, sources).steps  # the same call, unhurried, pays


def test_the_could_produce_fixed_point_stops() -> None:
    b = Board((Permanent("f", _land("Forest", "G"), "you"),), (Player("you"),))
    with running(passed()), pytest.raises(DeadlineExceeded):
        analyze_board(b)
    assert analyze_board(b).could_produce["f"] == ("G",)


def test_castability_stops_and_caches_nothing_of_the_stopped_call() -> None:
    deck = DeckMana(60, {frozenset("U"): 9, frozenset("R"): 8, frozenset("UR"): 4})
    with running(passed()), pytest.raises(DeadlineExceeded):
        cast_probability(deck, {"U": 2, "R": 1}, 3)
    assert 0.0 < cast_probability(deck, {"U": 2, "R": 1}, 3) < 1.0


def test_the_deck_reader_stops() -> None:
    with running(passed()), pytest.raises(DeadlineExceeded):
        parse_decklist("4 Llanowar Elves\n20 Forest\n")
    assert len(parse_decklist("4 Llanowar Elves\n20 Forest\n").entries) == 2


def test_the_tapped_lands_model_and_the_best_plan_stop_at_the_deadline() -> None:
    from app.rules.decks.castability_tapped import TappedKind, cast_probability_tapped
    from app.rules.decks.entering import EntryRule
    from app.rules.decks.manabase import LandKind, best_plan

    lands = {
        TappedKind(frozenset("R"), EntryRule("untapped")): 17,
        TappedKind(frozenset("RB"), EntryRule("tapped")): 7,
    }
    with running(passed()), pytest.raises(DeadlineExceeded):
        cast_probability_tapped(60, lands, {"R": 1, "B": 1}, 3)
    kinds = [LandKind("m", frozenset("R"), 20, 40), LandKind("p", frozenset("W"), 0, 40)]
    with running(passed()), pytest.raises(DeadlineExceeded):
        best_plan(kinds, [{"W": 30}, {"R": 20}], max_changes=10)
