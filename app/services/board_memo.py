"""Boards read from requests, kept by their values as validated with what the rules derive from them.

Of a ``payments/plan`` answer's service time, reading the board (resolving its cards, building
the rules ``Board``) and analysing its mana (CR 106.7's "could produce", ``production.analyze_board``)
took most of it; of a ``spells/cost`` answer's, reading the board took a large share. Neither depends
on the cost or the spell asked about, and a deck-building site asks about one board many times: every
card of a hand
against the same battlefield, a ``payments/plan`` after a ``spells/cost``, the same shared board page after
page. So the board is built once per distinct board, and each derived value (the mana analysis, the cost
effects of ``casting.prepare_board``) once per board, then shared.

What is kept is exactly what the request says, never a guess: the key is the board as validated (its
plain values, ``board_key``: spacing does not matter, and two boards with one key serialize alike), the
players the request adds, and the catalogue's ``data_version`` (a re-imported catalogue resolves names
anew). A board that fails to
read raises as before and is not kept. Every value kept is frozen or, for the analysis's mappings, only
read by its users; the answers are the same as without the memo (``tests/services/test_board_memo.py``).

Bounded: ``MAX_BOARDS`` boards holding ``MAX_KEPT_PERMANENTS`` permanents and ``MAX_KEPT_CHARS``
characters of canonical JSON in all, as ``board_key`` reckons them (inline cards carry up to 5,000
characters of text a face, so a count of permanents alone does not bound the bytes), least recently
used first out, and boards of more than ``MAX_PERMANENTS`` permanents are built per request, as before
(their own work dwarfs the reading, and they would hold the most memory). A request stopped at its
deadline while deriving a value (the analysis) keeps nothing of it: ``_once`` stores a value only once it
is whole.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final, TypeVar

from app.rules.casting.prepared import PreparedBoard, prepare_board
from app.rules.mana import permanent_facts, production_memo
from app.rules.mana.payment import PaymentSources
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.sources import PaymentInputs, bare_payment_inputs
from app.rules.text.ledger import UnreadSentence, board_unread
from app.rules.values.board import Board
from app.schemas.board import BoardIn
from app.services.board_key import board_key
from app.services.boards import CardSource, Loc, build_board
from app.services.name_memo import NAMES

MAX_BOARDS: Final = 256
"""Boards kept per process (about 30 KB each for a 10-permanent board and its analyses)."""
MAX_PERMANENTS: Final = 100
"""Larger boards are not kept."""
MAX_KEPT_PERMANENTS: Final = 2_000
"""Permanents of all kept boards together: a board and its analyses take 3 KB (ten basic lands) to 15 KB
(mana doublers, any-color sources) a permanent, so at most about 30 MB a worker (goal: 300 MB in all)."""

MAX_SEEN: Final = 4 * MAX_BOARDS
"""Boards seen once and not kept, remembered by their key's hash so that a second sighting keeps the board.

Kept from its first sighting, every board not seen before lived in the memo until 256 newer
ones pushed it out. With a board of its own on every request (a site sending new permanent ids each
time), each request's board and analyses (about a thousand objects) survived it, so the cyclic
collector went through them generation after generation, with pauses. A board asked about once is now
freed by reference counting with its request; one asked about again is kept from then on, as before
(the second reading costs what a miss did). A hash seen by chance for another board only keeps that
board a sighting early."""

MAX_KEPT_CHARS: Final = 8_000_000
"""Characters of the kept boards' canonical JSON, all together (the keys, and the order of the texts the
boards hold)."""

T = TypeVar("T")
_Key = tuple[str, tuple[str, ...], Hashable]


class BuiltBoard:
    """A request's board and, computed on first use, what the rules derive from it."""

    __slots__ = ("_derived", "board")

    def __init__(self, board: Board) -> None:
        self.board = board
        self._derived: dict[object, Any] = {}

    def _once(self, key: object, make: Callable[[], T]) -> T:
        # Two threads may both compute a missing value: equal values, the first stored wins.
        value = self._derived.get(key)
        if value is None:
            value = self._derived.setdefault(key, make())
        return value  # type: ignore[no-any-return]

    @property
    def analysis(self) -> BoardAnalysis:
        """``production.analyze_board`` of the board (its mana: CR 106.7, 605)."""
        return self._once("analysis", lambda: analyze_board(self.board))

    @property
    def prepared(self) -> PreparedBoard:
        """``casting.prepare_board`` of the board (its permanents' cost effects)."""
        return self._once("prepared", lambda: prepare_board(self.board))

    @property
    def unread(self) -> tuple[UnreadSentence, ...]:
        """``ledger.board_unread`` of the board: its permanents' unread sentences that could bear on costs or
        mana (the warnings of API 1.3)."""
        return self._once("unread", lambda: board_unread(self.board))

    def payer(self, player: str) -> tuple[PaymentInputs, PaymentSources]:
        """What ``player`` pays a cost that is not a spell's with: the sources and their warnings
        (``sources.bare_payment_inputs``), prepared for the solver with the player's pool and life."""

        def make() -> tuple[PaymentInputs, PaymentSources]:
            inputs = bare_payment_inputs(self.board, player, self.analysis)
            return inputs, self.sources_of(player, inputs)

        return self._once(("payer", player), make)

    def sources_of(self, player: str, inputs: PaymentInputs) -> PaymentSources:
        """``inputs``' sources prepared for the solver with ``player``'s pool and life on this board."""
        life = self.board.player(player).life
        return PaymentSources(inputs.sources, pool=self.board.pool_of(player), life=life)


