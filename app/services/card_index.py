"""The catalogue's in-memory read model: every name a card is found by, and the cards themselves.

Built from the database for one ``data_version``: the names in one query (a few hundred ms for
the whole catalogue), the cards preloaded at start-up or loaded on first use. Look-ups by exact name, face
name, word prefix, autocomplete and the suggestions for an unknown name then need no database round trip
(an unknown name costs well under a millisecond instead of a few queries). A new ``data_version`` builds a
new index, published by replacing one reference: readers never see a half-built one.

``LIVE`` holds the process's current index. When the service runs, ``start_refresher`` polls the
``data_version`` once per ``POLL_INTERVAL_S`` in a daemon thread and rebuilds on change, so compute
requests read the catalogue without any database session. At start-up the index comes from a snapshot on
local disk when an earlier start left one for this catalogue and code (``app.services.catalogue_snapshot``).
"""

from __future__ import annotations

import bisect
import ctypes
import difflib
import functools
import gc
import heapq
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sqlalchemy.orm import Session

from app.config import Settings
from app.db.repositories import cards as repo
from app.rules import deadline
from app.rules.values.cards import Card
from app.services.card_import import data_version
from app.services.catalogue_snapshot import default_directory, load_or_build

logger = logging.getLogger("manacalc.catalogue")

POLL_INTERVAL_S: Final = 1.0
RELEASE_SLICE: Final = 1_000
"""Entries of a replaced index freed between two releases of the GIL (``release_retired``)."""
SUGGESTION_POOL: Final = 2000


@dataclass(frozen=True, slots=True)
class Entry:
    """A card a folded name finds: its oracle id, catalogue name, and whether it is the card's own name."""

    oracle_id: str
    name: str
    is_card_name: bool


