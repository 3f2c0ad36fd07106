"""The oracle-text reader for mana abilities and mana effects (CR 605.1a, 106.7, 106.12, 305.7)."""

from __future__ import annotations

import pytest

from app.rules.text.mana_activated import parse_activated
from app.rules.text.mana_filters import parse_filter
from app.rules.text.oracle_mana import read_text


def _options(line: str) -> list[tuple[str, ...]]:
    ab = parse_activated(line)
    assert ab is not None and ab.mana is not None
    return [o.fixed for o in ab.mana.options]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("{T}: Add {G}{G}.", [("G", "G")]),
        ("{T}: Add {C}{C}.", [("C", "C")]),
        ("{T}: Add {W} or {U}.", [("W",), ("U",)]),
        ("{U/R}, {T}: Add {U}{U}, {U}{R}, or {R}{R}.", [("U", "U"), ("U", "R"), ("R", "R")]),
        ("{T}: Add three mana of any one color.", [(c,) * 3 for c in "WUBRG"]),
        ("{T}: Add one mana of any color.", [(c,) for c in "WUBRG"]),
    ],
)
def test_fixed_and_choice_templates(line: str, expected: list[tuple[str, ...]]) -> None:
    assert _options(line) == expected


def test_two_mana_in_any_combination_has_fifteen_options() -> None:
    opts = _options("{T}: Add two mana in any combination of colors.")
    assert len(opts) == 15 and ("W", "G") in opts and ("G", "G") in opts


def test_costs_tap_untap_mana_life_sacrifice() -> None:
    ab = parse_activated("{1}, {T}, Pay 2 life, Sacrifice ~: Add {B}.")
    assert ab is not None
    assert [p.kind for p in ab.cost] == ["mana", "tap", "life", "sacrifice_self"]
    assert ab.cost_text == "{1}, {T}, Pay 2 life, Sacrifice ~"
    q = parse_activated("{Q}: Add {C}.")
    assert q is not None and q.has_untap and not q.has_tap
    sac = parse_activated("Sacrifice a land: Add one mana of any type the sacrificed land could produce.")
    assert sac is not None and sac.cost[0].kind == "sacrifice" and sac.cost[0].filter is not None
    assert sac.cost[0].filter.controller == "you"


def test_could_produce_references() -> None:
    ab = parse_activated("{T}: Add one mana of any color that a land an opponent controls could produce.")
    assert ab is not None and ab.mana is not None
    ref = ab.mana.options[0].reference
    assert ref is not None and ref.what == "color"
    assert (ref.filter.types, ref.filter.controller) == (("Land",), "opponent")
    basic = parse_filter("a basic land you control")
    assert basic is not None and basic.supertypes == ("Basic",)


def test_mana_ability_criteria_605_1a() -> None:
    targeted = parse_activated("{T}: Exile target land card from a graveyard. Add one mana of any color.")
    assert targeted is not None and targeted.is_mana_ability is False
    loyalty = parse_activated("+1: Add {R}{R}.")
    assert loyalty is not None and loyalty.is_loyalty and loyalty.is_mana_ability is False
    draw = parse_activated("{2}, {T}: Draw a card.")
    assert draw is not None and draw.is_mana_ability is False and draw.problem is None
    unknown = parse_activated(
        "{T}: Add X mana of any one color, where X is the amount of life you gained this turn."
    )
    assert unknown is not None and unknown.is_mana_ability is None and unknown.problem


def test_extra_sentences_harmless_or_reported() -> None:
    wastes = parse_activated("{T}: Add {B} or {G}. ~ deals 1 damage to you.")
    assert wastes is not None and wastes.problem is None and wastes.is_mana_ability
    caverns = parse_activated(
        "{T}: Add {C}. If ~ has a luck counter on it, instead add one mana of any color."
    )
    assert caverns is not None and caverns.problem is None and caverns.mana is not None
    assert caverns.mana.instead is not None  # CR 614.1a: the "instead" is read within the ability
    condition, other = caverns.mana.instead
    assert condition.text == "~ has a luck counter on it" and len(other.options) == 5
    side = parse_activated("{T}: Add {R}. If that mana is spent on a creature spell, it gains haste.")
    assert side is not None and side.problem is None and side.is_mana_ability  # CR 106.6 rider
    changes = parse_activated("{T}: Add {R}. Add {G} at the beginning of your next main phase.")
    assert changes is not None and changes.problem


def test_ability_words_conditions_and_loyalty() -> None:
    mox = read_text(
        "Metalcraft — {T}: Add one mana of any color. Activate only if you control three or more artifacts."
    )
    assert [kind for _l, kind in mox.lines] == ["mana"] and not mox.problems  # CR 207.2c
    (condition,) = mox.activated[0].conditions
    assert condition.kind == "control" and condition.needs[0][1] == 3
    assert condition.needs[0][0].types == ("Artifact",)
    temple = parse_activated("{T}: Add {C}{C}. Activate only if you control five or more lands.")
    assert temple is not None and temple.conditions[0].needs[0][1] == 5
    loyalty = read_text("[+1]: Add {R}{R}.", "Chandra").activated[0]
    assert loyalty.is_loyalty and loyalty.is_mana_ability is False  # CR 605.1a
    etb = read_text("When ~ enters the battlefield, add {R}{R}{R}.", "Priest")
    assert etb.lines[0][1] == "trigger" and not etb.problems  # CR 605.1b: not a mana ability
    token = read_text(
        'When ~ enters, create a 1/1 Eldrazi Scion token. It has "Sacrifice this creature: Add {C}."'
    )
    assert token.lines[0][1] == "token" and not token.problems
    odd = read_text("When ~ enters, add mana equal to its mana cost.", "Odd")
    assert odd.problems  # nothing silent


