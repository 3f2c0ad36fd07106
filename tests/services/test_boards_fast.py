"""Board reading's fast path for a permanent with no choices (``boards._plain_permanent``): the very
``Permanent`` the general path builds, frozen, equal, with the same hash."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.values.board import Permanent
from app.schemas.board import PermanentIn, PlayerIn
from app.services import boards
from app.services.card_formats import card_from_inline
from app.services.catalogue_snapshot import core_build

CARD = card_from_inline({"name": "Forest", "type_line": "Basic Land — Forest"})


@st.composite
def _permanents(draw: st.DrawFn) -> dict[str, Any]:
    maybe = st.none() | st.integers(0, 3)
    return {
        "id": "p",
        "card": "Forest",
        "controller": draw(st.sampled_from(["you", "opp"])),
        "tapped": draw(st.booleans()),
        "controlled_since_turn_began": draw(st.booleans()),
        "x": draw(st.integers(0, 3)),
        "played_as": draw(st.lists(st.sampled_from(["Shock", "Opt"]), max_size=2)),
        "attached_to": draw(st.none() | st.just("q")),
        "counters": draw(
            st.none() | st.dictionaries(st.sampled_from(["charge", "+1/+1"]), st.integers(0, 3))
        ),
        "class_level": draw(st.none() | st.integers(1, 3)),
        "level": draw(maybe),
        "attacking": draw(st.none() | st.booleans()),
        "blocking": draw(st.none() | st.booleans()),
        "token": draw(st.none() | st.booleans()),
        "power": draw(maybe),
        "toughness": draw(maybe),
    }


def test_the_fast_path_is_on_in_the_pure_build_only() -> None:
    """The field setters beat the dataclass ``__init__`` of the pure build; the compiled build's written-out
    ``__init__`` beats them, so there the fast path is off (``boards._field_setters``)."""
    if core_build() == "mypyc":
        assert boards._SETTERS is None
    else:
        assert boards._SETTERS is not None and len(boards._SETTERS) == len(dataclasses.fields(Permanent))


@settings(max_examples=200, deadline=None)
@given(body=_permanents())
def test_it_builds_the_permanent_the_general_path_builds(body: dict[str, Any]) -> None:
    p_in = PermanentIn.model_validate(body)
    fast, general = boards._plain_permanent(p_in, CARD), boards._permanent(p_in, CARD)
    assert type(fast) is Permanent
    assert dataclasses.astuple(fast) == dataclasses.astuple(general)
    assert fast == general and hash(fast) == hash(general)
    assert dataclasses.replace(fast, tapped=not fast.tapped) == dataclasses.replace(
        general, tapped=not general.tapped
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.tapped = True  # type: ignore[misc]


@settings(max_examples=50, deadline=None)
@given(st.sampled_from(["you", "opp", "a player"]))
def test_a_player_stated_with_nothing_is_the_one_every_fact_read_gives(name: str) -> None:
    """``"you": {}`` takes ``_player``'s shortcut: the very ``Player`` reading every (unstated) fact
    builds."""
    stated = PlayerIn()
    assert not stated.model_fields_set
    problems = boards._Problems()
    reader = boards._CardReader(catalogue=None, problems=problems)  # type: ignore[arg-type]  # no card named
    fast = boards._player(name, stated, reader, ("body", "board", "players", name))
    full = boards._stated_player(name, stated, reader, ("body", "board", "players", name))
    assert fast == full and hash(fast) == hash(full) and not problems.errors
    assert boards._player(name, PlayerIn(life=20), reader, ()) == full  # stated, read: the same player
