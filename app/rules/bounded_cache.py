"""A memo of a text reader's answers, bounded in entries and in the characters of the texts it keeps.

``functools.lru_cache`` bounds entries only: 8,192 oracle texts of up to 5,000 characters each (an inline
card's, the client's) and what was read from them could hold hundreds of MB in a worker. This
one also counts the characters of the ``str`` arguments of each entry, whose answers are of the same order,
and drops the least recently used entries past either bound. A text longer than a tenth of the character
bound is read and not kept. An exception (a deadline reached mid-read) keeps nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


class BoundedTextCache(Generic[P, R]):
    """``function`` memoized by its arguments, within ``entries`` entries and ``chars`` characters."""

    def __init__(self, function: Callable[P, R], *, entries: int, chars: int) -> None:
        self.function = function
        self.entries = entries
        self.chars = chars
        self._kept: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()
        wraps(function)(self)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        with self._lock:
            hit = self._kept.get(key)
            if hit is not None:
                self._kept.move_to_end(key)
                return hit[0]
        value = self.function(*args, **kwargs)
        weight = 1 + sum(len(a) for a in (*args, *kwargs.values()) if isinstance(a, str))
        if weight * 10 > self.chars:
            return value
        with self._lock:
            if key not in self._kept:
                self._kept[key] = (value, weight)
                self._held += weight
            while len(self._kept) > self.entries or self._held > self.chars:
                _, (_value, out) = self._kept.popitem(last=False)
                self._held -= out
        return value

    def cache_clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._held = 0

    @property
    def held_chars(self) -> int:
        """Characters of the texts kept (what the character bound counts)."""
        with self._lock:
            return self._held

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)


def text_cache(*, entries: int, chars: int) -> Callable[[Callable[P, R]], BoundedTextCache[P, R]]:
    """Decorate a text reader: ``@text_cache(entries=8192, chars=2_000_000)``."""

    def decorate(function: Callable[P, R]) -> BoundedTextCache[P, R]:
        return BoundedTextCache(function, entries=entries, chars=chars)

    return decorate
