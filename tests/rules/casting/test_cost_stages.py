"""Each stage of CR 601.2f on its own: base or alternative cost, additional costs, increases, reductions,
effects on the locked total. ``total_cost`` runs them in that order (tests/rules/casting/test_casting.py)."""

from __future__ import annotations

import pytest

from app.rules.casting.adjustments import cost_increases, cost_reductions, effects_on_total
from app.rules.casting.base import additional_costs, base_cost, cast_characteristics, commander_tax
from app.rules.casting.prepared import prepare_board
from app.rules.casting.spell_cost import (
    CastCharacteristics,
    CostRun,
    SpellContext,
    SpellToCast,
    StepKind,
    Variables,
)
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.characters import CharacterIndex
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def card(name: str, cost: str | None, type_line: str, text: str = "") -> Card:
    face = Face(name, ManaCost.parse(cost) if cost is not None else None, TypeLine.parse(type_line), text)
    return Card(name, (face,), oracle_id=f"id-{name}")


def run() -> CostRun:
    return CostRun(ManaCost.zero(), [], [], [])


def chars_of(c: Card) -> CastCharacteristics:
    return cast_characteristics(Board(), "you", SpellToCast(c), [])


FIREBALL = card("Fireball", "{X}{R}", "Sorcery")
BOLT = card("Bolt", "{R}", "Instant")
BEAR = card("Bear", "{1}{G}", "Creature — Bear")
PACT = card("Pact", None, "Instant")
SPHERE = card("Sphere", "{2}", "Artifact", "Spells cost {1} more to cast.")
THALIA = card("Thalia", "{1}{W}", "Creature — Human", "Noncreature spells cost {1} more to cast.")
ELECTRO = card(
    "Electro", "{1}{R}", "Creature — Goblin", "Instant and sorcery spells you cast cost {1} less to cast."
)
TRINI = card(
    "Trini",
    "{3}",
    "Artifact",
    "As long as Trini is untapped, each spell that would cost less than three mana to cast costs three mana "
    "to cast.",
)


# -- cast_characteristics (601.2a-b) --


def test_characteristics_refuse_lands_and_unknown_targets() -> None:
    with pytest.raises(IllegalError) as info:
        chars_of(card("Forest", None, "Basic Land — Forest"))
    assert info.value.rule == "305.1"
    board = Board((Permanent("bear", BEAR),), (Player("you"), Player("opp")))
    ok = cast_characteristics(board, "you", SpellToCast(BOLT, targets=("bear", "opp")), [])
    assert ok.face.name == "Bolt" and ok.mana_cost == ManaCost.parse("{R}")
    with pytest.raises(InvalidChoiceError) as bad:
        cast_characteristics(board, "you", SpellToCast(BOLT, targets=("bear", "ghost")), [])
    assert bad.value.field == "targets.1"


# -- base_cost (601.2f, 118.9, 107.3) --


def test_base_is_the_mana_cost_with_x_substituted() -> None:
    r = run()
    v = base_cost(SpellToCast(FIREBALL, x=4), chars_of(FIREBALL), r)
    assert (v.x, v.chooses_x) == (4, True)
    assert str(r.current) == "{4}{R}"
    assert (
        r.steps[0].kind is StepKind.BASE and r.steps[0].rule == "601.2f" and "X=4" in (r.steps[0].note or "")
    )


def test_alternative_cost_replaces_the_mana_cost_and_x_becomes_0() -> None:
    r = run()
    spell = SpellToCast(FIREBALL, x=4, alternative_cost=ManaCost.parse("{0}"))
    v = base_cost(spell, chars_of(FIREBALL), r)
    assert (v.x, v.chooses_x, str(r.current)) == (0, False, "{0}")
    step = r.steps[0]
    assert step.kind is StepKind.ALTERNATIVE and step.rule == "118.9" and "107.3b" in (step.note or "")


def test_no_mana_cost_needs_an_alternative_cost() -> None:
    with pytest.raises(IllegalError) as info:
        base_cost(SpellToCast(PACT), chars_of(PACT), run())
    assert info.value.rule == "118.6"


def test_x_given_without_x_warns() -> None:
    r = run()
    base_cost(SpellToCast(BOLT, x=2), chars_of(BOLT), r)
    assert str(r.current) == "{R}" and [w.text for w in r.warnings] == ["x"]


# -- additional_costs (118.8) and commander_tax (903.8) --


