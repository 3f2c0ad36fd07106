"""The card catalogue: cards, card_faces, card_names, card_costs, card_legalities.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cards",
        sa.Column("oracle_id", sa.String(36), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("name_norm", sa.String(200), nullable=False),
        sa.Column("layout", sa.String(32), nullable=False),
        sa.Column("mana_cost", sa.String(200), nullable=True),
        sa.Column("mana_value", sa.Float(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("oracle_id", name=op.f("pk_cards")),
    )
    op.create_index(op.f("ix_cards_name_norm"), "cards", ["name_norm"])
    op.create_table(
        "card_faces",
        sa.Column("oracle_id", sa.String(36), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("mana_cost", sa.String(200), nullable=True),
        sa.Column("type_line", sa.Text(), nullable=False),
        sa.Column("oracle_text", sa.Text(), nullable=False),
        sa.Column("flavor_text", sa.Text(), nullable=True),
        sa.Column("keywords", sa.JSON(), nullable=False),
        sa.Column("colors", sa.String(5), nullable=True),
        sa.ForeignKeyConstraint(
            ["oracle_id"], ["cards.oracle_id"], name=op.f("fk_card_faces_oracle_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("oracle_id", "position", name=op.f("pk_card_faces")),
    )
    op.create_table(
        "card_names",
        sa.Column("name_norm", sa.String(200), nullable=False),
        sa.Column("oracle_id", sa.String(36), nullable=False),
        sa.Column("is_card_name", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["oracle_id"], ["cards.oracle_id"], name=op.f("fk_card_names_oracle_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("name_norm", "oracle_id", name=op.f("pk_card_names")),
    )
    op.create_index("ix_card_names_oracle_id", "card_names", ["oracle_id"])
    op.create_index(
        "ix_card_names_name_pattern",
        "card_names",
        ["name_norm"],
        postgresql_ops={"name_norm": "text_pattern_ops"},
    )
    op.create_table(
        "card_costs",
        sa.Column("cost_key", sa.String(200), nullable=False),
        sa.Column("oracle_id", sa.String(36), nullable=False),
        sa.ForeignKeyConstraint(
            ["oracle_id"], ["cards.oracle_id"], name=op.f("fk_card_costs_oracle_id_cards"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("cost_key", "oracle_id", name=op.f("pk_card_costs")),
    )
    op.create_index("ix_card_costs_oracle_id", "card_costs", ["oracle_id"])
    op.create_table(
        "card_legalities",
        sa.Column("oracle_id", sa.String(36), nullable=False),
        sa.Column("format", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.ForeignKeyConstraint(
            ["oracle_id"],
            ["cards.oracle_id"],
            name=op.f("fk_card_legalities_oracle_id_cards"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("oracle_id", "format", name=op.f("pk_card_legalities")),
    )
    op.create_index("ix_card_legalities_format_status", "card_legalities", ["format", "status", "oracle_id"])


def downgrade() -> None:
    op.drop_index("ix_card_legalities_format_status", table_name="card_legalities")
    op.drop_table("card_legalities")
    op.drop_index("ix_card_costs_oracle_id", table_name="card_costs")
    op.drop_table("card_costs")
    op.drop_index("ix_card_names_name_pattern", table_name="card_names")
    op.drop_index("ix_card_names_oracle_id", table_name="card_names")
    op.drop_table("card_names")
    op.drop_table("card_faces")
    op.drop_index(op.f("ix_cards_name_norm"), table_name="cards")
    op.drop_table("cards")
