"""A key revoked by another process stops working on a running server within 1 s (issue 27).

Each worker keeps the keys it accepted for ``KEY_CACHE_TTL_S`` (issue 14); a revocation made elsewhere (the
``revoke-api-key`` command, another worker, another replica) reaches it only when that entry is older. The
README and the command's help promise 1 s: here a real server process accepts a key, the key is revoked
in the database from this process (so the server's cache is not emptied), and the server must refuse it no
later than 1 s after it accepted it.
"""

from __future__ import annotations

import sqlite3
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from app.services.api_keys import KEY_CACHE_TTL_S, hash_key
from tests.live_server import live_server, server_env

pytestmark = pytest.mark.db_free  # never reaches the database under test

SLACK_S = 0.5  # a request's own time on a busy two-core machine


def _status(url: str, key: str) -> int:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_the_promise_is_one_second() -> None:
    assert KEY_CACHE_TTL_S <= 1.0


def test_a_key_revoked_by_another_process_is_refused_within_a_second(tmp_path: Path) -> None:
    env = server_env(tmp_path)
    database = tmp_path / "keys.db"
    env["MANACALC_DATABASE_URL"] = f"sqlite:///{database}"
    with live_server(tmp_path, env=env) as server:
        key = server.cli("create-api-key", "revoked-elsewhere").strip()
        url = f"{server.url}/v1/scenarios"
        accepted = time.monotonic()
        assert _status(url, key) == 200  # first use: looked up in the database and cached
        with sqlite3.connect(database) as db:
            db.execute("UPDATE api_keys SET revoked_at = created_at WHERE key_hash = ?", (hash_key(key),))
        refused = None
        while time.monotonic() - accepted < 5.0:
            if _status(url, key) == 401:
                refused = time.monotonic()
                break
            time.sleep(0.02)
        assert refused is not None, "the revoked key was still accepted 5 s later"
        assert refused - accepted <= 1.0 + SLACK_S, refused - accepted
