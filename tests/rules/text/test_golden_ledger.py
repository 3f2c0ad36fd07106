"""Golden cases of the sentence ledger (``tests/golden/ledger.yaml``): real cards, each sentence judged from
its printed text. A ``relevant`` sentence is never irrelevant: applied, or unread and then a warning that
quotes it on the permanent holding it (or on the spell, with no permanent)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.text.ledger import APPLIED, IRRELEVANT, UNREAD, board_unread, face_ledger, spell_unread
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from tests.rules.casting.test_golden import card as catalogue_card

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "ledger.yaml"
CASES = [pytest.param(c, id=c["id"]) for c in yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]]
_REMINDER = re.compile(r"\s*\([^()]*\)")


@cache
def _kinds(name: str) -> tuple[Card, Face, dict[str, str]]:
    card = catalogue_card(name)
    face = card.front
    return (
        card,
        face,
        {e.sentence.replace("~", face.name): e.kind for e in face_ledger(face.name, face.oracle_text)},
    )


def test_there_are_forty_cases_or_more() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES)
def test_quotes_are_the_cards_text(case: dict[str, Any]) -> None:
    _card, face, _k = _kinds(case["card"])
    printed = _REMINDER.sub("", face.oracle_text)
    for sentence in case["quote"][case["card"]]:
        assert sentence in printed, sentence


@pytest.mark.parametrize("case", CASES)
def test_each_sentence_is_classed_as_judged(case: dict[str, Any]) -> None:
    _card, _face, kinds = _kinds(case["card"])
    expect = case["expect"]
    for sentence in expect.get("applied", ()):
        assert kinds.get(sentence) == APPLIED, (sentence, kinds)
    for sentence in expect.get("irrelevant", ()):
        assert kinds.get(sentence) == IRRELEVANT, (sentence, kinds)
    for sentence in expect.get("relevant", ()):
        assert kinds.get(sentence) in (APPLIED, UNREAD), (sentence, kinds)


@pytest.mark.parametrize("case", CASES)
def test_an_unread_relevant_sentence_is_warned_where_it_is(case: dict[str, Any]) -> None:
    """On the board (a permanent ``x``) or as the spell (no permanent): the warning quotes the sentence as
    printed and names the card."""
    card, face, kinds = _kinds(case["card"])
    unread = [s for s in case["expect"].get("relevant", ()) if kinds.get(s) == UNREAD]
    if _permanent(face):
        board = Board((Permanent("x", card),), (Player("you"),), "you")
        said = {(u.permanent, u.card, u.text) for u in board_unread(board)}
        assert {("x", card.name, s) for s in unread} <= said
    else:
        said = {(u.permanent, u.card, u.text) for u in spell_unread(card, face)}
        assert {(None, card.name, s) for s in unread} <= said


def _permanent(face: Face) -> bool:
    return not any(t in str(face.type_line) for t in ("Instant", "Sorcery"))
