"""Unread text as warnings (API 1.3, "nothing unread left silent"): every permanent of the board, and the
spell being cast, whose text holds a sentence the readers do not apply and that names a word that could
bear on the answer (``app.rules.text.ledger``) adds a warning quoting that sentence, naming the card and
the permanent. A sentence another warning of the answer already quotes is not warned twice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.rules.text.ledger import UNREAD_REASON, UnreadSentence, spell_unread
from app.rules.values.cards import Card, Face
from app.schemas.warnings import CostWarningOut, WarningOut

RULE = "601.2f"
"""What an unread sentence may change: the total cost (601.2f) or the mana a permanent adds (605.1a)."""


def _reason(u: UnreadSentence) -> str:
    return f"{UNREAD_REASON} (it names: {', '.join(u.words)})"


def _new(unread: Iterable[UnreadSentence], said: Sequence[tuple[str | None, str]]) -> list[UnreadSentence]:
    out = []
    for u in unread:
        low = u.text.casefold().rstrip(".")
        if any(p == u.permanent and low in text.casefold() for p, text in said):
            continue
        out.append(u)
    return out


def unread_for_costs(
    board: Sequence[UnreadSentence], spell: tuple[Card, Face] | None, existing: Sequence[CostWarningOut]
) -> list[CostWarningOut]:
    """The warnings of ``spells/cost`` and ``payments/plan``: the spell's unread sentences first, then the
    board's (``ledger.board_unread``, read once per board: ``BuiltBoard.unread``)."""
    unread: list[UnreadSentence] = []
    if spell is not None:
        unread.extend(spell_unread(*spell))
    unread.extend(board)
    said = [(w.permanent, w.text) for w in existing]
    return [
        CostWarningOut(
            source=u.permanent,
            permanent=u.permanent,
            card=u.card,
            text=u.text,
            message=_reason(u),
            reason=_reason(u),
            rule=RULE,
        )
        for u in _new(unread, said)
    ]


def unread_for_analysis(board: Sequence[UnreadSentence], existing: Sequence[WarningOut]) -> list[WarningOut]:
    """The warnings of ``boards/analyze``."""
    said = [(w.permanent, w.text) for w in existing]
    return [
        WarningOut(permanent=u.permanent or "", card=u.card, text=u.text, reason=_reason(u), rule="605.1a")
        for u in _new(board, said)
    ]
