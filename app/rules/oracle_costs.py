"""Oracle text → cost effects, by the standard templates (cached per name and text).

Recognised (CR 601.2f, 118.7, 702.41a):
- "[quality] spells [you cast|your opponents cast] [modifiers] cost [up to] {N} less/more to cast
  [for each ...]" with the prefixes "As long as ~ is (un)tapped, ", "As long as it's (not) your turn, ",
  "During your turn, ", "If you control ..., " and the rider "This effect reduces only the amount of
  colored mana you pay.";
- "This spell costs {N} less/more to cast [for each ...|if ...]" and "If ..., this spell costs ...";
- "Affinity for [quality]";
- "each spell that would cost less than N mana to cast costs N mana to cast" (Trinisphere).

Any other sentence that mentions costing less or more to cast is returned as ``Unsupported``: the engine
then gives it no effect and warns, never a silent wrong answer.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from typing import Final

from app.rules.costs import ManaCost
from app.rules.effects import (
    NO_EFFECTS,
    CardEffects,
    Condition,
    ConditionKind,
    CostEffect,
    Count,
    CountKind,
    Direction,
    Effect,
    MinimumTotal,
    Quality,
    SpellFilter,
    Unsupported,
    Who,
)
from app.rules.errors import ManaCostSyntaxError
from app.rules.names import NUMBER_WORDS
from app.rules.symbols import SymbolKind
from app.rules.types import BASIC_LAND_TYPES, CARD_TYPES, SUPERTYPES, canonical_creature_type

_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_CARD_TYPE_WORDS: Final = {t.casefold(): t for t in CARD_TYPES} | {"tribal": "Kindred"}
_SUPERTYPE_WORDS: Final = {s.casefold(): s for s in SUPERTYPES}
_OTHER_SUBTYPES: Final = {
    s.casefold(): s
    for s in (
        "Aura",
        "Equipment",
        "Vehicle",
        "Saga",
        "Arcane",
        "Trap",
        "Adventure",
        "Lesson",
        "Gate",
        "Cartouche",
        "Curse",
        "Shrine",
        "Fortification",
        "Class",
        "Room",
        "Case",
        "Role",
        "Food",
        "Treasure",
        "Clue",
        "Blood",
        "Map",
        "Powerstone",
        "Desert",
        "Cave",
        "Town",
        "Sphere",
        "Lair",
        "Locus",
        "Mine",
        "Tower",
        *BASIC_LAND_TYPES,
    )
}
_NUMBER_WORDS: Final = {"a": 1, "an": 1, **NUMBER_WORDS}
_KEYWORDS_WITH: Final = frozenset(
    {
        "flying",
        "flash",
        "trample",
        "haste",
        "convoke",
        "deathtouch",
        "lifelink",
        "vigilance",
        "reach",
        "first strike",
        "double strike",
        "menace",
        "defender",
        "hexproof",
        "indestructible",
        "mutate",
        "affinity",
        "delve",
        "kicker",
        "changeling",
    }
)

_REMINDER = re.compile(r"\([^()]*\)")
_SENTENCE = re.compile(r"(?<=[.!])\s*(?=[A-Z•\"])")
_ABILITY_WORD = re.compile(r"^[A-Z][A-Za-z' -]{1,40} — (?=[A-Z])")
_COST = r"(?P<amt>(?:\{[^{}]+\})+)"
_COLORED_ONLY = "this effect reduces only the amount of colored mana you pay."
# Any sentence about what spells cost to cast: what the templates below do not read becomes a warning.
_LESS_MORE = re.compile(
    r"\bcosts? (?:up to )?(?:\{[^{}]+\})+ (?:less|more) to cast\b|costs? \w+ life more"
    r"|\bcosts?\b[^.]*\b(?:less|more)\b[^.]*\bto cast\b|\bcosts? an additional\b[^.]*\bto cast\b"
)

_OWN = re.compile(
    r"^(?:(?P<pre>(?:if|as long as) .+?), )?this spell costs " + _COST + r" (?P<dir>less|more) to cast"
    r"(?: (?P<tail>for each .+?|if .+?))?\.$"
)
_STATIC = re.compile(
    r"^(?:(?P<pre>as long as .+?|during your turn|if .+?), )?(?P<subject>.+?) costs? (?P<upto>up to )?"
    + _COST
    + r" (?P<dir>less|more) to cast(?: for each (?P<each>.+?))?"
    r"(?P<except> except during its controller's turn)?"
    r"(?: and can't be countered)?\.$"
)
_MINIMUM = re.compile(
    r"^(?:(?P<pre>as long as .+?), )?each spell that would cost less than (?P<n>\w+) mana to cast "
    r"costs (?P<m>\w+) mana to cast\.$"
)
_MAX_SENTENCE: Final = 400
"""The longest sentence the templates read (the catalogue's longest cost sentence is far shorter)."""
_TRIGGER_WORDS: Final = ("cost", "ffinity", "have convoke", "have improvise", "have delve")
_GRANT = re.compile(
    r"^(?P<subject>[a-z ,'-]{0,120}?spells[a-z ~',-]{0,120}?) ha(?:ve|s) "
    r"(?P<kw>affinity for [a-z' -]{1,60}|convoke|improvise|delve)\.$"
)
_CLASS_LEVEL_LINE = re.compile(r"^(?:\{[^{}]{1,8}\}){1,12}: level (?P<n>[2-9])$")
_AFFINITY = re.compile(r"^affinity for (?P<what>[a-z' -]+?)\.?$")
_TRIGGER_OR_ACTIVATED = re.compile(r"^(?:when|whenever|at the beginning|at end)\b|^[^\"]*?:\s|^[ivx, ]+ — ")


class _NotUnderstood(Exception):
    """Internal: a recognised sentence shape with a part the reader does not know."""


@lru_cache(maxsize=8192)
def read_cost_effects(name: str, oracle_text: str) -> CardEffects:
    """The cost effects in one face's ``oracle_text`` (``name`` is the face's name, read as "~").

    Cached per (name, text), so a board of repeated cards reads each text once.
    """
    if not oracle_text or not any(w in oracle_text for w in _TRIGGER_WORDS):
        return NO_EFFECTS
    effects: list[Effect] = []
    own: list[CostEffect] = []
    unsupported: list[Unsupported] = []
    own_unsupported: list[Unsupported] = []
    chooses_type = "choose a creature type" in oracle_text
    chooses_card_type = _chooses_card_type(oracle_text)
    for sentence, colored_only, level in _sentences(name, oracle_text):
        low = sentence.casefold()
        if len(low) > _MAX_SENTENCE:
            # Linear-time guard: the templates run only on sentences of real length, so no pattern ever
            # sees a long hostile text; a long sentence that mentions costs is warned about, not read.
            if "cost" in low and ("less" in low or "more" in low or "ffinity" in low or " have " in low):
                unsupported.append(Unsupported(sentence[:200], "a sentence too long to be a cost effect"))
            continue
        grant = _GRANT.match(low)
        if grant:
            try:
                effects.append(_granted(grant, sentence, chooses_type))
            except _NotUnderstood as exc:
                unsupported.append(Unsupported(sentence, str(exc)))
            continue
        if low.startswith("affinity for"):
            try:
                own.append(_affinity(low, sentence))
            except _NotUnderstood as exc:
                own_unsupported.append(Unsupported(sentence, str(exc)))
            continue
        looks = _LESS_MORE.search(low) is not None or "would cost less than" in low
        if not looks:
            continue
        if ("this turn" in low or "each turn" in low) and not _TRIGGER_OR_ACTIVATED.search(low):
            try:
                turn = _this_turn_effect(low, sentence, colored_only)
            except _NotUnderstood:
                turn = None
            if turn is not None:
                (own if turn.own else effects).append(turn)
                continue
        if _TRIGGER_OR_ACTIVATED.search(low) or "this turn" in low or "until " in low:
            target = own_unsupported if "this spell" in low else unsupported
            target.append(Unsupported(sentence, "a triggered, activated or temporary effect; not tracked"))
            continue
        try:
            if "this spell costs" in low:
                own.append(_own_effect(low, sentence, colored_only))
                continue
            m = _MINIMUM.match(low)
            if m:
                effects.append(_minimum(m, sentence))
                continue
            effect = _static_effect(low, sentence, colored_only, chooses_type or chooses_card_type)
            if chooses_card_type and not chooses_type:
                effect = _card_type_chosen(effect)
            effects.append(_at_level(effect, level))
        except _NotUnderstood as exc:
            target = own_unsupported if "this spell" in low else unsupported
            target.append(Unsupported(sentence, str(exc)))
    if not (effects or own or unsupported or own_unsupported):
        return NO_EFFECTS
    return CardEffects(tuple(effects), tuple(own), tuple(unsupported), tuple(own_unsupported))


def _sentences(name: str, text: str) -> list[tuple[str, bool, int]]:
    """Sentences with reminder text removed and the card's name (or short name) read as "~", each with the
    Class level whose ability it is (1 outside a Class's "{cost}: Level N" sections, CR 716.2a).

    The colored-only rider is folded into the sentence before it. Spoiler texts whose line breaks were
    lost ("character.Each spell") are split too.
    """
    text = _REMINDER.sub("", text)
    names = {name}
    if ", " in name:
        names.add(name.split(", ")[0])
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "~")
    text = re.sub(r"\.(?=[A-Z])", ". ", text)
    out: list[tuple[str, bool, int]] = []
    level = 1
    for line in text.split("\n"):
        line = _ABILITY_WORD.sub("", line.strip())
        if len(line) <= 120:
            m = _CLASS_LEVEL_LINE.match(line.casefold())
            if m:
                level = int(m.group("n"))
                continue
        for raw in _SENTENCE.split(line):
            s = raw.strip()
            if not s:
                continue
            if s.casefold() == _COLORED_ONLY and out:
                out[-1] = (out[-1][0], True, out[-1][2])
                continue
            out.append((s, False, level))
    return out


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
}
# "The first [kind] spell you cast each turn": the fact that counts the earlier spells of that kind.
_FIRST_KIND: Final = {
    "": "spells_cast",
    "creature ": "creature_spells_cast",
    "noncreature ": "noncreature_spells_cast",
    "instant or sorcery ": "instant_sorcery_spells_cast",
    "instant and sorcery ": "instant_sorcery_spells_cast",
}
_ORDINALS: Final = {"first": 0, "second": 1, "third": 2}