@dataclass(slots=True)
class CardIndex:
    """The names (and, once loaded, the cards) of the catalogue at ``version``."""

    version: str
    entries: dict[str, tuple[Entry, ...]]
    sorted_names: list[str]
    words: dict[str, tuple[str, ...]]
    cards: dict[str, Card] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def build(
        cls, session: Session, version: str, *, preload: bool = False, previous: CardIndex | None = None
    ) -> CardIndex:
        """The index of ``version``. With ``previous`` (a reload), every name, entry and card equal to one of
        ``previous`` is ``previous``'s own object: only what the import changed is new."""
        keep = _Keeper(previous)
        grouped: dict[str, list[Entry]] = {}
        for name_norm, oid, is_card, name in repo.all_names(session):
            grouped.setdefault(keep.name(name_norm), []).append(
                Entry(keep.name(oid), keep.name(name), is_card)
            )
        entries = {
            keep.name(n): keep.entries(n, tuple(sorted(es, key=lambda e: (e.name, e.oracle_id))))
            for n, es in grouped.items()
        }
        del grouped
        words: dict[str, list[str]] = {}
        for n in entries:
            for w in set(n.replace(",", " ").split()):
                if len(w) >= 3:
                    words.setdefault(w, []).append(n)
        index = cls(
            version,
            entries,
            sorted(entries),
            {keep.name(w): keep.words(w, tuple(ns)) for w, ns in words.items()},
        )
        if preload:
            index.preload(session, previous)
        return index

    def preload(self, session: Session, previous: CardIndex | None = None) -> None:
        """Load every card (start-up), so that no look-up needs the database afterwards; a card equal to
        ``previous``'s is ``previous``'s object."""
        loaded = repo.load_all_cards(session, previous.cards if previous is not None else None)
        with self.lock:
            self.cards.update(loaded)
        # The catalogue is hundreds of thousands of long-lived objects: a full collection scanning them
        # held the event loop at random (a slow /healthz). Frozen, the
        # collector skips them; they are still freed by reference counting when an index is replaced.
        gc.freeze()

    # -- look-ups ----------------------------------------------------------------------------------------

    def exact(self, name_norm: str) -> tuple[Entry, ...]:
        """Cards whose own name is ``name_norm``, else cards one of whose faces bears it (deduplicated)."""
        found = self.entries.get(name_norm, ())
        own = tuple(e for e in found if e.is_card_name)
        return own or _distinct(found)

    def with_prefix(self, prefix: str, limit: int) -> list[str]:
        """Folded names starting with ``prefix``, in sorted order, at most ``limit``."""
        start = bisect.bisect_left(self.sorted_names, prefix)
        out: list[str] = []
        for n in self.sorted_names[start:]:
            if not n.startswith(prefix) or len(out) >= limit:
                break
            out.append(n)
        return out

    def word_prefix(self, name_norm: str, limit: int) -> tuple[Entry, ...]:
        """Cards one of whose names starts with these whole words ("lim-dul" → "lim-dul the necromancer")."""
        names = [
            *self.with_prefix(name_norm + " ", limit * 4),
            *self.with_prefix(name_norm + ", ", limit * 4),
        ]
        hits = _distinct(e for n in names for e in self.entries[n])
        return tuple(sorted(hits, key=lambda e: (e.name, e.oracle_id)))[:limit]

    def autocomplete(self, query_norm: str, limit: int) -> list[str]:
        """Catalogue names for ``q``: names starting with it first (shorter first), then names with a word
        starting with it (shorter first); each card once, at most ``limit``."""
        if not query_norm:
            return []
        starting: dict[str, str] = {}
        for n in self.with_prefix(query_norm, 5000):
            for e in self.entries[n]:
                if e.is_card_name:
                    starting.setdefault(e.oracle_id, e.name)
        first = sorted(starting.values(), key=lambda s: (len(s), s))[:limit]
        if len(first) >= limit:
            return first
        seen = set(starting)
        inner: dict[str, str] = {}
        needles = (" " + query_norm, "-" + query_norm, "/" + query_norm, '"' + query_norm)
        for i, (n, es) in enumerate(self.entries.items()):
            if i % CHECK_EVERY_NAME == 0:
                deadline.check()  # every name of the catalogue is scanned: a safe point now and then
            if any(x in n for x in needles):
                for e in es:
                    if e.oracle_id not in seen:
                        inner.setdefault(e.oracle_id, e.name)
        return first + sorted(inner.values(), key=lambda s: (len(s), s))[: limit - len(first)]

    def suggestions(self, name_norm: str, limit: int) -> list[Entry]:
        """Close names (difflib) among those sharing the first letters or a word with ``name_norm``."""
        pool: dict[str, None] = dict.fromkeys(self.with_prefix(name_norm[:3], SUGGESTION_POOL))
        words = sorted({w for w in name_norm.replace(",", " ").split() if len(w) >= 3}, key=len, reverse=True)
        for w in words[:3]:
            for n in self.words.get(w, ())[:SUGGESTION_POOL]:
                pool.setdefault(n, None)
        close = close_matches(name_norm, list(pool)[: SUGGESTION_POOL * 2], n=limit, cutoff=0.6)
        return list(_distinct(e for n in close for e in self.entries[n]))[:limit]

    def card(self, oracle_id: str) -> Card | None:
        return self.cards.get(oracle_id)

    def put(self, card: Card) -> None:
        if card.oracle_id is not None:
            with self.lock:
                self.cards[card.oracle_id] = card


class _Keeper:
    """What a reload keeps of the index it replaces: its objects wherever the new ones are equal.

    Two whole catalogues live side by side while a new one is built (the old one keeps answering). Had the
    new one been all new objects, freeing the old one would have left the allocator's arenas holding both
    catalogues' survivors (the new one's objects fill the old one's free slots first), and a worker's memory
    grew by most of a catalogue at its first reload and stayed there. Kept objects are never freed, and the
    new duplicates they replace are freed at once, so a reload costs only what the import changed."""

    def __init__(self, previous: CardIndex | None) -> None:
        self.previous = previous
        self._names: dict[str, str] = {}
        if previous is not None:
            self._names = {n: n for n in previous.entries}
            self._names.update((w, w) for w in previous.words)
            for found in previous.entries.values():
                for entry in found:
                    self._names.setdefault(entry.oracle_id, entry.oracle_id)
                    self._names.setdefault(entry.name, entry.name)

    def name(self, name: str) -> str:
        return self._names.get(name, name)

    def entries(self, name: str, found: tuple[Entry, ...]) -> tuple[Entry, ...]:
        old = self.previous.entries.get(name) if self.previous is not None else None
        return old if old is not None and old == found else found

    def words(self, word: str, names: tuple[str, ...]) -> tuple[str, ...]:
        old = self.previous.words.get(word) if self.previous is not None else None
        return old if old is not None and old == names else names


CHECK_EVERY_NAME: Final = 4096
"""Names scanned by autocomplete between two deadline checks (a test of four substrings each)."""
CHECK_EVERY: Final = 64
"""Names compared between two deadline checks (a comparison takes a few µs)."""


