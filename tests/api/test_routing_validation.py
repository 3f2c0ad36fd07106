"""A ``ComputeRoute`` reads a body with pydantic's own JSON parser (``app.api.routing.validated``): every
body it accepts must give the value FastAPI's reading (``json.loads`` then validation) gives, and every
body it refuses is read again FastAPI's way (issues 14 and 40)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.exceptions import RequestValidationError
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter
from starlette.exceptions import HTTPException

from app.api.routing import validated as _validated
from app.api.routing import validated_as_fastapi as _validated_as_fastapi
from app.schemas.payments import PaymentPlanRequest
from app.schemas.spells import SpellCostBatchRequest, SpellCostRequest

PLAN: dict[str, Any] = {
    "player": "you",
    "cost": "{2}{G}{G}",
    "board": {
        "active_player": "you",
        "mana_pool": {"you": "{G}"},
        "permanents": [
            {"id": "f1", "card": "Forest", "tapped": False, "counters": {"charge": 2}, "x": 3},
            {"id": "sol", "card": {"oracle_id": "00000000-0000-0000-0000-000000000000"}, "controller": "you"},
        ],
        "players": {"you": {"life": 20, "hand_size": 3, "graveyard": ["Forest"]}},
    },
}
COST: dict[str, Any] = {
    **{k: v for k, v in PLAN.items() if k not in ("cost", "player")},
    "spell": {"card": "Bolt"},
}
ADAPTERS = {"plan": TypeAdapter(PaymentPlanRequest), "cost": TypeAdapter(SpellCostRequest)}
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["1", "2.5", "true", "null", "{G}", "you", "2026-01-01", "W"]),
)


def _outcome(read: Any, adapter: TypeAdapter[Any], body: bytes) -> tuple[str, Any]:
    try:
        return "ok", read(adapter, body)
    except RequestValidationError as exc:
        return "invalid", json.dumps(exc.errors(), default=repr)  # ctx holds exceptions: by their repr
    except HTTPException as exc:
        return "http", exc.status_code


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*here, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*here, i))
    return out


def _replaced(doc: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(doc))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


@settings(max_examples=300, deadline=None)
@given(which=st.sampled_from(["plan", "cost"]), data=st.data())
def test_a_body_reads_the_same_either_way(which: str, data: st.DataObject) -> None:
    doc = PLAN if which == "plan" else COST
    path = data.draw(st.sampled_from(_paths(doc)))
    body = json.dumps(_replaced(doc, path, data.draw(SCALARS))).encode()
    adapter = ADAPTERS[which]
    assert _outcome(_validated, adapter, body) == _outcome(_validated_as_fastapi, adapter, body)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"[]",
        b'{"board": {}, "board": {"permanents": []}, "spell": {"card": "Bolt"}}',  # the last key wins
        b'{"spell": {"card": "\\u0046orest"}}',
        b'{"spell": {"card": "Forest"}, "board": {"permanents": [{"id": "a", "card": "F", "x": '
        + b"9" * 5000
        + b"}]}}",
        b'\xef\xbb\xbf{"spell": {"card": "Forest"}}',  # a byte order mark
        '{"spell": {"card": "Forest"}}'.encode("utf-16"),
        b'{"spell": {"card": "Forest"}}   \n',
        b'{"spell": {"card": "For\xffest"}}',  # not UTF-8
    ],
)
def test_odd_bodies_read_the_same_either_way(raw: bytes) -> None:
    for adapter in (*ADAPTERS.values(), TypeAdapter(SpellCostBatchRequest)):
        assert _outcome(_validated, adapter, raw) == _outcome(_validated_as_fastapi, adapter, raw)
