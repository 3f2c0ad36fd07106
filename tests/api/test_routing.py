"""``app.api.routing``: the compute routes are FastAPI routes whose handler reads the body itself
(issue 40). A ``ComputeRoute`` answers byte for byte what FastAPI's own handler answers on the same route;
it refuses, when built, an endpoint with anything it would not provide; large bodies are validated off
the event loop on every route; and every answer is compressed by the framework's ``GZipMiddleware``."""

from __future__ import annotations

import json
import threading
from typing import Annotated, Any

import pytest
from fastapi import APIRouter, Body, Depends, FastAPI, Request, Response
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.api import routing
from app.api.compression import GZIP_MINIMUM_SIZE
from app.api.deps import SessionDep, SettingsDep
from app.api.routing import ComputeRoute, all_routes
from app.schemas.spells import SpellCostRequest

FOREST = {"id": "f", "card": "Forest"}
ELVES = {"card": "Llanowar Elves"}
INLINE = {
    "name": "Test Bauble",
    "mana_cost": "{1}{G}",
    "type_line": "Artifact",
    "oracle_text": "{T}: Add one mana of any color. (Reminder text.)",
}
BIG_BOARD = {"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(2_100)]}
BOARD = {"permanents": [FOREST, {"id": "e", "card": "Llanowar Elves"}, {"id": "b", "card": INLINE}]}

BODIES: dict[str, list[Any]] = {
    "/v1/spells/cost": [
        {"board": BOARD, "spell": ELVES},
        {"board": BOARD, "spell": {"card": INLINE}},
        {"board": BOARD, "spell": {"card": "No Such Card Anywhere"}},
        {"board": {"permanents": [FOREST, FOREST]}, "spell": ELVES},
        {"board": BOARD},
        {"board": BIG_BOARD, "spell": ELVES},
        {"board": BOARD, "spell": ELVES, "extra": 1},
        {"board": {"permanents": "none"}, "spell": ELVES},
        {
            "board": {"permanents": [FOREST]},
            "spell": {"card": {"oracle_id": "00000000-0000-0000-0000-0000000000aa"}},
        },
    ],
    "/v1/spells/cost/batch": [
        {"board": BOARD, "spells": [ELVES, {"card": "Forest"}, {"card": "No Such Card"}]},
        {"board": BOARD, "spells": []},
        {"board": BOARD, "spells": [ELVES] * 300},
    ],
    "/v1/payments/plan": [
        {"board": BOARD, "cost": "{G}{G}"},
        {"board": BOARD, "cost": "{W}{W}{W}"},
        {"board": BOARD, "cost": "{Q}"},
        {"board": BOARD, "spell": ELVES},
        {"board": BIG_BOARD, "cost": "{G}"},
        {"board": {"permanents": [FOREST] * 12}, "cost": "{G}" * 12},
    ],
}
RAW = [b"", b"{", b'{"board": ' + b"1" * 5000 + b"}", b"[]", b"null", b'{"board": {"permanents": []}}']
HEADER_SETS = [{}, {"Accept-Encoding": "gzip"}, {"Content-Type": "text/plain"}]


def _answers(client: TestClient) -> list[tuple[str, int, dict[str, str], bytes]]:
    out = []
    for path, bodies in BODIES.items():
        for headers in HEADER_SETS:
            sent = [(b, None) for b in bodies] + [(None, raw) for raw in RAW]
            for body, raw in sent:
                h = {"Content-Type": "application/json", **headers}
                if raw is None:
                    raw = json.dumps(body).encode()
                r = client.post(path, content=raw, headers=h)
                kept = {k: v for k, v in r.headers.items() if k != "x-request-id"}
                out.append((path, r.status_code, kept, r.content))
    return out


def _compute_routes(app: FastAPI) -> list[ComputeRoute]:
    return [route for route in all_routes(app.router) if isinstance(route, ComputeRoute)]


def test_compute_routes_answer_byte_for_byte_as_fastapis_own_handler(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    routes = _compute_routes(app)
    assert {r.path for r in routes} == set(BODIES)
    ours = _answers(TestClient(app))
    assert any(status == 200 for _, status, _, _ in ours) and any(s == 422 for _, s, _, _ in ours)
    for route in routes:  # the same route served by FastAPI's handler: dependencies solved, body read
        twin = APIRoute(
            route.path,
            route.endpoint,
            methods=list(route.methods),
            response_model=route.response_model,
            dependency_overrides_provider=app,
        )
        monkeypatch.setattr(route, "app", twin.app)
    theirs = _answers(TestClient(app))
    assert len(ours) == len(theirs)
    for mine, fastapis in zip(ours, theirs, strict=True):
        assert mine == fastapis


def _endpoint_with(extra: bool) -> Any:
    async def with_extra(
        request: Request,
        body: Annotated[SpellCostRequest, Body()],
        session: SessionDep,
        settings: SettingsDep,
        page: int = 1,
    ) -> Response:
        return Response()

    async def plain(
        request: Request,
        body: Annotated[SpellCostRequest, Body()],
        session: SessionDep,
        settings: SettingsDep,
    ) -> Response:
        return Response()

    return with_extra if extra else plain


async def _audit() -> None:
    return None


def test_a_compute_route_refuses_what_its_handler_would_skip() -> None:
    """Another parameter, or a router-level dependency, would be silently skipped: refused when built."""
    router = APIRouter(route_class=ComputeRoute)
    router.post("/fine")(_endpoint_with(extra=False))
    with pytest.raises(TypeError, match="serves endpoints of exactly"):
        router.post("/extra")(_endpoint_with(extra=True))
    guarded = APIRouter(route_class=ComputeRoute, dependencies=[Depends(_audit)])
    with pytest.raises(TypeError, match="1 dependencies"):
        guarded.post("/audited")(_endpoint_with(extra=False))
    with pytest.raises(TypeError, match="max_body_size is not served"):  # its wrapper would be replaced
        ComputeRoute("/limited", _endpoint_with(extra=False), methods=["POST"], max_body_size=1_000)


def test_a_compute_route_builds_its_handler_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = ComputeRoute._compute_handler

    def counted(route: ComputeRoute) -> Any:
        built.append(route.path)
        return real(route)

    monkeypatch.setattr(ComputeRoute, "_compute_handler", counted)
    router = APIRouter(route_class=ComputeRoute)
    router.post("/once")(_endpoint_with(extra=False))
    assert built == ["/once"]


def _threads_calling(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The names of the threads that call ``app.api.routing.<name>``, recorded as the calls come."""
    threads: list[str] = []
    real = getattr(routing, name)

    def recording(adapter: Any, body: bytes) -> Any:
        threads.append(threading.current_thread().name)
        return real(adapter, body)

    monkeypatch.setattr(routing, name, recording)
    return threads


LARGE_INVALID_BOARD = {"permanents": [{"id": f"p{i}", "card": 7, "extra": True} for i in range(3_000)]}


def test_a_large_body_is_validated_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A body of many invalid items: its errors are built in a worker thread, the answer is unchanged."""
    threads = _threads_calling(monkeypatch, "validated")
    response = client.post("/v1/spells/cost", json={"board": LARGE_INVALID_BOARD, "spell": ELVES})
    assert response.status_code == 422
    assert response.json()["type"].endswith("/validation-error")
    assert threads and threads[0].startswith("manacalc-compute")
    small = client.post("/v1/spells/cost", json={"board": {"permanents": []}, "spell": ELVES})
    assert small.status_code == 200, small.text
    assert not threads[-1].startswith("manacalc-compute")  # a small body stays on the event loop


def test_a_large_invalid_body_of_another_route_is_refused_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``BoundedBodyRoute``: the 422 of a large body is built in a worker thread, errors bounded."""
    threads = _threads_calling(monkeypatch, "validated_as_fastapi")
    response = client.post("/v1/boards/analyze", json={"board": LARGE_INVALID_BOARD})
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"].endswith("/validation-error")
    assert len(problem["errors"]) <= 101
    assert threads == [threads[0]] and threads[0].startswith("manacalc-compute")


BIG_PLAN = {
    "player": "you",
    "cost": "{G}" * 12,
    "board": {"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(12)]},
}


def test_a_compute_answer_is_gzipped_by_the_middleware_when_asked(
    real: tuple[TestClient, Engine, dict[str, str]],
) -> None:
    client, _, _ = real
    plain = client.post("/v1/payments/plan", json=BIG_PLAN, headers={"Accept-Encoding": "identity"})
    packed = client.post("/v1/payments/plan", json=BIG_PLAN, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == packed.status_code == 200
    assert len(plain.content) >= GZIP_MINIMUM_SIZE
    assert "content-encoding" not in plain.headers and plain.headers["vary"] == "Accept-Encoding"
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content)  # sent compressed
    assert packed.json() == plain.json()  # the client decompressed it to the same answer
    one = {"player": "you", "cost": "{G}", "board": {"permanents": [{"id": "f", "card": "Forest"}]}}
    small = client.post("/v1/payments/plan", json=one, headers={"Accept-Encoding": "gzip"})
    assert small.status_code == 200
    assert "content-encoding" not in small.headers
