"""Every migration is reversible, and the migrated schema is exactly what the models describe.

Runs on a fresh SQLite file and, when ``MANACALC_TEST_DATABASE_URL`` is PostgreSQL, on a fresh database
created beside the test database (the shared test schema is left alone).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, create_engine, inspect, text
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
    "scenario_idempotency_keys",
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