def close_matches(word: str, possibilities: list[str], *, n: int, cutoff: float) -> list[str]:
    """``difflib.get_close_matches`` (the same steps, so the same answer), checking the request's deadline
    as it goes: one unknown name compares thousands of names, and a request may hold hundreds of them."""
    scored: list[tuple[float, str]] = []
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    for i, candidate in enumerate(possibilities):
        if i % CHECK_EVERY == 0:
            deadline.check()
        matcher.set_seq1(candidate)
        if (
            matcher.real_quick_ratio() >= cutoff
            and matcher.quick_ratio() >= cutoff
            and matcher.ratio() >= cutoff
        ):
            scored.append((matcher.ratio(), candidate))
    return [candidate for _score, candidate in heapq.nlargest(n, scored)]


def _distinct(entries: object) -> tuple[Entry, ...]:
    seen: dict[str, Entry] = {}
    for e in entries:  # type: ignore[attr-defined]
        seen.setdefault(e.oracle_id, e)
    return tuple(seen.values())


class LiveIndex:
    """The process's current index; ``polled`` when a refresher thread keeps its version current."""

    def __init__(self) -> None:
        self.index: CardIndex | None = None
        self.startup: CardIndex | None = None
        self.polled = False
        self._lock = threading.Lock()

    def for_version(self, version: str, session: Session) -> CardIndex:
        """The index of ``version``, built from ``session`` when the current one is of another version."""
        index = self.index
        if index is not None and index.version == version:
            return index
        with self._lock:
            index = self.index
            if index is None or index.version != version:
                index = CardIndex.build(session, version)
                self.index = index
            return index

    def publish(self, index: CardIndex) -> None:
        self.index = index

    def clear(self, *, drop: bool = False) -> None:
        """Back to the index loaded at start-up (it is rebuilt if the data_version differs); ``drop``: no
        index at all until the next look-up builds one (tests that write cards without changing the
        data_version)."""
        self.index = None if drop else self.startup


LIVE = LiveIndex()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a catalogue is built.

    The collector kept scanning the hundreds of thousands of objects being made, all of which are kept
    (then frozen): building took about twice as long with it. In a reload, while requests
    are served, each full collection also held the GIL, so the event loop, for hundreds of milliseconds
    (a /healthz stall). Reference counting still frees everything else meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_at_startup(session: Session, version: str, snapshot_dir: Path | None = None) -> CardIndex:
    """Build the whole index, cards included, and publish it (the service's start-up); with
    ``snapshot_dir``, from the snapshot an earlier start left there when it is of this catalogue and
    code (``app.services.catalogue_snapshot``)."""

    def build() -> tuple[Any, ...]:
        built = CardIndex.build(session, version, preload=False)
        built.cards.update(repo.load_all_cards(session))
        return (built.entries, built.sorted_names, built.words, built.cards)

    source = session.get_bind().engine.url.render_as_string(hide_password=True)
    with collector_paused():
        entries, sorted_names, words, cards = load_or_build(snapshot_dir, source, version, build)
    index = CardIndex(version, entries, sorted_names, words, cards)
    gc.freeze()  # as preload does: the collector need not scan the catalogue's objects
    give_back_freed_memory()  # the build's temporaries, as after a reload
    LIVE.publish(index)
    LIVE.startup = index
    return index


def start_refresher(
    session_factory: Callable[[], Session], read_version: Callable[[Session], str]
) -> threading.Event:
    """Poll the data_version every ``POLL_INTERVAL_S`` in a daemon thread and publish a new index (cards
    preloaded) when it changes. Returns the event that stops it."""
    stop = threading.Event()
    LIVE.polled = True
    retired: list[CardIndex] = []  # replaced indexes, freed here in slices once no request holds them

    def run() -> None:
        while not stop.wait(POLL_INTERVAL_S):
            try:
                if release_retired(retired):
                    give_back_freed_memory()
                with session_factory() as session:
                    version = read_version(session)
                    current = LIVE.index
                    if current is None or current.version != version:
                        started = time.perf_counter()
                        LIVE.publish(_rebuild(session, version, current))
                        if current is not None:
                            # The start-up index goes too: kept for ``LIVE.clear``, it held a second
                            # whole catalogue in every worker after its first reload.
                            if current is LIVE.startup:
                                LIVE.startup = None
                            retired.append(current)
                        del current  # or this frame would keep it, and free it all at once later
                        if release_retired(retired):
                            give_back_freed_memory()
                        logger.info(
                            "card catalogue reloaded in memory in %.1f s (data_version %s)",
                            time.perf_counter() - started,
                            version,
                        )
            except Exception as exc:  # the database is away: keep serving the index we have
                # One line, no traceback: an outage is expected, and it repeats this once a second.
                logger.warning(
                    "card catalogue refresh failed (%s: %s); keeping data_version %s",
                    type(exc).__name__,
                    str(exc).splitlines()[0] if str(exc) else "",
                    _version(),
                )
        LIVE.polled = False

    threading.Thread(target=run, name="manacalc-card-index", daemon=True).start()
    return stop


