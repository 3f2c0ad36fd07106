"""CORS for browser clients (deck-building sites): origins from ``MANACALC_CORS_ORIGINS``.

No origin is allowed by default. Credentials (cookies) are never needed: the API key travels in the
``Authorization`` header, which is an allowed request header. Browsers may read the headers clients need
(``ETag``, ``Location``, ``Retry-After``, ``X-Request-ID``) and cache a preflight for ten minutes.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

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
EXPOSE_HEADERS = ["ETag", "Location", "Retry-After", "X-Request-ID", "Idempotent-Replayed"]
PREFLIGHT_MAX_AGE_S = 600


def install_cors(app: FastAPI, settings: Settings) -> None:
    """Add the CORS middleware when any origin is configured (``"*"`` allows every origin)."""
    if not settings.cors_origins:
        return
    app.add_middleware(
        CORSMiddleware,
        allow_origins=settings.cors_origins,
        allow_methods=ALLOW_METHODS,
        allow_headers=ALLOW_HEADERS,
        expose_headers=EXPOSE_HEADERS,
        max_age=PREFLIGHT_MAX_AGE_S,
    )
