"""``manacalc update-cards``: fetch Scryfall's current bulk file and import it (idempotently).

The bulk-data entry (``Settings.scryfall_bulk_url``, Scryfall's ``/bulk-data/oracle-cards``) is a small JSON
object whose ``download_uri`` is the file; a URL that answers a card file directly is imported as is. The
file is streamed to a temporary file with a progress bar (by ``Content-Length``), then imported by
``import_cards`` (upsert by oracle id: running it twice changes nothing but the timestamps). The entry's
``updated_at`` is kept in ``app_meta``; the same ``updated_at`` again is not downloaded unless forced.
"""

from __future__ import annotations

import json
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Final, TextIO

from sqlalchemy.orm import Session

from app import __version__
from app.db.repositories import cards as repo
from app.services.card_import import CardFileError, ImportReport, Progress, import_cards

UPDATED_AT_KEY: Final = "catalogue.scryfall_updated_at"
TIMEOUT_S: Final = 60.0
CHUNK: Final = 1 << 16
MAX_ENTRY_BYTES: Final = 1 << 20
USER_AGENT: Final = f"manacalc/{__version__}"


class CardFetchError(ValueError):
    """The bulk entry or file cannot be fetched, or is not what it should be."""


@dataclass(frozen=True, slots=True)
class UpdateResult:
    """What ``update_cards`` did: the URL it downloaded, and the import report (None when up to date)."""

    url: str
    report: ImportReport | None
    updated_at: str | None


def _get(url: str) -> Any:
    if not url.startswith(("http://", "https://")):
        raise CardFetchError(f"{url}: only http and https URLs are fetched")
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
    try:
        return urllib.request.urlopen(request, timeout=TIMEOUT_S)
    except OSError as exc:
        raise CardFetchError(f"{url}: {exc}") from exc


def _download(response: Any, out: IO[bytes], progress: TextIO | None, label: str) -> int:
    total = int(response.headers.get("Content-Length") or 0)
    bar = Progress(progress, total, label)
    done = 0
    while chunk := response.read(CHUNK):
        out.write(chunk)
        done += len(chunk)
        bar.update(done, 0)
    bar.update(done, 0, force=True)
    bar.close()
    return done


def update_cards(
    session: Session, bulk_url: str, *, progress: TextIO | None = None, force: bool = False
) -> UpdateResult:
    """Fetch the bulk entry at ``bulk_url`` and import its file. Flushes, never commits."""
    with _get(bulk_url) as response, tempfile.TemporaryDirectory(prefix="manacalc-cards-") as tmp:
        path = Path(tmp) / "cards.json"
        with path.open("wb") as out:
            head = response.read(1)
            out.write(head)
            _download(response, out, progress, "downloading")
        entry = _bulk_entry(path)
        updated_at: str | None = None
        url = bulk_url
        if entry is not None:
            updated_at = entry.get("updated_at") if isinstance(entry.get("updated_at"), str) else None
            if not force and updated_at is not None and repo.get_meta(session, UPDATED_AT_KEY) == updated_at:
                return UpdateResult(str(entry["download_uri"]), None, updated_at)
            url = str(entry["download_uri"])
            with _get(url) as file_response, path.open("wb") as out:
                _download(file_response, out, progress, "downloading oracle-cards")
        try:
            # Scryfall's bulk entry dates the file (its legalities with it); its name need not.
            as_of = updated_at[:10] if updated_at and len(updated_at) >= 10 else None
            report = import_cards(session, path, progress=progress, legalities_as_of=as_of)
        except CardFileError as exc:
            raise CardFetchError(f"{url}: {exc}") from exc
        if updated_at is not None:
            repo.set_meta(session, UPDATED_AT_KEY, updated_at)
        return UpdateResult(url, report, updated_at)


def _bulk_entry(path: Path) -> dict[str, Any] | None:
    """The bulk-data entry when the file is one (a small object with ``object: bulk_data``), else None."""
    if path.stat().st_size > MAX_ENTRY_BYTES:
        return None
    try:
        obj = json.loads(path.read_bytes())
    except ValueError:
        return None  # not JSON at all: import_cards says so
    if not isinstance(obj, dict) or obj.get("object") != "bulk_data":
        return None
    uri = obj.get("download_uri")
    if not isinstance(uri, str) or not uri.startswith(("http://", "https://")):
        raise CardFetchError("the bulk-data entry has no http(s) download_uri")
    return obj
