"""Fixtures of the deployment tests (defined in ``support.py``, with the process helpers)."""

from tests.deploy.support import fresh_database_url, fresh_postgres_url

__all__ = ["fresh_database_url", "fresh_postgres_url"]
