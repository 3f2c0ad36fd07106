"""Pooled PostgreSQL connections the server has ended are refused at checkout with no round trip
(``app.db.session._drop_dead_connections``, issue 14: it replaced the ``SELECT 1`` pre-ping)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app.db.session import _create_engine

pytestmark = pytest.mark.postgres_only


@pytest.fixture
def url(database_url: str) -> str:
    assert make_url(database_url).get_backend_name() == "postgresql"
    return database_url


def test_a_connection_the_server_ended_is_replaced_without_a_failed_statement(url: str) -> None:
    engine = _create_engine(url, 5.0, 0)
    admin = _create_engine(url, 5.0, 0)
    try:
        with engine.connect() as conn:
            first_pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        with admin.connect() as conn:  # what a restart or an idle timeout does to the pooled connection
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first_pid})
            conn.commit()
        for _ in range(50):  # the server's FATAL message and close reach the socket within moments
            with admin.connect() as conn:
                gone = not conn.execute(
                    text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": first_pid}
                ).scalar_one()
            if gone:
                break
        with engine.connect() as conn:  # no error: the dead connection was refused at checkout
            second_pid = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
        assert second_pid != first_pid
    finally:
        engine.dispose()
        admin.dispose()
