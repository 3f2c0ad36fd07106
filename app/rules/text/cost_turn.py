"""Cost sentences that read this turn's facts (CR 500.1): "for each spell you've cast this turn", "if an
opponent lost life this turn", "the first creature spell you cast each turn costs {1} less" (a spell being
cast is not yet cast, CR 601.2i)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.rules.effects.cost_effects import (
    Condition,
    ConditionKind,
    CostEffect,
    Count,
    CountKind,
    Direction,
    SpellFilter,
    Who,
)
from app.rules.text.cost_conditions import read_count
from app.rules.text.cost_sentences import OWN, SPELLS_X
from app.rules.text.cost_subjects import spell_subject
from app.rules.text.cost_words import read_cost, rule_for
from app.rules.values.costs import ManaCost

# Counts and conditions of the current turn (CR 500.1) that the board's ``this_turn`` facts answer.
_TURN_COUNTS: Final = {
    "instant and sorcery spell you've cast this turn": ("instant_sorcery_spells_cast", Who.YOU),
    "instant or sorcery spell you've cast this turn": ("instant_sorcery_spells_cast", Who.YOU),
    "spell you've cast this turn": ("spells_cast", Who.YOU),
    "other spell you've cast this turn": ("spells_cast", Who.YOU),
    "other spell cast this turn": ("spells_cast", Who.ANY),
    "spell cast this turn": ("spells_cast", Who.ANY),
    "creature spell you've cast this turn": ("creature_spells_cast", Who.YOU),
    "noncreature spell you've cast this turn": ("noncreature_spells_cast", Who.YOU),
    "creature that died this turn": ("creatures_died", Who.ANY),
    "1 life you gained this turn": ("life_gained", Who.YOU),
    "creature that attacked this turn": ("creatures_attacked", Who.ANY),
    "creature you attacked with this turn": ("creatures_attacked", Who.YOU),
    "card your opponents have drawn this turn": ("cards_drawn", Who.OPPONENTS),
    "permanent sacrificed this turn": ("permanents_sacrificed", Who.ANY),
    # CR 702.29a: cycling discards the card, so "cycled or discarded" counts each card once
    "card you've cycled or discarded this turn": ("cards_discarded", Who.YOU),
}
# "where X is ...": a this-turn count as the amount.
_TURN_X: Final = {
    "the amount of life you gained this turn": ("life_gained", Who.YOU),
    "the total amount of noncombat damage dealt to your opponents this turn": (
        "noncombat_damage_taken",
        Who.OPPONENTS,
    ),
}
_TURN_CONDITIONS: Final = {
    "if you've cast another spell this turn": ("spells_cast", Who.YOU, 1),
    "if you've cast a spell this turn": ("spells_cast", Who.YOU, 1),
    "if you've cast an instant or sorcery spell this turn": ("instant_sorcery_spells_cast", Who.YOU, 1),
    "if you've cast another instant or sorcery spell this turn": ("instant_sorcery_spells_cast", Who.YOU, 1),
    "if you've cast a creature spell this turn": ("creature_spells_cast", Who.YOU, 1),
    "if you've cast a noncreature spell this turn": ("noncreature_spells_cast", Who.YOU, 1),
    "if an opponent cast two or more spells this turn": ("spells_cast", Who.OPPONENTS, 2),
    "if an opponent lost life this turn": ("life_lost", Who.OPPONENTS, 1),
    "if you've played a land this turn": ("lands_played", Who.YOU, 1),
    "if a creature died this turn": ("creatures_died", Who.ANY, 1),
    "if you gained life this turn": ("life_gained", Who.YOU, 1),
    "if you've gained 3 or more life this turn": ("life_gained", Who.YOU, 3),
    "if an opponent has drawn four or more cards this turn": ("cards_drawn", Who.OPPONENTS, 4),
    "as long as you've drawn two or more cards this turn": ("cards_drawn", Who.YOU, 2),
    "if you attacked this turn": ("creatures_attacked", Who.YOU, 1),
    "if you've sacrificed an artifact this turn": ("artifacts_sacrificed", Who.YOU, 1),
    "if you've committed a crime this turn": ("crimes_committed", Who.YOU, 1),
    "if a creature left the battlefield under your control this turn": (
        "creatures_left_battlefield",
        Who.YOU,
        1,
    ),
    "if a creature card was put into your graveyard from anywhere this turn": (
        "creature_cards_to_graveyard",
        Who.YOU,
        1,
    ),
}
# "The first [kind] spell you cast each turn": the fact that counts the earlier spells of that kind.
_FIRST_KIND: Final = {
    "": "spells_cast",
    "creature ": "creature_spells_cast",
    "noncreature ": "noncreature_spells_cast",
    "instant or sorcery ": "instant_sorcery_spells_cast",
    "instant and sorcery ": "instant_sorcery_spells_cast",
    "kicked ": "kicked_spells_cast",
    "artifact ": "artifact_spells_cast",
    "legendary creature ": "legendary_creature_spells_cast",
    "face-down creature ": "face_down_creature_spells_cast",
}
_ORDINALS: Final = {"first": 0, "second": 1, "third": 2}


def this_turn_effect(low: str, sentence: str, colored_only: bool) -> CostEffect | None:
    """Cost sentences that read this turn's facts (CR 500.1; a spell being cast is not yet cast, 601.2i)."""
    if len(low) > 200:
        return None
    spells_x = SPELLS_X.match(low)
    if spells_x and spells_x.group("x") in _TURN_X and not spells_x.group("subject").startswith("this "):
        fact, whose = _TURN_X[spells_x.group("x")]
        x_count = Count(CountKind.THIS_TURN, spells_x.group("x"), None, whose, fact=fact)
        spells = spell_subject(spells_x.group("subject"), False)
        return CostEffect(
            Direction.REDUCTION, ManaCost.of(1), spells, "118.7a", sentence, x_count, None, colored_only
        )
    m = OWN.match(low)
    if m and not m.group("pre") and m.group("x") in _TURN_X and m.group("amt") == "{x}":
        fact, whose = _TURN_X[m.group("x")]
        x_count = Count(CountKind.THIS_TURN, m.group("x"), None, whose, fact=fact)
        direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
        one = ManaCost.of(1)
        return CostEffect(
            direction, one, SpellFilter(), "118.7a", sentence, x_count, None, colored_only, own=True
        )
    if m and not m.group("pre") and m.group("tail"):
        tail = m.group("tail").strip()
        direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
        amount = read_cost(m.group("amt"))
        per: Count | None = None
        condition: Condition | None = None
        if tail.startswith("for each ") and tail[len("for each ") :] in _TURN_COUNTS:
            fact, whose = _TURN_COUNTS[tail[len("for each ") :]]
            per = Count(CountKind.THIS_TURN, tail[len("for each ") :], None, whose, fact=fact)
        elif tail in _TURN_CONDITIONS:
            fact, whose, least = _TURN_CONDITIONS[tail]
            condition = Condition(ConditionKind.THIS_TURN, tail, (), whose, least, None, fact)
        else:
            return None
        rule = rule_for(amount, direction)
        return CostEffect(
            direction, amount, SpellFilter(), rule, sentence, per, condition, colored_only, own=True
        )
    for ordinal, earlier in _ORDINALS.items():
        for kind, fact in _FIRST_KIND.items():
            head = f"the {ordinal} {kind}spell you cast each turn costs "
            if not low.startswith(head):
                continue
            rest = " ".join(low[len(head) :].split())
            each_count: Count | None = None
            if " to cast for each " in rest:  # Eluge: "... costs {U} less to cast for each land ..."
                rest, each = rest.split(" to cast for each ", 1)
                rest, each_count = rest + " to cast.", read_count(each.rstrip("."))
            for direction, word in (
                (Direction.REDUCTION, " less to cast."),
                (Direction.INCREASE, " more to cast."),
            ):
                if rest.endswith(word):
                    amount = read_cost(rest[: -len(word)])
                    if kind == "kicked ":  # CR 702.33d: a kicked spell is one whose kicker cost was paid
                        spells = replace(spell_subject("spells you cast", False), kicked=True)
                    else:
                        spells = spell_subject(f"{kind}spells you cast", False)
                    text = f"the {ordinal} {kind}spell you cast each turn"
                    condition = Condition(ConditionKind.THIS_TURN, text, (), Who.YOU, earlier, earlier, fact)
                    rule = rule_for(amount, direction)
                    return CostEffect(
                        direction, amount, spells, rule, sentence, each_count, condition, colored_only
                    )
    return None
