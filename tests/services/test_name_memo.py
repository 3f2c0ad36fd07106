"""The card-name memo (``app.services.name_memo``): a board read with it is the board read without it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from app.errors import AppError
from app.rules.values.board import Board
from app.schemas.board import BoardIn
from app.services.board_memo import BOARDS
from app.services.boards import build_board
from app.services.catalogue import Catalogue
from app.services.name_memo import NAMES, NameMemo

NAMES_SENT = (
    "Forest",
    "forest",
    "FOREST",
    "Sol Ring",
    "Llanowar Elves",
    "Herald's Horn",
    "Herald’s Horn",
    "Lim-Dul",  # a word prefix (or ambiguous): resolved or refused the same way each time
    "No Such Card Anywhere",
    "Fire // Ice",
    "Ice",
)


@pytest.fixture(autouse=True)
def _fresh_memo() -> Iterator[None]:
    BOARDS.clear()
    yield
    BOARDS.clear()


@st.composite
def _permanents(draw: st.DrawFn, pid: str) -> dict[str, Any]:
    body: dict[str, Any] = {"id": pid, "card": draw(st.sampled_from(NAMES_SENT))}
    if draw(st.booleans()):
        body["tapped"] = True
    if draw(st.integers(0, 3)) == 0:
        body["chosen"] = {"creature_type": draw(st.sampled_from(["Elf", "Cleric", "Artifact", "Nope"]))}
    if draw(st.integers(0, 4)) == 0:
        body["counters"] = {"+1/+1": draw(st.integers(0, 3))}
    if draw(st.integers(0, 4)) == 0:
        body["attacking"] = draw(st.booleans())
    if draw(st.integers(0, 5)) == 0:
        body["face"] = draw(st.sampled_from(["Ice", "Fire", "Forest"]))
    return body


@st.composite
def _boards(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(0, 6))
    body: dict[str, Any] = {"permanents": [draw(_permanents(f"p{i}")) for i in range(n)]}
    if draw(st.booleans()):
        body["players"] = {"you": {"graveyard": draw(st.lists(st.sampled_from(NAMES_SENT), max_size=3))}}
    return body


def _read(board_in: BoardIn, catalogue: Catalogue, version: str | None) -> Board | tuple[type, Any]:
    try:
        return build_board(board_in, catalogue=catalogue, data_version=version)
    except AppError as exc:
        return type(exc), exc.errors


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(bodies=st.lists(_boards(), min_size=1, max_size=4))
def test_a_board_read_with_the_memo_is_the_board_read_without(
    db_session: Session, bodies: list[dict[str, Any]]
) -> None:
    catalogue = Catalogue(db_session)
    for body in bodies:
        board_in = BoardIn.model_validate(body)
        without = _read(board_in, catalogue, None)
        assert _read(board_in, catalogue, "v") == without  # filling the memo
        assert _read(board_in, catalogue, "v") == without  # read from it


def test_only_names_that_resolve_are_kept(db_session: Session) -> None:
    catalogue = Catalogue(db_session)
    board_in = BoardIn.model_validate(
        {"permanents": [{"id": "a", "card": "forest"}, {"id": "b", "card": "No Such Card Anywhere"}]}
    )
    with pytest.raises(AppError):
        build_board(board_in, catalogue=catalogue, data_version="v")
    kept = NAMES.names("v")
    assert kept is not None and set(kept) == {"forest"} and kept["forest"].name == "Forest"


def test_it_is_bounded_and_tied_to_one_version(db_session: Session) -> None:
    forest = Catalogue(db_session).by_name("Forest")
    memo = NameMemo(maxsize=3)
    for name in ("a", "b", "c", "d"):
        memo.put("v1", name, forest)
    assert len(memo) == 3 and set(memo.names("v1") or {}) == {"b", "c", "d"}  # the oldest went
    assert memo.names("v2") is None
    memo.put("v2", "e", forest)
    assert memo.names("v1") is None and set(memo.names("v2") or {}) == {"e"}
    memo.clear()
    assert len(memo) == 0 and memo.names("v2") is None


def test_the_board_memo_clear_forgets_the_names(db_session: Session) -> None:
    board_in = BoardIn.model_validate({"permanents": [{"id": "a", "card": "Forest"}]})
    build_board(board_in, catalogue=Catalogue(db_session), data_version="v")
    assert NAMES.names("v")
    BOARDS.clear()
    assert not NAMES.names("v")
