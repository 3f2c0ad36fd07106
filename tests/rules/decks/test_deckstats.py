"""Pips, castability pips, fetch targets and their colors, the curve (app.rules.decks.deckstats)."""

from __future__ import annotations

from app.rules.decks.deckstats import (
    FetchTarget,
    castability_pips,
    curve,
    fetch_colors,
    fetch_target,
    pips,
)
from app.rules.values.costs import ManaCost


def test_pips_count_hybrid_for_both_colors() -> None:
    # Boros Reckoner {R/W}{R/W}{R/W}: three symbols, each red and white (CR 107.4e).
    assert pips(ManaCost.parse("{R/W}{R/W}{R/W}")) == {"W": 3, "U": 0, "B": 0, "R": 3, "G": 0}
    assert pips(ManaCost.parse("{2/W}{G/P}{1}{G}")) == {"W": 1, "U": 0, "B": 0, "R": 0, "G": 2}


def test_castability_pips_leave_out_hybrid_and_phyrexian() -> None:
    assert castability_pips(ManaCost.parse("{1}{R}{G}{G}")) == ({"R": 1, "G": 2}, False)
    assert castability_pips(ManaCost.parse("{R/W}{G}")) == ({"G": 1}, True)
    assert castability_pips(ManaCost.parse("{G/P}")) == ({}, True)
    assert castability_pips(ManaCost.parse("{3}")) == ({}, False)


def test_fetch_targets_read_from_text() -> None:
    foothills = (
        "{T}, Pay 1 life, Sacrifice Wooded Foothills: Search your library for a Mountain or Forest card,"
        " put it onto the battlefield, then shuffle."
    )
    assert fetch_target(foothills) == FetchTarget(("Mountain", "Forest"), basic=False)
    wilds = (
        "{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it onto the"
        " battlefield tapped, then shuffle."
    )
    assert fetch_target(wilds) == FetchTarget((), basic=True)
    assert fetch_target("({T}: Add {R} or {G}.)") is None
    # Not a land search: a tutor for a creature card names no land type.
    assert fetch_target("Search your library for a creature card, reveal it, put it into your hand.") is None


def test_fetch_colors_include_the_duals_it_could_fetch() -> None:
    deck = [
        (("Forest", "Plains"), False, {"G", "W"}),  # Temple Garden
        (("Island",), True, {"U"}),  # Island
        (("Swamp",), True, {"B"}),  # Swamp
    ]
    # Wooded Foothills: "Search your library for a Mountain or Forest card": the deck holds no Mountain, so
    # only Temple Garden (a Forest) can be found: G and W, never R (API 1.3: "a land that searches for
    # lands counts for the colors of the lands it can find in this deck, and for no other").
    assert fetch_colors(FetchTarget(("Mountain", "Forest"), basic=False), deck) == frozenset("GW")
    # Evolving Wilds: the deck's basics only.
    assert fetch_colors(FetchTarget((), basic=True), deck) == frozenset("UB")


def test_curve_sorted_by_value() -> None:
    assert curve({"a": (3, 4), "b": (1, 2), "c": (3, 1), "d": (0, 2), "e": (None, 9)}) == {
        "0": 2,
        "1": 2,
        "3": 5,
    }


def test_a_fetch_counts_only_what_the_deck_holds() -> None:
    # Boros (Mountains, Plains, Sacred Foundry) with Bloodstained Mire: "Search your library for a Swamp or
    # Mountain card": no Swamp in the deck, so red only (the issue's false "4 black sources").
    boros = [
        (("Mountain",), True, {"R"}),
        (("Plains",), True, {"W"}),
        (("Mountain", "Plains"), False, {"R", "W"}),  # Sacred Foundry
    ]
    mire = fetch_target(
        "{T}, Pay 1 life, Sacrifice Bloodstained Mire: Search your library for a Swamp or Mountain card, put"
        " it onto the battlefield, then shuffle."
    )
    assert mire == FetchTarget(("Swamp", "Mountain"), basic=False)
    assert fetch_colors(mire, boros) == frozenset("RW")  # Sacred Foundry is a Mountain: W through it
    assert fetch_colors(mire, boros[:2]) == frozenset("R")
    # No land of a named type at all: nothing.
    assert fetch_colors(mire, [(("Forest",), True, {"G"})]) == frozenset()
