"""Scenario writes in one statement (issue 14: at most 3 round trips per write): scenarios.facts, the
derived facts of the board's permanents, from which a trigger rewrites scenario_permanents,
scenario_choices and scenario_played_cards in the statement that writes the scenario; and the
Idempotency-Key of a POST as two columns of the scenario it created (scenario_idempotency_keys is
folded into scenarios), so a create, a replay and a race on the key are one INSERT ... ON CONFLICT.

Existing rows: ``facts`` is backfilled from their child rows (which stay as they are), and their
idempotency keys are moved. The downgrade moves the keys back and drops the triggers and columns; the
child rows stay valid.

The trigger's SQL lives here (not imported from app/) so that this migration stays what it was; see
app/db/repositories/scenarios.py and DEVELOPERS.md (Database) for the design.

Revision ID: scenario_facts
Revises: card_fields
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

from app.db.base import UtcDateTime

revision = "scenario_facts"
down_revision = "card_fields"
branch_labels = None
depends_on = None

# The order of a permanent's choices in facts (as the service writes them).
_KINDS = ("creature_type", "character", "color", "card_name")

# PostgreSQL: one plpgsql function for both events. json_array_elements WITH ORDINALITY numbers the
# permanents (position) and each Richard's played cards (position), from 1.
PG_FUNCTION = """
CREATE FUNCTION scenario_rows_from_facts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        -- Choices and played cards go with their permanent (ON DELETE CASCADE).
        DELETE FROM scenario_permanents WHERE scenario_id = NEW.id;
    END IF;
    INSERT INTO scenario_permanents (scenario_id, permanent_id, position, card_name, oracle_id, controller)
    SELECT NEW.id, p.value ->> 'id', p.n - 1, p.value ->> 'card', p.value ->> 'oracle_id',
           p.value ->> 'controller'
    FROM json_array_elements(NEW.facts) WITH ORDINALITY AS p(value, n);
    INSERT INTO scenario_choices (scenario_id, permanent_id, kind, value)
    SELECT NEW.id, p.value ->> 'id', c.value ->> 0, c.value ->> 1
    FROM json_array_elements(NEW.facts) AS p(value),
         json_array_elements(p.value -> 'choices') AS c(value);
    INSERT INTO scenario_played_cards (scenario_id, permanent_id, name_folded, card_name, position)
    SELECT NEW.id, p.value ->> 'id', c.value ->> 0, c.value ->> 1, c.n - 1
    FROM json_array_elements(NEW.facts) AS p(value),
         json_array_elements(p.value -> 'played') WITH ORDINALITY AS c(value, n);
    RETURN NULL;
END
$$
"""
PG_TRIGGER = """
CREATE TRIGGER scenarios_rows_from_facts AFTER INSERT OR UPDATE OF facts ON scenarios
FOR EACH ROW EXECUTE FUNCTION scenario_rows_from_facts()
"""

# SQLite: json_each keys an array's elements by index (position); two triggers, one per event.
_SQLITE_INSERTS = """
    INSERT INTO scenario_permanents (scenario_id, permanent_id, position, card_name, oracle_id, controller)
    SELECT NEW.id, json_extract(p.value, '$.id'), p.key, json_extract(p.value, '$.card'),
           json_extract(p.value, '$.oracle_id'), json_extract(p.value, '$.controller')
    FROM json_each(NEW.facts) AS p;
    INSERT INTO scenario_choices (scenario_id, permanent_id, kind, value)
    SELECT NEW.id, json_extract(p.value, '$.id'), json_extract(c.value, '$[0]'), json_extract(c.value, '$[1]')
    FROM json_each(NEW.facts) AS p, json_each(p.value, '$.choices') AS c;
    INSERT INTO scenario_played_cards (scenario_id, permanent_id, name_folded, card_name, position)
    SELECT NEW.id, json_extract(p.value, '$.id'), json_extract(c.value, '$[0]'),
           json_extract(c.value, '$[1]'), c.key
    FROM json_each(NEW.facts) AS p, json_each(p.value, '$.played') AS c;
