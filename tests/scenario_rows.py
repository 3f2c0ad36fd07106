"""What a stored scenario's rows must say: what its board says (the database writes them, by trigger, from
the facts stored with the board; see ``app.db.repositories.scenarios``)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models.scenarios import ScenarioChoiceRow, ScenarioPermanentRow, ScenarioPlayedCardRow


def assert_rows_follow_the_board(db_session: Session, scenario: dict[str, Any]) -> None:
    """The scenario's rows say what its board says (the trigger wrote them from ``facts``): permanents
    in board order, each value chosen, each Richard's cards in the order played."""
    sid = scenario["id"]
    permanents = scenario["board"].get("permanents", [])
    rows = db_session.scalars(
        select(ScenarioPermanentRow)
        .where(ScenarioPermanentRow.scenario_id == sid)
        .order_by(ScenarioPermanentRow.position)
    ).all()
    assert [(r.permanent_id, r.position) for r in rows] == [(p["id"], i) for i, p in enumerate(permanents)]
    choices = db_session.scalars(select(ScenarioChoiceRow).where(ScenarioChoiceRow.scenario_id == sid)).all()
    assert sorted((c.permanent_id, c.kind, c.value) for c in choices) == sorted(
        (p["id"], kind, value)
        for p in permanents
        for kind, value in (p.get("chosen") or {}).items()
        if value is not None
    )
    played = db_session.scalars(
        select(ScenarioPlayedCardRow)
        .where(ScenarioPlayedCardRow.scenario_id == sid)
        .order_by(ScenarioPlayedCardRow.permanent_id, ScenarioPlayedCardRow.position)
    ).all()
    assert [(r.permanent_id, r.position, r.card_name) for r in played] == sorted(
        (p["id"], i, name) for p in permanents for i, name in enumerate(p.get("played_as") or [])
    )
