"""Processes starting together migrate and seed one at a time (``app.db.migrate.migration_lock``).

Each test runs on a fresh SQLite file and, on PostgreSQL runs, on a temporary PostgreSQL database; the
migrations run in real ``manacalc`` processes, as they do when replicas or uvicorn workers start.
"""

from __future__ import annotations

import fcntl
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

import app.db.models  # noqa: F401  (every table on Base.metadata)
from app.config import Settings
from app.db import migrate
from app.db.base import Base
from app.db.session import get_engine
from tests.deploy.support import child_env, free_port, manacalc_command, running

WAITING = "waiting for another process to finish migrating"


def _migrate_process(url: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child has its own copy of the descriptor
        return subprocess.Popen(
            [*manacalc_command(), "migrate"], env=child_env(url), stdout=out, stderr=subprocess.STDOUT
        )


def _state(url: str) -> tuple[frozenset[str], int, set[str]]:
    """(revisions, rows of alembic_version, tables) of the database at ``url``."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            revisions = migrate.current_revisions(conn)
            tables = set(inspect(conn).get_table_names())
            rows = conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one() if revisions else 0
        return revisions, rows, tables
    finally:
        engine.dispose()


@contextmanager
def _held_lock(url: str) -> Iterator[None]:
    """Hold the migration lock from outside, as another instance would."""
    if make_url(url).get_backend_name() == "postgresql":
        engine = create_engine(url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": migrate._PG_LOCK_ID})
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": migrate._PG_LOCK_ID})
        engine.dispose()
        return
    with open(f"{make_url(url).database}.migrate-lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _wait_for(predicate: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def test_concurrent_migrations_all_succeed_and_reach_head(fresh_database_url: str, tmp_path: Path) -> None:
    logs = [tmp_path / f"migrate-{i}.log" for i in range(3)]
    processes = [_migrate_process(fresh_database_url, log) for log in logs]
    codes = [p.wait(120) for p in processes]
    outputs = [log.read_text() for log in logs]
    assert codes == [0, 0, 0], outputs
    revisions, rows, tables = _state(fresh_database_url)
    assert revisions == migrate.head_revisions()
    assert rows == 1
    assert tables == set(Base.metadata.tables) | {"alembic_version"}
    # Exactly one process found work to do; the others found the schema at head.
    assert sum("database migrated from an empty schema" in out for out in outputs) == 1


def test_a_migration_waits_while_another_process_holds_the_lock(
    fresh_database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "migrate.log"
    with _held_lock(fresh_database_url):
        process = _migrate_process(fresh_database_url, log)
        try:
            _wait_for(lambda: WAITING in log.read_text(), 60, "the migration to report it is waiting")
            time.sleep(0.5)
            assert process.poll() is None, log.read_text()
            assert _state(fresh_database_url)[0] == frozenset()  # nothing migrated while locked out
        except BaseException:
            process.kill()
            raise
    assert process.wait(120) == 0, log.read_text()
    assert _state(fresh_database_url)[0] == migrate.head_revisions()


def test_the_lock_is_reentrant_within_a_thread(fresh_database_url: str) -> None:
    """prepare_database holds the lock and calls upgrade_to_head, which takes it again: no self-deadlock."""
    engine = get_engine(Settings(database_url=fresh_database_url))
    errors: list[BaseException] = []

    def nested() -> None:
        try:
            with migrate.migration_lock(engine), migrate.migration_lock(engine):
                migrate.upgrade_to_head(engine)
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=nested, daemon=True)
    worker.start()
    worker.join(60)
    try:
        assert not worker.is_alive(), "nested migration_lock deadlocked"
        assert errors == []
        with engine.connect() as conn:
            assert migrate.current_revisions(conn) == migrate.head_revisions()
        # Released at the end: another thread (another connection) takes it at once.
        acquired = threading.Event()

        def again() -> None:
            with migrate.migration_lock(engine):
                acquired.set()

        other = threading.Thread(target=again, daemon=True)
        other.start()
        assert acquired.wait(10)
        other.join(10)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_workers_starting_together_on_a_fresh_database_all_start(
    fresh_database_url: str, tmp_path: Path
) -> None:
    """Every uvicorn worker runs the lifespan (migration check and catalogue seeding) at the same moment."""
    port = free_port()
    argv = [*manacalc_command(), "serve", "--port", str(port), "--workers", "3"]
    with running(argv, child_env(fresh_database_url), port, tmp_path / "serve.log") as server:
        server.wait_ready()
        _wait_for(lambda: server.output().count("Application startup complete") >= 3, 90, "3 workers")
        output = server.output()
    assert "refuses to start" not in output, output[-3000:]
    assert output.count("Application startup complete") == 3