def release_retired(retired: list[CardIndex]) -> int:
    """Free the indexes of ``retired`` that nothing else holds any more, ``RELEASE_SLICE`` entries at a
    time with the GIL released between slices; keep the others (a request still reading one) for later.

    Publishing a new index dropped the last reference to the old one, and reference counting
    freed its hundreds of thousands of objects in one C-level cascade holding the GIL (the
    worst pause of a reload, ``/healthz`` waiting for it). Only an index no request can reach is emptied:
    a request holding it (or one of its maps) keeps it whole until it is done. Returns how many were
    freed."""
    kept: list[CardIndex] = []
    released = 0
    while retired:
        index = retired.pop()
        if _unreachable(index):
            _release(index)
            released += 1
        else:
            kept.append(index)
        del index
    retired.extend(kept)
    return released


def give_back_freed_memory() -> None:
    """Give the memory a rebuild (or a release) freed back to the allocators, and theirs to the system.

    A rebuild makes and drops hundreds of thousands of short-lived objects (rows, tuples equal to the old
    ones), and the interpreter keeps thousands of the freed ones per type and size for reuse. Those sat in
    the arenas the rebuild had added, so the arenas stayed, and the objects that requests made meanwhile
    settled among them for good: resident memory rose at every reload with no object more alive
    (``tests/services/test_catalogue_reload_memory.py``). Only a full collection empties these free
    lists; with the catalogue frozen it visits only the objects made since (a few milliseconds).

    The rebuild's large tables (dicts and lists of tens of thousands of entries) come from the C
    allocator, which keeps what is freed below its heap's top: the holes they left stayed resident, reload
    after reload. glibc's ``malloc_trim`` hands those free pages back; elsewhere there is nothing to call."""
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)  # ctypes releases the GIL for the call: the event loop runs meanwhile


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (``man 3 malloc_trim``), or None where the C library has none (musl, macOS,
    Windows)."""
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
        trim = libc.malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def _unreachable(index: CardIndex) -> bool:
    # The caller's variable, this parameter and getrefcount's own argument: 3. Each map: the index's
    # attribute and the argument: 2.
    if sys.getrefcount(index) > 3:
        return False
    return (
        sys.getrefcount(index.entries) <= 2
        and sys.getrefcount(index.sorted_names) <= 2
        and sys.getrefcount(index.words) <= 2
        and sys.getrefcount(index.cards) <= 2
    )


def _release(index: CardIndex) -> None:
    for mapping in (index.cards, index.entries, index.words):
        while mapping:
            for _ in range(min(RELEASE_SLICE, len(mapping))):
                mapping.popitem()
            time.sleep(0)  # releases the GIL: the event loop's thread runs between slices
    names = index.sorted_names
    while names:
        del names[-RELEASE_SLICE:]
        time.sleep(0)


def _rebuild(session: Session, version: str, previous: CardIndex | None = None) -> CardIndex:
    """The whole index of ``version``, cards preloaded, with the collector paused as at start-up: it kept
    rescanning the hundreds of thousands of new objects, all kept (``bench/catalogue_refresh.py``
    measures both). Requests run meanwhile:
    reference counting still frees their garbage; only cycles wait for the rebuild's end."""
    with collector_paused():
        index = CardIndex.build(session, version, preload=True, previous=previous)
    # Before publishing: the requests the new index lets in would otherwise settle among the build's
    # freed temporaries and keep their arenas (``give_back_freed_memory``).
    give_back_freed_memory()
    return index


def _version() -> str | None:
    index = LIVE.index
    return index.version if index is not None else None


def card_index_hook(session: Session, settings: Settings) -> None:
    """The start-up hook (after the bundled catalogue): load the whole catalogue into memory."""
    where = settings.catalogue_snapshot_dir
    snapshot_dir = None if where == "off" else Path(where) if where else default_directory()
    load_at_startup(session, data_version(session), snapshot_dir)
