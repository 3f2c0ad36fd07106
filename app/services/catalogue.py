"""The card catalogue: resolve a name, an oracle id or an inline card to a ``Card``; search; data_version.

Look-up order for a name (folded: case, accents, ``'``/``’`` and extra spaces do not matter):
1. a card's own name ("Fire // Ice"); 2. a face's name ("Ice"); 3. a unique word prefix ("Lim-Dul" is the
first word of "Lim-Dûl the Necromancer", not of "Lim-Dûl's Vault"). Several candidates at any step are an
``AmbiguousCard`` listing them, never a silent pick; none is an ``UnknownCard`` with suggestions.

The cost endpoints resolve every permanent's card on every request, so resolved cards are kept in a bounded
in-process LRU (by folded name and by oracle id). It is emptied when the catalogue's ``data_version``
changes, which each process checks at most once per ``CHECK_INTERVAL`` seconds; nothing else of the
catalogue is held in memory.
"""

from __future__ import annotations

import difflib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy.orm import Session

from app.cursors import decode_cursor, encode_cursor
from app.db.repositories import cards as repo
from app.errors import AmbiguousCard, BadRequest, UnknownCard
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.services.board_memo import BOARDS
from app.services.card_formats import MAX_NAME_LENGTH, card_from_inline, normalize_name
from app.services.card_import import data_version as read_data_version
from app.services.card_index import LIVE, CardIndex

CHECK_INTERVAL: Final = 1.0
CACHE_SIZE: Final = 4096
MAX_CANDIDATES: Final = 20
MAX_SUGGESTIONS: Final = 5
AUTOCOMPLETE_MAX: Final = 20
FUZZY_CUTOFF: Final = 0.8
FUZZY_MARGIN: Final = 0.05
LIMIT_DEFAULT: Final = 100
LIMIT_MAX: Final = 1000
_UUID: Final = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


