"""API keys: only hashes are stored; revocation is immediate; the CLI prints the key alone on a line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from app.cli import main
from app.config import Settings, get_settings
from app.db.models.api_keys import ApiKeyRow
from app.db.session import get_engine, get_sessionmaker
from app.errors import Conflict, InputError, NotFound
from app.services.api_keys import authenticate, create_api_key, hash_key, revoke_api_key


def test_create_stores_only_the_hash(db_session: Session) -> None:
    key = create_api_key(db_session, name="deck-site")
    assert len(key) >= 40
    row = db_session.scalars(select(ApiKeyRow).where(ApiKeyRow.name == "deck-site")).one()
    assert row.key_hash == hashlib.sha256(key.encode()).hexdigest() == hash_key(key)
    assert key not in (row.name, row.key_hash)
    assert row.revoked_at is None
    assert row.created_at.tzinfo is not None


def test_keys_are_unique_and_random(db_session: Session) -> None:
    keys = {create_api_key(db_session, name=f"k{i}") for i in range(20)}
    assert len(keys) == 20


def test_authenticate_and_revoke(db_session: Session) -> None:
    key = create_api_key(db_session, name="a")
    other = create_api_key(db_session, name="b")
    key_id = authenticate(db_session, key=key)
    assert key_id is not None
    assert authenticate(db_session, key=other) not in (None, key_id)
    assert authenticate(db_session, key=key + "x") is None
    assert authenticate(db_session, key="") is None
    assert authenticate(db_session, key="k" * 10_000) is None
    assert authenticate(db_session, key=key, writing=True) == key_id
    revoke_api_key(db_session, name="a")
    assert authenticate(db_session, key=key) is None
    assert authenticate(db_session, key=other) is not None
    with pytest.raises(NotFound):
        revoke_api_key(db_session, name="a")  # already revoked
    with pytest.raises(NotFound):
        revoke_api_key(db_session, name="never")


def test_names_are_unique_and_bounded(db_session: Session) -> None:
    create_api_key(db_session, name="site")
    with pytest.raises(Conflict):
        create_api_key(db_session, name="site")
    for bad in ("", "   ", "x" * 201, "tab\there"):
        with pytest.raises(InputError):
            create_api_key(db_session, name=bad)
    # The failed attempts left the transaction usable.
    assert create_api_key(db_session, name="site-2")


@pytest.fixture
def cli_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("MANACALC_DATABASE_URL", url)
    get_settings.cache_clear()
    yield url  # type: ignore[misc]
    get_settings.cache_clear()


def test_cli_create_and_revoke(cli_database: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["create-api-key", "partner"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 1 and out.endswith("\n")
    key = lines[0]
    assert key == key.strip() and len(key) >= 40
    session = get_sessionmaker(get_engine(Settings(database_url=cli_database)))()
    try:
        assert authenticate(session, key=key) is not None
        assert session.scalar(select(ApiKeyRow.key_hash)) == hash_key(key)
    finally:
        session.close()

    assert main(["create-api-key", "partner"]) == 1  # the name is taken
    assert "partner" in capsys.readouterr().err

    assert main(["revoke-api-key", "partner"]) == 0
    assert capsys.readouterr().out == ""
    session = get_sessionmaker(get_engine(Settings(database_url=cli_database)))()
    try:
        assert authenticate(session, key=key) is None
    finally:
        session.close()
    assert main(["revoke-api-key", "partner"]) == 1
