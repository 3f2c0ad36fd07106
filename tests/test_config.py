"""The default SQLite database does not depend on the working directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Settings


def test_default_database_is_in_the_data_dir_whatever_the_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MANACALC_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    urls = set()
    for cwd in (tmp_path / "a", tmp_path / "b" / "c"):
        cwd.mkdir(parents=True)
        monkeypatch.chdir(cwd)
        urls.add(Settings().database_url)
    expected = tmp_path.resolve() / "xdg" / "manacalc" / "manacalc.db"
    assert urls == {f"sqlite:///{expected}"}
    assert expected.parent.is_dir()


def test_without_xdg_data_home_it_is_under_the_home_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MANACALC_DATABASE_URL", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert Settings().database_url == f"sqlite:///{tmp_path.resolve()}/.local/share/manacalc/manacalc.db"


def test_an_explicit_url_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MANACALC_DATABASE_URL", "sqlite:////tmp/elsewhere.db")
    assert Settings().database_url == "sqlite:////tmp/elsewhere.db"
