"""Importing card files into the catalogue: streaming, idempotent, forgiving of bad records.

Reads Scryfall bulk files (a JSON array of card objects, or an API ``{"object": "list", "data": [...]}``
page) and MTGJSON files (``AtomicCards``: ``data`` maps a name to its faces; set files: ``data.cards``
lists printings) with ijson, so a 100 MB file never sits in memory. Cards are upserted in batches by oracle
id: importing a file twice updates, never duplicates. A record that cannot be read is reported and skipped;
a file that is not JSON at all, or not one of these shapes, is a ``CardFileError``. The functions flush,
never commit: the caller (the CLI, the start-up hook) owns the transaction.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Final, TextIO, cast

import ijson
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.rules.values.cards import Card
from app.services.card_formats import IGNORED_LAYOUTS, BadCardRecord, card_from_mtgjson, card_from_scryfall

DATA_VERSION_KEY: Final = "catalogue.data_version"
BUNDLED_HASH_KEY: Final = "catalogue.bundled_hash"
BUNDLED_FILE: Final = Path(__file__).resolve().parents[1] / "data" / "cards.json.gz"
LEGALITIES_AS_OF_KEY: Final = "catalogue.legalities_as_of"
"""The date of the catalogue's legality data (YYYY-MM-DD), or ``unknown`` when an import gave none."""
UNKNOWN_DATE: Final = "unknown"
BUNDLED_MARK: Final = "+bundled-"
"""Between the bundled catalogue's build date and its content hash in its data_version."""
_FILE_NAME_DATE: Final = re.compile(r"(?<!\d)(20\d\d)-?([01]\d)-?([0-3]\d)(?:\d{6})?(?!\d)")
_ISO_DATE: Final = re.compile(r"20\d\d-[01]\d-[0-3]\d")
_GZIP_MAGIC: Final = b"\x1f\x8b"
BATCH_SIZE: Final = 1000

SCRYFALL: Final = "scryfall"
SCRYFALL_LIST: Final = "scryfall-list"
MTGJSON: Final = "mtgjson"


class CardFileError(ValueError):
    """The file cannot be imported at all: not JSON, or JSON of a shape that holds no cards we know."""


@dataclass(slots=True)
class ImportReport:
    """What an import did; ``summary()`` is the line the CLI prints at the end."""

    path: str
    source_format: str = ""
    records: int = 0
    new: int = 0
    updated: int = 0
    skipped: int = 0
    ignored: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def imported(self) -> int:
        return self.new + self.updated

    def summary(self) -> str:
        return (
            f"{self.path}: {self.imported} cards imported ({self.new} new, {self.updated} updated) from "
            f"{self.records} {self.source_format} records, {self.skipped} bad records skipped, "
            f"{self.ignored} non-cards ignored, in {self.seconds:.1f} s"
        )


@dataclass(frozen=True, slots=True)
class _Bad:
    index: int
    error: BadCardRecord


_Item = Card | _Bad | None  # None: a record that is not a card (a token, a non-English printing)


# -- reading -----------------------------------------------------------------------------------------------


class _CountingReader(io.RawIOBase):
    """A binary file that counts the bytes read, for the progress bar."""

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self.count = 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        self.count += len(data)
        return data

    def readinto(self, buffer: Any) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


@contextmanager
def _open(path: Path) -> Iterator[IO[bytes]]:
    """The file's bytes, decompressed when it is gzip (the bundled catalogue, a downloaded ``.gz``)."""
    with path.open("rb") as raw:
        if raw.read(2) == _GZIP_MAGIC:
            raw.seek(0)
            with gzip.GzipFile(fileobj=raw, mode="rb") as gz:
                yield cast(IO[bytes], gz)
            return
        raw.seek(0)
        yield raw


def detect_format(path: Path) -> str:
    """``scryfall`` (a JSON array of cards), ``scryfall-list`` (an API list page) or ``mtgjson``."""
    with _open(path) as fh:
        head = fh.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
        if head.startswith(b"["):
            return SCRYFALL
        if not head.startswith(b"{"):
            raise CardFileError(f"{path}: not a JSON card file (it does not start with '[' or '{{')")
        fh.seek(0)
        try:
            events = ijson.parse(fh)
            for prefix, event, value in events:
                if prefix == "" and event == "map_key":
                    if value == "object":
                        _, _, kind = next(events)
                        if kind == "list":
                            return SCRYFALL_LIST
                        raise CardFileError(f"{path}: a Scryfall {kind!r} object, not a list of cards")
                    if value in ("meta", "data"):
                        return MTGJSON
                    raise CardFileError(f"{path}: unknown JSON shape (first key {str(value)[:40]!r})")
        except ijson.JSONError as exc:
            raise CardFileError(f"{path}: not valid JSON ({exc})") from exc
    raise CardFileError(f"{path}: an empty JSON object holds no cards")