def _this_turn_effect(low: str, sentence: str, colored_only: bool) -> CostEffect | None:
    """Cost sentences that read this turn's facts (CR 500.1; a spell being cast is not yet cast, 601.2i)."""
    if len(low) > 200:
        return None
    m = _OWN.match(low)
    if m and not m.group("pre") and m.group("tail"):
        tail = m.group("tail")
        direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
        amount = _cost(m.group("amt"))
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
        rule = _rule_for(amount, direction)
        return CostEffect(
            direction, amount, SpellFilter(), rule, sentence, per, condition, colored_only, own=True
        )
    for ordinal, earlier in _ORDINALS.items():
        for kind, fact in _FIRST_KIND.items():
            head = f"the {ordinal} {kind}spell you cast each turn costs "
            if not low.startswith(head):
                continue
            rest = low[len(head) :]
            for direction, word in (
                (Direction.REDUCTION, " less to cast."),
                (Direction.INCREASE, " more to cast."),
            ):
                if rest.endswith(word):
                    amount = _cost(rest[: -len(word)])
                    spells = _spell_subject(f"{kind}spells you cast", False)
                    text = f"the {ordinal} {kind}spell you cast each turn"
                    condition = Condition(ConditionKind.THIS_TURN, text, (), Who.YOU, earlier, earlier, fact)
                    rule = _rule_for(amount, direction)
                    return CostEffect(
                        direction, amount, spells, rule, sentence, None, condition, colored_only
                    )
    return None