"""
SQLITE_TRIGGERS = (
    f"CREATE TRIGGER scenarios_rows_from_facts_insert AFTER INSERT ON scenarios BEGIN {_SQLITE_INSERTS} END",
    "CREATE TRIGGER scenarios_rows_from_facts_update AFTER UPDATE OF facts ON scenarios BEGIN"
    f" DELETE FROM scenario_permanents WHERE scenario_id = NEW.id; {_SQLITE_INSERTS} END",
)


def upgrade() -> None:
    bind = op.get_bind()
    # NOT NULL with a default: SQLite adds such a column in place (no table rebuild, which would drop
    # the scenarios table and so its child rows through ON DELETE CASCADE).
    op.add_column("scenarios", sa.Column("facts", sa.JSON(), server_default=sa.text("'[]'"), nullable=False))
    op.add_column("scenarios", sa.Column("idempotency_key", sa.String(200), nullable=True))
    op.add_column("scenarios", sa.Column("request_hash", sa.CHAR(64), nullable=True))
    # A unique index rather than a constraint: SQLite creates it in place too. NULLs never collide.
    op.create_index(
        "ix_scenarios_api_key_id_idempotency_key", "scenarios", ["api_key_id", "idempotency_key"], unique=True
    )
    _backfill_facts(bind)
    op.execute(
        "UPDATE scenarios SET idempotency_key = (SELECT k.idempotency_key FROM scenario_idempotency_keys k"
        " WHERE k.scenario_id = scenarios.id AND k.api_key_id = scenarios.api_key_id),"
        " request_hash = (SELECT k.request_hash FROM scenario_idempotency_keys k"
        " WHERE k.scenario_id = scenarios.id AND k.api_key_id = scenarios.api_key_id)"
        " WHERE EXISTS (SELECT 1 FROM scenario_idempotency_keys k WHERE k.scenario_id = scenarios.id)"
    )
    op.drop_index("ix_scenario_idempotency_keys_scenario_id", table_name="scenario_idempotency_keys")
    op.drop_table("scenario_idempotency_keys")
    if bind.dialect.name == "postgresql":
        op.execute(PG_FUNCTION)
        op.execute(PG_TRIGGER)
    else:
        for trigger in SQLITE_TRIGGERS:
            op.execute(trigger)


def _backfill_facts(bind: sa.Connection) -> None:
    """``facts`` of every existing scenario, from its child rows (read before the triggers exist)."""
    facts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_permanent: dict[tuple[str, str], dict[str, Any]] = {}
    for sid, pid, card, oracle_id, controller in bind.execute(
        sa.text(
            "SELECT scenario_id, permanent_id, card_name, oracle_id, controller FROM scenario_permanents"
            " ORDER BY scenario_id, position"
        )
    ):
        entry = {"id": pid, "card": card, "oracle_id": oracle_id, "controller": controller}
        entry.update(choices=[], played=[])
        facts[sid].append(entry)
        by_permanent[sid, pid] = entry
    choices = bind.execute(sa.text("SELECT scenario_id, permanent_id, kind, value FROM scenario_choices"))
    for sid, pid, kind, value in sorted(choices, key=lambda c: (c[0], c[1], _kind_order(c[2]))):
        by_permanent[sid, pid]["choices"].append([kind, value])
    for sid, pid, folded, name in bind.execute(
        sa.text(
            "SELECT scenario_id, permanent_id, name_folded, card_name FROM scenario_played_cards"
            " ORDER BY scenario_id, permanent_id, position"
        )
    ):
        by_permanent[sid, pid]["played"].append([folded, name])
    if facts:
        bind.execute(
            sa.text("UPDATE scenarios SET facts = :facts WHERE id = :id"),
            [{"id": sid, "facts": json.dumps(entries)} for sid, entries in facts.items()],
        )


def _kind_order(kind: str) -> int:
    return _KINDS.index(kind) if kind in _KINDS else len(_KINDS)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.execute("DROP TRIGGER scenarios_rows_from_facts ON scenarios")
        op.execute("DROP FUNCTION scenario_rows_from_facts()")
    else:
        op.execute("DROP TRIGGER scenarios_rows_from_facts_update")
        op.execute("DROP TRIGGER scenarios_rows_from_facts_insert")
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
    op.execute(
        "INSERT INTO scenario_idempotency_keys (api_key_id, idempotency_key, request_hash, scenario_id,"
        " created_at) SELECT api_key_id, idempotency_key, request_hash, id, created_at FROM scenarios"
        " WHERE idempotency_key IS NOT NULL"
    )
    op.drop_index("ix_scenarios_api_key_id_idempotency_key", table_name="scenarios")
    # Dropped in place (SQLite 3.35+ ALTER TABLE DROP COLUMN), never by rebuilding the table.
    for column in ("request_hash", "idempotency_key", "facts"):
        op.execute(f"ALTER TABLE scenarios DROP COLUMN {column}")
