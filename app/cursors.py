"""Opaque page cursors and page sizes, shared by the repositories' callers and the request models.

They live below both the HTTP layer and the services: a cursor is a position in a query, not a web shape.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from app.errors import BadRequest

LIMIT_DEFAULT = 100
LIMIT_MAX = 1000
_CURSOR_MAX_CHARS = 2048


def encode_cursor(position: dict[str, Any]) -> str:
    """An opaque cursor for ``position`` (base64url JSON; clients must not look inside)."""
    raw = json.dumps(position, separators=(",", ":"), sort_keys=True, default=str).encode("utf-8")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def decode_cursor(cursor: str) -> dict[str, Any]:
    """The position in ``cursor``; a cursor this service did not make is a 400 ``bad-request``."""
    try:
        if len(cursor) > _CURSOR_MAX_CHARS:
            raise ValueError("too long")
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        value = json.loads(raw.decode("utf-8"))
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise BadRequest(
            "Invalid cursor: pass back next_cursor from the previous page unchanged.",
            errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
        ) from exc
    if not isinstance(value, dict):
        raise BadRequest(
            "Invalid cursor: pass back next_cursor from the previous page unchanged.",
            errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
        )
    return value
