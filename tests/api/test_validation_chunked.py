"""Long lists validated a chunk at a time (issue 27): the same answer as pydantic's one pass over the whole
body (the value, or the first errors to the letter and their exact count), the GIL let go between chunks."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError

from app.api import validation
from app.api.validation import BoundedInvalid, validate
from app.errors import TRUNCATED_ERRORS_TYPE
from app.schemas.analysis import AnalyzeRequest
from app.schemas.board import MAX_PERMANENTS
from app.schemas.payments import PaymentPlanRequest
from app.schemas.scenarios import ScenarioCostIn
from app.schemas.spells import SpellCostBatchRequest, SpellCostRequest
from tests.strategies import COMPUTE_BODIES

MODELS: dict[str, TypeAdapter[Any]] = {
    "/v1/spells/cost": TypeAdapter(SpellCostRequest),
    "/v1/spells/cost/batch": TypeAdapter(SpellCostBatchRequest),
    "/v1/payments/plan": TypeAdapter(PaymentPlanRequest),
    "/v1/boards/analyze": TypeAdapter(AnalyzeRequest),
    "/v1/scenarios/{scenario_id}/spells/cost": TypeAdapter(ScenarioCostIn),
}
LISTED = 5  # small, so that bodies of a few dozen items are truncated as a 1 MiB one is

BAD_PERMANENTS = (
    {"id": "p0", "card": "Forest"},  # a duplicate id: the service's to refuse, not the schema's
    {"card": "Forest"},
    {"id": "bad id!", "card": 0},
    {"id": "a", "card": {"keywords": [0, "flying", 1]}},
    {"id": "a", "card": {"oracle_id": 5}},
    {"id": "a", "card": "Forest", "surprise": 1},
    {"id": "a", "card": "Forest", "x": -1, "tapped": "maybe"},
    {"id": "a", "card": {"object": "card", "name": 3}},
    None,
    "Forest",
)
BAD_SPELLS = ({"card": 0}, {"card": "Shock", "x": "x"}, {}, {"card": "Shock", "what": 1}, 7)


@st.composite
def invalid_bodies(draw: st.DrawFn) -> tuple[TypeAdapter[Any], dict[str, Any]]:
    """A valid body of a compute model made long and wrong: its lists of permanents and spells grown to
    dozens of items, some of them broken in the ways a client breaks them, and wrong keys beside."""
    path = draw(st.sampled_from(sorted(MODELS)))
    body = json.loads(json.dumps(draw(COMPUTE_BODIES[path]())))
    permanent = st.one_of(st.sampled_from(BAD_PERMANENTS), st.just({"id": "ok", "card": "Island"}))
    if "board" in body and draw(st.integers(0, 3)):
        body["board"]["permanents"] += draw(st.lists(permanent, max_size=40))
    if "spells" in body and draw(st.integers(0, 3)):
        spell = st.one_of(st.sampled_from(BAD_SPELLS), st.just({"card": "Shock"}))
        body["spells"] += draw(st.lists(spell, max_size=30))
    if draw(st.integers(0, 3)) == 0:
        body["extra"] = draw(st.sampled_from([1, [], {"a": 1}]))
    if "board" in body and draw(st.integers(0, 3)) == 0:
        body["board"]["players"] = draw(st.sampled_from([{"you": {"life": "x"}}, [], {"opp": {}}]))
    if draw(st.integers(0, 5)) == 0:
        del body[draw(st.sampled_from(sorted(body)))]
    return MODELS[path], body


def _plain(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Errors comparable with ==: a validator's exception in ``ctx`` by its text."""
    return [{**e, "ctx": {k: str(v) for k, v in e["ctx"].items()}} if "ctx" in e else e for e in errors]


@pytest.fixture
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validation, "CHUNK_MIN_ITEMS", 2)
    monkeypatch.setattr(validation, "MAX_LISTED_ERRORS", LISTED)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=invalid_bodies())
def test_chunked_validation_answers_as_the_whole_body_pass(small_limits: None, case: Any) -> None:
    adapter, body = case
    try:
        expected = adapter.validate_python(body, from_attributes=True)
    except ValidationError as exc:
        whole = exc
    else:
        assert validate(adapter, body) == expected
        return
    with pytest.raises(BoundedInvalid) as caught:
        validate(adapter, body)
    *listed, last = caught.value.errors
    total = whole.error_count()
    if total <= LISTED:
        assert _plain(caught.value.errors) == _plain([dict(e) for e in whole.errors(include_url=False)])
        return
    assert last["type"] == TRUNCATED_ERRORS_TYPE and last["ctx"]["error_count"] == total
    first = _plain([dict(e) for e in whole.errors(include_url=False)])
    if validation._spots(adapter, body):  # chunked: the first errors to the letter
        assert _plain(listed) == first[:LISTED]
    else:  # validated whole, listed as before (errors of the body, not necessarily the first)
        assert all(e in first for e in _plain(listed))


