"""The scenario repository on the test database: conditional updates, unique names, cascades, keysets."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.models.scenarios import (
    ScenarioChoiceRow,
    ScenarioPermanentRow,
    ScenarioPlayedCardRow,
    ScenarioRow,
)
from app.db.repositories import api_keys as key_repo
from app.db.repositories import scenarios as repo
from app.db.repositories.scenarios import PermanentFacts
from app.errors import Conflict

FACTS = (
    PermanentFacts("horn", "Herald's Horn", None, "you", choices=(("creature_type", "Elf"),)),
    PermanentFacts(
        "richard", "Richard Garfield, Ph.D.", None, "you", played=(("savannah lions", "Savannah Lions"),)
    ),
)


@pytest.fixture
def key_id(db_session: Session) -> int:
    return key_repo.insert_api_key(db_session, name="repo-test", key_hash="0" * 64, now=utcnow()).id


def _row(key_id: int, name: str = "s", owner: str = "", created: datetime | None = None) -> ScenarioRow:
    now = created or utcnow()
    return ScenarioRow(
        id=str(uuid.uuid4()),
        api_key_id=key_id,
        owner=owner,
        name=name,
        description="",
        board={"permanents": []},
        version=1,
        created_at=now,
        updated_at=now,
    )


def _count(session: Session, table: type, scenario_id: str) -> int:
    return (
        session.scalar(select(func.count()).select_from(table).where(table.scenario_id == scenario_id)) or 0
    )


def test_insert_stores_rows_and_times_are_utc(db_session: Session, key_id: int) -> None:
    row = _row(key_id)
    repo.insert_scenario(db_session, row=row, permanents=FACTS)
    db_session.expire_all()
    got = repo.get_scenario(db_session, api_key_id=key_id, scenario_id=row.id)
    assert got is not None
    assert got.created_at.tzinfo is not None
    assert got.created_at.utcoffset() == timedelta(0)
    assert [p.permanent_id for p in repo.permanent_rows(db_session, scenario_id=row.id)] == [
        "horn",
        "richard",
    ]
    assert [(c.kind, c.value) for c in repo.choice_rows(db_session, scenario_id=row.id)] == [
        ("creature_type", "Elf")
    ]
    assert [p.card_name for p in repo.played_rows(db_session, scenario_id=row.id)] == ["Savannah Lions"]
    # Another key does not see it.
    assert repo.get_scenario(db_session, api_key_id=key_id + 1, scenario_id=row.id) is None


def test_conditional_update_changes_only_the_expected_version(db_session: Session, key_id: int) -> None:
    row = _row(key_id)
    repo.insert_scenario(db_session, row=row, permanents=FACTS)
    common = {"api_key_id": key_id, "scenario_id": row.id, "now": utcnow()}
    stale = repo.update_scenario(db_session, expected_version=2, values={"description": "x"}, **common)
    assert stale is None
    updated = repo.update_scenario(db_session, expected_version=1, values={"description": "y"}, **common)
    assert updated is not None
    assert (updated.version, updated.description) == (2, "y")
    assert repo.update_scenario(db_session, expected_version=1, values={"description": "z"}, **common) is None
    anyv = repo.update_scenario(db_session, expected_version=None, values={"description": "w"}, **common)
    assert anyv is not None and anyv.version == 3
    other_key = repo.update_scenario(
        db_session, api_key_id=key_id + 1, scenario_id=row.id, now=utcnow(), expected_version=None, values={}
    )
    assert other_key is None
    got = repo.get_scenario(db_session, api_key_id=key_id, scenario_id=row.id)
    assert got is not None and (got.version, got.description) == (3, "w")


def test_update_replaces_the_rows(db_session: Session, key_id: int) -> None:
    row = _row(key_id)
    repo.insert_scenario(db_session, row=row, permanents=FACTS)
    new = (PermanentFacts("forest", "Forest", None, "you"),)
    repo.update_scenario(
        db_session,
        api_key_id=key_id,
        scenario_id=row.id,
        expected_version=1,
        now=utcnow(),
        values={},
        permanents=new,
    )
    assert [p.permanent_id for p in repo.permanent_rows(db_session, scenario_id=row.id)] == ["forest"]
    assert _count(db_session, ScenarioChoiceRow, row.id) == 0
    assert _count(db_session, ScenarioPlayedCardRow, row.id) == 0


def test_duplicate_name_is_a_conflict_and_the_transaction_goes_on(db_session: Session, key_id: int) -> None:
    repo.insert_scenario(db_session, row=_row(key_id, "same"), permanents=())
    with pytest.raises(Conflict):
        repo.insert_scenario(db_session, row=_row(key_id, "same"), permanents=FACTS)
    # The failed INSERT did not poison the transaction (a SAVEPOINT on PostgreSQL) and left no rows.
    repo.insert_scenario(db_session, row=_row(key_id, "same", owner="someone"), permanents=())
    assert db_session.scalar(select(func.count()).select_from(ScenarioRow)) == 2
    assert db_session.scalar(select(func.count()).select_from(ScenarioPermanentRow)) == 0


def test_duplicate_played_card_is_a_conflict(db_session: Session, key_id: int) -> None:
    """The rows' key holds when the trigger writes them: the same card twice for one Richard fails the
    UPDATE (a Conflict) and changes nothing; another card is recorded."""
    row = _row(key_id)
    repo.insert_scenario(db_session, row=row, permanents=FACTS)
    horn, richard = FACTS
    common = {"api_key_id": key_id, "scenario_id": row.id, "now": utcnow(), "values": {}}
    twice = replace(richard, played=(*richard.played, ("savannah lions", "Savannah Lions")))
    with pytest.raises(Conflict), db_session.begin_nested():
        repo.update_scenario(db_session, expected_version=1, permanents=(horn, twice), **common)
    swords = replace(richard, played=(*richard.played, ("swords to plowshares", "Swords to Plowshares")))
    assert repo.update_scenario(db_session, expected_version=1, permanents=(horn, swords), **common)
    assert [
        p.card_name for p in repo.played_rows(db_session, scenario_id=row.id, permanent_id="richard")
    ] == [
        "Savannah Lions",
        "Swords to Plowshares",
    ]


def test_delete_cascades_and_checks_the_version(db_session: Session, key_id: int) -> None:
    row = _row(key_id)
    repo.insert_scenario(db_session, row=row, permanents=FACTS, idempotency=("idem", "f" * 64))
    assert not repo.delete_scenario(db_session, api_key_id=key_id, scenario_id=row.id, expected_version=2)
    assert not repo.delete_scenario(
        db_session, api_key_id=key_id + 1, scenario_id=row.id, expected_version=None
    )
    assert repo.delete_scenario(db_session, api_key_id=key_id, scenario_id=row.id, expected_version=1)
    for table in (ScenarioPermanentRow, ScenarioChoiceRow, ScenarioPlayedCardRow):
        assert _count(db_session, table, row.id) == 0
    assert repo.get_idempotency(db_session, api_key_id=key_id, key="idem") is None


def test_list_is_a_keyset_in_creation_order(db_session: Session, key_id: int) -> None:
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    rows = [
        _row(key_id, f"s{i}", owner="o" if i % 2 else "", created=t0 + timedelta(seconds=i // 2))
        for i in range(6)
    ]
    for r in rows:
        repo.insert_scenario(db_session, row=r, permanents=())
    expected = sorted(rows, key=lambda r: (r.created_at, r.id))
    seen: list[str] = []
    after = None
    while True:
        page = repo.list_scenarios(db_session, api_key_id=key_id, owner=None, name=None, after=after, limit=4)
        seen += [r.id for r in page]
        if len(page) < 4:
            break
        after = (page[-1].created_at, page[-1].id)
    assert seen == [r.id for r in expected]
    owned = repo.list_scenarios(db_session, api_key_id=key_id, owner="o", name=None, after=None, limit=10)
    assert [r.name for r in owned] == [r.name for r in expected if r.owner == "o"]
    named = repo.list_scenarios(db_session, api_key_id=key_id, owner=None, name="s3", after=None, limit=10)
    assert [r.name for r in named] == ["s3"]
