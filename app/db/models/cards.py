"""The card catalogue's tables: cards, their faces, every name they are found by, cost keys, legalities.

``oracle_id`` is the key (Scryfall's, or uuid5 of the normalized name when the source has none). Names are
stored folded (``name_norm``) for case-, accent- and apostrophe-insensitive look-ups; ``card_costs`` holds
``ManaCost.sort_key`` multiset keys so ``{W}{1}`` finds ``{1}{W}`` cards (Mental Magic's search).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from app.db.base import Base, utcnow

NAME_LENGTH = 200
COST_LENGTH = 200


class CardRow(Base):
    """One card (all its faces together): what a look-up by name or oracle id answers."""

    __tablename__ = "cards"

    oracle_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_norm: Mapped[str] = mapped_column(String(NAME_LENGTH), index=True)
    layout: Mapped[str] = mapped_column(String(32))
    # The card's canonical mana cost (a split card's combined one, CR 709.4); NULL when it has none.
    mana_cost: Mapped[str | None] = mapped_column(String(COST_LENGTH))
    mana_value: Mapped[float | None] = mapped_column(Float)
    # CR 903.4: letters in WUBRG order ("" colorless); NULL when the source does not say.
    color_identity: Mapped[str | None] = mapped_column(String(5))
    # The mana types (WUBRGC order) the card's abilities could ever add (app.rules.text.oracle_mana).
    produced_mana: Mapped[str | None] = mapped_column(String(6))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class CardFaceRow(Base):
    """One face of a card, in order (position 0 is the front); single-faced cards have one."""

    __tablename__ = "card_faces"

    oracle_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("cards.oracle_id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    mana_cost: Mapped[str | None] = mapped_column(String(COST_LENGTH))
    type_line: Mapped[str] = mapped_column(Text)
    oracle_text: Mapped[str] = mapped_column(Text)
    flavor_text: Mapped[str | None] = mapped_column(Text)
    keywords: Mapped[list[Any]] = mapped_column(JSON)
    # "" is colorless given explicitly; NULL means "from the mana cost" (Face.colors None).
    colors: Mapped[str | None] = mapped_column(String(5))
    power: Mapped[str | None] = mapped_column(String(16))
    toughness: Mapped[str | None] = mapped_column(String(16))
    loyalty: Mapped[str | None] = mapped_column(String(16))


class CardNameRow(Base):
    """Every folded name a card is found by: its own name (``is_card_name``) and each face's."""

    __tablename__ = "card_names"

    name_norm: Mapped[str] = mapped_column(String(NAME_LENGTH), primary_key=True)
    oracle_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("cards.oracle_id", ondelete="CASCADE"), primary_key=True
    )
    is_card_name: Mapped[bool] = mapped_column(Boolean)

    __table_args__ = (
        Index("ix_card_names_oracle_id", "oracle_id"),
        # Word-prefix look-ups use LIKE 'prefix %': PostgreSQL needs text_pattern_ops to use an index for it.
        Index("ix_card_names_name_pattern", "name_norm", postgresql_ops={"name_norm": "text_pattern_ops"}),
    )


class CardCostRow(Base):
    """A mana cost a card is found under (``ManaCost.sort_key``): its own and, if several, each face's."""

    __tablename__ = "card_costs"

    cost_key: Mapped[str] = mapped_column(String(COST_LENGTH), primary_key=True)
    oracle_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("cards.oracle_id", ondelete="CASCADE"), primary_key=True
    )

    __table_args__ = (Index("ix_card_costs_oracle_id", "oracle_id"),)


class CardLegalityRow(Base):
    """A card's status in one format; ``not_legal`` is not stored (absent means not legal), but for a card
    legal nowhere (``Card.stored_legalities``)."""

    __tablename__ = "card_legalities"

    oracle_id: Mapped[str] = mapped_column(
        String(36), ForeignKey("cards.oracle_id", ondelete="CASCADE"), primary_key=True
    )
    format: Mapped[str] = mapped_column(String(32), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))

    __table_args__ = (Index("ix_card_legalities_format_status", "format", "status", "oracle_id"),)
