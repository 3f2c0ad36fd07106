"""The CR 601.2f engine on inline cards: base, alternative, additional, increases, reductions, totals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.casting.engine import total_cost
from app.rules.casting.prepared import prepare_board
from app.rules.casting.spell_cost import CastAs, CostResult, SpellToCast, StepKind
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.card_registry import heralds_horn_reveal
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def card(name: str, cost: str | None, type_line: str, text: str = "", **kw: object) -> Card:
    face = Face(
        name, ManaCost.parse(cost) if cost is not None else None, TypeLine.parse(type_line), text, **kw
    )  # type: ignore[arg-type]
    return Card(name, (face,), oracle_id=f"id-{name}")


HORN = card(
    "Herald's Horn",
    "{3}",
    "Artifact",
    "As Herald's Horn enters the battlefield, choose a creature type.\n"
    "Creature spells you cast of the chosen type cost {1} less to cast.\n"
    "At the beginning of your upkeep, look at the top card of your library. If "
    "it's a creature card of the chosen type, you may reveal it and put it into your hand.",
)
TRINISPHERE = card(
    "Trinisphere",
    "{3}",
    "Artifact",
    "As long as Trinisphere is untapped, each spell that would cost less than three mana to cast costs "
    "three mana to cast.",
)
THALIA = card(
    "Thalia, Guardian of Thraben",
    "{1}{W}",
    "Legendary Creature — Human Soldier",
    "First strike\nNoncreature spells cost {1} more to cast.",
)
SPHERE = card("Sphere of Resistance", "{2}", "Artifact", "Spells cost {1} more to cast.")
EDGEWALKER = card(
    "Edgewalker",
    "{1}{W}{B}",
    "Creature — Human Cleric",
    "Cleric spells you cast cost {W}{B} less to cast. "
    "This effect reduces only the amount of colored mana you pay.",
)
VORTHOS = card(
    "Vorthos, Steward of Myth",
    "{1}{R}",
    "Legendary Creature — Human Gamer",
    "As Vorthos, Steward of Myth enters the battlefield, choose a named Magic character.\n"
    "Each spell you cast with the chosen character in its name, flavor text, or art costs "
    "{W}{U}{B}{R}{G} less to cast. This "
    "effect reduces only the amount of colored mana you pay.",
)
RICHARD = card(
    "Richard Garfield, Ph.D.",
    "{3}{U}{U}",
    "Legendary Creature — Human Designer",
    "You may play cards as though they were other cards of your choice with the same mana cost. You can't "
    "choose the same card twice. (Mana cost includes color.)",
)
PRIEST = card(
    "Avacynian Priest", "{1}{W}", "Creature — Human Cleric", "{1}, {T}: Tap target non-Human creature."
)
BOLT = card("Lightning Bolt", "{R}", "Instant", "Lightning Bolt deals 3 damage to any target.")
LIONS = card("Savannah Lions", "{W}", "Creature — Cat")
SWORDS = card(
    "Swords to Plowshares",
    "{W}",
    "Instant",
    "Exile target creature. Its controller gains life equal to its power.",
)
FIREBALL = card(
    "Fireball", "{X}{R}", "Sorcery", "This spell costs {1} more to cast for each target beyond the first."
)
FROGMITE = card("Frogmite", "{4}", "Artifact Creature — Frog", "Affinity for artifacts")
COLOSSUS = card(
    "Sea Gate Colossus",
    "{7}",
    "Artifact Creature — Golem Warrior",
    "This spell costs {1} less to cast for each creature in your party.",
)
CHANGELING = card(
    "Changeling Outcast",
    "{B}",
    "Creature — Shapeshifter",
    "Changeling\nThis creature can't block.",
    keywords=("Changeling",),
)
FOREST = card("Forest", None, "Basic Land — Forest")


def cost(board: Board, spell: SpellToCast, caster: str = "you") -> CostResult:
    return total_cost(board, caster, spell)


def horn(creature_type: str | None, controller: str = "you") -> Permanent:
    return Permanent("horn", HORN, controller=controller, chosen=Choices(creature_type=creature_type))


def test_api_example_herald_horn_with_cleric() -> None:
    r = cost(Board((horn("Cleric"),)), SpellToCast(PRIEST))
    assert str(r.total_cost) == "{W}"
    assert (r.mana_value, r.mana_value_on_stack, r.x_for_etb) == (2, 2, 0)
    base, red, total = r.steps
    assert (base.kind, str(base.result), base.rule) == (StepKind.BASE, "{1}{W}", "601.2f")
    assert (red.kind, red.source, red.card, str(red.amount), str(red.result), red.rule) == (
        StepKind.REDUCTION,
        "horn",
        "Herald's Horn",
        "{1}",
        "{W}",
        "118.7a",
    )
    assert total.kind is StepKind.TOTAL and str(total.result) == "{W}"


def test_horn_reduces_only_generic_and_says_so() -> None:
    r = cost(Board((horn("Cat"),)), SpellToCast(LIONS))
    assert str(r.total_cost) == "{W}"
    (red,) = [s for s in r.steps if s.kind is StepKind.REDUCTION]
    assert not red.applied and "generic" in (red.note or "")


def test_horn_without_chosen_type_reduces_nothing() -> None:
    r = cost(Board((horn(None),)), SpellToCast(PRIEST))
    assert str(r.total_cost) == "{1}{W}"
    (red,) = [s for s in r.steps if s.kind is StepKind.REDUCTION]
    assert not red.applied and "no creature type" in (red.note or "")


def test_horn_only_for_its_controller_and_creature_spells_of_the_type() -> None:
    board = Board((horn("Cleric", controller="opp"),), players=(Player("you"), Player("opp")))
    assert str(cost(board, SpellToCast(PRIEST)).total_cost) == "{1}{W}"
    assert str(cost(Board((horn("Elf"),)), SpellToCast(PRIEST)).total_cost) == "{1}{W}"


def test_changeling_has_every_type_for_horn_and_reveal() -> None:
    big = card("Mirror Entity", "{2}{W}", "Creature — Shapeshifter", "Changeling", keywords=("Changeling",))
    assert str(cost(Board((horn("Elf"),)), SpellToCast(big)).total_cost) == "{1}{W}"
    board = Board((horn("Elf"),))
    assert heralds_horn_reveal(board, "horn", CHANGELING).may_put_into_hand
    assert not heralds_horn_reveal(board, "horn", PRIEST).may_put_into_hand
    assert not heralds_horn_reveal(Board((horn(None),)), "horn", CHANGELING).may_put_into_hand
    with pytest.raises(IllegalError):
        heralds_horn_reveal(Board((Permanent("t", TRINISPHERE),)), "t", PRIEST)


def test_trinisphere_applies_to_the_locked_in_total_after_reductions() -> None:
    board = Board((Permanent("t", TRINISPHERE), horn("Cleric")))
    r = cost(board, SpellToCast(PRIEST))
    assert str(r.total_cost) == "{2}{W}"
    assert [s.kind for s in r.steps] == [StepKind.BASE, StepKind.REDUCTION, StepKind.TOTAL, StepKind.TOTAL]
    tapped = Board((Permanent("t", TRINISPHERE, tapped=True),))
    r = cost(tapped, SpellToCast(BOLT))
    assert str(r.total_cost) == "{R}"
    assert any(not s.applied and "untapped" in (s.note or "") for s in r.steps)


def test_taxes_thalia_and_sphere_stack_and_ignore_creatures_for_thalia() -> None:
    board = Board(
        (Permanent("th", THALIA, controller="opp"), Permanent("s", SPHERE)),
        players=(Player("you"), Player("opp")),
    )
    assert str(cost(board, SpellToCast(BOLT)).total_cost) == "{2}{R}"
    assert str(cost(board, SpellToCast(LIONS)).total_cost) == "{1}{W}"


def test_colored_only_rider_never_touches_generic_and_goes_first() -> None:
    board = Board((Permanent("e", EDGEWALKER), horn("Cleric")))
    assert str(cost(board, SpellToCast(PRIEST)).total_cost) == "{0}"
    wizard = card("Cleric Wizard", "{3}", "Creature — Human Cleric")
    assert str(cost(Board((Permanent("e", EDGEWALKER),)), SpellToCast(wizard)).total_cost) == "{3}"


def test_vorthos_reduces_colored_mana_only_for_matching_spells() -> None:
    board = Board((Permanent("v", VORTHOS, chosen=Choices(character="Teferi")),))
    prot = card("Teferi's Protection", "{2}{W}", "Instant", "Exile Teferi's Protection.")
    r = cost(board, SpellToCast(prot))
    assert str(r.total_cost) == "{2}"
    (red,) = [s for s in r.steps if s.kind is StepKind.REDUCTION]
    assert red.rule == "ruling:vorthos" and red.applied
    assert str(cost(board, SpellToCast(BOLT)).total_cost) == "{R}"
    flavored = SpellToCast(BOLT, flavor_text="Teferi smiled.")
    assert str(cost(board, flavored).total_cost) == "{0}"
    in_art = SpellToCast(card("Ugly Spell", "{4}{U}{U}", "Sorcery"), art_characters=("Teferi",))
    assert str(cost(board, in_art).total_cost) == "{4}{U}"


def test_affinity_and_party_count_on_the_board() -> None:
    arts = tuple(Permanent(f"a{i}", SPHERE) for i in range(3))
    r = cost(Board(arts), SpellToCast(FROGMITE))
    assert str(r.total_cost) == "{4}"  # three Spheres tax it +3, affinity takes 3
    party = (
        Permanent("c", PRIEST),
        Permanent("w", card("Wizard", "{U}", "Creature — Human Wizard")),
        Permanent("cw", card("Cleric Wizard", "{U}", "Creature — Human Cleric Wizard")),
    )
    r = cost(Board(party), SpellToCast(COLOSSUS))
    assert str(r.total_cost) == "{5}"
    (red,) = [s for s in r.steps if s.kind is StepKind.REDUCTION]
    assert red.rule == "700.8"
    empty = cost(Board(), SpellToCast(COLOSSUS))
    assert str(empty.total_cost) == "{7}"
    assert any(not s.applied for s in empty.steps if s.kind is StepKind.REDUCTION)


def test_x_alternative_additional_and_commander_tax() -> None:
    r = cost(Board(), SpellToCast(FIREBALL, x=4))
    assert (str(r.total_cost), r.mana_value, r.mana_value_on_stack, r.x_for_etb) == ("{4}{R}", 1, 5, 4)
    free = cost(Board(), SpellToCast(FIREBALL, x=4, alternative_cost=ManaCost.zero()))
    assert (str(free.total_cost), free.mana_value_on_stack, free.x_for_etb) == ("{0}", 1, 0)
    assert free.steps[0].kind is StepKind.ALTERNATIVE and "107.3b" in (free.steps[0].note or "")
    cmd = cost(
        Board(),
        SpellToCast(
            PRIEST, additional_costs=(ManaCost.parse("{1}{W}"),), cast_from="command", commander_casts=2
        ),
    )
    assert str(cmd.total_cost) == "{6}{W}{W}"
    assert [s.rule for s in cmd.steps[:3]] == ["601.2f", "118.8", "903.8"]
    not_cmd = cost(Board(), SpellToCast(PRIEST, commander_casts=2))
    assert str(not_cmd.total_cost) == "{1}{W}"


def test_cheapest_half_of_a_hybrid_reduction_is_chosen_and_explained() -> None:
    hybrid = card("Hybrid Helper", "{2}", "Artifact", "Spells you cast cost {W/U} less to cast.")
    r = cost(Board((Permanent("h", hybrid),)), SpellToCast(card("Blue Thing", "{2}{U}", "Sorcery")))
    assert str(r.total_cost) == "{2}"
    assert any("{W/U} as {U}" in c for c in r.choices)
    (red,) = [s for s in r.steps if s.kind is StepKind.REDUCTION]
    assert red.rule == "118.7e"


def test_colored_reduction_spills_onto_generic_and_snow_reduces_generic() -> None:
    medal = card("Red Helper", "{2}", "Artifact", "Spells you cast cost {R} less to cast.")
    r = cost(Board((Permanent("m", medal),)), SpellToCast(PRIEST))
    assert str(r.total_cost) == "{W}"  # 118.7b: no {R} in the cost, so one generic
    assert str(cost(Board((Permanent("m", medal),)), SpellToCast(LIONS)).total_cost) == "{W}"


def test_split_adventure_fuse_and_land() -> None:
    fire = Face("Fire", ManaCost.parse("{1}{R}"), TypeLine.parse("Instant"), "Fire deals 2 damage.")
    ice = Face("Ice", ManaCost.parse("{1}{U}"), TypeLine.parse("Instant"), "Tap target permanent.")
    fire_ice = Card("Fire // Ice", (fire, ice), layout="split")
    with pytest.raises(InvalidChoiceError):
        cost(Board(), SpellToCast(fire_ice))
    assert str(cost(Board(), SpellToCast(fire_ice, face="Ice")).total_cost) == "{1}{U}"
    with pytest.raises(IllegalError):
        cost(Board(), SpellToCast(fire_ice, face="fuse"))
    turn = Face("Turn", ManaCost.parse("{2}{U}"), TypeLine.parse("Instant"), "Fuse", keywords=("Fuse",))
    burn = Face("Burn", ManaCost.parse("{1}{R}"), TypeLine.parse("Instant"), "Fuse", keywords=("Fuse",))
    fused = cost(Board(), SpellToCast(Card("Turn // Burn", (turn, burn), layout="split"), face="fuse"))
    assert str(fused.total_cost) == "{3}{U}{R}" and fused.mana_value == 5
    giant = Face("Bonecrusher Giant", ManaCost.parse("{2}{R}"), TypeLine.parse("Creature — Giant"))
    stomp = Face("Stomp", ManaCost.parse("{1}{R}"), TypeLine.parse("Instant — Adventure"))
    bonecrusher = Card("Bonecrusher Giant // Stomp", (giant, stomp), layout="adventure")
    board = Board((horn("Giant"),))
    assert str(cost(board, SpellToCast(bonecrusher)).total_cost) == "{1}{R}"
    assert str(cost(board, SpellToCast(bonecrusher, face="Stomp")).total_cost) == "{1}{R}"  # not a creature
    with pytest.raises(IllegalError):
        cost(Board(), SpellToCast(FOREST))


def test_mental_magic_cast_as_sees_the_chosen_card() -> None:
    richard = Permanent("r1", RICHARD, played_as=("Disenchant",))
    thalia = Permanent("th", THALIA)
    board = Board((richard, thalia))
    r = cost(board, SpellToCast(LIONS, cast_as=CastAs(SWORDS, "r1")))
    assert str(r.total_cost) == "{1}{W}"  # now a noncreature spell: Thalia taxes it
    assert r.cast_as is SWORDS and r.face.name == "Swords to Plowshares"
    with pytest.raises(IllegalError, match="mana costs differ"):
        cost(board, SpellToCast(PRIEST, cast_as=CastAs(SWORDS, "r1")))
    with pytest.raises(IllegalError, match="already chosen"):
        cost(
            board,
            SpellToCast(
                card("Seal", "{1}{W}", "Enchantment"),
                cast_as=CastAs(card("Disenchant", "{1}{W}", "Instant"), "r1"),
            ),
        )
    with pytest.raises(IllegalError, match="not Richard"):
        cost(board, SpellToCast(LIONS, cast_as=CastAs(SWORDS, "th")))
    theirs = Board((Permanent("r1", RICHARD, controller="opp"),), players=(Player("you"), Player("opp")))
    with pytest.raises(IllegalError, match="controlled by opp"):
        cost(theirs, SpellToCast(LIONS, cast_as=CastAs(SWORDS, "r1")))


def test_unknown_cost_text_on_the_board_is_a_warning_and_has_no_effect() -> None:
    odd = card(
        "Odd Thing",
        "{2}",
        "Artifact",
        "Spells you cast cost {2} less to cast for each electrical socket you can see.",
    )
    r = cost(Board((Permanent("odd", odd),)), SpellToCast(BOLT))
    assert str(r.total_cost) == "{R}"
    (w,) = r.warnings
    assert w.source == "odd" and w.card == "Odd Thing"
    odd_spell = card(
        "Odd Spell", "{3}{R}", "Instant", "This spell costs {1} less to cast for each creature attacking you."
    )
    own = cost(Board(), SpellToCast(odd_spell))
    assert str(own.total_cost) == "{3}{R}"
    assert any(w.source is None for w in own.warnings)


def test_prepared_board_gives_the_same_answers() -> None:
    board = Board((horn("Cleric"), Permanent("t", TRINISPHERE), Permanent("s", SPHERE)))
    prepared = prepare_board(board)
    for spell in (SpellToCast(PRIEST), SpellToCast(BOLT), SpellToCast(FIREBALL, x=2)):
        assert total_cost(prepared, "you", spell) == total_cost(board, "you", spell)


@given(
    generic=st.integers(0, 8),
    colors=st.lists(
        st.sampled_from(["{W}", "{U}", "{B}", "{R}", "{G}", "{W/U}", "{2/B}", "{G/P}"]), max_size=5
    ),
    helpers=st.lists(st.sampled_from(["{1}", "{2}", "{W}", "{U}{B}", "{R/G}", "{S}"]), max_size=4),
)
def test_reductions_never_go_below_zero_and_never_raise_the_cost(
    generic: int, colors: list[str], helpers: list[str]
) -> None:
    spell = card("Probe", f"{{{generic}}}" + "".join(colors), "Sorcery")
    perms = tuple(
        Permanent(f"h{i}", card(f"Helper {i}", "{1}", "Artifact", f"Spells you cast cost {h} less to cast."))
        for i, h in enumerate(helpers)
    )
    r = cost(Board(perms), SpellToCast(spell))
    base = spell.front.mana_cost
    assert base is not None
    assert r.total_cost.generic >= 0
    assert (r.total_cost.half_value or 0) <= (base.half_value or 0)
    assert len(r.total_cost.others) <= len(base.others)
