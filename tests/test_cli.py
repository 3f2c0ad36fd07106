"""``manacalc import-cards`` on a new database: the bundled catalogue goes in first, so the file's cards are
the ones kept and the server's first start has nothing to load (issue 14: that load was 8 s of a start
that must be ready in 5, and it replaced the file's cards with the bundled ones)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli import main
from app.config import Settings, get_settings
from app.db.session import dispose_engines, get_engine, get_sessionmaker
from app.services.card_import import data_version, ensure_bundled_catalogue
from app.services.catalogue import Catalogue, reset_card_cache


@pytest.fixture
def fresh_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("MANACALC_DATABASE_URL", url)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()
    dispose_engines()


def test_import_into_a_new_database_leaves_the_first_start_nothing_to_load(
    fresh_database: str, tmp_path: Path
) -> None:
    forest = {
        "object": "card", "name": "Forest", "oracle_id": "b34bb2dc-c1af-4d77-b0b3-a0fb342a5fc6",
        "mana_cost": "", "type_line": "Basic Land — Forest", "oracle_text": "({T}: Add {G}.) Imported.",
        "legalities": {"legacy": "legal"},
    }  # fmt: skip
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([forest]), encoding="utf-8")
    assert main(["import-cards", str(path)]) == 0
    with get_sessionmaker(get_engine(Settings(database_url=fresh_database)))() as session:
        version = data_version(session)
        assert "bundled" not in version  # the file's import is the catalogue's last change
        assert ensure_bundled_catalogue(session) is None  # what a first start does: nothing left
        assert data_version(session) == version
        reset_card_cache(drop_index=True)
        try:
            text = Catalogue(session).exact("Forest").front.oracle_text
        finally:
            reset_card_cache()
        assert text.endswith("Imported.")  # the file's Forest, not the bundled one


def test_a_malformed_setting_stops_every_command_with_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Status 2 and the variable named, before anything runs (no database is created)."""
    monkeypatch.setenv("MANACALC_DATABASE_URL", f"sqlite:///{tmp_path / 'never.db'}")
    monkeypatch.setenv("MANACALC_SECRETS_DIR", str(tmp_path / "no-such-directory"))
    get_settings.cache_clear()
    try:
        assert main(["migrate"]) == 2
    finally:
        get_settings.cache_clear()
    missing = tmp_path / "no-such-directory"
    assert capsys.readouterr().err == (
        f"manacalc: invalid settings: MANACALC_SECRETS_DIR={missing}: no such directory\n"
    )
    assert not (tmp_path / "never.db").exists()
