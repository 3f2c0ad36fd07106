"""Karsten's castability model (app/rules/decks/castability.py): the 2022 table as golden data, hand-worked
cases, input errors, and properties (hypothesis). The Monte Carlo cross-check is in
``test_castability_montecarlo.py``."""

from __future__ import annotations

from math import comb
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.rules.decks.castability import DeckMana, cast_probability, sources_needed, threshold
from app.rules.decks.castability_exact import CastabilityError
from app.rules.errors import RulesError

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "karsten_2022.yaml"
W, U, B = frozenset("W"), frozenset("U"), frozenset("B")
OFF = frozenset[str]()


def _cells() -> list[Any]:
    data = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))
    out = []
    for table in data["tables"]:
        noise = {str(c) for c in table["noise"]}
        assert len(noise) <= 2, f"{table['name']}: at most 2 noisy cells may be excused"
        for cost, expected in table["cells"].items():
            cost = str(cost)
            generic = int(cost[0]) if cost[0].isdigit() else 0
            pips = cost.count("C")
            out.append(
                pytest.param(
                    table["deck_size"],
                    table["lands"],
                    table["commander"],
                    generic + pips,
                    pips,
                    expected,
                    cost in noise,
                    id=f"{table['deck_size']}/{table['lands']}-{cost}",
                )
            )
    return out


@pytest.mark.parametrize(("deck_size", "lands", "commander", "turn", "pips", "expected", "noisy"), _cells())
def test_karsten_2022_table(
    deck_size: int, lands: int, commander: bool, turn: int, pips: int, expected: int, noisy: bool
) -> None:
    got = sources_needed(deck_size, lands, pips, turn, commander=commander)
    assert got is not None
    if noisy:
        assert abs(got - expected) <= 1
    else:
        assert got == expected


def test_threshold_steps_by_turn() -> None:
    assert [threshold(t) for t in range(1, 10)] == [0.90, 0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.96, 0.96]


def test_every_land_of_the_color_is_certain() -> None:
    # All 17 lands are Islands: given at least 2 lands, two blue symbols are always payable.
    deck = DeckMana(40, {U: 17})
    assert cast_probability(deck, {"U": 2}, 2) == pytest.approx(1.0)


def test_no_source_is_impossible() -> None:
    deck = DeckMana(60, {W: 24})
    assert cast_probability(deck, {"U": 1}, 3) == 0.0


def test_turn_one_on_the_play_hand_worked() -> None:
    """Turn 1 on the play, no mulligan possible to matter: a deck of 10 cards, 4 lands (2 W, 2 off).

    Worked by hand: a 7-card hand from 10 cards holds 1 to 4 lands (6 nonlands at most). With 1 land it is
    mulliganed; every later hand is drawn the same way. For the kept 7-card hands (2-4 lands) the chance of
    no W among the lands is C(2,L)/C(4,L) (which 2-subsets... lands are a uniform L-subset of the 4), i.e.
    1/6 for L=2, 0 for L=3, 4. After a mulligan (6-card hand, one card bottomed: a spell while the hand has
    at most 3 lands, an off-color land first otherwise) the same holds (L=2: 1/6; L=3, 4: no W missing, and
    bottoming from 4 lands removes an off-color land first). A 1-land 7 leads to another mulligan, and so on
    down to a 4-card hand, always kept: its lands are those of its 7 (all kept up to 3; from 4, an off-color
    one is bottomed), so it misses W with chance 1/2 with 1 land, 1/6 with 2, never with 3 or 4."""
    deck = DeckMana(10, {W: 2, OFF: 2})
    total = comb(10, 7)
    p = [comb(4, k) * comb(6, 7 - k) / total for k in range(8)]  # lands in a 7-card hand
    p_keep_fail = p[2] * (1 / 6)
    p_keep = p[2] + p[3] + p[4]
    # Stages: 7 (keep 2-4 of 7, mull 1), 6 (bottom 1: keeps 2-4), 5 (bottom 2), 4 (always kept).
    mull = p[1]
    fail = p_keep_fail * (1 + mull + mull**2) + mull**3 * (p[1] / 2 + p[2] / 6)
    cond = p_keep * (1 + mull + mull**2) + mull**3 * sum(p)
    assert cast_probability(deck, {"W": 1}, 1) == pytest.approx(1 - fail / cond, abs=1e-12)


def test_joint_two_colors_with_a_dual_counts_it_once() -> None:
    # One dual (W/U) only: W and U together are never payable, each alone is.
    deck = DeckMana(40, {frozenset("WU"): 1, OFF: 16})
    assert cast_probability(deck, {"W": 1, "U": 1}, 2) == 0.0
    assert cast_probability(deck, {"W": 1}, 2) > 0.0


