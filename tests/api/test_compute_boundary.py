"""One compute boundary (issue 27): every route that computes goes through ``app.api.compute.compute``,
and a route that does not must say why its work is small and bounded. A new route in neither list fails
here, as does a route marked as computing whose request never reaches the boundary."""

from __future__ import annotations

import difflib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, APIRouter
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from starlette.types import Receive, Scope, Send

from app.api.compute import COMPUTE_ROUTES, COMPUTED, LIGHT_ROUTES
from app.config import Settings
from app.main import create_app
from app.rules.deadline import Deadline, DeadlineExceeded, running
from app.services.api_keys import create_api_key
from app.services.card_index import CardIndex, close_matches
from tests.sessions import bind_app_to_session


def _routes(routes: list[Any]) -> Iterator[APIRoute]:
    for route in routes:
        inner = getattr(route, "original_router", None)
        if isinstance(inner, APIRouter):
            yield from _routes(inner.routes)
        elif isinstance(route, APIRoute):
            yield route


def _operations(app: FastAPI) -> set[tuple[str, str]]:
    # A HEAD twin answers its GET's route (app.api.router._allow_head): the same work.
    return {("GET" if m == "HEAD" else m, r.path) for r in _routes(app.routes) for m in r.methods}


def test_every_route_computes_inside_the_boundary_or_says_why_it_needs_none(app: FastAPI) -> None:
    operations = _operations(app)
    assert len(operations) > 20
    unmarked = sorted(operations - COMPUTE_ROUTES - set(LIGHT_ROUTES))
    assert not unmarked, f"routes neither computing through app.api.compute nor marked light: {unmarked}"
    assert not COMPUTE_ROUTES & set(LIGHT_ROUTES)
    # /metrics is mounted on the API port only with MANACALC_METRICS_TOKEN (app.api.metrics): its mark stays
    optional = {("GET", "/metrics")}
    assert not (COMPUTE_ROUTES | set(LIGHT_ROUTES)) - operations - optional, "a mark names no route"
    assert all(len(reason) > 10 for reason in LIGHT_ROUTES.values())


