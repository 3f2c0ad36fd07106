"""Test fixtures: a database made by the migrations, one rolled-back transaction per test, the app.

``MANACALC_TEST_DATABASE_URL`` selects the database (default: a SQLite file in a pytest temporary
directory); on PostgreSQL the ``public`` schema is dropped and recreated first. The schema comes from
Alembic (never ``create_all``) and the start-up hooks (e.g. the bundled catalogue) run once per session.

Each test gets ``db_session``: a session on a connection whose outer transaction is rolled back at the
end; the app's ``SessionDep`` yields that session (its commit only releases a SAVEPOINT), so tests see
their own writes and never each other's.

    def test_something(client):            # starlette TestClient over the app (sync, httpx-based)
        assert client.get("/healthz").status_code == 200
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

_ROOT = Path(__file__).resolve().parents[1]
TEST_BUILD = os.environ.get("MANACALC_TEST_BUILD", "pure")
"""``compiled``: the tests import ``app`` from the built wheel (``make compiled``: build/compiled-core, its
rules core compiled by mypyc), what ``make run`` and the Docker image serve; ``pure`` (default): from the
checkout. CI's PostgreSQL pass runs on the compiled build, its SQLite pass on the pure one."""
COMPILED_CORE = _ROOT / "build" / "compiled-core"
if TEST_BUILD == "compiled":
    if "app" in sys.modules:  # pragma: no cover - a plugin imported app before this file could choose
        raise RuntimeError("MANACALC_TEST_BUILD=compiled: app was imported before tests/conftest.py")
    if not (COMPILED_CORE / "app" / "rules").is_dir():
        raise RuntimeError("MANACALC_TEST_BUILD=compiled: build/compiled-core is missing (make compiled)")
    sys.path.insert(0, str(COMPILED_CORE))
    # The servers and scripts tests start import it too: PYTHONSAFEPATH keeps `python -m` from putting the
    # working directory (the checkout) first on their path.
    os.environ["PYTHONPATH"] = os.pathsep.join([str(COMPILED_CORE), str(_ROOT)])
    os.environ["PYTHONSAFEPATH"] = "1"
elif TEST_BUILD != "pure":
    raise RuntimeError(f"MANACALC_TEST_BUILD is 'pure' or 'compiled', not {TEST_BUILD!r}")

import hypothesis
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app.config import Settings
from app.db.migrate import upgrade_to_head
from app.db.session import dispose_engines, get_engine
from app.main import apply_process_settings, create_app, run_startup_hooks
from app.services.catalogue_snapshot import core_build
from tests.sessions import bind_app_to_session

TEST_DATABASE_URL = os.environ.get("MANACALC_TEST_DATABASE_URL")

# In CI (CI=true) the SQLite and PostgreSQL passes share the machine's two cores (.ci/run): Hypothesis's
# per-example deadline (200 ms) would then measure the machine, not the code, so CI turns it off, as
# Hypothesis's guide suggests for CI. The properties themselves are unchanged.
hypothesis.settings.register_profile("ci", deadline=None)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
    hypothesis.settings.load_profile("ci")


def _check_the_build() -> None:
    """The build asked for is the one imported: compiled extension modules from build/compiled-core."""
    import app

    compiled = TEST_BUILD == "compiled"
    where = Path(app.__file__).resolve().parent
    if compiled and (core_build() != "mypyc" or COMPILED_CORE not in where.parents):
        raise RuntimeError(f"MANACALC_TEST_BUILD=compiled imported {where} ({core_build()})")
    if not compiled and where != _ROOT / "app":
        raise RuntimeError(f"the tests import app from {where}, not from the checkout")


_check_the_build()


DB_FREE_ONCE = os.environ.get("MANACALC_TEST_DB_FREE_ONCE") == "1"
"""CI's PostgreSQL pass (``.ci/run``) sets it: a test that never reaches the database under test ran on the
SQLite pass already, byte for byte the same, so the PostgreSQL pass skips it (``db_free``)."""

_RULES_TESTS = Path(__file__).resolve().parent / "rules"
_API_TESTS = Path(__file__).resolve().parent / "api"
# The fixtures that give a test a database of its own of each kind; their "sqlite" case never reaches
# the database under test.
_OWN_DATABASE_FIXTURES = ("fresh_database_url", "fresh_engine")