def _chooses_card_type(text: str) -> bool:
    """ "choose artifact, creature, enchantment, instant, or sorcery" / "choose a card type" (Cloud Key)."""
    low = text.casefold()
    return "choose a card type" in low or "choose artifact, creature, enchantment, instant, or sorcery" in low


def _card_type_chosen(effect: CostEffect) -> CostEffect:
    """ "of the chosen type" where the source chose a card type (CR 205.2a), not a creature type."""
    qualities = tuple(
        replace(q, chosen_creature_type=False, chosen_card_type=True) if q.chosen_creature_type else q
        for q in effect.spells.qualities
    )
    return replace(effect, spells=replace(effect.spells, qualities=qualities))


def _at_level(effect: CostEffect, level: int) -> CostEffect:
    """CR 716.2a: a Class's level-N ability works only while the Class is level N or greater."""
    if level <= 1:
        return effect
    if effect.condition is not None:
        raise _NotUnderstood("a condition inside a Class level")
    condition = Condition(
        ConditionKind.CLASS_LEVEL, f"as long as ~ is level {level} or greater", at_least=level
    )
    return replace(effect, condition=condition)


def _granted(m: re.Match[str], sentence: str, chooses_type: bool) -> CostEffect:
    """ "[spells] you cast have affinity for [quality]" (CR 702.41a, 613.1f: granted, it counts like a
    printed affinity). Convoke, improvise and delve are ways to pay (CR 702.51a, 702.126a, 702.66a), not
    changes of the total: they are reported as not read here, since the total would not show them."""
    kw = m.group("kw")
    if not kw.startswith("affinity for "):
        raise _NotUnderstood(
            f"grants {kw}: a way to pay (CR 702.51a, 702.126a, 702.66a) that the total cost does not show"
        )
    spells = _spell_subject(m.group("subject"), chooses_type)
    what = kw[len("affinity for ") :].strip()
    quality = _quality(what, plural=True)
    per = Count(CountKind.PERMANENTS, f"one of the {what} you control", quality, Who.YOU)
    return CostEffect(Direction.REDUCTION, ManaCost.of(1), spells, "702.41a", sentence, per)