class BoardMemo:
    """A thread-safe bounded LRU of ``BuiltBoard`` by (data_version, added players, ``board_key``)."""

    def __init__(
        self,
        maxsize: int = MAX_BOARDS,
        max_permanents: int = MAX_KEPT_PERMANENTS,
        max_chars: int = MAX_KEPT_CHARS,
        *,
        keep_first_sighting: bool = False,
    ) -> None:
        self.maxsize = maxsize
        self.max_permanents = max_permanents
        self.max_chars = max_chars
        self.keep_first_sighting = keep_first_sighting
        self._chars = 0
        self._lock = threading.Lock()
        # (data_version, added players, board_key) -> the board and its characters (about its JSON's)
        self._boards: OrderedDict[_Key, tuple[BuiltBoard, int]] = OrderedDict()
        # The hashes of keys seen once and not kept: plain ints, which the cyclic collector never visits.
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._permanents = 0
        self.hits = 0
        self.misses = 0

    def get(
        self,
        board_in: BoardIn,
        catalogue: CardSource,
        data_version: str,
        *,
        loc: Loc = ("body", "board"),
        extra_players: Sequence[str] = (),
    ) -> BuiltBoard:
        """The built board for ``board_in`` (``boards.build_board``, whose errors it raises)."""

        def build() -> BuiltBoard:
            board = build_board(
                board_in, catalogue=catalogue, loc=loc, extra_players=extra_players, data_version=data_version
            )
            return BuiltBoard(board)

        if len(board_in.permanents) > MAX_PERMANENTS:
            return build()
        board, chars = board_key(board_in)
        if chars * 10 > self.max_chars:
            return build()  # one board would take a tenth of the memo: read per request
        key = (data_version, tuple(extra_players), board)
        seen = hash(key)
        with self._lock:
            kept = self._boards.get(key)
            if kept is not None:
                self._boards.move_to_end(key)
                self.hits += 1
                return kept[0]
            first_sighting = not self.keep_first_sighting and seen not in self._seen
        built = build()
        with self._lock:
            self.misses += 1
            if first_sighting:
                # Kept from its second sighting only: a board asked about once is built, used and freed
                # with its request (``MAX_SEEN``).
                self._seen[seen] = None
                while len(self._seen) > MAX_SEEN:
                    self._seen.popitem(last=False)
                return built
            self._seen.pop(seen, None)
            if key not in self._boards:
                self._boards[key] = (built, chars)
                self._permanents += len(built.board.permanents)
                self._chars += chars
            self._boards.move_to_end(key)
            while (
                len(self._boards) > self.maxsize
                or self._permanents > self.max_permanents
                or self._chars > self.max_chars
            ):
                _key, (out, out_chars) = self._boards.popitem(last=False)
                self._permanents -= len(out.board.permanents)
                self._chars -= out_chars
        return built

    def clear(self) -> None:
        NAMES.clear()  # the catalogue changed under the same data_version (tests): names resolve anew
        with self._lock:
            self._boards.clear()
            self._seen.clear()
            self._permanents = 0
            self._chars = 0
            self.hits = self.misses = 0
        production_memo.clear()  # the per-ability memo of the boards' mana goes with them
        permanent_facts.clear()  # and the per-ability-list one

    @property
    def chars(self) -> int:
        """Characters of the kept boards' canonical JSON, all together."""
        with self._lock:
            return self._chars

    @property
    def permanents(self) -> int:
        """Permanents of the kept boards, all together."""
        with self._lock:
            return self._permanents

    def __len__(self) -> int:
        with self._lock:
            return len(self._boards)


BOARDS = BoardMemo()
"""The process's memo (services share it)."""
