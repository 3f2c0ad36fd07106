"""Every migration is reversible, and the migrated schema is exactly what the models describe.

Runs on a fresh SQLite file and, when ``MANACALC_TEST_DATABASE_URL`` is PostgreSQL, on a fresh database
created beside the test database (the shared test schema is left alone).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, Engine, create_engine, inspect, text
from sqlalchemy.engine import make_url

import app.db.models  # noqa: F401  (every table on Base.metadata)
from app.config import Settings
from app.db import migrate
from app.db.base import Base
from app.db.session import get_engine

SCENARIO_TABLES = {
    "api_keys",
    "scenarios",
    "scenario_permanents",
    "scenario_choices",
    "scenario_played_cards",
}
TEST_URL = os.environ.get("MANACALC_TEST_DATABASE_URL")


def _is_postgres(url: str | None) -> bool:
    return bool(url) and make_url(url).get_backend_name() == "postgresql"  # type: ignore[arg-type]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres_only)])
def fresh_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """An engine on an empty database of each kind (configured like the service's)."""
    if request.param == "sqlite":
        engine = get_engine(Settings(database_url=f"sqlite:///{tmp_path / 'migrations.db'}"))
        yield engine
        engine.dispose()
        return
    assert TEST_URL is not None and _is_postgres(TEST_URL)
    base = make_url(TEST_URL)
    name = f"manacalc_migrations_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine = get_engine(Settings(database_url=base.set(database=name).render_as_string(hide_password=False)))
    try:
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        admin.dispose()


def _diff(engine: Engine) -> list[object]:
    with engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        return list(compare_metadata(context, Base.metadata))


def _tables(engine: Engine) -> set[str]:
    return set(inspect(engine).get_table_names()) - {"alembic_version"}


def test_upgrade_downgrade_upgrade_and_models_agree(fresh_engine: Engine) -> None:
    migrate.upgrade_to_head(fresh_engine)
    assert _tables(fresh_engine) == set(Base.metadata.tables)
    assert _tables(fresh_engine) >= SCENARIO_TABLES
    assert _diff(fresh_engine) == []

    migrate.downgrade(fresh_engine, "0002")  # the scenarios migration alone, reverted
    assert not (SCENARIO_TABLES & _tables(fresh_engine))
    assert "cards" in _tables(fresh_engine)

    migrate.downgrade(fresh_engine, "base")  # every migration is reversible
    assert _tables(fresh_engine) == set()

    migrate.upgrade_to_head(fresh_engine)
    with fresh_engine.connect() as conn:
        assert migrate.is_at_head(conn)
    assert _diff(fresh_engine) == []


def test_a_diff_would_be_seen(fresh_engine: Engine) -> None:
    """The comparison is not vacuous: a column the models lack is reported."""
    migrate.upgrade_to_head(fresh_engine)
    with fresh_engine.begin() as conn:
        conn.execute(text("ALTER TABLE scenarios ADD COLUMN stray INTEGER"))
    assert any("stray" in repr(d) for d in _diff(fresh_engine))


def test_scenario_facts_keep_the_rows_and_keys_stored_before(fresh_engine: Engine) -> None:
    """Scenarios stored before ``scenario_facts`` get ``facts`` from their rows (which stay as they are)
    and their idempotency keys as columns; the next write of ``facts`` rewrites the rows (the trigger);
    the downgrade gives the keys back to their table."""
    with fresh_engine.begin() as conn:
        migrate.upgrade_connection(conn, "card_fields")
        now = {"now": "2026-12-01 00:00:00"}
        conn.execute(text("INSERT INTO api_keys (name, key_hash, created_at) VALUES ('k', :h, :now)"), {
            "h": "0" * 64, **now,
        })  # fmt: skip
        key_id = conn.execute(text("SELECT id FROM api_keys")).scalar_one()
        for sid in ("s1", "s2"):
            conn.execute(
                text(
                    "INSERT INTO scenarios (id, api_key_id, owner, name, description, board, version,"
                    " created_at, updated_at) VALUES (:id, :key, '', :id, '', '{}', 1, :now, :now)"
                ),
                {"id": sid, "key": key_id, **now},
            )
        rows = [("s1", "richard", 0, "Richard Garfield, Ph.D."), ("s1", "horn", 1, "Herald's Horn")]
        for sid, pid, position, card in rows:
            conn.execute(
                text(
                    "INSERT INTO scenario_permanents (scenario_id, permanent_id, position, card_name,"
                    " controller) VALUES (:sid, :pid, :position, :card, 'you')"
                ),
                {"sid": sid, "pid": pid, "position": position, "card": card},
            )
        conn.execute(text("INSERT INTO scenario_choices VALUES ('s1', 'horn', 'creature_type', 'Elf')"))
        for position, (folded, name) in enumerate([("sol ring", "Sol Ring"), ("forest", "Forest")]):
            conn.execute(
                text("INSERT INTO scenario_played_cards VALUES ('s1', 'richard', :f, :n, :p)"),
                {"f": folded, "n": name, "p": position},
            )
        conn.execute(
            text("INSERT INTO scenario_idempotency_keys VALUES (:key, 'idem', :h, 's2', :now)"),
            {"key": key_id, "h": "f" * 64, **now},
        )
        migrate.upgrade_connection(conn)

    def rows_of(conn: Connection) -> list[tuple[object, ...]]:
        return [
            *conn.execute(
                text("SELECT permanent_id, position, card_name FROM scenario_permanents ORDER BY 2")
            ),
            *conn.execute(text("SELECT permanent_id, kind, value FROM scenario_choices")),
            *conn.execute(
                text("SELECT permanent_id, name_folded, position FROM scenario_played_cards ORDER BY 3")
            ),
        ]

    with fresh_engine.begin() as conn:
        facts = {sid: json.loads(f) if isinstance(f, str) else f for sid, f in conn.execute(
            text("SELECT id, facts FROM scenarios")
        )}  # fmt: skip
        assert facts["s2"] == []
        assert facts["s1"] == [
            {
                "id": "richard",
                "card": "Richard Garfield, Ph.D.",
                "oracle_id": None,
                "controller": "you",
                "choices": [],
                "played": [["sol ring", "Sol Ring"], ["forest", "Forest"]],
            },
            {
                "id": "horn",
                "card": "Herald's Horn",
                "oracle_id": None,
                "controller": "you",
                "choices": [["creature_type", "Elf"]],
                "played": [],
            },
        ]
        before = rows_of(conn)
        assert len(before) == 5
        keys = conn.execute(text("SELECT id, idempotency_key, request_hash FROM scenarios ORDER BY id")).all()
        assert [tuple(k) for k in keys] == [("s1", None, None), ("s2", "idem", "f" * 64)]
        # Writing facts back as they are rewrites the same rows; another value, other rows.
        conn.execute(text("UPDATE scenarios SET facts = facts WHERE id = 's1'"))
        assert rows_of(conn) == before
        conn.execute(
            text("UPDATE scenarios SET facts = :f WHERE id = 's1'"),
            {"f": json.dumps([{**facts["s1"][1], "choices": [["creature_type", "Goblin"]]}])},
        )
        assert rows_of(conn) == [("horn", 0, "Herald's Horn"), ("horn", "creature_type", "Goblin")]

    migrate.downgrade(fresh_engine, "card_fields")
    with fresh_engine.connect() as conn:
        assert conn.execute(
            text("SELECT scenario_id, idempotency_key FROM scenario_idempotency_keys")
        ).all() == [("s2", "idem")]
        assert "facts" not in {c["name"] for c in inspect(conn).get_columns("scenarios")}
        assert rows_of(conn) == [("horn", 0, "Herald's Horn"), ("horn", "creature_type", "Goblin")]
    migrate.upgrade_to_head(fresh_engine)
    assert _diff(fresh_engine) == []
