"""The keyword reader of ways to cast and optional costs (CR 702), on oracle lines as printed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import WayKind
from app.rules.text.face_ways import ways_of
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def read(text: str):  # type: ignore[no-untyped-def]
    return ways_of(Face("Card", ManaCost.parse("{1}"), TypeLine.parse("Sorcery"), text))


@pytest.mark.parametrize(
    ("line", "keyword", "rule", "zones", "cost", "others"),
    [
        (
            "Flashback {3}{R} (You may cast this card from your graveyard.)",
            "flashback",
            "702.34a",
            ("graveyard",),
            "{3}{R}",
            (),
        ),
        (
            "Flashback—{1}{G}, Pay 3 life.",
            "flashback",
            "702.34a",
            ("graveyard",),
            "{1}{G}",
            (OtherCost("Pay 3 life", 3),),
        ),
        (
            "Flashback—Sacrifice a creature.",
            "flashback",
            "702.34a",
            ("graveyard",),
            "{0}",
            (OtherCost("Sacrifice a creature"),),
        ),
        (
            "Escape—{3}{B}, Exile five other cards from your graveyard.",
            "escape",
            "702.138a",
            ("graveyard",),
            "{3}{B}",
            (OtherCost("Exile five other cards from your graveyard"),),
        ),
        ("Madness {1}{R}", "madness", "702.35a", ("exile",), "{1}{R}", ()),
        (
            "Awaken 3—{4}{U} (If you cast this spell for {4}{U}, ...)",
            "awaken",
            "702.113a",
            ("hand",),
            "{4}{U}",
            (),
        ),
        (
            "Evoke—Exile a white card from your hand.",
            "evoke",
            "702.74a",
            ("hand",),
            "{0}",
            (OtherCost("Exile a white card from your hand"),),
        ),
        ("Foretell {1}{U}", "foretell", "702.143a", ("exile",), "{1}{U}", ()),
        ("Disturb {1}{U}", "disturb", "702.146a", ("graveyard",), "{1}{U}", ()),
        ("Mutate {2}{B/G}{B/G}", "mutate", "702.140a", ("hand",), "{2}{B/G}{B/G}", ()),
    ],
)
def test_ways(
    line: str, keyword: str, rule: str, zones: tuple[str, ...], cost: str, others: tuple[OtherCost, ...]
) -> None:
    (way,) = read(line).ways
    assert (way.keyword, way.rule, way.zones, str(way.cost), way.other_costs) == (
        keyword,
        rule,
        zones,
        cost,
        others,
    )


def test_face_down_retrace_and_names_that_start_with_a_keyword() -> None:
    (morph,) = read("Morph {4}{R}").ways
    assert morph.kind is WayKind.FACE_DOWN
    (retrace,) = read("Retrace (You may cast this card from your graveyard by discarding a land card.)").ways
    assert retrace.kind is WayKind.WITH_MANA_COST and retrace.other_costs == (
        OtherCost("Discard a land card"),
    )
    assert read("Blitz of the Thunder-Raptor deals damage to target creature.").ways == ()
    assert read("Squad Captain enters with a +1/+1 counter on it.").optional == ()


def test_optional_costs() -> None:
    (kicker,) = read("Kicker {1}{G} and/or {2}{U}").optional
    assert [str(m) for m, _ in kicker.costs] == ["{1}{G}", "{2}{U}"] and not kicker.repeatable
    (multi,) = read("Multikicker {1}{W}").optional
    assert multi.repeatable and multi.rule == "702.33c"
    (entwine,) = read("Entwine—Sacrifice three lands.").optional
    assert entwine.costs == ((ManaCost.zero(), (OtherCost("Sacrifice three lands"),)),)
    (casualty,) = read(
        "Casualty 2 (As you cast this spell, you may sacrifice a creature with power 2.)"
    ).optional
    assert casualty.costs[0][1] == (OtherCost("Sacrifice a creature with power 2 or greater"),)
    (conspire,) = read("Conspire (As you cast this spell, you may tap two untapped creatures...)").optional
    assert "Tap two untapped creatures" in conspire.costs[0][1][0].text


def test_what_follows_a_cost_is_not_read_and_says_so() -> None:
    found = read("Flashback {8}{G}{G}. This spell costs {X} less to cast this way, where X is ...")
    assert str(found.ways[0].cost) == "{8}{G}{G}"
    assert [n.text[:17] for n in found.not_read] == ["This spell costs "]
    bad = read("Kicker {Q}")
    assert bad.optional == () and bad.not_read and "does not parse" in bad.not_read[0].reason


@given(st.text(alphabet="Flashback{}—, ()0123456789RUGWBX.and/or\n", max_size=300))
def test_any_text_reads_without_error(text: str) -> None:
    read(text)


def test_long_hostile_text_is_read_linearly() -> None:
    """String operations only (no regular expression): a long hostile line is read, or refused, as text."""
    text = "Flashback—" + "{1}, " * 900 + "\nKicker " + "{2} and/or " * 400 + "{3}"
    found = read(text)
    assert found.ways == () and found.not_read  # "{1}" after the first part is mana in an unexpected place
    assert len(found.optional[0].costs) == 401
