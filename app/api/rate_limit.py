"""Per-client rate limits: a token bucket per API key, or per client address for anonymous requests.

Each bucket holds up to ``burst`` tokens and refills at ``per_minute / 60`` tokens a second; a request
takes one token, and a request finding the bucket empty answers ``429`` (``/problems/rate-limited``) with
``Retry-After``: the whole seconds until a token is back.

Which bucket: the key's (``key:<sha-256 prefix>``; the key itself is never stored nor logged) when the
request carries an API key this worker has seen accepted (a ``/v1/scenarios`` request with it answered
2xx in the last ``VERIFIED_TTL_S`` seconds), else the client address's. So made-up keys cannot escape the
per-address limit, and a key's requests count against the key wherever the site calls from.

The buckets live in each worker process: with W workers and R replicas a client may get up to W x R
times the configured rate (the load balancer spreads its requests). Health, readiness, metrics, the
problem catalogue and the docs are exempt.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import PROBLEM_MEDIA_TYPE, RateLimited, app_error_body

EXEMPT_PATHS = frozenset(
    {"/healthz", "/readyz", "/metrics", "/openapi.json", "/docs", "/docs/oauth2-redirect"}
)
EXEMPT_PREFIXES = ("/static/", "/problems")
AUTHENTICATED_PREFIX = "/v1/scenarios"
VERIFIED_TTL_S = 300.0
MAX_BUCKETS = 100_000
MAX_VERIFIED_KEYS = 10_000

Clock = Callable[[], float]


class TokenBucketLimiter:
    """Token buckets by key. ``clock`` (seconds, monotonic) is an attribute so tests can drive time."""

    def __init__(
        self, per_minute: int, burst: int, *, clock: Clock = time.monotonic, max_buckets: int = MAX_BUCKETS
    ) -> None:
        if per_minute <= 0 or burst <= 0:
            raise ValueError("per_minute and burst must be positive")
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.max_buckets = max_buckets
        # key -> (tokens, time of last update); least recently used first, so the oldest goes first.
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def acquire(self, key: str) -> float:
        """Take one token from ``key``'s bucket: 0.0 if taken, else the seconds until one is back."""
        now = self.clock()
        tokens, last = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + max(0.0, now - last) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / self.rate
        if len(self._buckets) > self.max_buckets:
            # Bounded memory under a flood of addresses: forget the least recently seen bucket (it is
            # most likely full again by now).
            self._buckets.popitem(last=False)
        return wait

    def __len__(self) -> int:
        return len(self._buckets)


def _bearer(scope: Scope) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"authorization":
            scheme, _, credentials = value.partition(b" ")
            credentials = credentials.strip()
            if scheme.lower() == b"bearer" and credentials:
                return credentials
            return None
    return None


def _exempt(path: str) -> bool:
    return path in EXEMPT_PATHS or path.startswith(EXEMPT_PREFIXES)


class RateLimitMiddleware:
    """Answers ``429`` problem+json with ``Retry-After`` when the request's bucket is empty."""

    def __init__(self, app: ASGIApp, limiter: TokenBucketLimiter) -> None:
        self.app = app
        self.limiter = limiter
        self._verified: OrderedDict[str, float] = OrderedDict()  # key hash -> when last accepted

    def bucket_key(self, scope: Scope, key_hash: str | None) -> str:
        if key_hash is not None:
            seen = self._verified.get(key_hash)
            if seen is not None and self.limiter.clock() - seen <= VERIFIED_TTL_S:
                return f"key:{key_hash}"
        client = scope.get("client")
        return f"addr:{client[0] if client else 'unknown'}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or _exempt(scope["path"]):
            await self.app(scope, receive, send)
            return
        token = _bearer(scope)
        key_hash = hashlib.sha256(token).hexdigest()[:32] if token is not None else None
        wait = self.limiter.acquire(self.bucket_key(scope, key_hash))
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            error = RateLimited(f"Too many requests; retry in {seconds} s.", retry_after=seconds)
            response = JSONResponse(
                app_error_body(error, scope["path"]),
                status_code=error.status,
                headers=error.headers,
                media_type=PROBLEM_MEDIA_TYPE,
            )
            await response(scope, receive, send)
            return
        if key_hash is None or not scope["path"].startswith(AUTHENTICATED_PREFIX):
            await self.app(scope, receive, send)
            return

        async def send_learning(message: Message) -> None:
            if message["type"] == "http.response.start":
                self._learn(key_hash, message["status"])
            await send(message)

        await self.app(scope, receive, send_learning)

    def _learn(self, key_hash: str, status: int) -> None:
        """A scenarios answer tells whether the key is valid: 2xx accepted it, 401 refused it."""
        if 200 <= status < 300:
            self._verified.pop(key_hash, None)
            self._verified[key_hash] = self.limiter.clock()
            if len(self._verified) > MAX_VERIFIED_KEYS:
                self._verified.popitem(last=False)
        elif status == 401:
            self._verified.pop(key_hash, None)
