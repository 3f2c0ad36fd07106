"""Gzip for the clients that ask for it: Starlette's ``GZipMiddleware``, entered only by a request that
accepts gzip, and ``Vary: Accept-Encoding`` on every answer. ``app.api.middleware.ServiceMiddleware``
applies both, as it applies CORS.

Starlette's middleware sends every request through a responder. For a client that does not accept gzip
(``wrk``, ``curl`` without ``--compressed``, most server-to-server clients), that responder holds the
answer's start until its first body arrives, parses the answer's headers and content type, and compresses
nothing: 12-17 us of a 150 us request path (``bench/pipeline.py --layers``), the largest single layer.
The only trace it leaves on such an answer is ``Vary: Accept-Encoding``, and only on one of 1 KB or more.

So the service makes the middleware's own decision (``accepts_gzip``) before entering it: a request that
accepts gzip goes through ``GZipMiddleware`` as it is, compressed exactly as before; any other goes
straight on. Every answer then says ``Vary: Accept-Encoding``, either way and whatever its size, added
where it does not say it already: whether an answer is compressed depends on that header, so a shared
cache must key on it, and "every answer" is a simpler rule for clients than "answers of 1 KB or more".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Final

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Scope

VARY: Final = (b"vary", b"Accept-Encoding")

GZIP_MINIMUM_SIZE: Final = 1000
"""Smaller answers are sent as they are."""

EXCLUDED_CONTENT_TYPES: Final = ("image/*",)
"""Left as they are. Starlette's default list of 14 types is normalized again for every answer it
compresses; this service sends no other type of that list."""


def gzip_factory() -> Callable[[ASGIApp], ASGIApp]:
    """What wraps the application in Starlette's ``GZipMiddleware``: every answer of 1 KB or more
    compressed for a client that accepts gzip (a 1,000-card page: 692 KB -> 131 KB)."""
    return partial(
        GZipMiddleware, minimum_size=GZIP_MINIMUM_SIZE, exclude_content_types=EXCLUDED_CONTENT_TYPES
    )


def accepts_gzip(scope: Scope) -> bool:
    """``GZipMiddleware``'s own test: the first ``Accept-Encoding`` header contains ``gzip`` (ASGI servers
    give header names in lower case). ``tests/api/test_compression.py`` holds the two to the same answers."""
    for name, value in scope["headers"]:
        if name == b"accept-encoding":
            return b"gzip" in value
    return False


def varies_by_encoding(headers: Iterable[tuple[bytes, bytes]]) -> bool:
    """Whether an answer's headers already name ``Accept-Encoding`` in a ``Vary`` (ASGI answers name their
    headers in lower case)."""
    return any(name == b"vary" and b"accept-encoding" in value.lower() for name, value in headers)
