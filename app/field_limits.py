"""Lengths that a request model and a table column must agree on, in one place below both.

The request models (``app.schemas``) bound what a client may send with these, and the tables
(``app.db.models``) size their columns with them, so a value the API accepts always fits its column.
"""

from __future__ import annotations

SCENARIO_ID_LENGTH = 36
NAME_LENGTH = 200
DESCRIPTION_LENGTH = 2000
OWNER_LENGTH = 200
IDEMPOTENCY_KEY_LENGTH = 200
PERMANENT_ID_LENGTH = 64
CARD_NAME_LENGTH = 200
CHOICE_VALUE_LENGTH = 200
