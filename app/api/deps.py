"""Annotated dependency aliases for routes: ``SettingsDep``, ``EngineDep``, ``SessionDep``.

The request owns the transaction: ``SessionDep`` commits once the endpoint returns without error (before
the response is sent, so a failed commit is a failed request) and rolls back otherwise. Services and
repositories only flush.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app.config import Settings, get_settings
from app.db.session import get_engine, get_sessionmaker

SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_db_engine(settings: SettingsDep) -> Engine:
    return get_engine(settings)


EngineDep = Annotated[Engine, Depends(get_db_engine)]


def get_db_session(engine: EngineDep) -> Iterator[Session]:
    """One session per request; commit on success, rollback on any error."""
    session = get_sessionmaker(engine)()
    try:
        yield session
    except BaseException:
        session.rollback()
        raise
    else:
        session.commit()
    finally:
        session.close()


# scope="function": the commit runs right after the endpoint returns, before the response is sent.
SessionDep = Annotated[Session, Depends(get_db_session, scope="function")]
