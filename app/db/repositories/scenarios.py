"""All SQL of stored scenarios. Functions flush, never commit (the request owns the transaction).

Changes are optimistic: ``update_scenario`` is one conditional ``UPDATE ... SET version = version + 1
WHERE id = ? AND api_key_id = ? [AND version = ?]``, atomic on SQLite and PostgreSQL alike, so of two
writers holding the same version exactly one wins and the other changes nothing. Unique violations run
in a SAVEPOINT, so on PostgreSQL the failed statement leaves the rest of the transaction usable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.scenarios import (
    ScenarioChoiceRow,
    ScenarioIdempotencyRow,
    ScenarioPermanentRow,
    ScenarioPlayedCardRow,
    ScenarioRow,
)
from app.errors import Conflict


@dataclass(frozen=True, slots=True)
class PermanentFacts:
    """What a scenario's rows say of one permanent (derived from its board)."""

    permanent_id: str
    card_name: str
    oracle_id: str | None
    controller: str
    choices: tuple[tuple[str, str], ...] = ()  # (kind, value)
    played: tuple[tuple[str, str], ...] = ()  # (folded name, name), in order


class IdempotencyKeyTaken(Exception):
    """The idempotency key was stored by a concurrent request (the caller looks it up again)."""


def _name_conflict(name: str, owner: str) -> Conflict:
    whose = f" for owner {owner!r}" if owner else ""
    return Conflict(
        f"a scenario named {name!r} already exists{whose}",
        errors=[{"loc": ["body", "name"], "msg": "name already used", "type": "conflict"}],
    )


def get_scenario(
    session: Session, *, api_key_id: int, scenario_id: str, for_update: bool = False
) -> ScenarioRow | None:
    """The key's scenario, or None (another key's scenario is None too). ``for_update`` locks its row
    (PostgreSQL; SQLite writers already hold the database's write lock)."""
    query = select(ScenarioRow).where(ScenarioRow.id == scenario_id, ScenarioRow.api_key_id == api_key_id)
    if for_update:
        query = query.with_for_update()
    return session.scalars(query.execution_options(populate_existing=True)).first()


_T = ScenarioRow.__table__.c
_READ = select(
    _T.id, _T.name, _T.description, _T.owner, _T.board, _T.version, _T.created_at, _T.updated_at
).where(_T.id == bindparam("scenario_id"), _T.api_key_id == bindparam("api_key_id"))
"""Built once: a scenario read (issue 14) runs one cached Core statement, without building a query
and loading ORM objects on each request (about a third of a read's CPU time)."""


def read_scenario(session: Session, *, api_key_id: int, scenario_id: str) -> Row[Any] | None:
    """The key's scenario's fields (``id``, ``name``, ... ``updated_at``) for a read that changes nothing,
    or None."""
    return session.connection().execute(_READ, {"scenario_id": scenario_id, "api_key_id": api_key_id}).first()


def get_idempotency(session: Session, *, api_key_id: int, key: str) -> ScenarioIdempotencyRow | None:
    return session.scalars(
        select(ScenarioIdempotencyRow)
        .where(ScenarioIdempotencyRow.api_key_id == api_key_id, ScenarioIdempotencyRow.idempotency_key == key)
        .execution_options(populate_existing=True)
    ).first()


def insert_scenario(
    session: Session,
    *,
    row: ScenarioRow,
    permanents: Sequence[PermanentFacts],
    idempotency: tuple[str, str] | None = None,
) -> None:
    """Insert a scenario with its rows (and its idempotency key, hash). A name already used by the key
    and owner is a ``Conflict``; an idempotency key stored meanwhile raises ``IdempotencyKeyTaken``."""
    try:
        with session.begin_nested():
            session.add(row)
            session.flush()
            _insert_children(session, row.id, permanents)
            if idempotency is not None:
                key, request_hash = idempotency
                session.execute(
                    insert(ScenarioIdempotencyRow).values(
                        api_key_id=row.api_key_id,
                        idempotency_key=key,
                        request_hash=request_hash,
                        scenario_id=row.id,
                        created_at=row.created_at,
                    )
                )
    except IntegrityError as exc:
        if idempotency is not None and get_idempotency(
            session, api_key_id=row.api_key_id, key=idempotency[0]
        ):
            raise IdempotencyKeyTaken from exc
        raise _name_conflict(row.name, row.owner) from exc


def update_scenario(
    session: Session,
    *,
    api_key_id: int,
    scenario_id: str,
    expected_version: int | None,
    now: datetime,
    values: dict[str, Any],
    permanents: Sequence[PermanentFacts] | None = None,
) -> ScenarioRow | None:
    """Apply ``values`` and bump the version, only if the scenario is the key's and (when
    ``expected_version`` is given) still at that version; None when nothing was changed. With
    ``permanents``, the scenario's rows are replaced by them. A name taken is a ``Conflict``."""
    conditions = [ScenarioRow.id == scenario_id, ScenarioRow.api_key_id == api_key_id]
    if expected_version is not None:
        conditions.append(ScenarioRow.version == expected_version)
    statement = (
        update(ScenarioRow)
        .where(*conditions)
        .values(**values, version=ScenarioRow.version + 1, updated_at=now)
        .returning(ScenarioRow)
        .execution_options(synchronize_session=False, populate_existing=True)
    )
    # No savepoint (two round trips): a name conflict fails the whole request, which rolls back anyway.
    # Deleting the permanents deletes their choices and played cards (ON DELETE CASCADE): one statement.
    try:
        row = session.scalars(statement).first()
        if row is not None and permanents is not None:
            session.execute(
                delete(ScenarioPermanentRow).where(ScenarioPermanentRow.scenario_id == scenario_id)
            )
            _insert_children(session, scenario_id, permanents)
    except IntegrityError as exc:
        raise _name_conflict(str(values.get("name", "")), str(values.get("owner", ""))) from exc
    return row


