"""Every model module, imported here so that ``Base.metadata`` (and so Alembic) sees all tables.

Add one import line per new model module (``from app.db.models import cards as cards``). The key-value
``app_meta`` table (migration 0001) is small enough to live here.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow


class AppMeta(Base):
    """Service-wide facts kept in the database, e.g. the card catalogue's ``data_version``."""

    __tablename__ = "app_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


__all__ = ["AppMeta", "Base"]

from app.db.models import api_keys as api_keys  # noqa: E402  (API keys)
from app.db.models import cards as cards  # noqa: E402  (registers the card catalogue's tables)
from app.db.models import scenarios as scenarios  # noqa: E402  (stored scenarios and their rows)
