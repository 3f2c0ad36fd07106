"""Binding an app to a test's session, with the same contract as ``app.api.deps.get_db_session``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session

from app.api.deps import get_db_read_session, get_db_session, get_db_statement_session


def bind_app_to_session(application: FastAPI, db_session: Session) -> None:
    """Every request of ``application`` uses ``db_session``: commit on success, roll back on error."""

    def test_session() -> Iterator[Session]:
        try:
            yield db_session
        except BaseException:
            db_session.rollback()
            raise
        else:
            db_session.commit()

    application.dependency_overrides[get_db_session] = test_session
    application.dependency_overrides[get_db_read_session] = test_session
    application.dependency_overrides[get_db_statement_session] = test_session

    @contextmanager
    def worker_session(_settings: Any) -> Iterator[Session]:
        yield from test_session()

    # The session a ComputeRoute's work opens in a worker thread (app.api.compute), dependencies unsolved.
    application.state.worker_session = worker_session
