"""pydantic's validation errors rendered as one problem of the error tree: the answer type picked and the
detail sentence (app/validation_problems.py)."""

from __future__ import annotations

from typing import Any

import pytest

from app import errors
from app.rules.errors import InvalidChoiceError, ManaCostSyntaxError
from app.validation_problems import validation_problem


def _cost(loc: str) -> dict[str, Any]:
    cause = ManaCostSyntaxError("bad symbol", symbol="{Q}", position=0)
    return {"loc": ("body", loc), "msg": "bad", "type": "value_error", "ctx": {"error": cause}}


def _choice(loc: str) -> dict[str, Any]:
    cause = InvalidChoiceError("no such type", field="creature_type")
    return {"loc": ("body", loc), "msg": "bad", "type": "value_error", "ctx": {"error": cause}}


def _json() -> dict[str, Any]:
    return {"loc": ("body", 3), "msg": "bad", "type": "json_invalid", "ctx": {"error": "Expecting value"}}


def _plain(loc: str) -> dict[str, Any]:
    return {"loc": ("body", loc), "msg": "Field required", "type": "missing", "input": {}}


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([_plain("a")], errors.InputError),
        ([_plain("a"), _choice("b")], errors.InvalidChoice),
        ([_choice("b"), _cost("c"), _plain("a")], errors.MalformedCost),
        ([_cost("c"), _choice("b")], errors.MalformedCost),
        ([_cost("c"), _json()], errors.BadRequest),  # the last of a bad cost and bad JSON wins
        ([_json(), _cost("c")], errors.MalformedCost),
    ],
)
def test_the_answer_type_is_the_most_specific_cause(items: list[dict[str, Any]], expected: type) -> None:
    assert type(validation_problem(items)) is expected


def test_the_detail_sentence_names_five_and_counts_the_rest() -> None:
    problem = validation_problem([_plain(f"f{i}") for i in range(7)])
    assert problem.detail.startswith("7 invalid values: body.f0: Field required; ")
    assert problem.detail.endswith("body.f4: Field required (and 2 more)")
    assert "input" not in problem.errors[0]  # a missing field echoes nothing
    assert problem.extra == {"error_count": 7}


def test_a_truncated_list_counts_every_error() -> None:
    last = {"loc": (), "msg": "", "type": errors.TRUNCATED_ERRORS_TYPE, "ctx": {"error_count": 250}}
    problem = validation_problem([_plain("a"), last])
    assert problem.extra == {"error_count": 250}
    assert (
        problem.detail
        == "250 invalid values: body.a: Field required (and 245 more); `errors` lists 1 of them, 249 left out"
    )