def _cost(text: str) -> ManaCost:
    try:
        cost = ManaCost.parse(text)
    except ManaCostSyntaxError as exc:
        raise _NotUnderstood(f"unknown amount {text}") from exc
    if cost.variables:
        raise _NotUnderstood("an amount X defined by text that is not read")
    return cost


def _rule_for(amount: ManaCost, direction: Direction) -> str:
    if direction is Direction.INCREASE:
        return "601.2f"
    kinds = {s.kind for s in amount.others}
    if not kinds:
        return "118.7a"
    if kinds & {
        SymbolKind.HYBRID,
        SymbolKind.MONO_HYBRID,
        SymbolKind.COLORLESS_HYBRID,
        SymbolKind.HYBRID_PHYREXIAN,
    }:
        return "118.7e"
    if SymbolKind.PHYREXIAN in kinds:
        return "118.7f"
    if kinds == {SymbolKind.SNOW}:
        return "118.7g"
    if kinds == {SymbolKind.COLORLESS}:
        return "118.7d"
    return "118.7c"


def _own_effect(low: str, sentence: str, colored_only: bool) -> CostEffect:
    """ "This spell costs {N} less to cast [for each ...|if ...]" (CR 601.2f; party: CR 700.8)."""
    m = _OWN.match(low)
    if not m:
        raise _NotUnderstood("this spell's cost sentence has an unknown shape")
    direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
    amount = _cost(m.group("amt"))
    per: Count | None = None
    condition: Condition | None = None
    tail = m.group("tail")
    if m.group("pre"):
        condition = _condition(m.group("pre"))
    if tail:
        if tail.startswith("for each "):
            per = _count(tail[len("for each ") :])
        else:
            if condition is not None:
                raise _NotUnderstood("two conditions")
            condition = _condition(tail)
    rule = "700.8" if per is not None and per.kind is CountKind.PARTY else _rule_for(amount, direction)
    return CostEffect(
        direction, amount, SpellFilter(), rule, sentence, per, condition, colored_only, False, True
    )


