"""The one service middleware: request id, access log, metrics, rate limit, body guard and error tracking.

Five middleware layers, each wrapping ``send`` and each a coroutine frame per request, took
a large share of a small compute request. ``ServiceMiddleware`` does all of their work with one ``send``
wrapper:

- the request id (accepted from ``X-Request-ID`` when sane, else generated), echoed in the answer and
  bound to every log line written meanwhile;
- one access-log line per request, control characters escaped (a ``%0A`` in a path forged a
  line in the plain-text log), written by ``app.access_log`` (past ``logging``'s machinery when nothing
  could tell the difference);
- Prometheus counts and latency by method, route template and status;
- the rate limit (before the body is read; ``app.api.rate_limit``);
- the body guard: 413 above ``max_body_bytes`` (declared or streamed), 415 for a body that is not JSON
  (or has no ``Content-Type``), 400 for a body that is not UTF-8 or JSON nested deeper than
  ``max_json_depth``, 422 for NUL, lone surrogates and non-finite numbers (overflowing ones included),
  408 when the body is not complete within ``body_read_timeout_s`` (a trickled body held a worker's slot
  open);
- an exception no handler took: a 500 problem, traceback logged, never sent.

CORS, when configured, runs inside it (so 429s and 413s carry CORS headers and preflights are logged).
Gzip, when configured, runs inside the guard, entered only by a request that accepts it; every answer
then says ``Vary: Accept-Encoding`` (``app.api.compression``: why).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import time
from typing import Any

from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.access_log import write_access_line
from app.api.compression import VARY, accepts_gzip, varies_by_encoding
from app.api.compute import NOT_ON_THE_LOOP, carries_card_text
from app.api.limits import (
    MAX_JSON_DEPTH,
    body_hygiene_errors,
    deeper_than,
    is_json_media_type,
    utf8_problem,
)
from app.api.metrics import IN_PROGRESS, LATENCY, REQUESTS, route_template
from app.api.rate_limit import AUTHENTICATED_PREFIX, RateLimiter, bearer, exempt, key_hash_of
from app.errors import (
    PROBLEM_MEDIA_TYPE,
    AppError,
    BadRequest,
    HeaderTooLarge,
    InputError,
    RateLimited,
    RequestTimeout,
    TooLarge,
    UnsupportedMediaType,
    app_error_body,
    internal_error_response,
)
from app.logs import SANE_REQUEST_ID, bind_request, escape_control, unbind_request

logger = logging.getLogger("manacalc.errors")

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_BODY_READ_TIMEOUT_S = 10.0
_RATE_LIMIT_KEY = "manacalc.rate_limit_headers"
_LEARN_KEY = "manacalc.rate_limit_key"


class ServiceMiddleware:
    """Everything every request needs before and after the application, in one layer (see the module)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body_bytes: int,
        max_json_depth: int = MAX_JSON_DEPTH,
        body_read_timeout_s: float = DEFAULT_BODY_READ_TIMEOUT_S,
        max_header_bytes: int | None = None,
        limiter: RateLimiter | None = None,
        cors: Any = None,
        gzip: Any = None,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_json_depth = max_json_depth
        self.body_read_timeout_s = body_read_timeout_s
        self.max_header_bytes = max_header_bytes
        self.limiter = limiter
        # CORS wraps the guarded application: cors(app=self._guarded), built by the caller or not at all.
        self._inner: ASGIApp = cors(self._guarded) if cors is not None else self._guarded
        self._children: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        # Gzip wraps the application: gzip(app), built by the caller or not at all.
        self._gzip: ASGIApp | None = gzip(app) if gzip is not None else None
        self._vary: tuple[tuple[bytes, bytes], ...] = (VARY,) if gzip is not None else ()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = _request_id(scope)
        token = bind_request(rid)
        rid_header = (b"x-request-id", rid.encode("ascii"))
        status = 500
        started_response = False
        limiter = self.limiter
        vary = self._vary

        async def send_wrapper(message: Message) -> None:
            nonlocal status, started_response
            if message["type"] == "http.response.start":
                status = message["status"]
                started_response = True
                headers = message.get("headers", ())
                message["headers"] = [
                    *headers,
                    rid_header,
                    *scope.get(_RATE_LIMIT_KEY, ()),
                    *(vary if vary and not varies_by_encoding(headers) else ()),
                ]
                learn = scope.get(_LEARN_KEY)
                if learn is not None and limiter is not None:
                    limiter.learn(learn, status)  # a scenarios answer says whether the key is valid
            await send(message)

        IN_PROGRESS.inc()
        started = time.perf_counter()
        try:
            await self._inner(scope, receive, send_wrapper)
        except Exception:
            logger.exception(
                "unhandled error on %s %s", scope.get("method"), escape_control(scope.get("path", ""))
            )
            if started_response:
                raise
            await internal_error_response(scope.get("path"))(scope, receive, send_wrapper)
        finally:
            if not started_response:  # no answer at all: the client left first (nginx's 499)
                status = 499
            elapsed = time.perf_counter() - started
            IN_PROGRESS.dec()
            method = scope["method"] if scope["method"] in _METHODS else "other"
            labels = (method, route_template(scope), str(status))
            children = self._children.get(labels)
            if children is None:  # .labels() looks up a lock-guarded dict: resolve each series once
                children = (REQUESTS.labels(*labels), LATENCY.labels(*labels))
                self._children[labels] = children
            children[0].inc()
            children[1].observe(elapsed)
            write_access_line(method, scope.get("path", ""), status, elapsed, __file__)
            unbind_request(token)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Rate limit, then the checks of the head, then the body guard, then the application."""
        if self.limiter is not None and not exempt(scope["path"]):
            refusal = await self._rate_limit(scope, self.limiter)
            if refusal is not None:
                await _refuse(scope, receive, send, refusal)
                return
        path: str = scope.get("path", "")
        refusal, content_type = self._check_head(scope, path)
        if refusal is not None:
            close = isinstance(refusal, HeaderTooLarge)
            await _refuse(scope, receive, send, refusal, headers={"Connection": "close"} if close else None)
            return
        app = self._gzip if self._gzip is not None and accepts_gzip(scope) else self.app
        if scope["method"] not in _BODY_METHODS:
            await app(scope, receive, send)
            return
        try:
            async with asyncio.timeout(self.body_read_timeout_s):
                body = await self._read_body(receive)
        except TimeoutError:
            error = RequestTimeout(
                f"The request body was not complete within {self.body_read_timeout_s:g} seconds."
            )
            await _refuse(scope, receive, send, error, headers={"Connection": "close"})
            return
        if body is None:  # the client went away
            return
        refusal = body if isinstance(body, AppError) else self._check_body(body, content_type)
        if refusal is not None:
            await _refuse(scope, receive, send, refusal)
            return
        assert isinstance(body, bytes)
        if carries_card_text(body):  # decided once, before any work: never on the event loop
            scope[NOT_ON_THE_LOOP] = True
        await app(scope, _replay(body, receive), send)

    async def _rate_limit(self, scope: Scope, limiter: RateLimiter) -> AppError | None:
        """Take a token from the caller's bucket; the 429 to answer when it is empty."""
        token = bearer(scope)
        key_hash = key_hash_of(token) if token is not None else None
        wait, tokens = await limiter.take(limiter.bucket_key(scope, key_hash))
        # Every limited answer says its limit and what is left (a 429 too), so a page need not wait
        # for a 429 to learn it; send_wrapper adds them.
        scope[_RATE_LIMIT_KEY] = limiter.headers(wait, tokens)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            return RateLimited(f"Too many requests; retry in {seconds} s.", retry_after=seconds)
        if key_hash is not None and scope["path"].startswith(AUTHENTICATED_PREFIX):
            scope[_LEARN_KEY] = key_hash
        return None

    def _check_head(self, scope: Scope, path: str) -> tuple[AppError | None, str | None]:
        """The refusal of the request line and headers (NUL in the URL, headers over the cap, a declared
        body over the limit), if any, and the body's ``Content-Type``."""
        if "\x00" in path or b"%00" in scope.get("query_string", b""):
            # A NUL reached PostgreSQL (500) while SQLite stored it: refused the same on both.
            text = "The URL may not contain NUL characters (%00)."
            return BadRequest(text, errors=[{"loc": ["url"], "msg": text, "type": "string_unicode"}]), None
        declared = content_type = None
        head = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        for key, value in scope.get("headers", ()):
            head += len(key) + len(value) + 4  # ": " and CRLF
            key = key.lower()
            if key == b"content-length":
                declared = value
            elif key == b"content-type":
                content_type = value.decode("latin-1")
        if self.max_header_bytes is not None and head > self.max_header_bytes:
            # manacalc serve refuses it as it arrives (app.api.http_server); this holds under any server.
            text = f"The request line and headers are larger than {self.max_header_bytes} bytes."
            return HeaderTooLarge(text), content_type
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            return self._too_large(), content_type
        return None, content_type

    async def _read_body(self, receive: Receive) -> bytes | AppError | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                return self._too_large()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)

    def _check_body(self, body: bytes, content_type: str | None) -> AppError | None:
        if not body:
            return None
        if not (content_type and is_json_media_type(content_type)):
            media = content_type.split(";")[0].strip()[:100] if content_type else None
            return UnsupportedMediaType(
                f"Request bodies must be JSON, not {media!r}."
                if media
                else "A request body needs Content-Type: application/json (or a +json type)."
            )
        not_utf8 = utf8_problem(body)
        if not_utf8 is not None:
            return BadRequest(not_utf8, errors=[{"loc": ["body"], "msg": not_utf8, "type": "utf8_invalid"}])
        if deeper_than(body, self.max_json_depth):
            text = f"The JSON body is nested more than {self.max_json_depth} levels deep."
            return BadRequest(text, errors=[{"loc": ["body"], "msg": text, "type": "json_too_deep"}])
        hygiene = body_hygiene_errors(body)
        if hygiene:
            shown = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in hygiene[:3])  # type: ignore[call-overload]
            return InputError(
                f"{len(hygiene)} invalid value{'s' if len(hygiene) != 1 else ''}: {shown}", errors=hygiene
            )
        return None

    def _too_large(self) -> TooLarge:
        return TooLarge(f"The request body is larger than {self.max_body_bytes} bytes.")


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the application: the body already read, then whatever the client sends next."""
    replayed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _request_id(scope: Scope) -> str:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"x-request-id":
            try:
                incoming: str = value.decode("ascii")
            except UnicodeDecodeError:
                break
            if SANE_REQUEST_ID.fullmatch(incoming):
                return incoming
            break
    return os.urandom(16).hex()  # as random as uuid4().hex, without building a UUID


async def _refuse(
    scope: Scope, receive: Receive, send: Send, error: AppError, headers: dict[str, str] | None = None
) -> None:
    response = JSONResponse(
        app_error_body(error, scope.get("path")),
        status_code=error.status,
        headers={**(error.headers or {}), **(headers or {})},
        media_type=PROBLEM_MEDIA_TYPE,
    )
    await response(scope, receive, send)