def _parents(item: pytest.Item) -> list[Path]:
    return list(Path(str(item.path)).resolve().parents)


def db_free(item: pytest.Item) -> bool:
    """A test that never reaches the database under test: the pure rules core (``tests/rules``, which
    ``tests/test_layering.py`` keeps free of ``app.db``), a test marked ``db_free`` (a server on a SQLite
    file of its own, a browser, a scan of the sources), or the SQLite case of a fixture giving each kind."""
    if "db_free" in item.keywords or _RULES_TESTS in Path(str(item.path)).resolve().parents:
        return True
    params = getattr(item, "callspec", None)
    return params is not None and any(params.params.get(f) == "sqlite" for f in _OWN_DATABASE_FIXTURES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if TEST_DATABASE_URL and make_url(TEST_DATABASE_URL).get_backend_name() == "postgresql":
        if DB_FREE_ONCE:
            once = pytest.mark.skip(reason="never reaches the database: ran on the SQLite pass")
            for item in items:
                # On the compiled build, the API's tests all run: the SQLite pass tested the pure build.
                if db_free(item) and not (TEST_BUILD == "compiled" and _API_TESTS in _parents(item)):
                    item.add_marker(once)
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: set MANACALC_TEST_DATABASE_URL")
    for item in items:
        if "postgres_only" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    if TEST_DATABASE_URL:
        return TEST_DATABASE_URL
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'manacalc-test.db'}"


@pytest.fixture(scope="session")
def settings(database_url: str) -> Settings:
    # No rate limit: tests send bursts from one client (tests/api/test_rate_limit.py turns it on).
    settings = Settings(
        database_url=database_url, migrate_on_start=False, log_level="WARNING", rate_limit_per_minute=0
    )
    # The test process is set up as a served one (logging, switch interval, unraisable hook): create_app
    # leaves process-wide settings alone, the server's entry points apply them (app.main).
    apply_process_settings(settings)
    return settings


def _reset_postgres(url: str) -> None:
    """Create the test database if missing, then give it an empty ``public`` schema."""
    parsed = make_url(url)
    try:
        probe = create_engine(parsed)
        with probe.connect():
            pass
        probe.dispose()
    except OperationalError as exc:
        if "does not exist" not in str(exc):
            raise
        admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{parsed.database}"'))
        admin.dispose()
    engine = create_engine(parsed)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(scope="session")
def engine(settings: Settings) -> Iterator[Engine]:
    """The test database, migrated to head by Alembic."""
    if make_url(settings.database_url).get_backend_name() == "postgresql":
        _reset_postgres(settings.database_url)
    engine = get_engine(settings)
    upgrade_to_head(engine)
    yield engine
    dispose_engines()


@pytest.fixture(scope="session")
def startup_hooks(engine: Engine, settings: Settings) -> None:
    """Run the app's start-up hooks (``app.main.STARTUP_HOOKS``) once, committed, like a real start."""
    run_startup_hooks(engine, settings)


@pytest.fixture
def db_connection(engine: Engine, startup_hooks: None) -> Iterator[Connection]:
    connection = engine.connect()
    transaction = connection.begin()
    try:
        yield connection
    finally:
        transaction.rollback()
        connection.close()


@pytest.fixture
def db_session(db_connection: Connection) -> Iterator[Session]:
    """A session whose commits are SAVEPOINT releases inside the test's rolled-back transaction."""
    session = Session(bind=db_connection, join_transaction_mode="create_savepoint", expire_on_commit=False)
    try:
        yield session
    finally:
        session.close()


@pytest.fixture
def app(settings: Settings, db_session: Session) -> FastAPI:
    """The application on the test database (no start-up migration), its sessions being ``db_session``."""
    application = create_app(settings)
    bind_app_to_session(application, db_session)
    return application


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client for ``app``. Not entered as a context manager on purpose: the lifespan (migrations, hooks,
    engine disposal) belongs to the session fixtures here. Unexpected errors come back as 500 problems."""
    test_client = TestClient(app)
    try:
        yield test_client
    finally:
        test_client.close()
