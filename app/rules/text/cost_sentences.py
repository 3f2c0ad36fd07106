"""The cost effects one sentence makes, one builder per template of ``registry("costs")`` (see
``oracle_costs``): granted keywords and taxes (CR 613.1f, 702.41a), "this spell costs" (CR 601.2f),
life payments (CR 119.4), affinity (CR 702.41a), Trinisphere's minimum and the static "[spells] cost {N}
less/more to cast" (CR 601.2f, 118.7)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Final

from app.rules.effects.cost_effects import (
    Condition,
    ConditionKind,
    CostEffect,
    Count,
    CountKind,
    Direction,
    KeywordGrant,
    MinimumTotal,
    Quality,
    SpellFilter,
    Who,
)
from app.rules.text.cost_conditions import read_condition, read_count, x_is
from app.rules.text.cost_subjects import ALWAYS, read_subject, spell_subject
from app.rules.text.cost_words import (
    KEYWORDS_WITH,
    NotUnderstood,
    number,
    read_cost,
    read_quality,
    rule_for,
    split_alternatives,
)
from app.rules.values.costs import ManaCost

_COST = r"(?P<amt>(?:\{[^{}]+\})+)"
LIFE_MORE = re.compile(
    r"^(?:(?P<own>this spell) costs (?P<n>\w{1,6}) life more to cast(?: for each (?P<each>[a-z ]{1,40}))?"
    r"|(?P<subject>[a-z ~',-]{1,120}?) costs? an additional (?P<m>\w{1,6}) life to cast)\.$"
)
_OWN_TWICE = re.compile(
    r"^this spell costs (?P<a>\{[^{}]{1,8}\}) less to cast (?P<c1>if [^.]{1,80}?) and "
    r"(?P<b>\{[^{}]{1,8}\}) less to cast (?P<c2>if [^.]{1,80})\.$"
)
OWN = re.compile(
    r"^(?:(?P<pre>(?:if|as long as) .+?), )?this spell costs " + _COST + r" (?P<dir>less|more) to cast"
    r"(?:(?P<tail> for each .+?| if .+?| as long as .+?| during your turn| during your end step)"
    r"|, where x is (?P<x>.+?))?\.$"
)
STATIC = re.compile(
    r"^(?:(?P<pre>as long as .+?|during your turn|if .+?), )?(?P<subject>.+?) costs? (?P<upto>up to )?"
    + _COST
    + r" (?P<dir>less|more) to cast(?: for each (?P<each>.+?))?"
    r"(?P<except> except during its controller's turn)?"
    r"(?: (?P<post>if it has [a-z ]{1,20}|as long as [^.]{1,100}))?"
    r"(?: and can't be countered)?\.$"
)
MINIMUM = re.compile(
    r"^(?:(?P<pre>as long as .+?), )?each spell that would cost less than (?P<n>\w+) mana to cast "
    r"costs (?P<m>\w+) mana to cast\.$"
)
GRANT = re.compile(
    r"^(?P<subject>[a-z ,'-]{0,120}?spells[a-z ~',-]{0,120}?) ha(?:ve|s) "
    r"(?P<kw>affinity for [a-z' -]{1,60}|convoke|improvise|delve)\.$"
)
GUARD_GRANT = re.compile(
    r"^(?P<what>[a-z ,]{1,60}?) you control(?: with (?P<kw>[a-z ]{1,20}))? have \"spells your opponents cast "
    r"that target this (?:permanent|creature) cost (?P<amt>(?:\{[^{}]{1,8}\}){1,4}) more to cast\.\"?$"
)
CLASS_LEVEL_LINE = re.compile(r"^(?:\{[^{}]{1,8}\}){1,12}: level (?P<n>[2-9])$")
_AFFINITY = re.compile(r"^affinity for (?P<what>[a-z' -]+?)\.?$")
CAP: Final = re.compile(
    r"^this effect can't reduce the amount of mana this spell costs by more than \{(?P<n>\d{1,2})\}\.$"
)
# "Creature spells you cast cost {X} less to cast, where X is ..." (Ezzaroot Channeler): spells' X.
SPELLS_X: Final = re.compile(
    r"^(?P<subject>[a-z -]{1,60}) cost \{x\} less to cast, where x is (?P<x>[a-z' ]{1,90})\.$"
)


def chooses_a_card_type(text: str) -> bool:
    """ "choose artifact, creature, enchantment, instant, or sorcery" / "choose a card type" (Cloud Key)."""
    low = text.casefold()
    return "choose a card type" in low or "choose artifact, creature, enchantment, instant, or sorcery" in low


def card_type_chosen(effect: CostEffect) -> CostEffect:
    """ "of the chosen type" where the source chose a card type (CR 205.2a), not a creature type."""
    qualities = tuple(
        replace(q, chosen_creature_type=False, chosen_card_type=True) if q.chosen_creature_type else q
        for q in effect.spells.qualities
    )
    return replace(effect, spells=replace(effect.spells, qualities=qualities))


def at_level(effect: CostEffect, level: int) -> CostEffect:
    """CR 716.2a: a Class's level-N ability works only while the Class is level N or greater."""
    if level <= 1:
        return effect
    if effect.condition is not None:
        raise NotUnderstood("a condition inside a Class level")
    condition = Condition(
        ConditionKind.CLASS_LEVEL, f"as long as ~ is level {level} or greater", at_least=level
    )
    return replace(effect, condition=condition)