def test_the_bench_body_is_answered_exactly() -> None:
    """10,000 permanents of 9 errors each (bench/hostile.py's "90,000 validation errors")."""
    adapter = MODELS["/v1/boards/analyze"]
    permanent = {"id": "a", "card": {"keywords": [0] * 8}}
    body = json.loads(json.dumps({"board": {"permanents": [permanent] * 10_000}}))
    with pytest.raises(ValidationError) as whole:
        adapter.validate_python(body, from_attributes=True)
    with pytest.raises(BoundedInvalid) as caught:
        validate(adapter, body)
    *listed, last = caught.value.errors
    assert last["ctx"]["error_count"] == whole.value.error_count() == 90_000
    assert listed == [dict(e) for e in whole.value.errors(include_url=False)[: len(listed)]]
    assert len(listed) == 100


def test_a_list_past_its_limit_is_too_long_only() -> None:
    """Pydantic reports a list longer than its ``max_length`` by ``too_long`` alone, its items' errors
    dropped; the chunked pass does not validate the items at all."""
    adapter = MODELS["/v1/boards/analyze"]
    body = {"board": {"permanents": [{"card": 0}] * (MAX_PERMANENTS + 1)}, "oops": 1}
    with pytest.raises(ValidationError) as whole:
        adapter.validate_python(body, from_attributes=True)
    with pytest.raises(BoundedInvalid) as caught:
        validate(adapter, body)
    assert caught.value.errors == [dict(e) for e in whole.value.errors(include_url=False)]
    assert [e["type"] for e in caught.value.errors] == ["too_long", "extra_forbidden"]


def test_a_valid_long_list_runs_the_body_pass_and_its_validators() -> None:
    """Every item valid: the body is validated whole, so limits and validators over several items run
    (``mana_pool``'s costs are parsed by a field validator of the board)."""
    adapter = MODELS["/v1/boards/analyze"]
    permanents = [{"id": f"p{i}", "card": "Forest"} for i in range(200)]
    body = {"board": {"permanents": permanents, "mana_pool": {"you": "{Q}{Q"}}}
    with pytest.raises(ValidationError) as whole:
        adapter.validate_python(body, from_attributes=True)
    with pytest.raises(BoundedInvalid) as caught:
        validate(adapter, body)
    assert _plain(caught.value.errors) == _plain([dict(e) for e in whole.value.errors(include_url=False)])


def test_the_gil_is_let_go_between_chunks() -> None:
    """A thread that only wants the GIL briefly every 2 ms (the event loop answering /healthz) gets it
    while 340,000 errors are found: its longest wait is a few chunks, not the whole pass."""
    adapter = MODELS["/v1/boards/analyze"]
    permanent = {"id": "a", "card": {"keywords": [0] * 33}}
    body = json.loads(json.dumps({"board": {"permanents": [permanent] * 10_000}}))
    worst = [0.0]
    done = threading.Event()

    def ticker() -> None:
        while not done.is_set():
            started = time.perf_counter()
            time.sleep(0.002)
            worst[0] = max(worst[0], time.perf_counter() - started)

    thread = threading.Thread(target=ticker)
    thread.start()
    started = time.perf_counter()
    with pytest.raises(BoundedInvalid):
        validate(adapter, body)
    took = time.perf_counter() - started
    done.set()
    thread.join()
    assert worst[0] < 0.25 * took, (worst[0], took)


# --- parsing a large body a piece at a time ------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=30,
)
spaces = st.text(alphabet=" \t\n\r", max_size=2)


def _outcome(parse: Any, body: bytes) -> Any:
    try:
        return ("value", parse(body))
    except json.JSONDecodeError as exc:
        return ("decode error", exc.msg, exc.pos)
    except Exception as exc:  # what json.loads raises, compared
        return ("error", type(exc), str(exc))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    value=st.dictionaries(st.text(max_size=4), json_values, max_size=5),
    indent=st.sampled_from([None, 0, 2]),
    cut=st.integers(0, 400),
    insert=st.sampled_from(["", ",", "]", "}", ":", '"', "x", "\\", " ", "1", "{}"]),
    tail=spaces,
)
def test_loads_in_pieces_is_json_loads(
    monkeypatch: pytest.MonkeyPatch, value: Any, indent: int | None, cut: int, insert: str, tail: str
) -> None:
    """The same value, or the same error at the same position, for bodies valid and broken anywhere."""
    monkeypatch.setattr(validation, "PIECES_MIN_BYTES", 0)
    text = json.dumps(value, indent=indent, ensure_ascii=False) + tail
    for body in (text, text[:cut] + insert + text[cut:], text[:cut], text + "{}"):
        raw = body.encode("utf-8", "surrogatepass")
        assert _outcome(validation.loads_in_pieces, raw) == _outcome(json.loads, raw), body


def test_loads_in_pieces_keeps_the_last_of_repeated_keys_where_the_first_was() -> None:
    body = b'{"a": 1, "b": {"x": [1, 2], "x": [3]}, "a": 2' + b" " * (64 * 1024) + b"}"
    value = validation.loads_in_pieces(body)
    assert value == json.loads(body) and list(value) == ["a", "b"] and value["a"] == 2
