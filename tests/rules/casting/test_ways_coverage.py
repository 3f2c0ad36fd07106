"""The ways sweep as a gate: over the bundled catalogue, no way to cast or optional cost that a card's text
offers is silently missing from ``ways`` (nothing silent), and at least 95% are offered with the cost their
text gives. ``bench/ways_coverage.py`` prints the figures and lists the cards (``--list warned``)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from app.rules.casting.prepared import prepare_board
from app.rules.values.board import Board, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine

ROOT = Path(__file__).resolve().parents[3]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ways_coverage", ROOT / "bench" / "ways_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ways_coverage"] = module
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def test_no_way_is_silently_missing_from_the_catalogue() -> None:
    found = BENCH.sweep([ROOT / "app" / "data" / "cards.json.gz"], listing="silent", limit=20)
    items = found["items"]
    total = sum(items.values())
    assert total > 1500, "the sweep found too few casting texts: its patterns broke"
    assert items["silent"] == 0, found["listed"]
    assert items["right"] / total >= 0.95, items


def _face(text: str, cost: str = "{3}{U}{U}") -> tuple[Card, Face]:
    face = Face("Test Spell", ManaCost.parse(cost), TypeLine.parse("Instant"), text)
    return Card("Test Spell", (face,)), face


def test_the_gate_can_fail_a_way_the_engine_would_not_offer_is_silent() -> None:
    """A text whose way the readers do not read and do not warn about counts as silent (the gate bites)."""
    board = prepare_board(Board((), (Player("you"), Player("opponent"))))
    card, face = _face("Flashback {2}{U}")
    assert BENCH.classify(card, face, board) == [("Flashback {2}{U}", "right")]
    item = BENCH.Item("Flashback {9}", "graveyard", "flashback", ManaCost.parse("{9}"))
    original = BENCH.items
    try:
        BENCH.items = lambda _face: [item]
        assert BENCH.classify(card, face, board) == [("Flashback {9}", "silent")]
    finally:
        BENCH.items = original


def test_an_alternative_cost_in_the_text_is_right_and_an_unread_one_is_warned() -> None:
    board = prepare_board(Board((), (Player("you"), Player("opponent"))))
    card, face = _face("You may pay {U} rather than pay this spell's mana cost.")
    assert BENCH.classify(card, face, board)[0][1] == "right"
    card, face = _face("You may chant loudly rather than pay this spell's mana cost.")
    assert BENCH.classify(card, face, board)[0][1] == "warned"