_PAY_RULES: Final = {"convoke": "702.51a", "improvise": "702.126a", "delve": "702.66a"}


def guard_grant_effect(m: re.Match[str], sentence: str) -> CostEffect:
    """ "Creatures you control with flying have 'Spells your opponents cast that target this creature cost
    {2} more to cast.'" (CR 613.1f: each such permanent has the ability, so a spell pays it once for each of
    them it targets, CR 601.2c)."""
    qualities = split_alternatives(m.group("what"), plural=True)
    kw = m.group("kw")
    if kw is not None:
        if kw not in KEYWORDS_WITH:
            raise NotUnderstood(f"permanents with {kw}")
        qualities = tuple(replace(q, keyword=kw) for q in qualities)
    text = f"{m.group('what')} you control" + (f" with {kw}" if kw else "") + " it targets"
    per = Count(CountKind.TARGETED, text, None, Who.YOU, alternatives=qualities)
    amount = read_cost(m.group("amt"))
    return CostEffect(Direction.INCREASE, amount, SpellFilter(Who.OPPONENTS), "601.2f", sentence, per)


def granted(m: re.Match[str], sentence: str, chooses_type: bool) -> CostEffect | KeywordGrant:
    """ "[spells] you cast have affinity for [quality]" (CR 702.41a, 613.1f: granted, it counts like a
    printed affinity). Convoke, improvise and delve are ways to pay (CR 702.51a, 702.126a, 702.66a), not
    changes of the total: a grant the payment uses."""
    kw = m.group("kw")
    if not kw.startswith("affinity for "):
        return KeywordGrant(kw, spell_subject(m.group("subject"), chooses_type), sentence, _PAY_RULES[kw])
    spells = spell_subject(m.group("subject"), chooses_type)
    what = kw[len("affinity for ") :].strip()
    quality = read_quality(what, plural=True)
    per = Count(CountKind.PERMANENTS, f"one of the {what} you control", quality, Who.YOU)
    return CostEffect(Direction.REDUCTION, ManaCost.of(1), spells, "702.41a", sentence, per)


def life_effect(m: re.Match[str], sentence: str, chooses_type: bool) -> CostEffect:
    """ "This spell costs 3 life more to cast for each target." (Phyrexian Purge), "Spells your opponents
    cast that target ~ cost an additional 3 life to cast." (Terror of the Peaks): a life payment added to
    the cost (CR 601.2f, 119.4)."""
    zero = ManaCost.zero()
    if m.group("own"):
        per = read_count(m.group("each")) if m.group("each") else None
        life = number(m.group("n"))
        return CostEffect(
            Direction.INCREASE, zero, SpellFilter(), "119.4", sentence, per, own=True, life=life
        )
    spells, targets = read_subject(m.group("subject"), chooses_type)
    life = number(m.group("m"))
    return CostEffect(Direction.INCREASE, zero, spells, "119.4", sentence, None, targets, life=life)


def own_effects(low: str, sentence: str, colored_only: bool) -> list[CostEffect]:
    """One own cost sentence, or two joined by "and" ("costs {1} less to cast if you control an artifact
    and {1} less to cast if you control an enchantment": each applies on its own, CR 601.2f)."""
    m = _OWN_TWICE.match(low)
    if m:
        first = f"this spell costs {m.group('a')} less to cast {m.group('c1')}."
        second = f"this spell costs {m.group('b')} less to cast {m.group('c2')}."
        return [_own_effect(first, sentence, colored_only), _own_effect(second, sentence, colored_only)]
    return [_own_effect(low, sentence, colored_only)]


