"""Gzip as ``ServiceMiddleware`` applies it (``app.api.compression``): Starlette's ``GZipMiddleware`` for
the requests that accept gzip, nothing for the others, and ``Vary: Accept-Encoding`` on every answer.

The property compares it with ``GZipMiddleware`` always entered, inside the same ``ServiceMiddleware``, for
random answers and ``Accept-Encoding`` headers: the same status, body (decompressed: gzip's header carries
the time) and headers, but for ``Vary``, which is a superset naming ``Accept-Encoding`` (once, unless the
answer had it). If Starlette's middleware changes how it decides to compress (q-values read, say), the
property fails."""

from __future__ import annotations

import asyncio
import gzip
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Message, Receive, Scope, Send

from app.api.compression import EXCLUDED_CONTENT_TYPES, GZIP_MINIMUM_SIZE, gzip_factory
from app.api.middleware import ServiceMiddleware
from app.config import Settings
from tests.api.test_cors import SITE, build

LIMIT = 1 << 20
ACCEPT = st.sampled_from(
    [None, "", "gzip", "gzip, deflate, br", "br", "identity", "GZIP", "deflate;q=1, gzip;q=0", "x-gzip"]
)


def _answer(status: int, body: bytes, headers: list[tuple[bytes, bytes]], chunks: int) -> Any:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": status, "headers": list(headers)})
        step = -(-len(body) // chunks) or 1
        pieces = [body[i : i + step] for i in range(0, len(body), step)] or [b""]
        for i, piece in enumerate(pieces):
            await send({"type": "http.response.body", "body": piece, "more_body": i < len(pieces) - 1})

    return app


def _serve(app: Any, accept: str | None) -> list[Message]:
    headers = [(b"host", b"test")]
    if accept is not None:
        headers.append((b"accept-encoding", accept.encode()))
    scope = {"type": "http", "method": "GET", "path": "/", "headers": headers, "query_string": b""}
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))
    return sent


def _split(sent: list[Message]) -> tuple[int, dict[bytes, list[bytes]], bytes]:
    start = sent[0]
    headers: dict[bytes, list[bytes]] = {}
    for name, value in start["headers"]:
        headers.setdefault(name, []).append(value)
    body = b"".join(m.get("body", b"") for m in sent[1:])
    if headers.get(b"content-encoding") == [b"gzip"]:
        body = gzip.decompress(body)
    return start["status"], headers, body


def _vary_tokens(headers: dict[bytes, list[bytes]]) -> list[str]:
    return [t.strip().lower() for v in headers.get(b"vary", []) for t in v.decode().split(",") if t.strip()]


@settings(max_examples=300, deadline=None)
@given(
    status=st.sampled_from([200, 206, 404]),
    size=st.sampled_from([0, 10, GZIP_MINIMUM_SIZE - 1, GZIP_MINIMUM_SIZE, 5000]),
    media=st.sampled_from(["application/json", "application/problem+json", "image/png", "text/plain"]),
    encoded=st.booleans(),
    vary=st.sampled_from([None, b"Origin", b"Accept-Encoding", b"origin, accept-encoding"]),
    chunks=st.sampled_from([1, 3]),
    accept=ACCEPT,
)
def test_it_answers_as_gzip_middleware_but_for_vary(
    status: int, size: int, media: str, encoded: bool, vary: bytes | None, chunks: int, accept: str | None
) -> None:
    body = (b'{"mana":"{G}{G}",' * (size // 17 + 1))[:size]
    headers = [(b"content-type", media.encode())]
    if chunks == 1:
        headers.append((b"content-length", str(size).encode()))
    if encoded:
        headers.append((b"content-encoding", b"br"))
    if vary is not None:
        headers.append((b"vary", vary))
    always = GZipMiddleware(
        _answer(status, body, headers, chunks),
        minimum_size=GZIP_MINIMUM_SIZE,
        exclude_content_types=EXCLUDED_CONTENT_TYPES,
    )
    theirs = _split(_serve(ServiceMiddleware(always, max_body_bytes=LIMIT), accept))
    ours = _split(
        _serve(
            ServiceMiddleware(
                _answer(status, body, headers, chunks), max_body_bytes=LIMIT, gzip=gzip_factory()
            ),
            accept,
        )
    )
    assert ours[0] == theirs[0]
    assert ours[2] == theirs[2] == body
    apart = (b"vary", b"x-request-id")
    assert {k: v for k, v in ours[1].items() if k not in apart} == {
        k: v for k, v in theirs[1].items() if k not in apart
    }
    # Added once where the answer does not say it, never where it does. An answer that goes through
    # Starlette's middleware may say it twice (the middleware adds its own to one that says it already);
    # one that does not go through it says it as the application did.
    said = _vary_tokens({b"vary": [vary]} if vary else {}).count("accept-encoding")
    through = accept is not None and "gzip" in accept
    expected = _vary_tokens(theirs[1]).count("accept-encoding") if through else said
    assert _vary_tokens(ours[1]).count("accept-encoding") == max(1, expected)
    assert set(_vary_tokens(theirs[1])) <= set(_vary_tokens(ours[1]))


def test_a_request_that_does_not_accept_gzip_never_enters_the_middleware() -> None:
    """What it is for: Starlette's responder costs a request that asks no compression 12-17 us."""
    entered: list[str | None] = []

    def recording(app: Any) -> Any:
        compressing = gzip_factory()(app)

        async def enter(scope: Scope, receive: Receive, send: Send) -> None:
            entered.append(dict(scope["headers"]).get(b"accept-encoding", b"").decode())
            await compressing(scope, receive, send)

        return enter

    service = ServiceMiddleware(_answer(200, b"x" * 5000, [], 1), max_body_bytes=LIMIT, gzip=recording)
    for accept in (None, "identity", "br", "gzip", "deflate, gzip"):
        _serve(service, accept)
    assert entered == ["gzip", "deflate, gzip"]


def test_every_answer_of_the_service_says_vary_once(client: TestClient) -> None:
    small = {"player": "you", "cost": "{G}", "board": {"permanents": [{"id": "f", "card": "Forest"}]}}
    for accept in ("identity", "gzip"):
        for answer in (
            client.post("/v1/payments/plan", json=small, headers={"Accept-Encoding": accept}),
            client.get("/v1/nowhere", headers={"Accept-Encoding": accept}),
            client.get("/openapi.json", headers={"Accept-Encoding": accept}),
            client.get("/healthz", headers={"Accept-Encoding": accept}),
        ):
            assert answer.headers.get_list("vary") == ["Accept-Encoding"], (accept, answer.request.url)


def test_vary_names_the_origin_beside_the_encoding_under_cors(
    settings: Settings, db_session: Session
) -> None:
    answer = build(settings, db_session, cors_origins=[SITE]).get("/healthz", headers={"Origin": SITE})
    assert answer.headers["access-control-allow-origin"] == SITE
    assert sorted(t.strip() for t in answer.headers["vary"].split(",")) == ["Accept-Encoding", "Origin"]
