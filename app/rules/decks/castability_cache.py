"""The castability model's caches (``castability``), bounded in entries and in estimated bytes: a five-color
spell's Hall states are 31-tuples and its weights big integers, and unbounded caches grew a worker from
218 MB to 1.1 GB over 90 requests. Least recently used entries go first (``Bounded``); ``bounded`` caches a
function's results in one of ``CACHES`` by ``CACHE_LIMITS``. No rule of the game: they change no answer."""

from __future__ import annotations

import functools
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Final, Generic, TypeVar

from app.rules import deadline

CACHE_LIMITS: Final = {
    "probabilities": (4096, 8 << 20),
    "hands": (2048, 32 << 20),
    "draws": (65536, 48 << 20),
    "tapped": (4096, 8 << 20),
}
"""Per cache: (most entries, most estimated bytes)."""

_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


SIZED_PER_CHECK: Final = 4095
"""Values sized between two deadline checks, less one (a mask): a hand table holds tens of thousands."""


def estimated_size(obj: object) -> int:
    """Estimated bytes of a value made of tuples, ints, floats and strings (containers and contents).

    A deadline check every few thousand values: sizing a large result took as long as a hundred checks
    of the work that made it, and nothing is kept before it returns."""
    total = 0
    seen = 0
    stack = [obj]
    while stack:
        item = stack.pop()
        total += sys.getsizeof(item)
        if isinstance(item, tuple):
            stack.extend(item)
        seen += 1
        if not seen & SIZED_PER_CHECK:
            deadline.check()
    return total


class Bounded(Generic[_K, _V]):
    """A thread-safe LRU bounded by entries and by estimated bytes (``estimated_size`` of key and value)."""

    def __init__(self, max_entries: int, max_bytes: int) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._data: OrderedDict[_K, tuple[_V, int]] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: _K) -> _V | None:
        with self._lock:
            found = self._data.get(key)
            if found is None:
                return None
            self._data.move_to_end(key)
            return found[0]

    def put(self, key: _K, value: _V, size: int) -> None:
        if size > self.max_bytes:
            return  # never kept: it alone would fill the cache
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            self._data[key] = (value, size)
            self._bytes += size
            while len(self._data) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, gone) = self._data.popitem(last=False)
                self._bytes -= gone

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0

    def stats(self) -> tuple[int, int]:
        """(entries, estimated bytes)."""
        with self._lock:
            return len(self._data), self._bytes


CACHES: Final[dict[str, Bounded[Hashable, object]]] = {
    name: Bounded(entries, size) for name, (entries, size) in CACHE_LIMITS.items()
}


def cache_stats() -> dict[str, tuple[int, int]]:
    """Per cache: (entries, estimated bytes) now."""
    return {name: cache.stats() for name, cache in CACHES.items()}


def cache_clear() -> None:
    """Empty every cache (benchmarks measuring a first call)."""
    for cache in CACHES.values():
        cache.clear()


_F = TypeVar("_F", bound=Callable[..., object])


def bounded(name: str, key_of: Callable[[tuple[object, ...]], tuple[Hashable, object]]) -> Callable[[_F], _F]:
    """Cache a function's results in ``CACHES[name]``; ``key_of(args)`` gives the key and the part of it
    whose bytes are counted (``estimated_size``) with the result's."""

    def wrap(fn: _F) -> _F:
        @functools.wraps(fn)
        def cached(*args: object) -> object:
            cache = CACHES[name]
            key, counted = key_of(args)
            found = cache.get(key)
            if found is None:
                found = fn(*args)
                cache.put(key, found, estimated_size(counted) + estimated_size(found))
            return found

        return cached  # type: ignore[return-value]  # same signature as fn

    return wrap
