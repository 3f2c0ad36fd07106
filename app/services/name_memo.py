"""Card names as requests send them, resolved once per catalogue version.

A board that varies from request to request (a new permanent id each time) misses the board memo and is
read again, and about a third of reading it went into resolving its cards' names (folding, the name
index, the card cache's lock): the same few hundred names ("Forest", "Sol Ring") every time. So the raw
name as sent maps to the card it resolved to, for one catalogue ``data_version``: a name resolves the same
way for as long as the catalogue is unchanged, and a new version starts from nothing. Only successful
look-ups are kept (an unknown or ambiguous name raises anew each time, with its suggestions).

Reads take no lock: the version and its names are one tuple, swapped whole when the version changes, so a
reader never pairs a version with another version's names. Bounded to ``MAX_NAMES`` names, oldest first
out (names are short and a card is shared with the card cache, so the bound is on entries).
"""

from __future__ import annotations

import threading
from typing import Final

from app.rules.values.cards import Card

MAX_NAMES: Final = 4096


class NameMemo:
    """Raw card name -> resolved ``Card``, for one catalogue data_version at a time."""

    def __init__(self, maxsize: int = MAX_NAMES) -> None:
        self.maxsize = maxsize
        self._lock = threading.Lock()
        self._state: tuple[str, dict[str, Card]] = ("", {})

    def names(self, version: str) -> dict[str, Card] | None:
        """The names kept for ``version`` (read only; None when another version is kept)."""
        kept_version, cards = self._state
        return cards if kept_version == version else None

    def put(self, version: str, name: str, card: Card) -> None:
        with self._lock:
            kept_version, cards = self._state
            if kept_version != version:
                cards = {}
                self._state = (version, cards)
            if name not in cards and len(cards) >= self.maxsize:
                del cards[next(iter(cards))]
            cards[name] = card

    def clear(self) -> None:
        with self._lock:
            self._state = ("", {})

    def __len__(self) -> int:
        return len(self._state[1])


NAMES = NameMemo()
"""The process's memo (board reading uses it; ``BoardMemo.clear`` empties it)."""
