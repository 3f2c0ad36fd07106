"""Per-client rate limits: a token bucket per API key, or per client address for anonymous requests.

Each bucket holds up to ``burst`` tokens and refills at ``per_minute / 60`` tokens a second; a request
takes one token, and a request finding the bucket empty answers ``429`` (``/problems/rate-limited``) with
``Retry-After``: the whole seconds until a token is back.

Which bucket: the key's (``key:<sha-256 prefix>``; the key itself is never stored nor logged) when the
request carries an API key this worker has seen accepted (a ``/v1/scenarios`` request with it answered
2xx in the last ``VERIFIED_TTL_S`` seconds), else the client address's. So made-up keys cannot escape the
per-address limit, and a key's requests count against the key wherever the site calls from.

By default the buckets live in each worker process: with W workers and R replicas a client may get up
to W x R times the configured rate. With ``MANACALC_REDIS_URL`` set, the buckets live in Redis and are
updated by one atomic Lua script (``RedisTokenBucketLimiter``), so the whole deployment shares one limit;
when Redis cannot be reached the worker falls back to its own buckets (logged once per outage) and keeps
answering. Health, readiness, metrics, the problem catalogue and the docs are exempt.

The client address is the socket's peer, or the ``X-Forwarded-For`` client when the peer is one of
``MANACALC_TRUSTED_PROXIES`` (empty by default, so no header lets a client pick its own bucket; uvicorn
is started with ``proxy_headers=False``: the header is read here, from trusted peers only).
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from fastapi.security.utils import get_authorization_scheme_param
from starlette.types import Scope

logger = logging.getLogger("manacalc")

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
        return self.acquire_counted(key)[0]

    def acquire_counted(self, key: str) -> tuple[float, float]:
        """``acquire``, and the tokens left in the bucket after it (for the ``RateLimit`` header)."""
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
        return wait, self._buckets.get(key, (self.burst, now))[0]

    async def take(self, key: str) -> tuple[float, float]:
        """``acquire_counted`` as the middleware calls it (the Redis buckets need to await)."""
        return self.acquire_counted(key)

    def __len__(self) -> int:
        return len(self._buckets)


class Bucket(Protocol):
    """Where tokens are kept: this process (``TokenBucketLimiter``) or Redis."""

    clock: Clock
    rate: float
    burst: float

    async def take(self, key: str) -> tuple[float, float]:
        """Take a token: (0.0 or the seconds until one is back, the tokens left)."""
        ...


# KEYS[1]: the bucket; ARGV: rate (tokens/s), burst. Time is Redis's own (one clock for every worker).
# The bucket is a hash {tokens, ts}; it expires once it would be full again, so idle buckets cost nothing.
_TOKEN_BUCKET_LUA = """
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil then
  tokens = burst
  ts = now
