"""Gzip on the direct lanes (``app.api.encoding``): the same answers as ``GZipMiddleware`` gives on
FastAPI's path, which the direct lanes answer before (issue 14)."""

from __future__ import annotations

import gzip

from fastapi.testclient import TestClient
from sqlalchemy import Engine
from starlette.responses import Response

from app.api.encoding import GZIP_MINIMUM_SIZE, encode

GZIP = {"Accept-Encoding": "gzip"}
IDENTITY = {"Accept-Encoding": "identity"}
# Twelve Forests tapped for twelve {G}: a step and a payment each, well over the 1 KB minimum.
BIG_PLAN = {
    "player": "you",
    "cost": "{G}" * 12,
    "board": {"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(12)]},
}


def _scope(accept: bytes | None) -> dict[str, object]:
    return {"type": "http", "headers": [(b"accept-encoding", accept)] if accept is not None else []}


def test_a_small_answer_is_left_as_it_is() -> None:
    response = encode(Response(b"x" * (GZIP_MINIMUM_SIZE - 1)), _scope(b"gzip"))
    assert response.body == b"x" * (GZIP_MINIMUM_SIZE - 1)
    assert "vary" not in response.headers and "content-encoding" not in response.headers


def test_a_big_answer_is_compressed_for_a_client_that_accepts_gzip() -> None:
    body = b'{"a": 1}' * 500
    response = encode(Response(body, media_type="application/json"), _scope(b"br, gzip;q=0.8"))
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["vary"] == "Accept-Encoding"
    assert int(response.headers["content-length"]) == len(response.body) < len(body) / 10
    assert gzip.decompress(response.body) == body


def test_a_big_answer_says_it_varies_even_when_not_compressed() -> None:
    body = b"y" * GZIP_MINIMUM_SIZE
    for scope in (_scope(None), _scope(b"identity")):
        response = encode(Response(body), scope)
        assert response.body == body
        assert response.headers["vary"] == "Accept-Encoding"
        assert "content-encoding" not in response.headers


def test_an_answer_that_already_varies_adds_accept_encoding_once_as_the_middleware_does() -> None:
    body = b"v" * GZIP_MINIMUM_SIZE
    response = encode(Response(body, headers={"Vary": "Origin"}), _scope(None))
    assert response.headers.getlist("vary") == ["Origin, Accept-Encoding"]
    fresh = encode(Response(body), _scope(None))
    assert fresh.raw_headers == [*Response(body).raw_headers, (b"vary", b"Accept-Encoding")]


def test_an_encoded_answer_is_not_encoded_twice() -> None:
    body = gzip.compress(b"z" * 5000)
    response = encode(Response(body, headers={"Content-Encoding": "gzip"}), _scope(b"gzip"))
    assert response.body == body


def test_a_plan_answered_by_the_direct_lane_is_gzipped_when_asked(
    real: tuple[TestClient, Engine, dict[str, str]],
) -> None:
    client, _, _ = real
    plain = client.post("/v1/payments/plan", json=BIG_PLAN, headers=IDENTITY)
    packed = client.post("/v1/payments/plan", json=BIG_PLAN, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert len(plain.content) >= GZIP_MINIMUM_SIZE
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content)  # sent compressed
    assert packed.json() == plain.json()  # the client decompressed it to the same answer
    one = {"player": "you", "cost": "{G}", "board": {"permanents": [{"id": "f", "card": "Forest"}]}}
    small = client.post("/v1/payments/plan", json=one, headers=GZIP)
    assert small.status_code == 200
    assert "content-encoding" not in small.headers