def test_additional_costs_add_with_the_same_x() -> None:
    r = run()
    r.current = ManaCost.parse("{R}")
    additional_costs(
        SpellToCast(BOLT, additional_costs=(ManaCost.parse("{X}"), ManaCost.parse("{2}"))),
        Variables(3, 0, 0, True),
        r,
    )
    assert [str(s.result) for s in r.steps] == ["{3}{R}", "{5}{R}"]
    assert all(s.kind is StepKind.ADDITIONAL and s.rule == "118.8" for s in r.steps)


@pytest.mark.parametrize(
    ("cast_from", "total", "applied"), [("command", "{4}{G}", True), ("hand", "{G}", False)]
)
def test_commander_tax_only_from_the_command_zone(cast_from: str, total: str, applied: bool) -> None:
    r = run()
    r.current = ManaCost.parse("{G}")
    commander_tax(SpellToCast(BEAR, commander_casts=2, cast_from=cast_from), r)
    assert str(r.current) == total
    (step,) = r.steps
    assert (step.kind, step.rule, step.applied, str(step.amount)) == (
        StepKind.INCREASE,
        "903.8",
        applied,
        "{4}",
    )
    commander_tax(SpellToCast(BEAR), r)  # no previous cast: nothing recorded
    assert len(r.steps) == 1


# -- cost_increases (601.2f) --


def ctx_for(board: Board, spell: SpellToCast, r: CostRun) -> SpellContext:
    face = spell.card.front
    return SpellContext(
        board,
        "you",
        spell,
        face,
        face.mana_cost.mana_value if face.mana_cost else 0,
        CharacterIndex(()),
        r.warnings,
    )


def candidates(board: Board) -> list[tuple[Permanent | None, object]]:
    return [(s.permanent, s.effect) for s in prepare_board(board).sources]


def test_increases_add_and_reductions_are_set_aside_in_order() -> None:
    board = Board(
        (
            Permanent("sphere", SPHERE),
            Permanent("thalia", THALIA, controller="opp"),
            Permanent("elec", ELECTRO),
        ),
        (Player("you"), Player("opp")),
    )
    r = run()
    r.current = ManaCost.parse("{R}")
    spell = SpellToCast(BOLT)
    reds, totals = cost_increases(ctx_for(board, spell, r), candidates(board), r)  # type: ignore[arg-type]
    assert str(r.current) == "{2}{R}"
    assert [(s.source, s.kind, s.applied) for s in r.steps] == [
        ("sphere", StepKind.INCREASE, True),
        ("thalia", StepKind.INCREASE, True),
    ]
    assert [(red.index, red.source.id if red.source else None) for red in reds] == [(0, "elec")]
    assert totals == []


def test_an_increase_that_does_not_cover_the_spell_is_silent_or_explained() -> None:
    board = Board((Permanent("thalia", THALIA, controller="opp"),), (Player("you"), Player("opp")))
    r = run()
    r.current = ManaCost.parse("{1}{G}")
    reds, _ = cost_increases(ctx_for(board, SpellToCast(BEAR), r), candidates(board), r)  # type: ignore[arg-type]
    assert str(r.current) == "{1}{G}" and r.steps == [] and reds == []


# -- cost_reductions (118.7) --


def test_reductions_subtract_but_generic_never_reduces_colored() -> None:
    board = Board((Permanent("e1", ELECTRO), Permanent("e2", ELECTRO)), (Player("you"),))
    r = run()
    r.current = ManaCost.parse("{1}{R}")
    reds, _ = cost_increases(ctx_for(board, SpellToCast(BOLT), r), candidates(board), r)  # type: ignore[arg-type]
    cost_reductions(reds, r)
    assert str(r.current) == "{R}"
    assert [(s.source, s.applied) for s in r.steps] == [("e1", True), ("e2", False)]
    assert r.steps[1].note and "118.7a" in r.steps[1].note
    cost_reductions([], r)  # nothing to reduce: nothing recorded
    assert len(r.steps) == 2


# -- effects_on_total (601.2f, last) --


def test_effects_on_the_total_then_locked_in() -> None:
    board = Board((Permanent("tri", TRINI),), (Player("you"),))
    r = run()
    r.current = ManaCost.parse("{R}")
    _, totals = cost_increases(ctx_for(board, SpellToCast(BOLT), r), candidates(board), r)  # type: ignore[arg-type]
    effects_on_total(totals, r)
    assert str(r.current) == "{2}{R}"
    assert [(s.kind, s.source, s.applied) for s in r.steps] == [
        (StepKind.TOTAL, "tri", True),
        (StepKind.TOTAL, None, True),
    ]
    assert r.steps[-1].note == "total cost locked in" and r.steps[-1].rule == "601.2f"
    big = run()
    big.current = ManaCost.parse("{3}{R}")
    effects_on_total(totals, big)
    assert str(big.current) == "{3}{R}" and big.steps[0].applied is False
