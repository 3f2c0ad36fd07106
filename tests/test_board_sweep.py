"""The board-wide sweep (API 1.3, "nothing unread left silent"), a CI gate beside the coverage sweeps.

Every card of the bundled catalogue whose text reaches other permanents or spells (an Aura or Equipment,
"creatures you control", "lands you control", "players may", "spells cost", "abilities"...) is put on a
board beside Llanowar Elves, Sol Ring and a Forest (an Aura or Equipment attached to the Elves), and the
service is asked, in process, for the board's analysis, the cost of Grizzly Bears and a payment of it. Each
card's answers are then one of:

- ``warned``: a warning of one of the answers names the card (its permanent, or the card by name);
- ``changed``: an answer differs from the same board without the card (production, activation, the total
  cost, the plan);
- ``unaffected``: every sentence of its face is applied or proven irrelevant (``app.rules.text.ledger``);
- ``refused``: the request was answered with a problem (a choice the board must state...), never silent;
- ``silent``: none of these. The gate: none.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import AppError
from app.rules.errors import RulesError
from app.rules.text.ledger import UNREAD, face_ledger
from app.schemas.analysis import AnalyzeRequest
from app.schemas.payments import PaymentPlanRequest
from app.schemas.spells import SpellCostRequest
from app.services import analysis, payments, spells

BUNDLED = Path(__file__).resolve().parents[1] / "app" / "data" / "cards.json.gz"
REACHES = re.compile(
    r"creatures? you control|lands? you control|artifacts? you control|permanents? you control|players? may"
    r"|spells? (?:you cast |your opponents cast )?costs?|\bcosts? \{|abilities|enchanted|equipped|each player"
    r"|spells you cast|as though|each land|all lands|all creatures|nonbasic lands|basic lands?",
    re.IGNORECASE,
)
SKIP_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}
)
PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")
SPELL = {"card": "Grizzly Bears"}


def _candidates() -> list[dict[str, Any]]:
    out = []
    seen: set[str] = set()
    for obj in json.loads(gzip.decompress(BUNDLED.read_bytes())):
        if obj.get("layout") in SKIP_LAYOUTS or obj["name"] in seen:
            continue
        face = (obj.get("card_faces") or [obj])[0]
        type_line = face.get("type_line") or obj.get("type_line") or ""
        text = face.get("oracle_text") or ""
        if not any(t in type_line for t in PERMANENT_TYPES):
            continue
        if "Aura" in type_line or "Equipment" in type_line or REACHES.search(text):
            seen.add(obj["name"])
            out.append(
                {"name": obj["name"], "face": face.get("name", obj["name"]), "text": text, "type": type_line}
            )
    return out


def _board(card: dict[str, Any] | None) -> dict[str, Any]:
    permanents: list[dict[str, Any]] = [
        {"id": "elves", "card": "Llanowar Elves"},
        {"id": "ring", "card": "Sol Ring"},
        {"id": "forest", "card": "Forest"},
    ]
    if card is not None:
        added: dict[str, Any] = {"id": "x", "card": card["name"]}
        if "Aura" in card["type"] or "Equipment" in card["type"]:
            added["attached_to"] = "elves"
        permanents.append(added)
    return {"permanents": permanents}


def _answers(board: dict[str, Any], session: Session, settings: Settings) -> tuple[Any, Any, Any]:
    a = analysis.analyze(
        request=AnalyzeRequest.model_validate({"board": board}), session=session, settings=settings
    )
    c = spells.spell_cost(
        request=SpellCostRequest.model_validate({"board": board, "spell": SPELL}),
        session=session,
        settings=settings,
    )
    p = payments.plan(
        request=PaymentPlanRequest.model_validate({"board": board, "spell": SPELL}),
        session=session,
        settings=settings,
    )
    return a, c, p


def _projection(answers: tuple[Any, Any, Any]) -> tuple[Any, ...]:
    """What the card could change for the three baseline permanents and the spell."""
    a, c, p = answers
    base = {
        perm.id: (
            tuple(perm.could_produce),
            tuple((ab.index, ab.can_activate, ab.produces, str(ab.amount)) for ab in perm.abilities),
        )
        for perm in a.permanents
        if perm.id != "x"
    }
    plan = tuple((s.permanent, s.ability) for s in p.plan)
    return (tuple(sorted(base.items())), c.total_cost, p.payable, plan)


def _warned(answers: tuple[Any, Any, Any], card: dict[str, Any]) -> bool:
    return any(
        w.permanent == "x" or w.card in (card["name"], card["face"])
        for answer in answers
        for w in answer.warnings
    )


def _classify(card: dict[str, Any], session: Session, settings: Settings, baseline: tuple[Any, ...]) -> str:
    try:
        answers = _answers(_board(card), session, settings)
    except (AppError, RulesError):
        return "refused"
    if _warned(answers, card):
        return "warned"
    if _projection(answers) != baseline:
        return "changed"
    if all(e.kind != UNREAD for e in face_ledger(card["face"], card["text"])):
        return "unaffected"
    return "silent"


@pytest.mark.slow
def test_no_card_that_reaches_the_board_is_silent(db_session: Session, settings: Settings) -> None:
    baseline = _projection(_answers(_board(None), db_session, settings))
    cards = _candidates()
    assert len(cards) > 1000, len(cards)
    if (limit := int(os.environ.get("MANACALC_BOARD_SWEEP_LIMIT", "0"))) > 0:  # a quick local run
        cards = cards[:: max(1, len(cards) // limit)]
    kinds: Counter[str] = Counter()
    silent = []
    for card in cards:
        kind = _classify(card, db_session, settings, baseline)
        kinds[kind] += 1
        if kind == "silent":
            silent.append(card["name"])
    print(dict(kinds))
    assert silent == [], (kinds, silent[:50])
