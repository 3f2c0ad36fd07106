"""The date of the catalogue's legality data (``legalities_as_of``): read from each imported file."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.services.card_import import (
    BUNDLED_FILE,
    MTGJSON,
    SCRYFALL,
    bundled_legalities_as_of,
    ensure_bundled_catalogue,
    file_date,
    import_cards,
    legalities_as_of,
)
from app.services.catalogue import reset_card_cache

ALPHA = "11111111-1111-4111-8111-111111111111"
CARD: dict[str, Any] = {
    "object": "card", "name": "Test Alpha", "oracle_id": ALPHA, "mana_cost": "{W}",
    "type_line": "Creature — Test", "oracle_text": "", "legalities": {"legacy": "legal"},
}  # fmt: skip


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache(drop_index=True)
    yield
    reset_card_cache()


def _write(path: Path, payload: Any) -> Path:
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def test_bundled_catalogue_is_dated_by_its_meta_file(db_session: Session) -> None:
    # tools/build_catalogue.py writes MTGJSON's meta.date of the legality source beside the catalogue.
    assert bundled_legalities_as_of() == "2022-04-25"
    assert BUNDLED_FILE.with_name("cards.meta.json").is_file()
    assert legalities_as_of(db_session) == "2022-04-25"


def test_mtgjson_file_dates_by_its_meta(db_session: Session, tmp_path: Path) -> None:
    faces = [{"name": "Test Alpha", "manaCost": "{W}", "type": "Creature — Test", "text": "",
              "legalities": {"legacy": "Legal"}, "identifiers": {"scryfallOracleId": ALPHA}}]  # fmt: skip
    path = _write(
        tmp_path / "AtomicCards.json", {"meta": {"date": "2026-11-30"}, "data": {"Test Alpha": faces}}
    )
    assert file_date(path, MTGJSON) == "2026-11-30"
    assert import_cards(db_session, path).imported == 1
    assert legalities_as_of(db_session) == "2026-11-30"


def test_scryfall_bulk_file_dates_by_its_name(db_session: Session, tmp_path: Path) -> None:
    path = _write(tmp_path / "oracle-cards-20261201100512.json", [CARD])
    assert file_date(path, SCRYFALL) == "2026-12-01"
    import_cards(db_session, path)
    assert legalities_as_of(db_session) == "2026-12-01"
    # A given date (Scryfall's bulk entry's updated_at, update-cards) wins over the name.
    import_cards(db_session, path, legalities_as_of="2026-12-03")
    assert legalities_as_of(db_session) == "2026-12-03"


def test_an_undated_import_makes_the_date_unknown(db_session: Session, tmp_path: Path) -> None:
    # Nothing silent: an import that does not say its date cannot keep the older date for its cards.
    path = _write(tmp_path / "cards.json", [CARD])
    assert file_date(path, SCRYFALL) is None
    import_cards(db_session, path)
    assert legalities_as_of(db_session) is None


def test_bundled_file_over_an_import_keeps_the_older_date(db_session: Session, tmp_path: Path) -> None:
    import_cards(db_session, _write(tmp_path / "oracle-cards-20261201.json", [CARD]))
    bundled = _write(
        tmp_path / "cards.json", [dict(CARD, name="Test Beta", oracle_id=ALPHA.replace("1", "2"))]
    )
    (tmp_path / "cards.meta.json").write_text('{"legalities_as_of": "2022-04-25"}', encoding="utf-8")
    ensure_bundled_catalogue(db_session, bundled)
    assert legalities_as_of(db_session) == "2022-04-25"
