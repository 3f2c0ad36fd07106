"""``manacalc update-cards`` against a local HTTP server serving a small bulk entry and card file (no other
host is contacted)."""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.services.card_formats import normalize_name
from app.services.card_update import UPDATED_AT_KEY, CardFetchError, update_cards
from app.services.catalogue import Catalogue, reset_card_cache

GAMMA = "33333333-3333-4333-8333-333333333333"
DELTA = "44444444-4444-4444-8444-444444444444"


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    handler = functools.partial(_Quiet, directory=str(tmp_path))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", tmp_path
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache()
    yield
    reset_card_cache()


def _cards(cost: str = "{2}{G}") -> list[dict[str, Any]]:
    return [
        {"object": "card", "name": "Update Gamma", "oracle_id": GAMMA, "mana_cost": cost,
         "type_line": "Creature — Elf", "oracle_text": "{T}: Add {G}.",
         "power": "2", "toughness": "2", "color_identity": ["G"], "legalities": {"modern": "legal"}},
        {"object": "card", "name": "Update Delta", "oracle_id": DELTA, "mana_cost": "{U}",
         "type_line": "Instant", "oracle_text": "Draw a card.", "legalities": {}},
    ]  # fmt: skip


def _publish(root: Path, base: str, updated_at: str, cost: str = "{2}{G}") -> str:
    (root / "oracle-cards.json").write_text(json.dumps(_cards(cost)), encoding="utf-8")
    entry = {
        "object": "bulk_data", "type": "oracle_cards", "updated_at": updated_at,
        "download_uri": f"{base}/oracle-cards.json", "content_type": "application/json",
    }  # fmt: skip
    (root / "bulk-oracle-cards.json").write_text(json.dumps(entry), encoding="utf-8")
    return f"{base}/bulk-oracle-cards.json"


def test_update_fetches_the_bulk_file_and_imports_it(db_session: Session, server: tuple[str, Path]) -> None:
    base, root = server
    url = _publish(root, base, "2026-12-01T09:00:00+00:00")
    before = repo.count_cards(db_session)
    result = update_cards(db_session, url)
    assert result.url == f"{base}/oracle-cards.json"
    assert result.report is not None and (result.report.new, result.report.updated) == (2, 0)
    assert repo.count_cards(db_session) == before + 2
    assert repo.get_meta(db_session, UPDATED_AT_KEY) == "2026-12-01T09:00:00+00:00"
    gamma = Catalogue(db_session).exact("update gamma")
    assert (gamma.front.power, gamma.color_identity, str(gamma.mana_cost)) == ("2", ("G",), "{2}{G}")


def test_update_is_idempotent(db_session: Session, server: tuple[str, Path]) -> None:
    base, root = server
    url = _publish(root, base, "2026-12-01T09:00:00+00:00")
    update_cards(db_session, url)
    count = repo.count_cards(db_session)
    same = update_cards(db_session, url)  # the same updated_at: nothing downloaded
    assert same.report is None
    forced = update_cards(db_session, url, force=True)
    assert forced.report is not None and (forced.report.new, forced.report.updated) == (0, 2)
    assert repo.count_cards(db_session) == count
    url = _publish(root, base, "2026-12-02T09:00:00+00:00", cost="{3}{G}")  # a new file: changes applied
    newer = update_cards(db_session, url)
    assert newer.report is not None and newer.report.updated == 2
    assert repo.count_cards(db_session) == count
    hits = repo.find_by_name(db_session, normalize_name("Update Gamma"), card_names_only=True)
    assert str(repo.load_cards(db_session, [hits[0].oracle_id])[GAMMA].mana_cost) == "{3}{G}"


def test_a_direct_card_file_url_is_imported(db_session: Session, server: tuple[str, Path]) -> None:
    base, root = server
    _publish(root, base, "2026-12-01T09:00:00+00:00")
    result = update_cards(db_session, f"{base}/oracle-cards.json")
    assert result.report is not None and result.report.imported == 2 and result.updated_at is None


def test_fetch_failures_are_reported(db_session: Session, server: tuple[str, Path]) -> None:
    base, root = server
    with pytest.raises(CardFetchError, match="404"):
        update_cards(db_session, f"{base}/missing.json")
    (root / "junk.json").write_text("this is not json", encoding="utf-8")
    with pytest.raises(CardFetchError, match="not a JSON card file"):
        update_cards(db_session, f"{base}/junk.json")
    with pytest.raises(CardFetchError, match="only http and https"):
        update_cards(db_session, "file:///etc/passwd")