def test_statics() -> None:
    assert (
        read_text("Each land is a Swamp in addition to its other land types.").type_changes[0].mode == "add"
    )
    moon = read_text("Nonbasic lands are Mountains.").type_changes[0]
    assert (moon.mode, moon.land_types, moon.filter.not_supertypes) == ("set", ("Mountain",), ("Basic",))
    g = read_text('Lands you control have "{T}: Add one mana of any color."').grants[0]
    assert g.abilities == ("{T}: Add one mana of any color.",) and g.filter.controller == "you"
    r = read_text("If a land is tapped for mana, it produces {B} instead of any other type and amount.")
    assert (r.replacements[0].mode, r.replacements[0].mana) == ("fixed", ("B",))
    m = read_text("If you tap a permanent for mana, it produces twice as much of that mana instead.")
    assert (m.replacements[0].mode, m.replacements[0].factor, m.replacements[0].filter.controller) == (
        "multiply",
        2,
        "you",
    )
    t = read_text(
        "Whenever a player taps a land for mana, that player adds one mana of any type that land produced."
    )
    assert t.triggers[0].same_type and t.triggers[0].filter.controller == "any"
    s = read_text(
        "Whenever enchanted Forest is tapped for mana, its controller adds an additional one mana"
        " of the chosen color."
    )
    assert s.triggers[0].filter.enchanted and s.triggers[0].options[0].chosen == 1


def test_unknown_mana_statics_are_problems_and_reminders_are_ignored() -> None:
    assert read_text("({T}: Add {G} or {W}.)").activated == ()
    odd = read_text('Lands you control have "{T}: Add {G}" until the top card of your library is red.')
    assert odd.problems and not odd.grants
    # CR 611.3a: an "As long as" grant is read with its condition, checked on the board
    tree = read_text('As long as you control six or more lands, lands you control have "{T}: Add {G}."')
    assert tree.grants[0].condition is not None and tree.grants[0].condition.kind == "control"
    assert tree.grants[0].condition.needs[0][1] == 6
    assert read_text("Flying\nCreatures you control get +1/+1.").problems == ()


def test_activated_ability_changing_what_lands_produce_is_read_or_a_problem_never_silence() -> None:
    # Deep Water: the ability creates a replacement on lands' mana until end of turn (CR 611.2, 614.1a):
    # read, it applies once the ability has resolved, so the line is understood and adds no ability.
    text = (
        "{U}: Until end of turn, if you tap a land you control for mana, "
        "it produces {U} instead of any other type."
    )
    read = read_text(text, "Deep Water")
    assert read.problems == () and dict(read.lines)[text] == "token"
    assert read.activated[0].mana is None and read.activated[0].is_mana_ability is False
    # A replacement template not read here stays a problem (Quarum Trench Gnomes' "instead of white mana").
    gnomes = "{T}: If target Plains is tapped for mana, it produces colorless mana instead of white mana."
    odd = read_text(gnomes, "Quarum Trench Gnomes")
    assert [why for _line, why in odd.problems] == [
        "an ability whose effect changes the mana lands produce: not read here"
    ]
    assert dict(odd.lines)[gnomes] == "problem"
    # An ordinary non-mana activated ability stays "ability".
    assert [kind for _l, kind in read_text("{1}: ~ gets +1/+1 until end of turn.", "Bear").lines] == [
        "ability"
    ]


def test_pyromancers_goggles_is_a_mana_ability() -> None:
    # CR 605.1a: no target of its own; the copy's new targets belong to the delayed trigger (CR 603.7).
    text = (
        "{T}: Add {R}. When that mana is spent to cast a red instant or sorcery spell, copy that spell "
        "and you may choose new targets for the copy."
    )
    assert parse_activated(text, "~").is_mana_ability is True
    assert parse_activated("{T}: Add {R}. ~ deals 1 damage to target player.", "~").is_mana_ability is False


def test_number_word_templates() -> None:
    from app.rules.text.mana_add import parse_add

    six = parse_add("Add six {G}")
    assert six is not None and [o.fixed for o in six.options] == [("G",) * 6]
    split = parse_add("Add three mana in any combination of {R} and/or {G}")
    assert split is not None
    assert {o.fixed for o in split.options} == {
        ("R", "R", "R"), ("R", "R", "G"), ("R", "G", "G"), ("G", "G", "G")
    }  # fmt: skip
    different = parse_add("Add two mana of different colors")
    assert different is not None and len(different.options) == 10  # C(5, 2): never two of one color
    assert all(len(set(o.fixed)) == 2 for o in different.options)
    assert parse_add("Add umpteen {G}") is None