def _affinity(low: str, sentence: str) -> CostEffect:
    """CR 702.41a: "Affinity for [text]" = "This spell costs {1} less to cast for each [text] you control"."""
    m = _AFFINITY.match(low.strip())
    if not m:
        raise _NotUnderstood("unknown affinity")
    quality = _quality(m.group("what"), plural=True)
    per = Count(CountKind.PERMANENTS, f"one of the {m.group('what')} you control", quality, Who.YOU)
    return CostEffect(
        Direction.REDUCTION, ManaCost.of(1), SpellFilter(), "702.41a", sentence, per, None, False, False, True
    )


def _minimum(m: re.Match[str], sentence: str) -> MinimumTotal:
    n = _number(m.group("n"))
    if n != _number(m.group("m")):
        raise _NotUnderstood("minimum with two different amounts")
    condition = _condition(m.group("pre")) if m.group("pre") else None
    return MinimumTotal(n, SpellFilter(), sentence, condition)


def _static_effect(low: str, sentence: str, colored_only: bool, chooses_type: bool) -> CostEffect:
    m = _STATIC.match(low)
    if not m:
        raise _NotUnderstood("a cost sentence of an unknown shape")
    direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
    amount = _cost(m.group("amt"))
    spells = _spell_subject(m.group("subject"), chooses_type)
    pre = m.group("pre")
    condition = _condition(pre) if pre and pre not in _ALWAYS else None
    if m.group("except"):
        if condition is not None:
            raise _NotUnderstood("two conditions")
        condition = Condition(ConditionKind.NOT_CASTERS_TURN, "except during its controller's turn")
    per = _count(m.group("each")) if m.group("each") else None
    return CostEffect(
        direction,
        amount,
        spells,
        _rule_for(amount, direction),
        sentence,
        per,
        condition,
        colored_only,
        m.group("upto") is not None,
        False,
    )


_SUBJECT_MODIFIERS: Final = (
    (re.compile(r"^you cast\b"), "caster_you"),
    (re.compile(r"^your opponents cast\b"), "caster_opponents"),
    (re.compile(r"^of the chosen type\b"), "chosen_type"),
    (re.compile(r"^with the chosen name\b"), "chosen_name"),
    (re.compile(r"^with mana value (\d+) or greater\b"), "min_mv"),
    (re.compile(r"^from your graveyard\b"), "from_graveyard"),
    (re.compile(r"^from anywhere other than your hand\b"), "not_from_hand"),
    (re.compile(r"^that targets? ~(?= |$)"), "targets_source"),
    (re.compile(r"^with ([a-z ]+?)(?= you cast\b| your opponents cast\b| of the\b|$)"), "keyword"),
)


_ALWAYS: Final = frozenset({"as long as ~ is in the command zone or on the battlefield"})
"""Conditions always true for a permanent on the battlefield (eminence)."""