def replace_choices(
    session: Session, *, scenario_id: str, permanent_id: str, choices: Sequence[tuple[str, str]]
) -> None:
    """The permanent's chosen values become ``choices`` (kind, value)."""
    session.execute(
        delete(ScenarioChoiceRow).where(
            ScenarioChoiceRow.scenario_id == scenario_id, ScenarioChoiceRow.permanent_id == permanent_id
        )
    )
    if choices:
        session.execute(
            insert(ScenarioChoiceRow),
            [
                {"scenario_id": scenario_id, "permanent_id": permanent_id, "kind": k, "value": v}
                for k, v in choices
            ],
        )


def add_played_card(
    session: Session, *, scenario_id: str, permanent_id: str, name_folded: str, name: str, position: int
) -> None:
    """Record a card chosen through a Richard; already recorded for that Richard is a ``Conflict``."""
    try:
        with session.begin_nested():
            session.execute(
                insert(ScenarioPlayedCardRow).values(
                    scenario_id=scenario_id,
                    permanent_id=permanent_id,
                    name_folded=name_folded,
                    card_name=name,
                    position=position,
                )
            )
    except IntegrityError as exc:
        raise Conflict(f"{name!r} was already chosen through {permanent_id!r}") from exc


def delete_scenario(
    session: Session, *, api_key_id: int, scenario_id: str, expected_version: int | None
) -> bool:
    """Delete the key's scenario (only at ``expected_version`` when given); its rows go with it
    (ON DELETE CASCADE). False when nothing was deleted."""
    conditions = [ScenarioRow.id == scenario_id, ScenarioRow.api_key_id == api_key_id]
    if expected_version is not None:
        conditions.append(ScenarioRow.version == expected_version)
    result = session.execute(
        delete(ScenarioRow).where(*conditions).execution_options(synchronize_session=False)
    )
    return bool(result.rowcount)  # type: ignore[attr-defined]


def list_scenarios(
    session: Session,
    *,
    api_key_id: int,
    owner: str | None,
    name: str | None,
    after: tuple[datetime, str] | None,
    limit: int,
) -> list[ScenarioRow]:
    """The key's scenarios in creation order (then id), after the keyset position ``after``; at most
    ``limit`` rows."""
    query = select(ScenarioRow).where(ScenarioRow.api_key_id == api_key_id)
    if owner is not None:
        query = query.where(ScenarioRow.owner == owner)
    if name is not None:
        query = query.where(ScenarioRow.name == name)
    if after is not None:
        created, last_id = after
        query = query.where(
            or_(
                ScenarioRow.created_at > created,
                (ScenarioRow.created_at == created) & (ScenarioRow.id > last_id),
            )
        )
    query = query.order_by(ScenarioRow.created_at, ScenarioRow.id).limit(limit)
    return list(session.scalars(query.execution_options(populate_existing=True)))


def permanent_rows(session: Session, *, scenario_id: str) -> list[ScenarioPermanentRow]:
    """The scenario's permanents, in board order."""
    return list(
        session.scalars(
            select(ScenarioPermanentRow)
            .where(ScenarioPermanentRow.scenario_id == scenario_id)
            .order_by(ScenarioPermanentRow.position)
        )
    )


def choice_rows(session: Session, *, scenario_id: str) -> list[ScenarioChoiceRow]:
    return list(
        session.scalars(
            select(ScenarioChoiceRow)
            .where(ScenarioChoiceRow.scenario_id == scenario_id)
            .order_by(ScenarioChoiceRow.permanent_id, ScenarioChoiceRow.kind)
        )
    )


def played_rows(
    session: Session, *, scenario_id: str, permanent_id: str | None = None
) -> list[ScenarioPlayedCardRow]:
    query = select(ScenarioPlayedCardRow).where(ScenarioPlayedCardRow.scenario_id == scenario_id)
    if permanent_id is not None:
        query = query.where(ScenarioPlayedCardRow.permanent_id == permanent_id)
    return list(
        session.scalars(query.order_by(ScenarioPlayedCardRow.permanent_id, ScenarioPlayedCardRow.position))
    )


def _insert_children(session: Session, scenario_id: str, permanents: Sequence[PermanentFacts]) -> None:
    if not permanents:
        return
    session.execute(
        insert(ScenarioPermanentRow),
        [
            {
                "scenario_id": scenario_id,
                "permanent_id": p.permanent_id,
                "position": i,
                "card_name": p.card_name,
                "oracle_id": p.oracle_id,
                "controller": p.controller,
            }
            for i, p in enumerate(permanents)
        ],
    )
    choices = [
        {"scenario_id": scenario_id, "permanent_id": p.permanent_id, "kind": k, "value": v}
        for p in permanents
        for k, v in p.choices
    ]
    if choices:
        session.execute(insert(ScenarioChoiceRow), choices)
    played = [
        {
            "scenario_id": scenario_id,
            "permanent_id": p.permanent_id,
            "name_folded": folded,
            "card_name": name,
            "position": i,
        }
        for p in permanents
        for i, (folded, name) in enumerate(p.played)
    ]
    if played:
        session.execute(insert(ScenarioPlayedCardRow), played)
