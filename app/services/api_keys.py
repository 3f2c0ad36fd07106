"""API keys: create (the key is shown once, only its hash is kept), revoke, authenticate.

A key is 256 random bits (``secrets``), so a plain SHA-256 of it is a safe verifier: there is nothing to
brute-force that a salt or a slow hash would protect.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import OrderedDict

from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.repositories import api_keys as repo
from app.errors import InputError, NotFound

KEY_PREFIX = "mck_"
KEY_NAME_MAX = 200
_KEY_MAX = 200  # longer Authorization values are not keys of ours; refused before hashing
KEY_CACHE_TTL_S = 1.0
"""How long a worker trusts an accepted key without asking the database again (the look-up was
a round trip of every scenario request). A key revoked elsewhere (the CLI, another worker or replica)
stops working within this time; revoked through this process, at once. 1 s, not 5: the price
is one indexed SELECT a second per key and worker, while a revoked key stays usable no longer than a
second anywhere."""
KEY_CACHE_MAX = 10_000

_accepted: OrderedDict[str, tuple[int, float]] = OrderedDict()  # digest -> (key id, accepted at)
_accepted_lock = threading.Lock()


def hash_key(key: str) -> str:
    """The stored verifier of ``key``: hex SHA-256."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _check_name(name: str) -> str:
    stripped = name.strip()
    if not stripped or len(stripped) > KEY_NAME_MAX or not stripped.isprintable():
        raise InputError(
            f"an API key name is 1 to {KEY_NAME_MAX} printable characters",
            errors=[{"loc": ["name"], "msg": "invalid key name", "type": "value_error"}],
        )
    return stripped


def create_api_key(session: Session, *, name: str) -> str:
    """Store a new key named ``name`` and answer the key itself (it cannot be recovered later).
    A name already used is a ``Conflict``."""
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    repo.insert_api_key(session, name=_check_name(name), key_hash=hash_key(key), now=utcnow())
    return key


def revoke_api_key(session: Session, *, name: str) -> None:
    """Revoke the key named ``name`` at once; ``NotFound`` when there is no unrevoked key of that name."""
    if not repo.revoke_api_key(session, name=name.strip(), now=utcnow()):
        raise NotFound(f"no active API key named {name!r}")
    forget_accepted_keys()


def forget_accepted_keys() -> None:
    """Empty this process's cache of accepted keys (a revocation here takes effect at once)."""
    with _accepted_lock:
        _accepted.clear()


def cached_key_id(key: str) -> int | None:
    """The id of ``key`` if this process accepted it less than ``KEY_CACHE_TTL_S`` ago, else None (then
    ask ``authenticate``). No database: a read route skips its thread-pool hop for the look-up."""
    if not key or len(key) > _KEY_MAX:
        return None
    with _accepted_lock:
        cached = _accepted.get(hash_key(key))
    if cached is not None and time.monotonic() - cached[1] < KEY_CACHE_TTL_S:
        return cached[0]
    return None


def authenticate(session: Session, *, key: str, writing: bool = False) -> int | None:
    """The id of the active key ``key``, or None. ``writing``: the request will write (on SQLite its
    transaction then takes the write lock first; see ``take_sqlite_write_lock``)."""
    if not key or len(key) > _KEY_MAX:
        return None
    digest = hash_key(key)
    if writing and session.get_bind().dialect.name == "sqlite":
        repo.take_sqlite_write_lock(session)
    now = time.monotonic()
    with _accepted_lock:
        cached = _accepted.get(digest)
    if cached is not None and now - cached[1] < KEY_CACHE_TTL_S:
        return cached[0]
    key_id = repo.active_key_id(session, digest)
    with _accepted_lock:
        if key_id is None:
            _accepted.pop(digest, None)
        else:
            _accepted[digest] = (key_id, now)
            _accepted.move_to_end(digest)
            if len(_accepted) > KEY_CACHE_MAX:
                _accepted.popitem(last=False)
    return key_id
