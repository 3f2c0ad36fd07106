"""Schemathesis against the app's own OpenAPI document, in process: for every operation (the scenario
endpoints with an API key), generated requests never get a 5xx and every answer conforms to the schema.

Bounded so the whole module runs in about a minute: a few examples per operation, no deadline. The schema
is loaded at import (schemathesis's fixture-based loader does not work with pytest 9); each test binds
the app to its own rolled-back session of the test database.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance
from sqlalchemy.orm import Session

from app.api.deps import get_db_session
from app.config import Settings
from app.main import create_app
from app.services.api_keys import create_api_key
from tests.sessions import bind_app_to_session

pytestmark = pytest.mark.fuzz

# Per operation; MANACALC_FUZZ_EXAMPLES=200 for a deeper run by hand.
MAX_EXAMPLES = int(os.environ.get("MANACALC_FUZZ_EXAMPLES", "12"))

# The database settings do not matter here: every request's session is the test's (bound below), and
# the start-up (migrations, seeding) is the session fixtures' job, so the lifespan does nothing.
APP = create_app(Settings(migrate_on_start=False, log_level="WARNING", rate_limit_per_minute=0))


@asynccontextmanager
async def _no_startup(_app: Any) -> AsyncIterator[None]:
    yield


APP.router.lifespan_context = _no_startup
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


@pytest.fixture
def api_key(db_session: Session, settings: Settings) -> Iterator[str]:
    """An API key, and the app bound to the test's session (commits are SAVEPOINT releases)."""
    bind_app_to_session(APP, db_session)
    try:
        yield create_api_key(db_session, name="schemathesis")
    finally:
        APP.dependency_overrides.pop(get_db_session, None)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_error_and_answers_conform(case: Any, api_key: str) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Bearer {api_key}"},
        checks=[not_a_server_error, response_schema_conformance],
    )