def _scryfall_items(stream: IO[bytes], prefix: str) -> Iterator[_Item]:
    for index, obj in enumerate(ijson.items(stream, prefix, use_float=True)):
        if isinstance(obj, Mapping) and (
            obj.get("layout") in IGNORED_LAYOUTS
            or obj.get("lang", "en") != "en"
            or obj.get("object") == "token"
        ):
            yield None
            continue
        try:
            yield card_from_scryfall(obj)
        except BadCardRecord as exc:
            yield _Bad(index, exc)
        except ValueError as exc:  # a rules-level refusal (e.g. a Card with no face)
            yield _Bad(index, BadCardRecord(str(exc), name=_record_name(obj)))


def _mtgjson_items(stream: IO[bytes]) -> Iterator[_Item]:
    index = 0
    for key, value in ijson.kvitems(stream, "data", use_float=True):
        if (
            key == "cards"
            and isinstance(value, list)
            and value
            and isinstance(value[0], Mapping)
            and "uuid" in value[0]
        ):
            # a set file: printings, each face of a card a separate entry
            for name, entries in _group_printings(value).items():
                yield from _mtgjson_card(index, name, entries)
                index += 1
            continue
        if isinstance(value, list):
            yield from _mtgjson_card(index, str(key), value)
            index += 1
        # other set-file keys (code, name, tokens...) hold no cards


def _mtgjson_card(index: int, name: str, entries: list[Any]) -> Iterator[_Item]:
    # AtomicCards may list different cards under one name (Un-set variants): one card per oracle id.
    groups: dict[str | None, list[Any]] = {}
    for e in entries:
        ident = e.get("identifiers") if isinstance(e, Mapping) else None
        oid = ident.get("scryfallOracleId") if isinstance(ident, Mapping) else None
        groups.setdefault(oid, []).append(e)
    for group in groups.values():
        try:
            yield card_from_mtgjson(name, group)
        except BadCardRecord as exc:
            yield _Bad(index, exc)
        except ValueError as exc:
            yield _Bad(index, BadCardRecord(str(exc), name=name))


def _group_printings(printings: list[Any]) -> dict[str, list[Any]]:
    """A set file's printings grouped into cards: one entry per face (``side``) of each card name."""
    cards: dict[str, dict[str, Any]] = {}
    for p in printings:
        if not isinstance(p, Mapping):
            continue
        name = str(p.get("name", ""))
        cards.setdefault(name, {}).setdefault(str(p.get("side") or ""), p)
    return {name: list(faces.values()) for name, faces in cards.items()}


def _record_name(obj: Any) -> str | None:
    name = obj.get("name") if isinstance(obj, Mapping) else None
    return name if isinstance(name, str) else None


def iter_cards(stream: IO[bytes], source_format: str) -> Iterator[_Item]:
    """The cards of an open file of ``source_format`` (see ``detect_format``), one item per record."""
    if source_format == SCRYFALL:
        return _scryfall_items(stream, "item")
    if source_format == SCRYFALL_LIST:
        return _scryfall_items(stream, "data.item")
    if source_format == MTGJSON:
        return _mtgjson_items(stream)
    raise CardFileError(f"unknown card file format {source_format!r}")


# -- progress ----------------------------------------------------------------------------------------------


