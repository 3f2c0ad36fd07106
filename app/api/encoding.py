"""Gzip for answers of 1 KB or more, when the client accepts it: ``GZipMiddleware`` on FastAPI's path,
``encode`` on the direct lanes (``app.api.direct``), which answer before that middleware."""

from __future__ import annotations

import gzip
from typing import Final

from starlette.responses import Response
from starlette.types import Scope

GZIP_MINIMUM_SIZE: Final = 1000
"""Smaller answers are sent as they are (a 1,000-card page: 692 KB -> 131 KB)."""
GZIP_LEVEL: Final = 9
"""Starlette's ``GZipMiddleware`` default, so both paths send the same bytes' size."""


def accepts_gzip(scope: Scope) -> bool:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"accept-encoding":
            return b"gzip" in value
    return False


def encode(response: Response, scope: Scope) -> Response:
    """``response`` as ``GZipMiddleware`` would send it: a body of ``GZIP_MINIMUM_SIZE`` or more gets
    ``Vary: Accept-Encoding`` and, for a client that accepts gzip, is compressed."""
    body: bytes | None = getattr(response, "body", None)  # a streamed answer has none: sent as it is
    if body is None or len(body) < GZIP_MINIMUM_SIZE:
        return response
    # The raw header list read directly: ``response.headers`` builds a view and scans it per call
    # (measurable on a served ``spells/cost``). Names there are lowercase bytes, as Starlette writes them.
    names = [name for name, _value in response.raw_headers]
    if b"content-encoding" in names:
        return response
    if b"vary" in names:
        response.headers.add_vary_header("Accept-Encoding")
    else:
        response.raw_headers.append((b"vary", b"Accept-Encoding"))  # what add_vary_header appends
    if accepts_gzip(scope):
        response.body = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Content-Length"] = str(len(response.body))
    return response