def _own_effect(low: str, sentence: str, colored_only: bool) -> CostEffect:
    """ "This spell costs {N} less to cast [for each ...|if ...]" (CR 601.2f; party: CR 700.8)."""
    m = OWN.match(low)
    if not m:
        raise NotUnderstood("this spell's cost sentence has an unknown shape")
    direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
    amount = ManaCost.parse("{X}") if m.group("x") and m.group("amt") == "{x}" else read_cost(m.group("amt"))
    per: Count | None = None
    condition: Condition | None = None
    tail = (m.group("tail") or "").strip()
    if m.group("pre"):
        condition = read_condition(m.group("pre"))
    if m.group("x"):
        if amount != ManaCost.parse("{X}"):
            raise NotUnderstood("an amount with X beside other mana")
        amount, per = ManaCost.of(1), x_is(m.group("x"))
    if tail:
        if tail.startswith("for each "):
            per = read_count(tail[len("for each ") :])
        else:
            if condition is not None:
                raise NotUnderstood("two conditions")
            condition = read_condition(tail)
    rule = "700.8" if per is not None and per.kind is CountKind.PARTY else rule_for(amount, direction)
    return CostEffect(
        direction, amount, SpellFilter(), rule, sentence, per, condition, colored_only, False, True
    )


def affinity_effect(low: str, sentence: str) -> CostEffect:
    """CR 702.41a: "Affinity for [text]" = "This spell costs {1} less to cast for each [text] you control"."""
    m = _AFFINITY.match(low.strip())
    if not m:
        raise NotUnderstood("unknown affinity")
    what = m.group("what")
    text = f"one of the {what} you control"
    if what == "outlaws":  # CR 700.12: Assassin, Mercenary, Pirate, Rogue and/or Warlock
        per = Count(CountKind.PERMANENTS, text, None, Who.YOU, alternatives=_OUTLAWS)
    elif what == "tokens":  # CR 111.1
        per = Count(CountKind.PERMANENTS, text, Quality(), Who.YOU, fact="token")
    else:
        per = Count(CountKind.PERMANENTS, text, read_quality(what, plural=True), Who.YOU)
    return CostEffect(
        Direction.REDUCTION, ManaCost.of(1), SpellFilter(), "702.41a", sentence, per, None, False, False, True
    )


_OUTLAWS: Final = tuple(
    Quality(subtypes=(t,)) for t in ("Assassin", "Mercenary", "Pirate", "Rogue", "Warlock")
)


def minimum_effect(m: re.Match[str], sentence: str) -> MinimumTotal:
    n = number(m.group("n"))
    if n != number(m.group("m")):
        raise NotUnderstood("minimum with two different amounts")
    condition = read_condition(m.group("pre")) if m.group("pre") else None
    return MinimumTotal(n, SpellFilter(), sentence, condition)


def static_effect(low: str, sentence: str, colored_only: bool, chooses_type: bool) -> CostEffect:
    m = STATIC.match(low)
    if not m:
        raise NotUnderstood("a cost sentence of an unknown shape")
    direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
    amount = read_cost(m.group("amt"))
    subject, pre, post = m.group("subject"), m.group("pre"), m.group("post")
    if subject.endswith(" during your turn") and not pre:  # "spells your opponents cast during your turn"
        subject, pre = subject[: -len(" during your turn")], "during your turn"
    spells, targets = read_subject(subject, chooses_type)
    if post and post.startswith("if it has "):  # "Each creature spell you cast costs {1} less ... if it has
        keyword = post[len("if it has ") :]  # mutate": the spell's own keyword (CR 702)
        if keyword not in KEYWORDS_WITH:
            raise NotUnderstood(f"spells that have {keyword}")
        qualities = tuple(replace(q, keyword=keyword) for q in (spells.qualities or (Quality(),)))
        spells, post = replace(spells, qualities=qualities), None
    if post and pre:
        raise NotUnderstood("two conditions")
    pre = pre or post
    condition = read_condition(pre) if pre and pre not in ALWAYS else None
    if targets is not None:
        if condition is not None:
            raise NotUnderstood("two conditions")
        condition = targets
    if m.group("except"):
        if condition is not None:
            raise NotUnderstood("two conditions")
        condition = Condition(ConditionKind.NOT_CASTERS_TURN, "except during its controller's turn")
    per = read_count(m.group("each")) if m.group("each") else None
    return CostEffect(
        direction,
        amount,
        spells,
        rule_for(amount, direction),
        sentence,
        per,
        condition,
        colored_only,
        m.group("upto") is not None,
        False,
    )
