"""``abilities.own_abilities`` memoizes a permanent's own abilities per card text (issue 30): reading a
board whose cards were read before on other boards gives exactly what reading it from nothing gives, for
random boards of real cards with the effects that reach other permanents' abilities (CR 305.7 "set land
type" effects such as Blood Moon, Alpine Moon's named lands, CR 613.1f grants such as Cryptolith Rite,
land type additions such as Urborg), and the mana analysis built on it is the same too."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana.board_reading import own_abilities, read_board
from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Choices, Permanent, Player
from tests.strategies import MANA_SOURCES, card

LAYERS = (
    "Blood Moon", "Magus of the Moon", "Urborg, Tomb of Yawgmoth", "Yavimaya, Cradle of Growth",
    "Alpine Moon", "Spreading Seas", "Cryptolith Rite", "Chromatic Lantern", "Song of the Dryads",
    "Prismatic Omen", "Harvester Druid", "Elvish Archdruid", "Paradise Mantle", "Riftstone Portal",
    "Vernal Bloom", "Mana Reflection", "Kinnan, Bonder Prodigy", "Dryad of the Ilysian Grove", "Earthcraft",
)  # fmt: skip
NAMES = MANA_SOURCES + LAYERS


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Up to 8 permanents of ``NAMES`` over two players, some attached, Alpine Moon naming a land or not,
    and maybe a Riftstone Portal in a graveyard (CR 113.6b)."""
    n = draw(st.integers(0, 8))
    perms: list[Permanent] = []
    for i in range(n):
        name = draw(st.sampled_from(NAMES))
        named = draw(st.sampled_from((None, "Forest", "City of Brass", "Tundra")))
        attached = f"p{draw(st.integers(0, n - 1))}" if draw(st.booleans()) else None
        perms.append(
            Permanent(
                f"p{i}",
                card(name),
                draw(st.sampled_from(("you", "opp"))),
                tapped=draw(st.booleans()),
                chosen=Choices(card_name=named),
                attached_to=attached,
            )
        )
    graveyard = (card("Riftstone Portal"),) if draw(st.booleans()) else ()
    return Board(tuple(perms), (Player("you", graveyard=graveyard), Player("opp")))


def _fresh(board: Board) -> Any:
    own_abilities.cache_clear()
    return read_board(board), analyze_board(board)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(), min_size=2, max_size=4))
def test_a_board_read_after_others_is_read_as_from_nothing(seen: list[Board]) -> None:
    *before, board = seen
    expected_state, expected_analysis = _fresh(board)
    for other in before:  # the memo now holds these boards' cards, as they stand on those boards
        read_board(other)
    assert read_board(board) == expected_state
    assert analyze_board(board) == expected_analysis
    assert len(own_abilities) > 0 or not board.permanents


def test_a_set_land_type_changes_the_abilities_read_for_the_same_card() -> None:
    """CR 305.7: Blood Moon makes a nonbasic land a Mountain that loses its own abilities, so the memo's
    entry for City of Brass on a board without it is not the one read under it."""
    city = Permanent("city", card("City of Brass"))
    alone = read_board(Board((city,))).state("city").abilities
    moon = read_board(Board((city, Permanent("moon", card("Blood Moon"), "opp")))).state("city").abilities
    assert [(a.origin, a.text) for a in alone] == [("printed", "Add one mana of any color.")]
    assert [(a.origin, a.text) for a in moon] == [("land_type", "Add {R}.")]
    assert read_board(Board((city,))).state("city").abilities == alone
