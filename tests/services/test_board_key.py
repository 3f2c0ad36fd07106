"""The board memo's key (``app.services.board_key``): boards with one key serialize alike."""

from __future__ import annotations

import json
import warnings
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.schemas.board import BoardIn, ChosenIn, PermanentIn
from app.services.board_key import BOARD_FIELDS, CHOSEN_FIELDS, KEYED_FIELDS, board_key
from tests.strategies import board_bodies

FIELD_VALUES: dict[str, list[Any]] = {
    "tapped": [True, False],
    "controller": ["you", "opp"],
    "controlled_since_turn_began": [True, False],
    "face": [None, "Ice"],
    "x": [0, 1],
    "played_as": [[], ["Shock"]],
    "attached_to": [None, "p0"],
    "counters": [None, {}, {"charge": 1}, {"charge": 2}, {"+1/+1": 1}],
    "class_level": [None, 1, 2],
    "attacking": [None, False, True],
    "blocking": [None, False, True],
    "power": [None, 0, 1],
    "toughness": [None, 0, 1],
    "token": [None, False, True],
    "level": [None, 0, 1],
    "chosen": [
        None,
        {"color": "G"},
        {"color": "R"},
        {"imprinted": "Shock"},
        {"imprinted": {"oracle_id": "a"}},
    ],
    "card": [
        "Forest",
        "forest",
        {"oracle_id": "Forest"},
        {"name": "Forest"},
        {"name": "Forest", "type_line": "Land", "oracle_text": "({T}: Add {G}.)"},
    ],
}


def test_every_field_of_a_board_and_a_permanent_is_in_the_key() -> None:
    assert sorted(KEYED_FIELDS) == sorted(PermanentIn.model_fields)
    assert sorted(BOARD_FIELDS) == sorted(BoardIn.model_fields)
    assert sorted(CHOSEN_FIELDS) == sorted(ChosenIn.model_fields)


@st.composite
def _boards(draw: st.DrawFn) -> dict[str, Any]:
    body = draw(board_bodies(most=3))
    for p in body["permanents"]:
        for name, values in FIELD_VALUES.items():
            if draw(st.integers(0, 4)) == 0:
                p[name] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        # {} states nothing (its key is worked out once per class); {"life": 20} states the default
        player = draw(st.sampled_from([{}, {"life": 20}, {"life": 1}, {"life": 2}]))
        body["players"] = {draw(st.sampled_from(["you", "opp"])): player}
    if draw(st.booleans()):
        body["mana_pool"] = {"you": draw(st.sampled_from(["{G}", "{R}"]))}
    if draw(st.booleans()):
        body["effects"] = [{"id": "e", "card": draw(st.sampled_from(["Past in Flames", "Shock"]))}]
    body["step"] = draw(st.sampled_from([None, "main", "end"]))
    return body


def _dump(board_in: BoardIn) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pydantic's union warnings: the old key's, not ours
        return board_in.model_dump_json()


@settings(max_examples=300, deadline=None)
@given(a=_boards(), b=_boards())
def test_boards_share_a_key_only_when_they_serialize_alike(a: dict[str, Any], b: dict[str, Any]) -> None:
    board_a, board_b = BoardIn.model_validate(a), BoardIn.model_validate(b)
    (key_a, _), (key_b, _) = board_key(board_a), board_key(board_b)
    hash(key_a)
    assert (key_a == key_b) == (_dump(board_a) == _dump(board_b))
    again = BoardIn.model_validate_json(json.dumps(a, indent=2))  # spacing does not matter
    assert board_key(again)[0] == key_a


def test_its_size_is_about_the_json_s() -> None:
    for body in (
        {"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(10)]},
        {
            "permanents": [
                {
                    "id": "w",
                    "card": {
                        "name": "Wall",
                        "type_line": "Wall",
                        "oracle_text": "\n".join(["D. " * 300] * 3),
                    },
                }
            ]
        },
    ):
        board_in = BoardIn.model_validate(body)
        assert 0.8 < board_key(board_in)[1] / len(_dump(board_in)) < 1.2


def test_a_player_stated_with_nothing_keys_as_one_stated_with_its_defaults() -> None:
    """``"you": {}`` takes a key worked out once per class: the very key (and size) of a player whose
    defaults are written out, which serializes alike; and not the key of one with another life."""
    empty, written, other = (
        BoardIn.model_validate({"players": {"you": player}}) for player in ({}, {"life": 20}, {"life": 1})
    )
    assert _dump(empty) == _dump(written)
    assert board_key(empty) == board_key(written)
    assert board_key(empty)[0] != board_key(other)[0]
