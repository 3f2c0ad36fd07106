"""API keys: only a SHA-256 hash of each key is stored (the key itself is shown once, at creation)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CHAR, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

KEY_NAME_LENGTH = 200


class ApiKeyRow(Base):
    """One API key. ``revoked_at`` set means it no longer authenticates; the row stays so that the
    scenarios it owns are kept (and its name is not handed to someone else)."""

    __tablename__ = "api_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(KEY_NAME_LENGTH), unique=True)
    # Hex SHA-256 of the whole key: a high-entropy secret needs no salt or slow hash.
    key_hash: Mapped[str] = mapped_column(CHAR(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column()
