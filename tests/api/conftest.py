"""Fixtures of the HTTP tests that need the app as it runs in production (no dependency overrides)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, delete

from app.config import Settings
from app.db.models.api_keys import ApiKeyRow
from app.db.session import get_engine, get_sessionmaker
from app.main import create_app
from app.services.api_keys import create_api_key, forget_accepted_keys


@pytest.fixture
def real(settings: Settings, startup_hooks: None) -> Iterator[tuple[TestClient, Engine, dict[str, str]]]:
    """A client of an app with its own engine and sessions, committed for real, and a new key's
    ``Authorization`` header; the key and what it stored are removed afterwards."""
    engine = get_engine(settings)
    name = f"real-{uuid.uuid4().hex}"
    with get_sessionmaker(engine)() as session, session.begin():
        key = create_api_key(session, name=name)
    from tests.api.test_observability import with_token

    # With the metrics token: /metrics answers on the API port only to it, and some of these tests scrape.
    client = TestClient(create_app(with_token(settings)))
    try:
        yield client, engine, {"Authorization": f"Bearer {key}"}
    finally:
        client.close()
        forget_accepted_keys()
        with get_sessionmaker(engine)() as session, session.begin():
            session.execute(delete(ApiKeyRow).where(ApiKeyRow.name == name))
