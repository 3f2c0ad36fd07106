"""Card fields a deck site shows: cards.color_identity and cards.produced_mana; card_faces.power,
toughness and loyalty.

Revision ID: card_fields
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "card_fields"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("cards") as batch:
        # Colors as letters in WUBRG order ("" colorless); NULL when the source does not say.
        batch.add_column(sa.Column("color_identity", sa.String(5), nullable=True))
        # Mana types in WUBRGC order ("" none); NULL for rows imported before this column existed.
        batch.add_column(sa.Column("produced_mana", sa.String(6), nullable=True))
    with op.batch_alter_table("card_faces") as batch:
        batch.add_column(sa.Column("power", sa.String(16), nullable=True))
        batch.add_column(sa.Column("toughness", sa.String(16), nullable=True))
        batch.add_column(sa.Column("loyalty", sa.String(16), nullable=True))
    # Rows imported before lack the new fields: the next start-up re-imports the bundled catalogue.
    op.execute("DELETE FROM app_meta WHERE key = 'catalogue.bundled_hash'")


def downgrade() -> None:
    with op.batch_alter_table("card_faces") as batch:
        batch.drop_column("loyalty")
        batch.drop_column("toughness")
        batch.drop_column("power")
    with op.batch_alter_table("cards") as batch:
        batch.drop_column("produced_mana")
        batch.drop_column("color_identity")
