"""``import_cards``: formats, idempotency, bad records reported and skipped, clear errors, bundled file."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.services.card_formats import normalize_name
from app.services.card_import import (
    BUNDLED_FILE,
    BUNDLED_HASH_KEY,
    DATA_VERSION_KEY,
    MTGJSON,
    SCRYFALL,
    SCRYFALL_LIST,
    CardFileError,
    bundled_built_on,
    bundled_data_version,
    bundled_hash,
    data_version,
    detect_format,
    ensure_bundled_catalogue,
    import_cards,
    is_bundled_version,
)
from app.services.catalogue import reset_card_cache

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
SCRYFALL_FILE = SHARED / "scryfall-oracle-cards.json"
MTGJSON_FILE = SHARED / "mtgjson-atomic-subset.json"
needs_shared = pytest.mark.skipif(not SCRYFALL_FILE.is_file(), reason="../shared/data is absent")

ALPHA = "11111111-1111-4111-8111-111111111111"
BETA = "22222222-2222-4222-8222-222222222222"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache(drop_index=True)
    yield
    reset_card_cache()


def _card(name: str, oracle_id: str, cost: str = "{1}{W}", **extra: Any) -> dict[str, Any]:
    return {
        "object": "card", "name": name, "oracle_id": oracle_id, "mana_cost": cost,
        "type_line": "Creature — Test", "oracle_text": "", "legalities": {"legacy": "legal"}, **extra,
    }  # fmt: skip


def _write(tmp_path: Path, name: str, payload: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def _names(session: Session, name: str) -> list[str]:
    return [h.oracle_id for h in repo.find_by_name(session, normalize_name(name), card_names_only=True)]


def test_import_twice_updates_and_never_duplicates(db_session: Session, tmp_path: Path) -> None:
    path = _write(tmp_path, "cards.json", [_card("Test Alpha", ALPHA), _card("Test Beta", BETA, "{U}")])
    before = repo.count_cards(db_session)
    first = import_cards(db_session, path)
    assert (first.new, first.updated, first.skipped) == (2, 0, 0)
    assert repo.count_cards(db_session) == before + 2
    path.write_text(json.dumps([_card("Test Alpha", ALPHA, "{2}{W}"), _card("Test Beta", BETA, "{U}")]))
    second = import_cards(db_session, path)
    assert (second.new, second.updated) == (0, 2)
    assert repo.count_cards(db_session) == before + 2
    alpha = repo.load_cards(db_session, [ALPHA])[ALPHA]
    assert str(alpha.mana_cost) == "{2}{W}"  # updated in place
    assert _names(db_session, "test alpha") == [ALPHA]


def test_bad_record_is_reported_and_skipped_the_rest_imported(db_session: Session, tmp_path: Path) -> None:
    records = [_card("Test Alpha", ALPHA), _card("Broken Cost", BETA, "{W}{Q}"), {"name": 7}, "nonsense",
               _card("Test Gamma", "33333333-3333-4333-8333-333333333333")]  # fmt: skip
    path = _write(tmp_path, "bad.json", records)
    told: list[str] = []
    report = import_cards(db_session, path, on_problem=told.append)
    assert (report.records, report.imported, report.skipped) == (5, 2, 3)
    assert len(told) == 3
    assert "record 1" in told[0] and "Broken Cost" in told[0] and "{Q}" in told[0]
    assert "3 bad records skipped" in report.summary()
    assert _names(db_session, "Test Gamma") and not _names(db_session, "Broken Cost")


def test_a_file_that_is_not_json_is_a_clear_error(db_session: Session, tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Sol Ring, Forest\n")
    with pytest.raises(CardFileError, match="not a JSON card file"):
        import_cards(db_session, path)
    with pytest.raises(CardFileError, match="no such file"):
        import_cards(db_session, tmp_path / "missing.json")


def test_truncated_json_is_a_clear_error(db_session: Session, tmp_path: Path) -> None:
    path = tmp_path / "cut.json"
    path.write_text(json.dumps([_card("Test Alpha", ALPHA), _card("Test Beta", BETA)])[:-40])
    with pytest.raises(CardFileError, match="not valid JSON after 1 records"):
        import_cards(db_session, path)


def test_unknown_json_shape_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CardFileError, match="unknown JSON shape"):
        detect_format(_write(tmp_path, "x.json", {"cards": []}))
    with pytest.raises(CardFileError, match="'card' object"):
        detect_format(_write(tmp_path, "y.json", {"object": "card", "name": "Forest"}))


def test_scryfall_list_page_and_non_cards(db_session: Session, tmp_path: Path) -> None:
    page = {"object": "list", "has_more": False, "data": [
        _card("Test Alpha", ALPHA),
        {"object": "card", "name": "Elf Warrior", "layout": "token", "oracle_id": BETA, "type_line": "Token"},
        _card("Prueba", "44444444-4444-4444-8444-444444444444", lang="es"),
    ]}  # fmt: skip
    path = _write(tmp_path, "page.json", page)
    assert detect_format(path) == SCRYFALL_LIST
    report = import_cards(db_session, path)
    assert (report.imported, report.ignored) == (1, 2)
    assert not _names(db_session, "Elf Warrior")


def test_mtgjson_set_file_groups_faces_of_printings(db_session: Session, tmp_path: Path) -> None:
    oid = "55555555-5555-4555-8555-555555555555"
    printing = {"uuid": "u1", "setCode": "TST", "name": "Test Up // Test Down", "layout": "transform",
                "identifiers": {"scryfallOracleId": oid}, "legalities": {"modern": "Legal"}}  # fmt: skip
    payload = {"meta": {"version": "5"}, "data": {"code": "TST", "cards": [
        {**printing, "faceName": "Test Up", "side": "a", "manaCost": "{G}", "type": "Creature — Elf"},
        {**printing, "uuid": "u2", "faceName": "Test Down", "side": "b", "type": "Creature — Elf Horror"},
    ], "tokens": []}}  # fmt: skip
    path = _write(tmp_path, "TST.json", payload)
    assert detect_format(path) == MTGJSON
    report = import_cards(db_session, path)
    assert report.imported == 1
    card = repo.load_cards(db_session, [oid])[oid]
    assert [f.name for f in card.faces] == ["Test Up", "Test Down"]
    assert dict(card.legalities) == {"modern": "legal"}


def test_import_sets_data_version(db_session: Session, tmp_path: Path) -> None:
    before = data_version(db_session)
    import_cards(db_session, _write(tmp_path, "a.json", [_card("Test Alpha", ALPHA)]))
    after = data_version(db_session)
    assert after != before and after[:2] == "20"  # an ISO timestamp


def test_progress_bar_only_on_a_terminal(db_session: Session, tmp_path: Path) -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    path = _write(tmp_path, "a.json", [_card("Test Alpha", ALPHA)])
    tty, pipe = Tty(), io.StringIO()
    import_cards(db_session, path, progress=tty)
    import_cards(db_session, path, progress=pipe)
    assert "\r" in tty.getvalue() and "100.0%" in tty.getvalue() and "1 cards" in tty.getvalue()
    assert pipe.getvalue() == ""


def test_bundled_catalogue_is_loaded_once(db_session: Session) -> None:
    assert detect_format(BUNDLED_FILE) == SCRYFALL
    # The start-up hook already ran for the test session: a second run changes nothing.
    assert ensure_bundled_catalogue(db_session) is None
    assert data_version(db_session) == f"{bundled_built_on()}+bundled-{bundled_hash()}"
    assert _names(db_session, "Vorthos, Steward of Myth")


def test_bundled_data_version_is_the_build_date_and_content() -> None:
    """API.md: ``data_version`` is "when the card catalogue was last imported"; the bundled catalogue was
    imported from its sources when tools/build_catalogue.py last changed it (``built_on``)."""
    built_on = bundled_built_on()
    assert built_on is not None and date.fromisoformat(built_on) <= datetime.now(UTC).date()
    assert bundled_data_version() == f"{built_on}+bundled-{bundled_hash()}"
    assert is_bundled_version(bundled_data_version()) and is_bundled_version("bundled-ce1376a65000")
    assert not is_bundled_version(datetime.now(UTC).isoformat()) and not is_bundled_version(None)


def test_a_bundled_catalogue_loaded_before_dates_gets_the_dated_version(db_session: Session) -> None:
    """A database holding the old ``bundled-<hash>`` of another file is reloaded and dated."""
    repo.set_meta(db_session, BUNDLED_HASH_KEY, "0" * 12)
    repo.set_meta(db_session, DATA_VERSION_KEY, "bundled-000000000000")
    assert ensure_bundled_catalogue(db_session) is not None
    assert data_version(db_session) == bundled_data_version()


def test_changed_bundled_file_is_reloaded(db_session: Session, tmp_path: Path) -> None:
    path = _write(tmp_path, "cards.json", [_card("Test Alpha", ALPHA)])
    report = ensure_bundled_catalogue(db_session, path)
    assert report is not None and report.imported == 1
    assert data_version(db_session) == f"unknown+bundled-{bundled_hash(path)}"  # no cards.meta.json there
    assert ensure_bundled_catalogue(db_session, path) is None


@needs_shared
def test_import_mtgjson_subset(db_session: Session) -> None:
    report = import_cards(db_session, MTGJSON_FILE)
    assert report.source_format == MTGJSON
    assert (report.imported, report.skipped) == (1486, 0)
    assert report.new == 0  # the bundled catalogue holds every card of the subset already


@needs_shared
def test_import_a_slice_of_the_scryfall_file(db_session: Session, tmp_path: Path) -> None:
    records = json.loads(SCRYFALL_FILE.read_text(encoding="utf-8"))[:1500]
    path = _write(tmp_path, "slice.json", records)
    before = repo.count_cards(db_session)
    report = import_cards(db_session, path, batch_size=200)
    assert (report.imported, report.skipped) == (1500, 0)
    assert repo.count_cards(db_session) == before + report.new
    again = import_cards(db_session, path, batch_size=333)
    assert (again.new, again.updated) == (0, 1500)
    assert repo.count_cards(db_session) == before + report.new


@needs_shared
@pytest.mark.slow
def test_import_the_full_scryfall_file(db_session: Session) -> None:
    report = import_cards(db_session, SCRYFALL_FILE)
    assert (report.records, report.imported, report.skipped) == (23743, 23743, 0)
    # The bundled catalogue already holds every one of these (plus the MTGJSON and supplement cards):
    # importing the file updates them, adding none.
    with gzip.open(BUNDLED_FILE, "rt", encoding="utf-8") as fh:
        bundled = len(json.load(fh))
    assert (report.new, report.updated) == (0, 23743)
    assert repo.count_cards(db_session) == bundled
