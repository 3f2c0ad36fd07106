"""Stored scenarios and API keys: api_keys, scenarios, scenario_permanents, scenario_choices,
scenario_played_cards, scenario_idempotency_keys.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from app.db.base import UtcDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_keys",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("key_hash", sa.CHAR(64), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("revoked_at", UtcDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_api_keys")),
        sa.UniqueConstraint("name", name=op.f("uq_api_keys_name")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_api_keys_key_hash")),
    )
    op.create_table(
        "scenarios",
        sa.Column("id", sa.String(36), nullable=False),
        sa.Column("api_key_id", sa.Integer(), nullable=False),
        sa.Column("owner", sa.String(200), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("description", sa.String(2000), nullable=False),
        sa.Column("board", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["api_key_id"], ["api_keys.id"], name=op.f("fk_scenarios_api_key_id_api_keys"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_scenarios")),
        sa.UniqueConstraint("api_key_id", "owner", "name", name=op.f("uq_scenarios_api_key_id_owner_name")),
    )
    op.create_index("ix_scenarios_api_key_id_created_at", "scenarios", ["api_key_id", "created_at", "id"])
    op.create_index(
        "ix_scenarios_api_key_id_owner_created_at", "scenarios", ["api_key_id", "owner", "created_at", "id"]
    )
    op.create_table(
        "scenario_permanents",
        sa.Column("scenario_id", sa.String(36), nullable=False),
        sa.Column("permanent_id", sa.String(64), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("card_name", sa.String(200), nullable=False),
        sa.Column("oracle_id", sa.String(64), nullable=True),
        sa.Column("controller", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id"],
            ["scenarios.id"],
            name=op.f("fk_scenario_permanents_scenario_id_scenarios"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scenario_id", "permanent_id", name=op.f("pk_scenario_permanents")),
    )
    op.create_index("ix_scenario_permanents_oracle_id", "scenario_permanents", ["oracle_id"])
    op.create_table(
        "scenario_choices",
        sa.Column("scenario_id", sa.String(36), nullable=False),
        sa.Column("permanent_id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("value", sa.String(200), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id", "permanent_id"],
            ["scenario_permanents.scenario_id", "scenario_permanents.permanent_id"],
            name=op.f("fk_scenario_choices_scenario_id_scenario_permanents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("scenario_id", "permanent_id", "kind", name=op.f("pk_scenario_choices")),
    )
    op.create_index("ix_scenario_choices_kind_value", "scenario_choices", ["kind", "value"])
    op.create_table(
        "scenario_played_cards",
        sa.Column("scenario_id", sa.String(36), nullable=False),
        sa.Column("permanent_id", sa.String(64), nullable=False),
        sa.Column("name_folded", sa.String(200), nullable=False),
        sa.Column("card_name", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["scenario_id", "permanent_id"],
            ["scenario_permanents.scenario_id", "scenario_permanents.permanent_id"],
            name=op.f("fk_scenario_played_cards_scenario_id_scenario_permanents"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "scenario_id", "permanent_id", "name_folded", name=op.f("pk_scenario_played_cards")
        ),
    )
    op.create_table(
        "scenario_idempotency_keys",
        sa.Column("api_key_id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(200), nullable=False),
        sa.Column("request_hash", sa.CHAR(64), nullable=False),
        sa.Column("scenario_id", sa.String(36), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["api_key_id"],
            ["api_keys.id"],
            name=op.f("fk_scenario_idempotency_keys_api_key_id_api_keys"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["scenario_id"],
            ["scenarios.id"],
            name=op.f("fk_scenario_idempotency_keys_scenario_id_scenarios"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("api_key_id", "idempotency_key", name=op.f("pk_scenario_idempotency_keys")),
    )
    op.create_index("ix_scenario_idempotency_keys_scenario_id", "scenario_idempotency_keys", ["scenario_id"])


def downgrade() -> None:
    op.drop_index("ix_scenario_idempotency_keys_scenario_id", table_name="scenario_idempotency_keys")
    op.drop_table("scenario_idempotency_keys")
    op.drop_table("scenario_played_cards")
    op.drop_index("ix_scenario_choices_kind_value", table_name="scenario_choices")
    op.drop_table("scenario_choices")
    op.drop_index("ix_scenario_permanents_oracle_id", table_name="scenario_permanents")
    op.drop_table("scenario_permanents")
    op.drop_index("ix_scenarios_api_key_id_owner_created_at", table_name="scenarios")
    op.drop_index("ix_scenarios_api_key_id_created_at", table_name="scenarios")
    op.drop_table("scenarios")
    op.drop_table("api_keys")