end
tokens = math.min(burst, tokens + math.max(0, now - ts) * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return tostring(wait) .. ' ' .. tostring(tokens)
"""

REDIS_RETRY_S = 5.0
"""After Redis failed, the worker uses its own buckets for this long before trying Redis again."""
REDIS_TIMEOUT_S = 0.25


def redis_client(url: str, **options: Any) -> Any:
    """The limiter's Redis client: short timeouts (a request never waits long on the limit), and a
    connection error retried once, at once, on a new connection. A pooled connection that Redis closed
    (a restart, a failover, an idle timeout) fails its first command; redis-py retries only the errors
    it is told to, none by default, so each stale connection was a failure that sent the worker to its
    own buckets for ``REDIS_RETRY_S``. Timeouts are not retried: a Redis that does not answer is not
    asked twice."""
    try:
        from redis import asyncio as aioredis
    except ImportError as exc:  # an extra: `pip install 'manacalc[redis]'`
        raise RuntimeError(
            "MANACALC_REDIS_URL is set but the redis package is not installed: install manacalc[redis]"
        ) from exc
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from redis.exceptions import ConnectionError as RedisConnectionError

    return aioredis.Redis.from_url(
        url,
        socket_timeout=REDIS_TIMEOUT_S,
        socket_connect_timeout=REDIS_TIMEOUT_S,
        retry=Retry(NoBackoff(), 1),
        retry_on_error=[RedisConnectionError],
        **options,
    )


class RedisTokenBucketLimiter:
    """The token buckets of ``TokenBucketLimiter``, kept in Redis for every worker and replica at once.

    Each request runs one Lua script (atomic: no two workers can take the same last token). When Redis
    fails (unreachable, timeout, error), the request is counted by ``fallback`` (this process's buckets)
    and Redis is tried again ``REDIS_RETRY_S`` later; the outage and the recovery are logged once each.
    """

    def __init__(
        self,
        url: str,
        per_minute: int,
        burst: int,
        *,
        clock: Clock = time.monotonic,
        prefix: str = "manacalc:rl:",
        client: Any = None,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.prefix = prefix
        self.fallback = TokenBucketLimiter(per_minute, burst, clock=clock)
        self._client = client or redis_client(url)
        self._script = self._client.register_script(_TOKEN_BUCKET_LUA)
        self._down_until: float | None = None

    @property
    def clock(self) -> Clock:
        return self.fallback.clock

    @clock.setter
    def clock(self, value: Clock) -> None:
        self.fallback.clock = value

    async def aclose(self) -> None:
        """Close the connections to Redis (at shutdown)."""
        await self._client.aclose()

    @property
    def using_fallback(self) -> bool:
        return self._down_until is not None

    async def take(self, key: str) -> tuple[float, float]:
        now = time.monotonic()
        if self._down_until is not None and now < self._down_until:
            return self.fallback.acquire_counted(key)
        try:
            answer = await self._script(keys=[self.prefix + key], args=[repr(self.rate), repr(self.burst)])
            wait, tokens = (
                float(x) for x in (answer.decode() if isinstance(answer, bytes) else answer).split()
            )
        except Exception as exc:  # any Redis failure: keep answering from this process's buckets
            if self._down_until is None:
                logger.warning(
                    "rate limit: Redis unavailable (%s: %s); counting in this worker until it is back",
                    exc.__class__.__name__,
                    str(exc)[:200],
                )
            self._down_until = now + REDIS_RETRY_S
            # Drop every pooled connection: after a restart they are all stale, and each one failing in
            # turn made the limit flap between Redis and the fallback.
            with contextlib.suppress(Exception):  # closing a gone server's sockets may fail: nothing to keep
                await self._client.connection_pool.disconnect()
            return self.fallback.acquire_counted(key)
        if self._down_until is not None:
            logger.info("rate limit: Redis is back; the limit is shared again")
            self._down_until = None
        return wait, tokens


def bearer(scope: Scope) -> str | None:
    """The credentials of ``Authorization: Bearer <credentials>``, read exactly as authentication reads
    them (``app.api.auth``: FastAPI's ``HTTPBearer``): the first ``Authorization`` header, as latin-1,
    split at its first space by FastAPI's own function, which strips every Unicode space (``\xa0``,
    ``\x85``...). Stripping only ASCII spaces here gave 30 spellings of one key 30 buckets."""
    for key, value in scope.get("headers", ()):
        if key.lower() == b"authorization":
            scheme, credentials = get_authorization_scheme_param(value.decode("latin-1"))
            if scheme.lower() == "bearer" and credentials:
                return credentials
            return None
    return None


def key_hash_of(token: str) -> str:
    """The bucket name of a key: a prefix of the SHA-256 of its UTF-8 text (the key is never kept)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]


def exempt(path: str) -> bool:
    return path in EXEMPT_PATHS or path.startswith(EXEMPT_PREFIXES)


class RateLimiter:
    """Chooses the bucket of a request and takes a token from it (see the module)."""

    def __init__(self, buckets: Bucket, trusted_proxies: Iterable[str] = ()) -> None:
        self.buckets = buckets
        self.trusted = frozenset(trusted_proxies)
        # A range (10.0.0.0/8) trusts every address in it: an ingress controller's pods change address.
        self._networks = tuple(ipaddress.ip_network(t, strict=False) for t in self.trusted if "/" in t)
        self._verified: OrderedDict[str, float] = OrderedDict()  # key hash -> when last accepted

    def bucket_key(self, scope: Scope, key_hash: str | None) -> str:
        if key_hash is not None:
            seen = self._verified.get(key_hash)
            if seen is not None and self.buckets.clock() - seen <= VERIFIED_TTL_S:
                return f"key:{key_hash}"
        return f"addr:{self.client_address(scope)}"

    def client_address(self, scope: Scope) -> str:
        """The peer's address; behind trusted proxies, the nearest untrusted ``X-Forwarded-For`` hop."""
        client = scope.get("client")
        address = client[0] if client else "unknown"
        if not self.trusted or not self._is_trusted(address):
            return address
        forwarded = b",".join(v for k, v in scope.get("headers", ()) if k.lower() == b"x-forwarded-for")
        hops = [h.strip() for h in forwarded.decode("latin-1").split(",") if h.strip()]
        for hop in reversed(hops):  # the right-most hops were added by our own proxies
            if not self._is_trusted(hop):
                return hop[:64]
            address = hop[:64]
        return address

    def _is_trusted(self, address: str) -> bool:
        if address in self.trusted or "*" in self.trusted:
            return True
        if not self._networks:
            return False
        try:
            ip = ipaddress.ip_address(address[:64])
        except ValueError:
            return False
        return any(ip in network for network in self._networks)

    async def take(self, key: str) -> tuple[float, float]:
        """(0.0 if a token was taken, else the seconds until one is back; the tokens left)."""
        return await self.buckets.take(key)

    def headers(self, wait: float, tokens: float) -> list[tuple[bytes, bytes]]:
        """``RateLimit-Policy`` and ``RateLimit`` (IETF httpapi draft "RateLimit header fields for HTTP"):
        the policy's quota ``q`` (the burst) over ``w`` seconds (the time an empty bucket takes to fill),
        and what is left now: ``r`` whole requests, ``t`` seconds until the bucket is full again (or, when
        it is empty, until the next request is allowed)."""
        burst, rate = self.buckets.burst, self.buckets.rate
        window = max(1, math.ceil(burst / rate))
        left = max(0, math.floor(tokens))
        reset = max(math.ceil(wait), math.ceil((burst - tokens) / rate), 0)
        return [
            (b"ratelimit-policy", f'"default";q={int(burst)};w={window}'.encode()),
            (b"ratelimit", f'"default";r={left};t={reset}'.encode()),
        ]

    def learn(self, key_hash: str, status: int) -> None:
        """A scenarios answer tells whether the key is valid: 2xx accepted it, 401 refused it."""
        if 200 <= status < 300:
            self._verified.pop(key_hash, None)
            self._verified[key_hash] = self.buckets.clock()
            if len(self._verified) > MAX_VERIFIED_KEYS:
                self._verified.popitem(last=False)
        elif status == 401:
            self._verified.pop(key_hash, None)
