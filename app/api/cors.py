"""CORS for browser clients (deck-building sites): origins from ``MANACALC_CORS_ORIGINS``.

No origin is allowed by default. Credentials (cookies) are never needed: the API key travels in the
``Authorization`` header, which is an allowed request header. Browsers may read the headers clients need
(``ETag``, ``Location``, ``Retry-After``, ``X-Request-ID``, ``RateLimit`` and ``RateLimit-Policy``, so a page
learns its rate limit before a 429) and cache a preflight for ten minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from fastapi.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp

from app.config import Settings

ALLOW_METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"]
ALLOW_HEADERS = [
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "X-Request-ID",
]
EXPOSE_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "X-Request-ID",
    "Idempotent-Replayed",
    "RateLimit",
    "RateLimit-Policy",
]
PREFLIGHT_MAX_AGE_S = 600


def cors_factory(settings: Settings) -> Callable[[ASGIApp], ASGIApp] | None:
    """What wraps the application in CORS when any origin is configured (``"*"`` allows every origin),
    else None; ``app.api.middleware.ServiceMiddleware`` applies it inside itself."""
    if not settings.cors_origins:
        return None
    return partial(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=ALLOW_METHODS,
        allow_headers=ALLOW_HEADERS,
        expose_headers=EXPOSE_HEADERS,
        max_age=PREFLIGHT_MAX_AGE_S,
    )