class Progress:
    """A one-line progress bar on a terminal; silent when the stream is not a TTY (logs, pipes)."""

    WIDTH = 30

    def __init__(self, stream: TextIO | None, total: int, label: str) -> None:
        self.stream = stream if stream is not None and stream.isatty() else None
        self.total = max(total, 1)
        self.label = label
        self._last = 0.0

    def update(self, done: int, cards: int, *, force: bool = False) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        if not force and now - self._last < 0.1:
            return
        self._last = now
        frac = min(done / self.total, 1.0)
        filled = int(frac * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{self.label} [{bar}] {frac:6.1%} {cards} cards")
        self.stream.flush()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


# -- importing ---------------------------------------------------------------------------------------------


def import_cards(
    session: Session,
    path: str | Path,
    *,
    batch_size: int = BATCH_SIZE,
    progress: TextIO | None = None,
    on_problem: Callable[[str], None] | None = None,
    set_version: bool = True,
    legalities_as_of: str | None = None,
) -> ImportReport:
    """Import the card file at ``path`` into the catalogue (upsert by oracle id) and return the report.

    ``progress``: a stream for the progress bar (drawn only on a TTY). ``on_problem`` is told about each
    bad record as it is skipped. ``set_version`` records the import time as the catalogue's data_version and
    the date of its legality data (``legalities_as_of``, else read from the file: ``file_date``).
    Raises ``CardFileError`` when the file is not a card file or its JSON breaks off.
    """
    path = Path(path)
    if not path.is_file():
        raise CardFileError(f"{path}: no such file")
    started = time.perf_counter()
    report = ImportReport(path=str(path), source_format=detect_format(path))
    bar = Progress(progress, path.stat().st_size, f"importing {path.name}")
    batch: list[Card] = []

    def flush() -> None:
        new, updated = repo.upsert_cards(session, batch)
        report.new += new
        report.updated += updated
        batch.clear()

    with path.open("rb") as raw:
        reader = _CountingReader(raw)
        stream: IO[bytes] = io.BufferedReader(reader, buffer_size=1 << 16)
        if raw.read(2) == _GZIP_MAGIC:
            raw.seek(0)
            stream = cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
        else:
            raw.seek(0)
        try:
            for item in iter_cards(stream, report.source_format):
                report.records += 1
                if item is None:
                    report.ignored += 1
                elif isinstance(item, _Bad):
                    report.skipped += 1
                    message = f"skipped record {item.index}: {item.error}"
                    if len(report.problems) < 1000:
                        report.problems.append(message)
                    if on_problem is not None:
                        on_problem(message)
                else:
                    batch.append(item)
                    if len(batch) >= batch_size:
                        flush()
                bar.update(reader.count, report.imported + len(batch))
        except ijson.JSONError as exc:
            bar.close()
            raise CardFileError(
                f"{path}: not valid JSON after {report.records} records ({exc}); nothing imported"
            ) from exc
        if batch:
            flush()
        bar.update(reader.count, report.imported, force=True)
        bar.close()
    if set_version and report.imported:
        repo.set_meta(session, DATA_VERSION_KEY, datetime.now(UTC).isoformat())
        given = legalities_as_of if legalities_as_of and _ISO_DATE.fullmatch(legalities_as_of) else None
        as_of = given or file_date(path, report.source_format)
        repo.set_meta(session, LEGALITIES_AS_OF_KEY, as_of or UNKNOWN_DATE)
    report.seconds = time.perf_counter() - started
    return report


def file_date(path: Path, source_format: str) -> str | None:
    """The date of a card file's data, from the file itself: MTGJSON's ``meta.date``; for a Scryfall bulk
    file the timestamp in its name (``oracle-cards-20220425093013.json``); None when it says none."""
    if source_format == MTGJSON:
        with _open(path) as fh:
            try:
                for prefix, event, value in ijson.parse(fh):
                    if prefix == "meta.date" and event == "string" and _ISO_DATE.fullmatch(str(value)):
                        return str(value)
                    if prefix.startswith("data"):
                        break  # MTGJSON writes meta first: no need to read the cards
            except ijson.JSONError:
                return None
        return None
    m = _FILE_NAME_DATE.search(path.name)
    return f"{m.group(1)}-{m.group(2)}-{m.group(3)}" if m else None


def bundled_legalities_as_of(path: Path = BUNDLED_FILE) -> str | None:
    """The bundled catalogue's legality date, written beside it by tools/build_catalogue.py
    (``cards.meta.json``); None when the file is missing."""
    meta = path.with_name("cards.meta.json")
    if not meta.is_file():
        return None
    value = json.loads(meta.read_text(encoding="utf-8")).get("legalities_as_of")
    return value if isinstance(value, str) and _ISO_DATE.fullmatch(value) else None


def legalities_as_of(session: Session) -> str | None:
    """The date of the catalogue's legality data; None when unknown (an import without a date, or none)."""
    value = repo.get_meta(session, LEGALITIES_AS_OF_KEY)
    return None if value in (None, UNKNOWN_DATE) else value


def bundled_hash(path: Path = BUNDLED_FILE) -> str:
    """A short content hash of the bundled catalogue file (part of its data_version)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def bundled_built_on(path: Path = BUNDLED_FILE) -> str | None:
    """The date tools/build_catalogue.py last built the bundled catalogue from its sources with a change to
    its cards (``built_on`` in ``cards.meta.json``); None when the file or the date is missing."""
    meta = path.with_name("cards.meta.json")
    if not meta.is_file():
        return None
    value = json.loads(meta.read_text(encoding="utf-8")).get("built_on")
    return value if isinstance(value, str) and _ISO_DATE.fullmatch(value) else None


def bundled_data_version(path: Path = BUNDLED_FILE) -> str:
    """The bundled catalogue's data_version: the date it was imported from its sources (its build date),
    then ``+bundled-`` and a short hash of its content, e.g. ``2026-12-05+bundled-ce1376a65000``.

    It starts with a date like an import's timestamp does (API.md: "when the card catalogue was last
    imported"); the hash keeps it distinct per content, so answers cached under it, the board memo and
    the catalogue snapshot (all keyed by data_version) are dropped when the file changes, even within a
    day. A file without a build date (a test's) reads ``unknown+bundled-<hash>``."""
    return f"{bundled_built_on(path) or UNKNOWN_DATE}{BUNDLED_MARK}{bundled_hash(path)}"


def is_bundled_version(version: str | None) -> bool:
    """Whether a data_version names the bundled catalogue (this form, or ``bundled-<hash>`` of before)."""
    return version is not None and (BUNDLED_MARK in version or version.startswith("bundled-"))


def ensure_bundled_catalogue(session: Session, path: Path = BUNDLED_FILE) -> ImportReport | None:
    """Load the bundled catalogue when the database lacks it or holds another version of it (start-up).

    Idempotent: with the same file already loaded it reads two ``app_meta`` rows and returns None. A newer
    import of a full card file keeps its data_version only if the bundled file was not changed since.
    """
    digest = bundled_hash(path)
    if repo.get_meta(session, BUNDLED_HASH_KEY) == digest:
        if repo.get_meta(session, LEGALITIES_AS_OF_KEY) is None:  # loaded before legality dates were kept
            loaded = repo.get_meta(session, DATA_VERSION_KEY)
            dated = bundled_legalities_as_of(path) if is_bundled_version(loaded) else None
            repo.set_meta(session, LEGALITIES_AS_OF_KEY, dated or UNKNOWN_DATE)
        return None
    report = import_cards(session, path, set_version=False)
    repo.set_meta(session, BUNDLED_HASH_KEY, digest)
    current = repo.get_meta(session, DATA_VERSION_KEY)
    bundled_date = bundled_legalities_as_of(path) or UNKNOWN_DATE
    if current is None or is_bundled_version(current):
        repo.set_meta(session, DATA_VERSION_KEY, bundled_data_version(path))
        repo.set_meta(session, LEGALITIES_AS_OF_KEY, bundled_date)
    else:  # the bundled cards just overwrote some imported ones: that is a change clients must see
        repo.set_meta(session, DATA_VERSION_KEY, datetime.now(UTC).isoformat())
        # Some cards now carry the bundled legalities, the others the import's: the older date holds for all.
        imported = repo.get_meta(session, LEGALITIES_AS_OF_KEY) or UNKNOWN_DATE
        dates = (bundled_date, imported)
        repo.set_meta(session, LEGALITIES_AS_OF_KEY, UNKNOWN_DATE if UNKNOWN_DATE in dates else min(dates))
    return report


def data_version(session: Session) -> str:
    """When the catalogue was last imported: an ISO timestamp, the bundled catalogue's build date with its
    content hash (``bundled_data_version``), or ``empty``."""
    return repo.get_meta(session, DATA_VERSION_KEY) or "empty"


def bundled_catalogue_hook(session: Session, _settings: object) -> None:
    """The start-up hook (``app.main.STARTUP_HOOKS``): make sure the bundled catalogue is loaded."""
    ensure_bundled_catalogue(session)
