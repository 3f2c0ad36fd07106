"""The catalogue snapshot (``app.services.catalogue_snapshot``): a later start reads what an earlier one
built, only for the same database, catalogue and code, and never from a directory others could write."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from app.services import catalogue_snapshot as snap
from app.services.card_import import data_version
from app.services.card_index import LIVE, CardIndex, load_at_startup


class Builds:
    """A build function that counts its calls."""

    def __init__(self, value: object) -> None:
        self.value = value
        self.calls = 0

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_a_second_start_reads_what_the_first_built(tmp_path: Path) -> None:
    build = Builds({"cards": [1, 2, 3]})
    assert snap.load_or_build(tmp_path, "db", "v1", build) == {"cards": [1, 2, 3]}
    assert snap.load_or_build(tmp_path, "db", "v1", build) == {"cards": [1, 2, 3]}
    assert build.calls == 1
    assert stat_mode(tmp_path) == 0o700


def test_another_version_database_or_code_is_built_anew_and_the_old_snapshot_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = Builds("x")
    snap.load_or_build(tmp_path, "db", "v1", build)
    first = snap.snapshot_path(tmp_path, "db", "v1")
    snap.load_or_build(tmp_path, "db", "v2", build)
    assert build.calls == 2 and not first.exists()
    snap.load_or_build(tmp_path, "other db", "v2", build)
    assert build.calls == 3
    monkeypatch.setattr(snap, "code_fingerprint", lambda: "an upgrade")
    snap.load_or_build(tmp_path, "other db", "v2", build)
    assert build.calls == 4
    assert len(list(tmp_path.glob("catalogue-*.pickle"))) == 1


def test_the_fingerprint_follows_the_rules_sources() -> None:
    assert snap.code_fingerprint() == snap.code_fingerprint()
    assert any(p.name == "cards.py" for p in snap._CODE[0].rglob("*.py"))


def test_an_unreadable_snapshot_is_replaced(tmp_path: Path) -> None:
    build = Builds(["fresh"])
    path = snap.snapshot_path(tmp_path, "db", "v1")
    tmp_path.chmod(0o700)
    path.write_bytes(b"not a pickle")
    assert snap.load_or_build(tmp_path, "db", "v1", build) == ["fresh"]
    assert build.calls == 1
    assert snap.load_or_build(tmp_path, "db", "v1", build) == ["fresh"] and build.calls == 1


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_directory_others_may_write_is_never_used(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    build = Builds("x")
    snap.load_or_build(shared, "db", "v1", build)
    snap.load_or_build(shared, "db", "v1", build)
    assert build.calls == 2 and not list(shared.iterdir())


def test_no_directory_means_no_snapshot() -> None:
    build = Builds("x")
    snap.load_or_build(None, "db", "v1", build)
    snap.load_or_build(None, "db", "v1", build)
    assert build.calls == 2


def test_the_index_from_a_snapshot_is_the_index_from_the_database(
    db_session: Session, tmp_path: Path
) -> None:
    version = data_version(db_session)
    before = LIVE.index, LIVE.startup
    try:
        built = load_at_startup(db_session, version, tmp_path)
        assert list(tmp_path.glob("catalogue-*.pickle"))
        read = load_at_startup(db_session, version, tmp_path)
        fresh = CardIndex.build(db_session, version, preload=True)
    finally:
        LIVE.index, LIVE.startup = before
    for index in (built, read):
        assert index.entries == fresh.entries
        assert index.sorted_names == fresh.sorted_names
        assert index.words == fresh.words
        assert index.cards == fresh.cards
    forest = next(e for e in read.exact("forest"))
    assert read.card(forest.oracle_id) == fresh.card(forest.oracle_id)


def stat_mode(path: Path) -> int:
    return path.stat().st_mode & 0o777
