"""Stored scenarios: a named board per API key (and optional owner), with its permanents, chosen values and
each Richard Garfield, Ph.D.'s played cards as rows of their own so they can be queried.

The board is also kept whole as JSON (what the client sent, normalized by ``BoardIn``) so a GET answers it
exactly; the rows are derived from it and rewritten with it: ``facts`` holds what the rows say (the
permanents' cards, oracle ids, folded names...: computed in Python from the board and the catalogue), and
a database trigger rewrites the rows from it in the statement that writes the scenario (migration
``scenario_facts``; see ``app.db.repositories.scenarios``). ``version`` grows by one with every change and
is what optimistic concurrency compares (``UPDATE ... WHERE id = ? AND version = ?``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    CHAR,
    JSON,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow
from app.field_limits import (
    CARD_NAME_LENGTH,
    CHOICE_VALUE_LENGTH,
    DESCRIPTION_LENGTH,
    IDEMPOTENCY_KEY_LENGTH,
    NAME_LENGTH,
    OWNER_LENGTH,
    PERMANENT_ID_LENGTH,
    SCENARIO_ID_LENGTH,
)

NO_OWNER = ""
"""``owner`` of a scenario stored without one: "" rather than NULL, so that the unique constraint on
(api key, owner, name) also holds for them (NULLs never collide in a unique constraint)."""


class ScenarioRow(Base):
    __tablename__ = "scenarios"

    id: Mapped[str] = mapped_column(String(SCENARIO_ID_LENGTH), primary_key=True)
    api_key_id: Mapped[int] = mapped_column(Integer, ForeignKey("api_keys.id", ondelete="CASCADE"))
    owner: Mapped[str] = mapped_column(String(OWNER_LENGTH), default=NO_OWNER)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    description: Mapped[str] = mapped_column(String(DESCRIPTION_LENGTH), default="")
    board: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The child rows' facts (``repositories.scenarios.facts_json``); writing it rewrites them (trigger).
    facts: Mapped[list[dict[str, Any]]] = mapped_column(JSON, server_default=text("'[]'"))
    # The Idempotency-Key of the POST that created it, and the SHA-256 of that request's canonical body:
    # a retry with the same key and body answers this scenario, another body is refused. Deleting the
    # scenario forgets the key.
    idempotency_key: Mapped[str | None] = mapped_column(String(IDEMPOTENCY_KEY_LENGTH))
    request_hash: Mapped[str | None] = mapped_column(CHAR(64))

    __table_args__ = (
        UniqueConstraint("api_key_id", "owner", "name"),
        # A unique index (created in place on SQLite); NULL keys never collide.
        Index("ix_scenarios_api_key_id_idempotency_key", "api_key_id", "idempotency_key", unique=True),
        # Listing is keyset-paginated on (created_at, id), with or without the owner filter.
        Index("ix_scenarios_api_key_id_created_at", "api_key_id", "created_at", "id"),
        Index("ix_scenarios_api_key_id_owner_created_at", "api_key_id", "owner", "created_at", "id"),
    )


class ScenarioPermanentRow(Base):
    """One permanent of a scenario's board, with the card it resolved to."""

    __tablename__ = "scenario_permanents"

    scenario_id: Mapped[str] = mapped_column(
        String(SCENARIO_ID_LENGTH), ForeignKey("scenarios.id", ondelete="CASCADE"), primary_key=True
    )
    permanent_id: Mapped[str] = mapped_column(String(PERMANENT_ID_LENGTH), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    card_name: Mapped[str] = mapped_column(String(CARD_NAME_LENGTH))
    # NULL for an inline (homebrew) card.
    oracle_id: Mapped[str | None] = mapped_column(String(64))
    controller: Mapped[str] = mapped_column(String(PERMANENT_ID_LENGTH))

    __table_args__ = (Index("ix_scenario_permanents_oracle_id", "oracle_id"),)


class ScenarioChoiceRow(Base):
    """A value chosen for a permanent (``kind``: creature_type, character, color, card_name)."""

    __tablename__ = "scenario_choices"

    scenario_id: Mapped[str] = mapped_column(String(SCENARIO_ID_LENGTH), primary_key=True)
    permanent_id: Mapped[str] = mapped_column(String(PERMANENT_ID_LENGTH), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(CHOICE_VALUE_LENGTH))

    __table_args__ = (
        ForeignKeyConstraint(
            ["scenario_id", "permanent_id"],
            ["scenario_permanents.scenario_id", "scenario_permanents.permanent_id"],
            ondelete="CASCADE",
        ),
        Index("ix_scenario_choices_kind_value", "kind", "value"),
    )


class ScenarioPlayedCardRow(Base):
    """A card chosen through a Richard Garfield, Ph.D. permanent. The key on the folded name makes the
    ruling "each card can be chosen only once" (per Richard) hold in the database too."""

    __tablename__ = "scenario_played_cards"

    scenario_id: Mapped[str] = mapped_column(String(SCENARIO_ID_LENGTH), primary_key=True)
    permanent_id: Mapped[str] = mapped_column(String(PERMANENT_ID_LENGTH), primary_key=True)
    name_folded: Mapped[str] = mapped_column(String(CARD_NAME_LENGTH), primary_key=True)
    card_name: Mapped[str] = mapped_column(String(CARD_NAME_LENGTH))
    position: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        ForeignKeyConstraint(
            ["scenario_id", "permanent_id"],
            ["scenario_permanents.scenario_id", "scenario_permanents.permanent_id"],
            ondelete="CASCADE",
        ),
    )
