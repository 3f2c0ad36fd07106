"""All SQL of stored scenarios. Functions flush, never commit (the request owns the transaction).

Every write is ONE statement (a scenario write in at most 3 round trips, auth included, on
SQLite and PostgreSQL: BEGIN, the statement, COMMIT):

- The child rows (``scenario_permanents``, ``scenario_choices``, ``scenario_played_cards``) are derived
  from the board, but with what only Python knows (oracle ids from the catalogue, folded names), so the
  scenario row carries them as JSON, ``facts`` (``facts_json``), and a trigger of the database rewrites
  the rows from it inside the INSERT or UPDATE that writes it: ``AFTER INSERT OR UPDATE OF facts ON
  scenarios``, a plpgsql function over ``json_array_elements`` on PostgreSQL, two triggers over
  ``json_each`` on SQLite (migration ``20261205_1440_scenario_facts``). A statement that does not set
  ``facts`` leaves the rows alone; the rows' keys still hold (a card twice for one Richard fails the
  statement: ``IntegrityError``, a ``Conflict`` here).
- A create is ``INSERT ... ON CONFLICT DO NOTHING`` (no failed statement, so the transaction goes on
  without a SAVEPOINT). The Idempotency-Key is a column of the scenario (unique per API key); when no
  row comes back, a second statement reads the key's scenario (``IdempotencyKeyTaken``: the scenario
  created first, also by a concurrent request a moment before), and without one the name is taken
  (a ``Conflict``).
- Changes are optimistic: ``update_scenario`` is one conditional ``UPDATE ... SET version = version + 1
  WHERE id = ? AND api_key_id = ? [AND version IN (...)] RETURNING``, atomic on SQLite and PostgreSQL
  alike, so of two writers holding the same version exactly one wins and the other changes nothing.
- A read-modify-write (a permanent's choice, a Richard's played card) reads the row and writes it back
  with that conditional UPDATE, in a session where each statement is its own transaction (no BEGIN nor
  COMMIT: ``app.db.session.statement_engine``): a read and one write, 2 round trips; a lost race changes
  nothing and the service reads again.

A later migration must not rebuild ``scenarios`` on SQLite (Alembic's batch "move and copy"): dropping the
table drops its triggers, and with foreign keys on, deletes the child rows (ON DELETE CASCADE).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Row, bindparam, delete, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from app.db.models.scenarios import (
    ScenarioChoiceRow,
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


def facts_json(permanents: Sequence[PermanentFacts]) -> list[dict[str, Any]]:
    """``scenarios.facts``: what the triggers write as rows, in board order (the rows' ``position``)."""
    return [
        {
            "id": p.permanent_id,
            "card": p.card_name,
            "oracle_id": p.oracle_id,
            "controller": p.controller,
            "choices": [list(c) for c in p.choices],
            "played": [list(c) for c in p.played],
        }
        for p in permanents
    ]


def facts_of(row: ScenarioRow) -> list[PermanentFacts]:
    """The stored scenario's ``facts`` back as ``PermanentFacts``."""
    return [
        PermanentFacts(
            permanent_id=f["id"],
            card_name=f["card"],
            oracle_id=f["oracle_id"],
            controller=f["controller"],
            choices=tuple((k, v) for k, v in f["choices"]),
            played=tuple((n, name) for n, name in f["played"]),
        )
        for f in row.facts
    ]


class IdempotencyKeyTaken(Exception):
    """The idempotency key was already used, by ``row`` (created first, maybe by a concurrent request)."""

    def __init__(self, row: ScenarioRow) -> None:
        super().__init__(row.id)
        self.row = row


def _name_conflict(name: str, owner: str) -> Conflict:
    whose = f" for owner {owner!r}" if owner else ""
    return Conflict(
        f"a scenario named {name!r} already exists{whose}",
        errors=[{"loc": ["body", "name"], "msg": "name already used", "type": "conflict"}],
    )


def _conflict(exc: IntegrityError, name: str, owner: str) -> Conflict:
    """The ``Conflict`` a failed write means: a played card twice (the key of scenario_played_cards,
    which the trigger writes) or, the only other key a write can break, the scenario's name."""
    if "scenario_played_cards" in str(exc.orig):
        return Conflict(
            "a card was already chosen through that Richard Garfield, Ph.D. (each card only once)"
        )
    return _name_conflict(name, owner)


def _conditions(
    api_key_id: int, scenario_id: str, expected_version: int | Collection[int] | None
) -> list[Any]:
    """The conditions of a change: the key's scenario, at ``expected_version`` (one or several) if given."""
    conditions = [ScenarioRow.id == scenario_id, ScenarioRow.api_key_id == api_key_id]
    if isinstance(expected_version, int):
        conditions.append(ScenarioRow.version == expected_version)
    elif expected_version is not None:
        conditions.append(ScenarioRow.version.in_(sorted(expected_version)))
    return conditions


def get_scenario(session: Session, *, api_key_id: int, scenario_id: str) -> ScenarioRow | None:
    """The key's scenario, or None (another key's scenario is None too)."""
    query = select(ScenarioRow).where(ScenarioRow.id == scenario_id, ScenarioRow.api_key_id == api_key_id)
    return session.scalars(query.execution_options(populate_existing=True)).first()


_T = ScenarioRow.__table__.c
_READ = select(
    _T.id, _T.name, _T.description, _T.owner, _T.board, _T.version, _T.created_at, _T.updated_at
).where(_T.id == bindparam("scenario_id"), _T.api_key_id == bindparam("api_key_id"))
"""Built once: a scenario read runs one cached Core statement, without building a query
and loading ORM objects on each request (about a third of a read's CPU time)."""


def read_scenario(session: Session, *, api_key_id: int, scenario_id: str) -> Row[Any] | None:
    """The key's scenario's fields (``id``, ``name``, ... ``updated_at``) for a read that changes nothing,
    or None."""
    row = session.connection().execute(_READ, {"scenario_id": scenario_id, "api_key_id": api_key_id}).first()
    return cast("Row[Any] | None", row)


def get_idempotency(session: Session, *, api_key_id: int, key: str) -> ScenarioRow | None:
    """The key's scenario created with the Idempotency-Key ``key``, or None."""
    return session.scalars(
        select(ScenarioRow)
        .where(ScenarioRow.api_key_id == api_key_id, ScenarioRow.idempotency_key == key)
        .execution_options(populate_existing=True)
    ).first()


def insert_scenario(
    session: Session,
    *,
    row: ScenarioRow,
    permanents: Sequence[PermanentFacts],
    idempotency: tuple[str, str] | None = None,
) -> None:
    """Insert a scenario (its rows follow, by trigger) in one statement, with its idempotency (key, hash).
    A name already used by the key and owner is a ``Conflict``; an idempotency key already used raises
    ``IdempotencyKeyTaken`` with the scenario created with it. ``row`` is not added to the session."""
    row.facts = facts_json(permanents)
    row.idempotency_key, row.request_hash = idempotency if idempotency is not None else (None, None)
    # Unset attributes are left to the columns' defaults.
    values = {column.key: value for column in _T if (value := getattr(row, column.key)) is not None}
    dialect = postgresql if session.get_bind().dialect.name == "postgresql" else sqlite
    # DO NOTHING without a target: every unique index is checked speculatively, the key's and the
    # name's alike. With the key as the only target, PostgreSQL checks the name's index plainly: a
    # retry that passed the key's check before the first request's row reached the index then waits
    # on the name's, and fails there with the first request's name instead of finding its key.
    statement = dialect.insert(ScenarioRow).values(values).on_conflict_do_nothing().returning(_T.id)
    try:
        inserted = session.execute(statement).first()
    except IntegrityError as exc:  # a card twice for one Richard (the trigger's rows)
        raise _conflict(exc, row.name, row.owner) from exc
    if inserted is not None:
        return
    # Nothing inserted: the conflicting row is committed (a writer in progress is waited for), so this
    # statement's snapshot sees it. The key decides first: a retry is answered, not refused.
    if idempotency is not None:
        first = get_idempotency(session, api_key_id=row.api_key_id, key=idempotency[0])
        if first is not None:
            raise IdempotencyKeyTaken(first)
    raise _name_conflict(row.name, row.owner)


def update_scenario(
    session: Session,
    *,
    api_key_id: int,
    scenario_id: str,
    expected_version: int | Collection[int] | None,
    now: datetime,
    values: dict[str, Any],
    permanents: Sequence[PermanentFacts] | None = None,
) -> ScenarioRow | None:
    """Apply ``values`` and bump the version, only if the scenario is the key's and (when
    ``expected_version`` is given: one version or several) still at that version; None when nothing was
    changed. With ``permanents``, the scenario's rows are replaced by them (``facts``, by trigger). A name
    taken, or a card twice for one Richard, is a ``Conflict``."""
    if permanents is not None:
        values = {**values, "facts": facts_json(permanents)}
    statement = (
        update(ScenarioRow)
        .where(*_conditions(api_key_id, scenario_id, expected_version))
        .values(**values, version=ScenarioRow.version + 1, updated_at=now)
        .returning(ScenarioRow)
        .execution_options(synchronize_session=False, populate_existing=True)
    )
    # No savepoint (two round trips): a conflict fails the whole request, which rolls back anyway.
    try:
        return session.scalars(statement).first()
    except IntegrityError as exc:
        raise _conflict(exc, str(values.get("name", "")), str(values.get("owner", ""))) from exc


def delete_scenario(
    session: Session, *, api_key_id: int, scenario_id: str, expected_version: int | Collection[int] | None
) -> bool:
    """Delete the key's scenario (only at ``expected_version`` when given: one version or several); its
    rows go with it (ON DELETE CASCADE). False when nothing was deleted."""
    result = session.execute(
        delete(ScenarioRow)
        .where(*_conditions(api_key_id, scenario_id, expected_version))
        .execution_options(synchronize_session=False)
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