def test_on_the_draw_is_easier() -> None:
    deck = DeckMana(60, {B: 14, OFF: 10})
    play = cast_probability(deck, {"B": 2}, 2)
    draw = cast_probability(deck, {"B": 2}, 2, on_play=False)
    assert draw > play


def test_sources_needed_none_when_all_lands_fall_short() -> None:
    # Four symbols on turn 3 need a fourth land, which the condition (3 lands) does not give often enough.
    assert sources_needed(60, 24, 4, 3) is None


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: threshold(0), "turn"),
        (lambda: cast_probability(DeckMana(60, {W: 20}), {"W": 1}, 0), "turn"),
        (lambda: cast_probability(DeckMana(60, {W: 61}), {"W": 1}, 1), "do not fit"),
        (lambda: cast_probability(DeckMana(60, {W: -1}), {"W": 1}, 1), "negative"),
        (lambda: cast_probability(DeckMana(60, {frozenset("X"): 3}), {"W": 1}, 1), "WUBRG"),
        (lambda: cast_probability(DeckMana(60, {W: 20}), {"Q": 1}, 1), "color"),
        (lambda: cast_probability(DeckMana(60, {W: 20}), {"W": -2}, 1), "negative"),
        (lambda: cast_probability(DeckMana(60, {}), {"W": 1}, 1), "no game reaches"),
        (lambda: cast_probability(DeckMana(9, {W: 4}), {"W": 1}, 4), "cannot show"),
        (lambda: sources_needed(60, 24, 0, 1), "color_pips"),
    ],
)
def test_bad_input_is_a_typed_error(call: Any, match: str) -> None:
    with pytest.raises(CastabilityError, match=match) as info:
        call()
    assert isinstance(info.value, RulesError)
    assert isinstance(info.value, ValueError)


# --- properties ------------------------------------------------------------------------------------------

kinds = st.sampled_from([W, U, B, frozenset("WU"), frozenset("UB"), frozenset("WB"), frozenset("WUB"), OFF])


@st.composite
def decks(draw: st.DrawFn) -> DeckMana:
    size = draw(st.sampled_from([40, 60]))
    lands = draw(st.dictionaries(kinds, st.integers(0, 9), min_size=1, max_size=4))
    if sum(lands.values()) < 8:
        lands[OFF] = lands.get(OFF, 0) + 8
    return DeckMana(size, lands)


pip_maps = st.dictionaries(st.sampled_from("WUB"), st.integers(1, 2), min_size=1, max_size=3)


@settings(max_examples=40, deadline=None)
@given(decks(), pip_maps, st.integers(1, 5), st.booleans())
def test_probability_is_a_probability(deck: DeckMana, pips: dict[str, int], turn: int, on_play: bool) -> None:
    p = cast_probability(deck, pips, max(turn, sum(pips.values())), on_play=on_play)
    assert 0.0 <= p <= 1.0


@settings(max_examples=40, deadline=None)
@given(decks(), pip_maps, st.integers(1, 5), st.sampled_from("WUB"))
@example(
    DeckMana(40, {frozenset("W"): 5, frozenset("U"): 1, frozenset("B"): 2}), {"W": 1, "U": 1, "B": 2}, 5, "W"
)
def test_more_sources_never_hurt(deck: DeckMana, pips: dict[str, int], turn: int, color: str) -> None:
    """Turning an off-color land into a land of one more color never lowers the chance."""
    turn = max(turn, sum(pips.values()))
    before = cast_probability(deck, pips, turn)
    lands = dict(deck.lands)
    lands[OFF] = lands.get(OFF, 0) + 1
    upgraded = dict(lands)
    upgraded[OFF] -= 1
    upgraded[frozenset(color)] = upgraded.get(frozenset(color), 0) + 1
    with_off = cast_probability(DeckMana(deck.deck_size, lands), pips, turn)
    with_color = cast_probability(DeckMana(deck.deck_size, upgraded), pips, turn)
    # Not exactly monotone: in a 40-card deck with 9 lands (W5 U1 B2 and one off-color), {W}{U}{B}{B} on
    # turn 5, turning the off-color land into a Plains lowers the chance from 0.138828 to 0.138546. The
    # drop comes from the mulligan stages that bottom cards (the chance is equal with those stages cut
    # off); it is left open (see the closing note of issue 12), bounded here at a tenth of a percent.
    assert with_color >= with_off - 1e-3
    assert 0.0 <= before <= 1.0


@settings(max_examples=40, deadline=None)
@given(decks(), pip_maps, st.integers(1, 5))
def test_joint_is_at_most_each_color_alone(deck: DeckMana, pips: dict[str, int], turn: int) -> None:
    turn = max(turn, sum(pips.values()))
    joint = cast_probability(deck, pips, turn)
    for color, n in pips.items():
        assert joint <= cast_probability(deck, {color: n}, turn) + 1e-12
