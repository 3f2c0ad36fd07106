"""Opaque page cursors and page sizes, shared by the repositories' callers and the request models.

They live below both the HTTP layer and the services: a cursor is a position in a query, not a web shape.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from datetime import UTC, datetime
from typing import Any, NoReturn

from app.errors import BadRequest

LIMIT_DEFAULT = 100
LIMIT_MAX = 1000
_CURSOR_MAX_CHARS = 2048


def encode_cursor(position: dict[str, Any]) -> str:
    """An opaque cursor for ``position`` (base64url JSON; clients must not look inside)."""
    raw = json.dumps(position, separators=(",", ":"), sort_keys=True, default=str).encode("utf-8")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def decode_cursor(cursor: str) -> dict[str, Any]:
    """The position in ``cursor``; a cursor this service did not make is a 400 ``bad-request``.

    Our cursors are flat objects of short strings, finite numbers, booleans and nulls; anything else
    (a cursor nested 1,500 levels deep was a 500, NUL or a lone surrogate in it reached the
    database) is refused before it is used.
    """
    try:
        if len(cursor) > _CURSOR_MAX_CHARS:
            raise ValueError("too long")
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        if raw.count(b"[") + raw.count(b"{") > 1:  # only the outer object: no nesting to recurse into
            raise ValueError("nested")
        value = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError) as exc:
        raise _invalid() from exc
    if not isinstance(value, dict) or not all(_plain(k) and _plain(v) for k, v in value.items()):
        raise _invalid()
    return value


def cursor_datetime(value: object) -> datetime:
    """A timestamp of a cursor (ISO 8601 with a UTC offset), in UTC; ``BadRequest`` otherwise.

    ``9999-12-31T23:59:59-14:00`` is a valid ISO date whose UTC time is past year 9999, which no
    ``datetime`` holds: converting it for the database raised ``OverflowError``, a 500. Any date that
    has a UTC time is a position (a page, perhaps empty); the others are refused here."""
    try:
        moment = datetime.fromisoformat(str(value))
        if moment.tzinfo is None:
            raise ValueError("no UTC offset")
        return moment.astimezone(UTC)
    except (ValueError, OverflowError) as exc:
        raise _invalid() from exc


def _refuse_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a number")


def _plain(value: object) -> bool:
    if value is None or isinstance(value, bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        if "\x00" in value or len(value) > _CURSOR_MAX_CHARS:
            return False
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    return False


def _invalid() -> BadRequest:
    return BadRequest(
        "Invalid cursor: pass back next_cursor from the previous page unchanged.",
        errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
    )