def _spell_subject(subject: str, chooses_type: bool) -> SpellFilter:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter."""
    s = subject.strip()
    for prefix in ("each ", "other "):
        if s.startswith(prefix):
            s = s[len(prefix) :]
    idx = max(s.rfind("spells"), s.rfind("spell"))
    if idx < 0 or not re.search(r"\bspells?\b", s):
        raise _NotUnderstood("the effect does not describe spells")
    m = list(re.finditer(r"\bspells?\b", s))[-1]
    head, rest = s[: m.start()].strip(), s[m.end() :].strip()
    caster = Who.ANY
    min_mv: int | None = None
    from_zone: str | None = None
    not_from: str | None = None
    chosen_type = chosen_name = targets_source = False
    keyword: str | None = None
    while rest:
        for pattern, tag in _SUBJECT_MODIFIERS:
            mm = pattern.match(rest)
            if not mm:
                continue
            if tag == "caster_you":
                caster = Who.YOU
            elif tag == "caster_opponents":
                caster = Who.OPPONENTS
            elif tag == "chosen_type":
                if not chooses_type:
                    raise _NotUnderstood("a chosen type that is not a creature type")
                chosen_type = True
            elif tag == "chosen_name":
                chosen_name = True
            elif tag == "min_mv":
                min_mv = int(mm.group(1))
            elif tag == "from_graveyard":
                from_zone = "graveyard"
            elif tag == "not_from_hand":
                not_from = "hand"
            elif tag == "targets_source":
                targets_source = True
            elif tag == "keyword":
                if mm.group(1) not in _KEYWORDS_WITH:
                    raise _NotUnderstood(f"spells with {mm.group(1)}")
                keyword = mm.group(1)
            rest = rest[mm.end() :].strip()
            break
        else:
            raise _NotUnderstood(f"spells {rest}: a condition on spells that is not read")
    qualities: list[Quality] = []
    if head:
        head = re.sub(r"\bspells\b", "", head)
        parts = [p.strip() for p in re.split(r",? and |,? or |, ", head) if p.strip()]
        for part in parts:
            qualities.append(_quality(part, plural=False))
    if chosen_type or keyword:
        base = qualities or [Quality()]
        qualities = [
            Quality(
                q.types,
                q.not_types,
                q.supertypes,
                q.subtypes,
                q.not_subtypes,
                q.colors,
                q.colorless,
                q.multicolored,
                q.monocolored,
                q.historic,
                chosen_type or q.chosen_creature_type,
                keyword or q.keyword,
            )
            for q in base
        ]
    return SpellFilter(
        caster,
        tuple(qualities),
        min_mv,
        from_zone,
        not_from,
        chosen_name,
        False,
        targets_source=targets_source,
    )


def _singular(word: str) -> str:
    if word in ("plains", "equipment", "sorcery"):
        return word
    if word.endswith("ies") and canonical_creature_type(word[:-3] + "y") is not None:
        return word[:-3] + "y"
    if word.endswith("ies"):
        return word[:-1] if canonical_creature_type(word[:-1]) else word[:-3] + "y"
    if word.endswith("ves") and canonical_creature_type(word[:-3] + "f"):
        return word[:-3] + "f"
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _quality(text: str, *, plural: bool) -> Quality:
    """Words such as "red creature", "noncreature", "Kithkin", "snow land", "creature with flying"."""
    text = text.strip()
    keyword: str | None = None
    m = re.match(r"^(.*?) with ([a-z ]+)$", text)
    if m:
        if m.group(2) not in _KEYWORDS_WITH:
            raise _NotUnderstood(f"{text}: a quality that is not read")
        text, keyword = m.group(1), m.group(2)
    types: list[str] = []
    not_types: list[str] = []
    supertypes: list[str] = []
    subtypes: list[str] = []
    not_subtypes: list[str] = []
    colors: list[str] = []
    colorless = multicolored = monocolored = historic = False
    for raw in text.split():
        word = _singular(raw) if plural else raw
        if word in ("permanent", "permanents", "spell", "card"):
            continue
        if word in _COLOR_WORDS:
            colors.append(_COLOR_WORDS[word])
        elif word == "colorless":
            colorless = True
        elif word == "multicolored":
            multicolored = True
        elif word == "monocolored":
            monocolored = True
        elif word == "historic":
            historic = True
        elif word in _CARD_TYPE_WORDS:
            types.append(_CARD_TYPE_WORDS[word])
        elif word in _SUPERTYPE_WORDS:
            supertypes.append(_SUPERTYPE_WORDS[word])
        elif word.startswith("non") and word[3:].lstrip("-") in _CARD_TYPE_WORDS:
            not_types.append(_CARD_TYPE_WORDS[word[3:].lstrip("-")])
        elif word.startswith("non-") and _subtype(word[4:]) is not None:
            not_subtypes.append(_subtype(word[4:]) or "")
        elif _subtype(word) is not None:
            subtypes.append(_subtype(word) or "")
        else:
            raise _NotUnderstood(f"{text}: the word {raw!r} is not a quality the reader knows")
    return Quality(
        tuple(types),
        tuple(not_types),
        tuple(supertypes),
        tuple(subtypes),
        tuple(not_subtypes),
        tuple(colors),
        colorless,
        multicolored,
        monocolored,
        historic,
        False,
        keyword,
    )


def _subtype(word: str) -> str | None:
    ct = canonical_creature_type(word)
    if ct is not None:
        return ct
    return _OTHER_SUBTYPES.get(word.casefold())


def _count(text: str) -> Count:
    """ "for each ..." (CR 601.2f): party (CR 700.8), domain, opponents, permanents you/opponents control."""
    t = text.strip()
    if t in ("creature in your party",):
        return Count(CountKind.PARTY, t)
    if t == "basic land type among lands you control":
        return Count(CountKind.DOMAIN, t)
    if t in ("opponent you have",):
        return Count(CountKind.OPPONENTS, t)
    if t == "target beyond the first":
        return Count(CountKind.TARGETS_BEYOND_FIRST, t)
    if t == "target":
        return Count(CountKind.TARGETS, t)
    if t.endswith(" card in your graveyard") and len(t) <= 80:
        what = t[: -len(" card in your graveyard")]
        return Count(CountKind.GRAVEYARD_CARDS, t, _quality(what, plural=False), Who.YOU)
    if t.endswith(" counter on ~") and len(t) <= 40:
        kind = t[: -len(" counter on ~")]
        if kind and " " not in kind.strip():
            return Count(CountKind.COUNTERS_ON_SOURCE, t, counter=kind)
    for suffix, whose in (
        (" you control", Who.YOU),
        (" your opponents control", Who.OPPONENTS),
        (" on the battlefield", Who.ANY),
    ):
        if t.endswith(suffix):
            return Count(CountKind.PERMANENTS, t, _quality(t[: -len(suffix)], plural=False), whose)
    raise _NotUnderstood(f"for each {t}: a count that is not on the board")


def _number(word: str) -> int:
    if word.isdigit():
        return int(word)
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    raise _NotUnderstood(f"the number {word!r}")


_CONTROLS = re.compile(
    r"^(?:if|as long as) (?P<who>you control|an opponent controls) "
    r"(?:(?P<n>a|an|one|two|three|four|five|six|seven|\d+) or more |(?P<art>a|an|no) )?(?P<what>.+)$"
)


def _condition(text: str) -> Condition:
    t = text.strip()
    if t in ("as long as ~ is untapped",):
        return Condition(ConditionKind.SOURCE_UNTAPPED, t)
    if t in ("as long as ~ is tapped",):
        return Condition(ConditionKind.SOURCE_TAPPED, t)
    if t in ("as long as it's your turn", "during your turn"):
        return Condition(ConditionKind.YOUR_TURN, t)
    if t in ("as long as it's not your turn",):
        return Condition(ConditionKind.NOT_YOUR_TURN, t)
    m = _CONTROLS.match(t)
    if m:
        whose = Who.YOU if m.group("who") == "you control" else Who.OPPONENTS
        what = m.group("what")
        at_least, at_most = 1, None
        plural = False
        if m.group("n"):
            at_least, plural = _number(m.group("n")), True
        elif m.group("art") == "no":
            at_least, at_most, plural = 0, 0, True
        alternatives = [p for p in re.split(r" or (?:a |an )?", what) if p]
        qualities = tuple(_quality(p, plural=plural) for p in alternatives)
        return Condition(ConditionKind.CONTROLS, t, qualities, whose, at_least, at_most)
    raise _NotUnderstood(f"{t}: a condition that is not on the board")