class _Recorder:
    """The app, recording for each request whether it reached ``compute``."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.seen: list[tuple[str, str, bool]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] == "http":
            self.seen.append((scope["method"], scope["path"], bool(scope.get(COMPUTED))))


BOARD = {"permanents": [{"id": "f", "card": "Forest"}, {"id": "rg", "card": "Richard Garfield, Ph.D."}]}
ELVES = {"card": "Llanowar Elves"}


def _requests(scenario: str) -> list[tuple[str, str, dict[str, Any]]]:
    """A valid request of each computing route (path, method, httpx arguments)."""
    cost = {"board": BOARD, "spell": {"card": "Llanowar Elves"}}
    return [
        ("POST", "/v1/spells/cost", {"json": cost}),
        ("POST", "/v1/spells/cost/batch", {"json": {"board": BOARD, "spells": [{"card": "Llanowar Elves"}]}}),
        ("POST", "/v1/payments/plan", {"json": {"board": BOARD, "cost": "{G}"}}),
        ("POST", "/v1/boards/analyze", {"json": {"board": BOARD}}),
        ("POST", "/v1/mana-costs/parse", {"json": {"mana_cost": "2WW"}}),
        ("GET", "/v1/mana-costs/parse?mana_cost=2WW", {}),
        (
            "POST",
            "/v1/mental-magic/options",
            {"json": {"board": BOARD, "via": "rg", "card": "Forest", "format": "legacy"}},
        ),
        (
            "POST",
            "/v1/heralds-horn/reveal",
            {
                "json": {
                    "board": {"permanents": [{"id": "h", "card": "Herald's Horn"}]},
                    "horn": "h",
                    "top_card": "Forest",
                }
            },
        ),
        ("POST", "/v1/decks/analyze", {"json": {"decklist": "24 Forest\n36 Llanowar Elves"}}),
        ("POST", "/v1/decks/chart", {"json": {"decklist": "24 Forest\n36 Llanowar Elves"}}),
        ("POST", "/v1/decks/chart/vega-lite", {"json": {"decklist": "24 Forest\n36 Llanowar Elves"}}),
        ("POST", "/v1/decks/manabase", {"json": {"decklist": "20 Forest\n4 Island\n36 Llanowar Elves"}}),
        ("GET", "/v1/cards/named?fuzzy=Llanowar+Elfs", {}),
        ("GET", "/v1/cards/autocomplete?q=llano", {}),
        ("POST", "/v1/cards/collection", {"json": {"identifiers": [{"name": "Forest"}]}}),
        ("GET", "/v1/cards/No Such Card Anywhere", {}),
        ("POST", "/v1/scenarios", {"json": {"name": "boundary", "board": BOARD}}),
        (
            "PUT",
            f"/v1/scenarios/{scenario}",
            {"json": {"name": "boundary", "board": BOARD}, "headers": {"If-Match": "*"}},
        ),
        ("POST", f"/v1/scenarios/{scenario}/spells/cost", {"json": {"spell": {"card": "Llanowar Elves"}}}),
        ("POST", f"/v1/scenarios/{scenario}/permanents/rg/played-as", {"json": {"card": "Forest"}}),
    ]


def test_every_computing_route_reaches_the_boundary(settings: Settings, db_session: Session) -> None:
    application = create_app(settings)
    bind_app_to_session(application, db_session)
    recorder = _Recorder(application)
    client = TestClient(recorder)
    auth = {"Authorization": f"Bearer {create_api_key(db_session, name='boundary')}"}
    made = client.post("/v1/scenarios", json={"name": "first", "board": BOARD}, headers=auth)
    assert made.status_code == 201, made.text
    recorder.seen.clear()
    requests = _requests(made.json()["id"])
    for method, path, kwargs in requests:
        response = client.request(method, path, headers={**auth, **kwargs.pop("headers", {})}, **kwargs)
        assert response.status_code < 500, (path, response.text)
        assert recorder.seen[-1][2], (path, response.status_code, response.text)
    assert [computed for _m, _p, computed in recorder.seen] == [True] * len(requests), recorder.seen
    templates = {
        (m, r.path)
        for m, _p, _k in requests
        for r in _routes(application.routes)
        if m in r.methods and r.path_regex.match(_p.split("?")[0])
    }
    assert {(m, p) for m, p in templates} >= COMPUTE_ROUTES  # every computing route was tried


@pytest.fixture
def tight(settings: Settings, db_session: Session) -> TestClient:
    """An app whose requests get a 0.2 s budget."""
    application = create_app(settings.model_copy(update={"compute_budget_s": 0.2}))
    bind_app_to_session(application, db_session)
    return TestClient(application)


def test_three_hundred_unknown_names_are_stopped_with_ask_for_less(
    tight: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Mental Magic on a board of 300 unknown cards: every problem is reported at once, each with a
    suggestion search. On the full catalogue one search compares thousands of names (7 s for the 300);
    the bundled test catalogue is too small for that, so each search here first spends 25 ms comparing,
    checking the deadline as ``close_matches`` does. The answer is the budget's 422, within the budget."""
    real = CardIndex.suggestions

    def slow(self: CardIndex, name_norm: str, limit: int) -> list[Any]:
        close_matches(name_norm, ["a name of the full catalogue"] * 25_000, n=limit, cutoff=0.99)
        return real(self, name_norm, limit)

    monkeypatch.setattr(CardIndex, "suggestions", slow)
    unknown = [{"id": f"p{i}", "card": f"Zyxqv Unknown Card Number {i}"} for i in range(300)]
    board = {"permanents": [*BOARD["permanents"], *unknown]}
    body = {"board": board, "via": "rg", "card": "Llanowar Elves", "format": "legacy"}
    started = time.monotonic()
    response = tight.post("/v1/mental-magic/options", json=body)
    elapsed = time.monotonic() - started
    assert elapsed < 1.0, elapsed
    assert response.status_code == 422, response.text
    assert response.json()["type"].endswith("/too-large")
    assert "ask for less" in response.json()["detail"]


def test_close_matches_checks_the_deadline() -> None:
    with running(Deadline(time.monotonic() - 1)), pytest.raises(DeadlineExceeded):
        close_matches("forest", ["forest"] * 10, n=3, cutoff=0.6)


@given(
    st.text(alphabet="abcde ", max_size=8),
    st.lists(st.text(alphabet="abcde ", max_size=8), max_size=30),
    st.integers(min_value=1, max_value=5),
    st.sampled_from([0.0, 0.3, 0.6, 0.9]),
)
def test_close_matches_is_difflibs(word: str, names: list[str], n: int, cutoff: float) -> None:
    """The same steps as ``difflib.get_close_matches``, so the same suggestions as before."""
    assert close_matches(word, names, n=n, cutoff=cutoff) == difflib.get_close_matches(word, names, n, cutoff)
