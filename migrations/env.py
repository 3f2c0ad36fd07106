"""Alembic environment: target metadata from ``app.db.base.Base`` (every model imported via app.db.models).

The connection is the one passed in ``config.attributes["connection"]`` (start-up, ``manacalc migrate``,
tests), else an engine built from ``MANACALC_DATABASE_URL`` (the alembic command line).
"""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

import app.db.models  # noqa: F401  (registers every table on Base.metadata)
from app.config import Settings
from app.db.base import Base
from app.db.session import get_engine

config = context.config
target_metadata = Base.metadata


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=connection.dialect.name == "sqlite",
    )


def run_migrations_offline() -> None:
    """Emit SQL to standard output instead of running it (``alembic upgrade head --sql``)."""
    url = Settings().database_url
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        compare_type=True,
        render_as_batch=url.startswith("sqlite"),
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        with context.begin_transaction():
            context.run_migrations()
        return
    if config.config_file_name is not None:
        fileConfig(config.config_file_name, disable_existing_loggers=False)
    with get_engine(Settings()).connect() as own:
        _configure(own)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
