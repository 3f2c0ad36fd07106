"""The oracle-template reader: which sentences become which cost effects, and what is left unsupported."""

from __future__ import annotations

import pytest

from app.rules.effects.cost_effects import ConditionKind, CostEffect, CountKind, Direction, MinimumTotal, Who
from app.rules.text.oracle_costs import read_cost_effects
from app.rules.values.costs import ManaCost


def only_effect(name: str, text: str) -> CostEffect:
    found = read_cost_effects(name, text)
    assert len(found.effects) == 1, found
    effect = found.effects[0]
    assert isinstance(effect, CostEffect)
    return effect


def test_generic_reduction_for_your_spells_of_two_types() -> None:
    e = only_effect("Goblin Electromancer", "Instant and sorcery spells you cast cost {1} less to cast.")
    assert e.direction is Direction.REDUCTION
    assert e.amount == ManaCost.parse("{1}")
    assert e.spells.caster is Who.YOU
    assert [q.types for q in e.spells.qualities] == [("Instant",), ("Sorcery",)]
    assert e.rule == "118.7a"


def test_tax_on_noncreature_spells_of_everyone() -> None:
    e = only_effect("Thalia, Guardian of Thraben", "First strike\nNoncreature spells cost {1} more to cast.")
    assert e.direction is Direction.INCREASE
    assert e.spells.caster is Who.ANY
    assert e.spells.qualities[0].not_types == ("Creature",)


def test_opponents_tax_and_own_colors_on_one_card() -> None:
    found = read_cost_effects(
        "Grand Arbiter Augustin IV",
        "White spells you cast cost {1} less to cast.\nBlue spells you cast cost {1} less to cast.\n"
        "Spells your opponents cast cost {1} more to cast.",
    )
    kinds = [(e.direction, e.spells.caster) for e in found.effects if isinstance(e, CostEffect)]
    assert kinds == [
        (Direction.REDUCTION, Who.YOU),
        (Direction.REDUCTION, Who.YOU),
        (Direction.INCREASE, Who.OPPONENTS),
    ]


def test_colored_only_rider_is_folded_into_its_sentence() -> None:
    e = only_effect(
        "Edgewalker",
        "Cleric spells you cast cost {W}{B} less to cast. This effect reduces only the amount of colored "
        "mana you pay. (For example, if you cast a Cleric spell with mana cost {1}{W}, "
        "it costs {1} to cast.)",
    )
    assert e.colored_only
    assert e.spells.qualities[0].subtypes == ("Cleric",)
    assert e.amount == ManaCost.parse("{W}{B}")


def test_chosen_creature_type_needs_a_creature_type_choice() -> None:
    horn = only_effect(
        "Herald's Horn",
        "As Herald's Horn enters the battlefield, choose a creature type.\n"
        "Creature spells you cast of the chosen type cost {1} less to cast.",
    )
    assert horn.spells.qualities[0].chosen_creature_type
    assert horn.spells.qualities[0].types == ("Creature",)
    cloud_key = read_cost_effects(
        "Cloud Key",
        "As Cloud Key enters the battlefield, choose artifact, creature, enchantment, instant, or sorcery.\n"
        "Spells you cast of the chosen type cost {1} less to cast.",
    )
    (key,) = cloud_key.effects  # a chosen card type (CR 205.2a), never a creature type
    assert key.spells.qualities[0].chosen_card_type and not key.spells.qualities[0].chosen_creature_type
    assert not cloud_key.unsupported


def test_trinisphere_form_with_untapped_condition() -> None:
    found = read_cost_effects(
        "Trinisphere",
        "As long as Trinisphere is untapped, each spell that would cost less than three mana to cast costs "
        "three mana to cast. (Additional mana in the cost may be paid with any color of mana.)",
    )
    (effect,) = found.effects
    assert isinstance(effect, MinimumTotal)
    assert effect.amount == 3
    assert effect.condition is not None and effect.condition.kind is ConditionKind.SOURCE_UNTAPPED


def test_own_reductions_party_affinity_and_conditions() -> None:
    party = read_cost_effects(
        "Sea Gate Colossus", "This spell costs {1} less to cast for each creature in your party."
    ).own[0]
    assert party.per is not None and party.per.kind is CountKind.PARTY
    assert party.rule == "700.8"
    affinity = read_cost_effects("Frogmite", "Affinity for artifacts (This spell costs {1} less ...)").own[0]
    assert affinity.per is not None and affinity.per.quality is not None
    assert affinity.per.quality.types == ("Artifact",)
    assert affinity.rule == "702.41a"
    wizard = read_cost_effects(
        "Wizard's Lightning", "This spell costs {2} less to cast if you control a Wizard."
    )
    cond = wizard.own[0].condition
    assert cond is not None and cond.kind is ConditionKind.CONTROLS
    assert cond.qualities[0].subtypes == ("Wizard",)


@pytest.mark.parametrize(
    "text",
    [
        "Spells your opponents cast that target Kami of False Hope cost {2} more to cast.",
        "This spell costs {1} less to cast for each creature card in an opponent's graveyard.",
        "Whenever this creature attacks, the next spell you cast this turn costs {1} less to cast.",
        "This spell costs {X} less to cast, where X is the greatest toughness among creatures you control.",
        "Creature spells you cast cost {1} less to cast for each +1/+1 counter on Animar.",
        "Spells cost less to cast for each frob.",  # no amount: a cost sentence of an unknown shape
        "Noncreature spells cost an additional {1} to cast.",
    ],
)
def test_texts_that_are_not_understood_are_reported_never_guessed(text: str) -> None:
    found = read_cost_effects("Some Card", text)
    assert not found.effects and not found.own
    assert len(found.unsupported) + len(found.own_unsupported) == 1


def test_texts_without_cost_effects_are_empty() -> None:
    assert read_cost_effects("Llanowar Elves", "{T}: Add {G}.").is_empty
    assert read_cost_effects("Richard", "You may play cards ... with the same mana cost.").is_empty
