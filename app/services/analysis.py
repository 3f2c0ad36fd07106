"""Board analysis (``POST /v1/boards/analyze``): abilities, activation, could-produce, parties."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.config import Settings
from app.rules.casting.party import party
from app.rules.mana.activation_checks import check_activation
from app.rules.mana.production import BoardAnalysis
from app.rules.text.ledger import UnreadSentence, board_unread
from app.rules.values.board import Board
from app.schemas.analysis import (
    AbilityOut,
    AnalyzeAnswer,
    AnalyzeRequest,
    LostAbilityOut,
    PartyOut,
    PermanentAnalysis,
    PlayerAnalysis,
    ReasonOut,
)
from app.schemas.warnings import WarningOut
from app.services.board_memo import BOARDS
from app.services.catalogue import Catalogue
from app.services.unread_text import unread_for_analysis


def analyze(*, request: AnalyzeRequest, session: Session, settings: Settings) -> AnalyzeAnswer:
    """Read the board and answer for every permanent and player."""
    catalogue = Catalogue(session)
    version = catalogue.data_version
    built = BOARDS.get(request.board, catalogue, version)
    return render(
        built.board,
        built.analysis,
        rules_edition=settings.rules_edition,
        data_version=version,
        unread=built.unread,
    )


def render(
    board: Board,
    analysis: BoardAnalysis,
    *,
    rules_edition: str,
    data_version: str,
    unread: Sequence[UnreadSentence] | None = None,
) -> AnalyzeAnswer:
    """The answer; ``unread``: the board's unread sentences when already read (``BuiltBoard.unread``)."""
    permanents = []
    for state in analysis.state.states:
        abilities = []
        for ab in state.abilities:
            reasons = check_activation(analysis.state, state, ab)
            produced = analysis.produces[(state.id, ab.index)]
            adds_mana = produced is not None and ab.mana is not None
            texts = [m.text() for m in produced] if produced is not None and adds_mana else None
            listed = None if texts is None or None in texts else [t for t in texts if t is not None]
            abilities.append(
                AbilityOut(
                    index=ab.index,
                    cost=ab.cost_text,
                    text=ab.text,
                    is_mana_ability=ab.is_mana_ability,
                    can_activate=not reasons,
                    reasons=[ReasonOut(rule=r.rule, text=r.text) for r in reasons],
                    produces=_produces(listed),
                    amount=analysis.amount(state.id, ab.index) if adds_mana else None,
                    restriction=ab.restriction,
                    alternatives=listed,
                    origin=ab.origin,
                    rule=ab.rule,
                    granted_by=ab.granted_by,
                )
            )
        permanents.append(
            PermanentAnalysis(
                id=state.id,
                name=state.permanent.card.name,
                oracle_id=state.permanent.card.oracle_id,
                could_produce=list(analysis.could_produce[state.id]),
                abilities=abilities,
                abilities_lost=[
                    LostAbilityOut(
                        cost=ab.cost_text, text=ab.text, lost_to=by, card=board.get(by).name, rule="613.1f"
                    )
                    for ab, by in state.lost
                ],
            )
        )
    players = {}
    for player in board.players:
        p = party(board, player.name)
        players[player.name] = PlayerAnalysis(party=PartyOut(size=p.size, members=p.as_dict()))
    return AnalyzeAnswer(
        players=players,
        permanents=permanents,
        warnings=_warnings(board, analysis, unread),
        rules_edition=rules_edition,
        data_version=data_version,
    )


def _produces(alternatives: list[str] | None) -> str | None:
    """API.md "Mana": the one production as a cost string; a choice (or nothing listable) is null."""
    if alternatives is None or len(alternatives) > 1:
        return None
    return alternatives[0] if alternatives else "{0}"


def _warnings(
    board: Board, analysis: BoardAnalysis, unread: Sequence[UnreadSentence] | None
) -> list[WarningOut]:
    """The readers' warnings, then the unread sentences of the board's permanents (``unread_text``)."""
    names = {p.id: p.card.name for p in board.permanents}
    said = [
        WarningOut(
            permanent=w.permanent,
            card=w.card or names.get(w.permanent),
            text=w.text,
            reason=w.reason,
            rule=w.rule,
        )
        for w in analysis.warnings
    ]
    return said + unread_for_analysis(board_unread(board) if unread is None else unread, said)