class CardCache:
    """A thread-safe bounded LRU of resolved cards, tied to one data_version."""

    def __init__(
        self,
        maxsize: int = CACHE_SIZE,
        check_interval: float = CHECK_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.maxsize = maxsize
        self.check_interval = check_interval
        self._clock = clock
        self._lock = threading.Lock()
        self._version: str | None = None
        self._checked_at = float("-inf")
        self._by_id: OrderedDict[str, Card] = OrderedDict()
        self._by_name: OrderedDict[str, str] = OrderedDict()

    def version(self, read: Callable[[], str]) -> str:
        """The current data_version, read with ``read`` at most once per interval; a change empties the
        cache."""
        now = self._clock()
        with self._lock:
            if self._version is not None and now - self._checked_at < self.check_interval:
                return self._version
        current = read()
        with self._lock:
            if current != self._version:
                self._by_id.clear()
                self._by_name.clear()
                self._version = current
            self._checked_at = now
            return current

    def card(self, oracle_id: str) -> Card | None:
        with self._lock:
            card = self._by_id.get(oracle_id)
            if card is not None:
                self._by_id.move_to_end(oracle_id)
            return card

    def oracle_id_for(self, name_norm: str) -> str | None:
        with self._lock:
            oid = self._by_name.get(name_norm)
            if oid is not None:
                self._by_name.move_to_end(name_norm)
            return oid

    def put(self, card: Card, *names_norm: str) -> None:
        if card.oracle_id is None:
            return
        with self._lock:
            self._by_id[card.oracle_id] = card
            self._by_id.move_to_end(card.oracle_id)
            for n in names_norm:
                self._by_name[n] = card.oracle_id
                self._by_name.move_to_end(n)
            while len(self._by_id) > self.maxsize:
                self._by_id.popitem(last=False)
            while len(self._by_name) > self.maxsize:
                self._by_name.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._by_id.clear()
            self._by_name.clear()
            self._version = None
            self._checked_at = float("-inf")

    def __len__(self) -> int:
        with self._lock:
            return len(self._by_id)


_CACHE = CardCache()


def reset_card_cache(*, drop_index: bool = False) -> None:
    """Forget the data_version read and go back to the start-up index (tests that change the catalogue
    inside a rolled-back transaction); ``drop_index`` also forgets that index, for tests that write
    cards without changing the data_version. Boards read from the old cards are forgotten too."""
    _CACHE.clear()
    LIVE.clear(drop=drop_index)
    BOARDS.clear()


@dataclass(frozen=True, slots=True)
class CardPage:
    """One page of a search: the cards, and the cursor of the next page (None on the last)."""

    cards: tuple[Card, ...]
    next_cursor: str | None

    @property
    def has_more(self) -> bool:
        return self.next_cursor is not None


class Catalogue:
    """The catalogue as seen through one database session (one request). Cheap to create."""

    def __init__(self, session: Session, *, cache: CardCache | None = None) -> None:
        self.session = session
        self.cache = cache if cache is not None else _CACHE

    @property
    def data_version(self) -> str:
        """When the catalogue was last imported (ISO timestamp), or the bundled catalogue's build date and
        content hash (``2026-12-05+bundled-<hash>``). With the refresher
        running (the service), the in-memory index's version: no database read."""
        live = LIVE.index
        if LIVE.polled and live is not None:
            return live.version
        return self.cache.version(lambda: read_data_version(self.session))

    @property
    def index(self) -> CardIndex:
        """The in-memory name index of the current data_version (built on first use of a new version)."""
        return LIVE.for_version(self.data_version, self.session)

    # -- look-ups ----------------------------------------------------------------------------------------

    def by_oracle_id(self, oracle_id: str, *, unknown_status: int | None = None) -> Card:
        """The card with this oracle id; ``UnknownCard`` if there is none."""
        index = self.index
        key = oracle_id.strip().lower()
        card = index.card(key)
        if card is not None:
            return card
        card = repo.load_cards(self.session, [key]).get(key) if _UUID.match(key) else None
        if card is None:
            raise UnknownCard(
                f"No card of the catalogue has oracle id {oracle_id[:64]!r}.",
                extra={"oracle_id": oracle_id[:64]},
                status=unknown_status,
            )
        index.put(card)
        return card

    def by_name(self, name: str, *, unknown_status: int | None = None, suggest: bool = True) -> Card:
        """The card a name means: own name, else face name, else unique word prefix (module docstring).
        ``suggest=False`` skips looking for close names when there is none (callers resolving many)."""
        return self._by_name(name, prefix=True, unknown_status=unknown_status, suggest=suggest)

    def exact(self, name: str, *, unknown_status: int | None = None) -> Card:
        """The card bearing exactly this name (folded) as its own or a face's name; no prefix matching.
        The answer depends on the catalogue only, never on earlier look-ups."""
        return self._by_name(name, prefix=False, unknown_status=unknown_status)

    def fuzzy(self, name: str, *, unknown_status: int | None = None) -> Card:
        """``by_name``, and failing that the single closest name when exactly one is close enough."""
        try:
            return self.by_name(name, unknown_status=unknown_status)
        except UnknownCard as exc:
            suggestions = exc.extra.get("suggestions") or []
            norm = normalize_name(name)
            scored = sorted(
                (
                    (difflib.SequenceMatcher(None, norm, normalize_name(s["name"])).ratio(), s)
                    for s in suggestions
                ),
                key=lambda pair: -pair[0],
            )
            close = [(ratio, s) for ratio, s in scored if ratio >= FUZZY_CUTOFF]
            # the closest name, when it is close enough and clearly closer than any other close one
            if close and (len(close) == 1 or close[0][0] - close[1][0] >= FUZZY_MARGIN):
                return self.by_oracle_id(close[0][1]["oracle_id"])
            raise

    def lookup(self, name_or_id: str, *, unknown_status: int | None = None) -> Card:
        """``GET /v1/cards/{name or oracle_id}``: an oracle id when it looks like one, else a name."""
        if _UUID.match(name_or_id.strip()):
            try:
                return self.by_oracle_id(name_or_id, unknown_status=unknown_status)
            except UnknownCard:
                pass
        return self.by_name(name_or_id, unknown_status=unknown_status)

    def resolve(self, ref: str | Mapping[str, Any] | Card) -> Card:
        """A request's card reference: a name, ``{"oracle_id": ...}``, an inline card object, or a Card."""
        if isinstance(ref, Card):
            return ref
        if isinstance(ref, str):
            return self.by_name(ref)
        if "name" not in ref and isinstance(ref.get("oracle_id"), str):
            return self.by_oracle_id(ref["oracle_id"])
        return card_from_inline(ref)

    def _by_name(self, name: str, *, prefix: bool, unknown_status: int | None, suggest: bool = True) -> Card:
        norm = normalize_name(name)
        shown = name[:MAX_NAME_LENGTH]
        if not norm or len(norm) > MAX_NAME_LENGTH:
            raise UnknownCard(
                f"No card of the catalogue is named {shown!r}.", extra={"name": shown}, status=unknown_status
            )
        index = self.index
        hits = index.exact(norm)
        if not hits and prefix:
            hits = index.word_prefix(norm, MAX_CANDIDATES + 1)
        if len(hits) == 1:
            return self.by_oracle_id(hits[0].oracle_id)
        if hits:
            more = " (and more)" if len(hits) > MAX_CANDIDATES else ""
            listed = ", ".join(f"{h.name} ({h.oracle_id})" for h in hits[:MAX_CANDIDATES])
            raise AmbiguousCard(
                f"Several cards match {shown!r}: {listed}{more}. Name one exactly or by oracle id.",
                extra={
                    "name": shown,
                    "candidates": [{"name": h.name, "oracle_id": h.oracle_id} for h in hits[:MAX_CANDIDATES]],
                },
            )
        suggestions = (
            [{"name": e.name, "oracle_id": e.oracle_id} for e in index.suggestions(norm, MAX_SUGGESTIONS)]
            if suggest
            else []
        )
        hint = f" Did you mean {', '.join(repr(s['name']) for s in suggestions)}?" if suggestions else ""
        raise UnknownCard(
            f"No card of the catalogue is named {shown!r}.{hint}",
            extra={"name": shown, "suggestions": suggestions},
            status=unknown_status,
        )

    def autocomplete(self, query: str, *, limit: int = AUTOCOMPLETE_MAX) -> list[str]:
        """Up to ``limit`` card names for a partial name (API.md "Card look-up"): names starting with it
        first, shorter first, then names with a word starting with it."""
        return self.index.autocomplete(normalize_name(query), limit)

    def collection(self, identifiers: Sequence[Mapping[str, str]]) -> tuple[list[Card], list[dict[str, str]]]:
        """The cards these identifiers (``{"name": ...}`` exact, or ``{"oracle_id": ...}``) name, in order,
        and the identifiers that name none (or several)."""
        found: list[Card] = []
        missing: list[dict[str, str]] = []
        for ident in identifiers:
            try:
                if "oracle_id" in ident:
                    found.append(self.by_oracle_id(ident["oracle_id"]))
                else:
                    found.append(self._exact_quiet(ident["name"]))
            except (UnknownCard, AmbiguousCard):
                missing.append(dict(ident))
        return found, missing

    def _exact_quiet(self, name: str) -> Card:
        # A collection's miss lists the identifier only: no suggestions to compute.
        norm = normalize_name(name)
        hits = self.index.exact(norm) if norm else ()
        if len(hits) != 1:
            raise UnknownCard(f"No single card of the catalogue is named {name[:MAX_NAME_LENGTH]!r}.")
        return self.by_oracle_id(hits[0].oracle_id)

    # -- search ------------------------------------------------------------------------------------------

    def search(
        self,
        *,
        mana_cost: ManaCost | str | None = None,
        format: str | None = None,
        name: str | None = None,
        limit: int = LIMIT_DEFAULT,
        cursor: str | None = None,
    ) -> CardPage:
        """Cards with exactly this mana cost (as a multiset: ``{W}{1}`` finds ``{1}{W}``; color matters;
        lands, having no mana cost, are not found by ``{0}``), playable (legal or restricted) in ``format``,
        whose name contains ``name``; sorted by name, ``limit`` (1-1000) at a time from ``cursor``.

        A string cost is read loosely (``2WW``); a malformed one raises ``ManaCostSyntaxError``.
        """
        if not 1 <= limit <= LIMIT_MAX:
            raise ValueError(f"limit must be between 1 and {LIMIT_MAX}")
        cost = ManaCost.parse_loose(mana_cost) if isinstance(mana_cost, str) else mana_cost
        after: tuple[str, str] | None = None
        if cursor:
            position = decode_cursor(cursor)
            n, o = position.get("n"), position.get("o")
            if not (isinstance(n, str) and isinstance(o, str)):
                raise BadRequest(
                    "Invalid cursor: pass back next_cursor from the previous page unchanged.",
                    errors=[{"loc": ["query", "cursor"], "msg": "invalid cursor", "type": "invalid_cursor"}],
                )
            after = (n, o)
        keys = repo.search(
            self.session,
            cost_key=cost.sort_key if cost is not None else None,
            fmt=format,
            name_contains=normalize_name(name) if name else None,
            after=after,
            limit=limit + 1,
        )
        page = keys[:limit]
        cards = repo.load_cards(self.session, [o for _, o in page])
        next_cursor = encode_cursor({"n": page[-1][0], "o": page[-1][1]}) if len(keys) > limit else None
        return CardPage(tuple(cards[o] for _, o in page if o in cards), next_cursor)

    def count(self) -> int:
        return repo.count_cards(self.session)
