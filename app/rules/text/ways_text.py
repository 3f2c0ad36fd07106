"""Casting sentences that are not keyword lines, read through the ``"ways"`` template registry.

Two readers:

- ``read_own(name, text)``: a card's own alternative costs written in its text ("You may pay 1 life and
  exile a blue card from your hand rather than pay this spell's mana cost.", CR 118.9, 601.2b) and its own
  permissions to be cast from another zone ("You may cast ~ from your graveyard using its blitz ability.",
  CR 601.3).
- ``read_granted(name, text)``: what a permanent or a lasting effect grants to the spells its controller
  casts: permissions to cast from a zone, alternative costs, escape and flashback (CR 601.2b, 118.9, 613).

Sentences are prepared as every template reader prepares them: reminder text removed, the card's own name
replaced by ``~``, lower-cased. A sentence that speaks of casting and that no template reads is returned as
not read, so the answer can warn (nothing silent). Patterns are anchored and bounded, sentences longer than
``_MAX_SENTENCE`` characters are refused unread, so no text makes a pattern backtrack for long.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypeAlias

from app.rules.casting.permissions import (
    GrantedText,
    KeywordCostChange,
    OwnPermission,
    Permission,
    PermissionKind,
    SpellKind,
)
from app.rules.casting.ways import OtherCost, Way, WayKind, number_word
from app.rules.errors import RulesError
from app.rules.text.templates import Template, registry
from app.rules.values.costs import ManaCost
from app.rules.values.creature_types import CREATURE_TYPE_LIST

WAYS = registry("ways")
ALL_ZONES: Final = ("hand", "graveyard", "exile", "library", "command")
_MAX_SENTENCE: Final = 400
_ABILITY_WORD: Final = r"(?:[a-z' -]{1,30} — )?"
_COND: Final = r"(?:(?P<cond>(?:if|as long as) [^,]{1,120}), )?"

# -- a card's own text ------------------------------------------------------------------------------------

OWN_ALTERNATIVE = WAYS.add(
    "own-alternative-cost",
    rf"^{_ABILITY_WORD}{_COND}you may (?P<cost>[^.]{{1,200}}?) rather than pay "
    r"(?:this spell's|~'s) mana cost(?: (?P<cond2>if [^.]{1,120}))?\.?$",
    rule="118.9",
    examples=(
        "you may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost.",
        "you may return an island you control to its owner's hand rather than pay this spell's mana cost.",
        "if you control a swamp, you may pay 4 life rather than pay this spell's mana cost.",
        "you may sacrifice two mountains rather than pay this spell's mana cost.",
        "you may pay {b} rather than pay this spell's mana cost if there are thirteen or more creatures on "
        "the battlefield.",
    ),
    yields="a Way (method alternative): the cost paid rather than the mana cost, and its other costs",
)
OWN_ALTERNATIVE_FIRST = WAYS.add(
    "own-alternative-cost-rather-first",
    r"^(?:(?P<cond>(?:if|as long as) [^,]{1,120}), )?rather than pay this spell's mana cost, you may "
    r"(?P<cost>[^.]{1,200})\.?$",
    rule="118.9",
    examples=(
        "if you control a forest, rather than pay this spell's mana cost, you may have each other player "
        "gain 6 life.",
    ),
    yields="a Way (method alternative), as own-alternative-cost",
)
OWN_WITHOUT_PAYING = WAYS.add(
    "own-without-paying",
    r"^(?:(?P<cond>(?:if|as long as) [^,]{1,160}), )?you may cast (?:this spell|~) without paying its mana "
    r"cost\.?$",
    rule="118.9",
    examples=(
        "if an opponent controls an island and you control a mountain, you may cast this spell without "
        "paying its mana cost.",
    ),
    yields="a Way (method alternative) of {0}",
)
OWN_ZONE_USING = WAYS.add(
    "own-zone-using-keyword",
    r"^you may cast ~ from your (?P<zone>graveyard|exile) using its (?P<kw>[a-z -]{1,30}) ability\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard using its mutate ability.",
        "you may cast ~ from your graveyard using its blitz ability.",
    ),
    yields="an OwnPermission: the keyword's way applies from that zone too",
)
OWN_ZONE_PAYING = WAYS.add(
    "own-zone-paying",
    rf"^{_COND}you may cast ~ from your (?P<zone>graveyard|exile) by (?P<cost>[^.]{{1,200}}?) rather than "
    r"paying its mana cost\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard by paying {2}{w} rather than paying its mana cost.",
        "as long as you control a giant, you may cast ~ from your graveyard by paying {u} rather than paying "
        "its mana cost.",
        "you may cast ~ from your graveyard by paying {b}{b} and sacrificing two creatures rather than "
        "paying its mana cost.",
    ),
    yields="an OwnPermission with an alternative cost from that zone",
)
OWN_ZONE_ADDITIONAL = WAYS.add(
    "own-zone-with-additional-cost",
    r"^(?:[a-z' -]{1,30} — )?you may cast ~ from your (?P<zone>graveyard|exile) by (?P<cost>[^.]{1,200}?) in "
    r"addition to paying its other costs\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard by paying 3 life and discarding a card in addition to paying its "
        "other costs.",
        "you may cast ~ from your graveyard by discarding two cards in addition to paying its other costs.",
    ),
    yields="an OwnPermission: the normal costs plus these, from that zone",
)
OWN_ZONE = WAYS.add(
    "own-zone",
    r"^(?:(?P<cond1>(?:if|as long as) [^,]{1,120}), )?you may cast ~ from (?:your )?(?P<zone>graveyard|exile)"
    r"(?P<both> or from exile)?(?: (?P<cond>as long as [^.]{1,120}|if [^.]{1,120}))?\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard as long as you control a zombie.",
        "you may cast ~ from your graveyard.",
        "you may cast ~ from exile.",
        "you may cast ~ from your graveyard or from exile.",
    ),
    yields="an OwnPermission: the normal costs, from that zone",
)

# -- what a permanent or an effect grants -------------------------------------------------------------------

GRANT_FROM_HAND_FREE = WAYS.add(
    "grant-from-hand-without-paying",
    r"^(?:until end of turn, )?you may cast (?P<what>[a-z ,0-9]{0,80}?)spells from your hand without paying "
    r"their mana costs\.?$",
    rule="118.9",
    examples=(
        "you may cast spells from your hand without paying their mana costs.",
        "until end of turn, you may cast spells from your hand without paying their mana costs.",
    ),
    yields="a Permission (alternative {0}) for spells cast from the hand",
)
GRANT_FREE = WAYS.add(
    "grant-without-paying",
    r"^(?P<who>you|any player) may cast (?P<what>[a-z ,0-9]{0,80}?)spells"
    r"(?: with mana value (?P<n>\d{1,2}) or less)? without paying their mana costs"
    r"(?: and as though they had flash)?\.?$",
    rule="118.9",
    examples=(
        "you may cast dragon spells without paying their mana costs.",
        "any player may cast creature spells with mana value 3 or less without paying their mana costs "
        "and as though they had flash.",
    ),
    yields="a Permission (alternative {0}) for the spells described, from the hand",
)
GRANT_PAY_RATHER = WAYS.add(
    "grant-pay-rather-than-mana-cost",
    r"^(?P<once>once each turn, )?you may pay (?P<cost>(?:\{[^{}]{1,5}\}){1,10}) rather than pay the "
    r"mana cost for (?P<what>[a-z ,0-9]{0,80}?)spells? (?:that )?you cast"
    r"(?P<hand> from your hand| from exile)?\.?$",
    rule="118.9",
    examples=(
        "you may pay {w}{u}{b}{r}{g} rather than pay the mana cost for spells that you cast.",
        "you may pay {0} rather than pay the mana cost for zombie creature spells you cast.",
        "once each turn, you may pay {0} rather than pay the mana cost for a colorless spell that you cast "
        "from your hand.",
    ),
    yields="a Permission (alternative cost) for the spells described, from the hand",
)
GRANT_LIFE_ALTERNATIVE = WAYS.add(
    "grant-life-alternative",
    r"^(?P<once>once during each of your turns, )?you may cast (?P<what>[a-z ,0-9]{1,80}?) "
    r"(?:from your hand )?by paying life equal to its mana value rather than paying its mana cost\.?$",
    rule="118.9",
    examples=(
        "once during each of your turns, you may cast a spell from your hand by paying life equal to its "
        "mana value rather than paying its mana cost.",
        "once during each of your turns, you may cast an enchantment spell by paying life equal to its mana "
        "value rather than paying its mana cost.",
    ),
    yields="a Permission (alternative): life equal to the mana value rather than the mana cost",
)
GRANT_ZONE = WAYS.add(
    "grant-cast-from-zone",
    r"^(?:as long as ~ is on the battlefield, )?(?P<turn>during your turn, )?"
    r"(?P<when>until end of turn, |once during each of your turns, |during each of your turns, "
    r"|once each turn, )?you may (?:play (?:lands|a land) and )?cast (?P<what>[a-z ,0-9-]{1,120}?) from "
    r"(?P<zone>your graveyard|the top of your library)"
    r"(?: by (?P<extra>[^.]{1,120}?) in addition to (?:paying )?(?:its|their) other costs)?\.?$",
    rule="601.3",
    examples=(
        "until end of turn, you may play lands and cast spells from your graveyard.",
        "during each of your turns, you may cast one permanent spell with mana value 2 or less from your "
        "graveyard.",
        "once during each of your turns, you may cast an instant or sorcery spell from your graveyard.",
        "you may play lands and cast spells from the top of your library.",
        "you may cast creature spells from the top of your library.",
        "during each of your turns, you may play a land and cast a permanent spell of each permanent type "
        "from your graveyard.",
        "once during each of your turns, you may cast an instant or sorcery spell from your graveyard by "
        "sacrificing a creature in addition to paying its other costs.",
        "once each turn, you may cast an instant or sorcery spell from the top of your library.",
    ),
    yields="a Permission (zone): the spells described may be cast from that zone for their costs (and the "
    "extra costs it names)",
)
GRANT_LIFE = WAYS.add(
    "grant-life-rather-than-mana-cost",
    r"^if you cast a spell this way, (?:you )?pay life equal to (?:its|that spell's) mana value rather than "
    r"pay(?:ing)? its mana cost\.?$",
    rule="118.9",
    examples=(
        "if you cast a spell this way, pay life equal to its mana value rather than pay its mana cost.",
    ),
    yields="the permission before it costs life equal to the mana value rather than the mana cost",
)
GRANT_ESCAPE = WAYS.add(
    "grant-escape",
    r"^each (?P<what>[a-z ,]{1,60}?) card in your graveyard has escape\.?$",
    rule="702.138a",
    examples=("each nonland card in your graveyard has escape.",),
    yields="a Permission (keyword escape) from the graveyard; its cost is the next sentence",
)
GRANT_FLASHBACK = WAYS.add(
    "grant-flashback",
    r"^(?P<turn>as long as it's your turn, |during your turn, )?each (?P<what>[a-z ,-]{1,60}?) card in your "
    r"graveyard (?:gains|has) flashback(?: until end of turn)?\.?$",
    rule="702.34a",
    examples=(
        "each instant and sorcery card in your graveyard gains flashback until end of turn.",
        "as long as it's your turn, each instant and sorcery card in your graveyard has flashback.",
    ),
    yields="a Permission (keyword flashback) from the graveyard; its cost is the next sentence",
)
GRANT_FLASHBACK_TARGET = WAYS.add(
    "grant-flashback-to-target",
    r"^when(?:ever)? ~ enters(?: the battlefield)?, (?:up to one )?target (?P<what>[a-z ,]{1,60}?) "
    r"card in your graveyard gains flashback until end of turn\.?$",
    rule="702.34a",
    examples=(
        "when ~ enters, target instant or sorcery card in your graveyard gains flashback until end of turn.",
    ),
    yields="a Permission (keyword flashback) for the card the trigger targeted (chosen card_name)",
)
KEYWORD_COST_IS_MANA_COST = WAYS.add(
    "granted-keyword-cost",
    r"^the (?P<kw>escape|flashback) cost is equal to (?:its|the card's) mana cost"
    r"(?: plus (?P<plus>[^.]{1,120}))?\.?$",
    rule="601.2f",
    examples=(
        "the flashback cost is equal to its mana cost.",
        "the escape cost is equal to the card's mana cost plus exile three other cards from your graveyard.",
    ),
    yields="the cost of the keyword granted by the sentence before",
)

KEYWORD_COST_LESS = WAYS.add(
    "keyword-costs-cost-less",
    r"^(?P<kw>buyback|kicker|flashback|entwine|multikicker|replicate) costs cost \{(?P<n>\d{1,2})\} less\.?$",
    rule="118.7a",
    examples=("buyback costs cost {2} less.",),
    yields="a KeywordCostChange: that optional cost reduced by {N} each time it is paid",
)

_OWN_TEMPLATES: Final = frozenset(
    t.name
    for t in (
        OWN_ALTERNATIVE,
        OWN_ALTERNATIVE_FIRST,
        OWN_WITHOUT_PAYING,
        OWN_ZONE_USING,
        OWN_ZONE_PAYING,
        OWN_ZONE_ADDITIONAL,
        OWN_ZONE,
    )
)

# Sentences that speak of casting this card, or of casting spells for other costs: when no template reads
# them, the answer says so.
_OWN_CASTING: Final = re.compile(
    r"rather than pay (?:this spell's|~'s) mana cost|\bcast ~ from\b|cast ~ without"
)
_GRANTED_CASTING: Final = re.compile(
    r"rather than pay(?:ing)? (?:the|its|their) mana costs?|without paying their mana costs|"
    r"\bmay (?:play lands and )?cast [a-z ,0-9]*spells? from\b|card in your graveyard (?:has|gains) \w|"
    r"can't (?:play lands or )?cast spells from"
)
# One-shot effects on particular objects ("cast a spell from among them", "cast the copy"): no standing
# permission for the spells a request costs; casting such a card from exile is warned about where it is cast.
_ONE_SHOT: Final = re.compile(
    r"from among|the cop(?:y|ies)|that card|those cards|the exiled card|it this turn"
)
_TRIGGER: Final = re.compile(r"^(?:when|whenever|at the beginning|at end)\b|^[^\"]{0,80}?: ")
_REMINDER: Final = re.compile(r"\([^()]*\)")
# a sentence ends at ". " before a capital, or at a "." stuck to one (spoiler texts that lost a line break)
_SENTENCE_END: Final = re.compile(r"(?<=[.!])\s*(?=[A-Z{~])")

_VERBS: Final = {
    "paying": "pay",
    "sacrificing": "sacrifice",
    "exiling": "exile",
    "discarding": "discard",
    "returning": "return",
    "tapping": "tap",
    "removing": "remove",
    "revealing": "reveal",
}
_COST_VERBS: Final = frozenset(
    {"pay", "sacrifice", "exile", "discard", "return", "tap", "remove", "reveal", "have"}
)


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence as the templates read it (``low``) and with its case kept (``text``), same length."""

    text: str
    low: str


def sentences(name: str, oracle_text: str) -> list[Sentence]:
    """The text's sentences: reminder text removed (CR 207.2), the card's name (and its short name before a
    comma, "Brokkos") as ``~``."""
    out: list[Sentence] = []
    short = name.split(",", 1)[0] if "," in name else None
    for line in oracle_text.split("\n"):
        line = _REMINDER.sub("", line).strip()
        if name:
            line = line.replace(name, "~")
            if short:
                line = line.replace(short, "~")
        for part in _SENTENCE_END.split(line):
            part = part.strip()
            if part:
                out.append(Sentence(part, part.lower()))
    return out


class _Unreadable(ValueError):
    pass


def _mana(text: str) -> ManaCost:
    try:
        return ManaCost.parse(text)
    except RulesError as exc:
        raise _Unreadable(f"the cost {text!r} does not parse: {exc}") from exc


def cost_phrase(text: str) -> tuple[ManaCost, tuple[OtherCost, ...]]:
    """ "pay 1 life and exile a blue card from your hand" -> ({0}, [Pay 1 life, Exile a blue card from your
    hand]); "paying {b}{b} and sacrificing two creatures" -> ({B}{B}, [Sacrifice two creatures]). Parts are
    split at " and " or ", " before a cost verb (CR 118.1: a cost may have several parts, all paid)."""
    words = text.strip().rstrip(".").split(" ")
    parts: list[list[str]] = [[]]
    for i, raw in enumerate(words):
        w = raw.rstrip(",")
        low = _VERBS.get(w.lower(), w.lower())
        if (
            i
            and low in _COST_VERBS
            and (words[i - 1].lower() in ("and", "and,") or words[i - 1].endswith(","))
        ):
            if parts[-1] and parts[-1][-1].lower() == "and":
                parts[-1].pop()
            parts.append([])
        parts[-1].append(_VERBS.get(raw.lower(), raw) if not parts[-1] else raw)
    mana = ManaCost.zero()
    others: list[OtherCost] = []
    for part in parts:
        phrase = " ".join(part).strip().rstrip(",").strip()
        if not phrase:
            raise _Unreadable("an empty part of a cost")
        head, _, rest = phrase.partition(" ")
        if head.lower() == "pay" and rest.startswith("{") and rest.endswith("}") and " " not in rest:
            mana = mana + _mana(rest)
            continue
        n = (
            number_word(rest.split(" ")[0])
            if head.lower() == "pay" and rest.lower().endswith(" life")
            else None
        )
        if n is not None:  # "pay 0 life" is a life payment of 0 (CR 119.4), not a text
            others.append(OtherCost(f"Pay {n} life", n))
            continue
        if "{" in phrase or head.lower() not in _COST_VERBS:
            raise _Unreadable(f"a cost part that is not read: {phrase!r}")
        others.append(OtherCost(phrase[0].upper() + phrase[1:]))
    return mana, tuple(others)


def _original(s: Sentence, m: re.Match[str], group: str) -> str:
    start, end = m.span(group)
    return s.text[start:end]


def _condition(s: Sentence, m: re.Match[str], *groups: str) -> str | None:
    for g in groups:
        if m.groupdict().get(g):
            return _original(s, m, g)
    return None


@dataclass(frozen=True, slots=True)
class OwnText:
    """A card's own casting sentences: alternative costs (Ways, method "alternative", ``which`` from 1),
    permissions from other zones, and sentences about casting it that were not read."""

    alternatives: tuple[Way, ...] = ()
    permissions: tuple[OwnPermission, ...] = ()
    not_read: tuple[str, ...] = ()


@lru_cache(maxsize=8192)
def read_own(name: str, oracle_text: str) -> OwnText:
    """A card's own alternative costs and zone permissions (see the module)."""
    alternatives: list[Way] = []
    permissions: list[OwnPermission] = []
    not_read: list[str] = []
    for s in sentences(name, oracle_text):
        if len(s.low) > _MAX_SENTENCE:
            if _OWN_CASTING.search(s.low[:_MAX_SENTENCE]):
                not_read.append(s.text)
            continue
        found = WAYS.match(s.low)
        if found is None or found[0].name not in _OWN_TEMPLATES:
            if _OWN_CASTING.search(s.low):
                not_read.append(s.text)
            continue
        template, m = found
        try:
            _own(template, s, m, alternatives, permissions)
        except _Unreadable:
            not_read.append(s.text)
    return OwnText(tuple(alternatives), tuple(permissions), tuple(not_read))


def _own(
    template: Template,
    s: Sentence,
    m: re.Match[str],
    alternatives: list[Way],
    permissions: list[OwnPermission],
) -> None:
    if template in (OWN_ALTERNATIVE, OWN_ALTERNATIVE_FIRST):
        mana, others = cost_phrase(_original(s, m, "cost"))
        cond = _condition(s, m, "cond", "cond2")
        alternatives.append(
            Way(
                "alternative",
                "118.9",
                WayKind.ALTERNATIVE,
                ALL_ZONES,
                mana,
                others,
                cond,
                s.text,
                which=len(alternatives) + 1,
            )
        )
    elif template is OWN_WITHOUT_PAYING:
        cond = _condition(s, m, "cond")
        n = len(alternatives) + 1
        way = Way("alternative", "118.9", WayKind.WITHOUT_MANA, ALL_ZONES, None, (), cond, s.text, which=n)
        alternatives.append(way)
    elif template is OWN_ZONE_USING:
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, keyword=m["kw"].strip()))
    elif template is OWN_ZONE_PAYING:
        mana, others = cost_phrase(_original(s, m, "cost"))
        permissions.append(
            OwnPermission(
                m["zone"], "601.3", s.text, cost=mana, other_costs=others, condition=_condition(s, m, "cond")
            )
        )
    elif template is OWN_ZONE_ADDITIONAL:
        mana, others = cost_phrase(_original(s, m, "cost"))
        if mana != ManaCost.zero():
            raise _Unreadable("mana added to the costs is not read")
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, other_costs=others))
    else:
        cond = _condition(s, m, "cond1", "cond")
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, condition=cond))
        if m["both"]:
            permissions.append(OwnPermission("exile", "601.3", s.text, condition=cond))


# -- granted ----------------------------------------------------------------------------------------------

_TYPE_WORDS: Final = {
    "artifact": "Artifact",
    "creature": "Creature",
    "enchantment": "Enchantment",
    "instant": "Instant",
    "sorcery": "Sorcery",
    "planeswalker": "Planeswalker",
    "battle": "Battle",
    "land": "Land",
    "kindred": "Kindred",
}
_CREATURE_TYPES: Final = {t.casefold(): t for t in CREATURE_TYPE_LIST}
# CR 205.3i: land types a condition names ("If you control a Swamp")
_LAND_TYPES: Final = {
    t.casefold(): t
    for t in ("Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Gate", "Cave", "Locus", "Town")
}
# CR 205.3g-h, 205.3j: artifact, enchantment and spell subtypes a permission names ("an Aura or Equipment")
_OTHER_SUBTYPES: Final = {
    t.casefold(): t
    for t in (
        "Aura",
        "Equipment",
        "Vehicle",
        "Saga",
        "Class",
        "Shrine",
        "Food",
        "Arcane",
        "Lesson",
        "Adventure",
    )
}


def _singular(word: str) -> str:
    if word in ("sorcery", "sorceries"):
        return "sorcery"
    if word.endswith("ies") and word[:-3] + "y" in _CREATURE_TYPES:
        return word[:-3] + "y"
    if word.endswith("ves") and word[:-3] + "f" in _CREATURE_TYPES:
        return word[:-3] + "f"
    if word.endswith("s") and not word.endswith("ss") and word not in _CREATURE_TYPES:
        return word[:-1]
    return word


def spell_kind(text: str) -> SpellKind:
    """ "creature", "zombie creature", "instant or sorcery", "artifact spells and colorless", "one permanent
    spell with mana value 2 or less", "a permanent spell of each permanent type", "nonland" -> a SpellKind."""
    t = text.strip().removesuffix(" spells").removesuffix(" spell").strip()
    t, max_mv = _max_mana_value(t)
    t = t.removesuffix(" of each permanent type")
    for article in ("a ", "an ", "one "):
        t = t.removeprefix(article)
    if " and " in t or " or " in t:
        return _either(t, max_mv)
    found: dict[str, list[str]] = {k: [] for k in ("type", "subtype", "not_type", *_FLAGS)}
    for raw in t.split():
        got = _kind_word(text, raw)
        if got is not None:
            found[got[0]].append(got[1])
    types = found["type"]
    if len(types) > 1:
        raise _Unreadable(f"a spell of two card types at once ({text!r}) is not read")
    return SpellKind(
        tuple(types),
        tuple(found["subtype"]),
        bool(found["colorless"]),
        bool(found["permanent"]),
        bool(found["nonland"]),
        max_mv,
        not_types=tuple(found["not_type"]),
    )


def _max_mana_value(t: str) -> tuple[str, int | None]:
    """ "one permanent spell with mana value 2 or less" -> ("one permanent", 2) (CR 202.3)."""
    mv = re.fullmatch(r"(.{0,80}?) ?spells? with mana value (\d{1,2}) or less", t)
    return (mv.group(1), int(mv.group(2))) if mv else (t, None)


def _either(t: str, max_mv: int | None) -> SpellKind:
    """ "instant or sorcery" (one of those card types) or "artifact spells and colorless spells" (one of
    those kinds)."""
    parts = [p.strip().removesuffix(" spells").removesuffix(" spell") for p in re.split(r" and | or |, ", t)]
    kinds = tuple(spell_kind(p) for p in parts if p)
    if all(k.types and not (k.subtypes or k.colorless or k.permanent or k.nonland) for k in kinds):
        return SpellKind(types=tuple(x for k in kinds for x in k.types), max_mana_value=max_mv)
    return SpellKind(alternatives=kinds, max_mana_value=max_mv)


_FLAGS: Final = ("permanent", "nonland", "colorless")
_FILLER: Final = frozenset({"spell", "card", "", "a", "an", "one"})


def _kind_word(text: str, raw: str) -> tuple[str, str] | None:
    """What one word of a spell description says: ("type", "Creature"), ("subtype", "Zombie"), ("not_type",
    "Creature") for "noncreature", (flag, "") for permanent, nonland and colorless; None for a word that says
    nothing ("spell", an article). Any other word: the description is not read."""
    word = _singular(raw)
    if word in _FILLER:
        return None
    if word in _TYPE_WORDS:
        return "type", _TYPE_WORDS[word]
    if word in _FLAGS:
        return word, ""
    if word.startswith("non") and word[3:].lstrip("-") in _TYPE_WORDS:
        return "not_type", _TYPE_WORDS[word[3:].lstrip("-")]
    if word in _CREATURE_TYPES:
        return "subtype", _CREATURE_TYPES[word]
    if raw in _LAND_TYPES or word in _LAND_TYPES:
        return "subtype", _LAND_TYPES.get(raw) or _LAND_TYPES[word]
    if word in _OTHER_SUBTYPES:
        return "subtype", _OTHER_SUBTYPES[word]
    raise _Unreadable(f"the spells described ({text!r}) are not read")


@lru_cache(maxsize=8192)
def read_granted(name: str, oracle_text: str) -> GrantedText:
    """What a permanent or a lasting effect grants (see the module): each Permission, and each sentence
    about casting spells that was not read."""
    out: list[Permission] = []
    not_read: list[str] = []
    keyword_costs: list[KeywordCostChange] = []
    for s in sentences(name, oracle_text):
        if len(s.low) > _MAX_SENTENCE:
            continue
        found = WAYS.match(s.low)
        if found is not None and found[0] is KEYWORD_COST_LESS:
            m = found[1]
            keyword_costs.append(KeywordCostChange(m["kw"], int(m["n"]), s.text))
            continue
        if found is None or found[0].name in _OWN_TEMPLATES:
            if (
                _GRANTED_CASTING.search(s.low)
                and not _ONE_SHOT.search(s.low)
                and not _TRIGGER.match(s.low)
                and "~" not in s.low.split(" from ")[0]
            ):
                not_read.append(s.text)
            continue
        try:
            _granted(found[0], s, found[1], out)
        except _Unreadable:
            not_read.append(s.text)
    return GrantedText(tuple(out), tuple(not_read), tuple(keyword_costs))


def _granted(template: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    """The permission a granting template's sentence gives, appended to ``out`` (or merged into the one
    before it: "... pay life rather than ...", "The flashback cost is equal to its mana cost")."""
    for templates, build in _GRANTS:
        if any(template is t for t in templates):
            build(template, s, m, out)
            return
    raise _Unreadable(template.name)  # pragma: no cover - every granted template has its builder


def _grant_from_hand_free(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    kind = spell_kind(m["what"])
    out.append(Permission(PermissionKind.ALTERNATIVE, kind, ("hand",), "118.9", s.text, ManaCost.zero()))


def _grant_free(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    kind = spell_kind(m["what"])
    if m["n"]:
        kind = SpellKind(
            kind.types,
            kind.subtypes,
            kind.colorless,
            kind.permanent,
            kind.nonland,
            int(m["n"]),
            kind.alternatives,
        )
    out.append(
        Permission(
            PermissionKind.ALTERNATIVE,
            kind,
            ALL_ZONES,
            "118.9",
            s.text,
            ManaCost.zero(),
            any_player=m["who"] == "any player",
        )
    )


def _grant_life_alternative(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    out.append(
        Permission(
            PermissionKind.ALTERNATIVE,
            spell_kind(m["what"]),
            ALL_ZONES if "from your hand" not in s.low else ("hand",),
            "118.9",
            s.text,
            ManaCost.zero(),
            life_for_mana=True,
            once_per_turn=bool(m["once"]),
            your_turn=bool(m["once"]),  # "once during each of your turns"
        )
    )


def _grant_pay_rather(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    cost = _mana(_original(s, m, "cost"))
    zones = ALL_ZONES if not m["hand"] else ("hand",) if "hand" in m["hand"] else ("exile",)
    once = bool(m["once"])
    kind = spell_kind(m["what"])
    out.append(Permission(PermissionKind.ALTERNATIVE, kind, zones, "118.9", s.text, cost, once_per_turn=once))


def _added_costs(s: Sentence, m: re.Match[str], group: str, to: str) -> tuple[OtherCost, ...]:
    """What a grant adds to the costs beside mana ("... and exile another card from your graveyard"); mana
    added is not read (the permission is then reported as not read)."""
    if not m[group]:
        return ()
    mana, others = cost_phrase(_original(s, m, group))
    if mana != ManaCost.zero():
        raise _Unreadable(f"mana added to {to} is not read")
    return others


def _grant_zone(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    zone = "graveyard" if m["zone"] == "your graveyard" else "library"
    what = m["what"]
    once = bool(m["when"] and m["when"].startswith(("once", "during"))) or what.startswith(
        ("a ", "an ", "one ")
    )
    extra = _added_costs(s, m, "extra", "the costs")
    out.append(
        Permission(
            PermissionKind.ZONE,
            spell_kind(what),
            (zone,),
            "601.3",
            s.text,
            other_costs=extra,
            once_per_turn=once,
            # "during each of your turns" (Lurrus, Karador): only while its controller is active
            your_turn=bool(m["turn"] or (m["when"] and "each of your turns" in m["when"])),
        )
    )


def _grant_life(_t: Template, s: Sentence, _m: re.Match[str], out: list[Permission]) -> None:
    if not out or out[-1].kind is not PermissionKind.ZONE:
        raise _Unreadable("pay life rather than the mana cost, with no permission before it")
    last = out.pop()
    out.append(
        Permission(
            PermissionKind.ZONE,
            last.spells,
            last.zones,
            "118.9",
            f"{last.text} {s.text}",
            ManaCost.zero(),
            life_for_mana=True,
            once_per_turn=last.once_per_turn,
            your_turn=last.your_turn,
        )
    )


def _grant_keyword(template: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    keyword = "escape" if template is GRANT_ESCAPE else "flashback"
    out.append(
        Permission(
            PermissionKind.KEYWORD,
            spell_kind(m["what"]),
            ("graveyard",),
            template.rule,
            s.text,
            keyword=keyword,
            named_card=template is GRANT_FLASHBACK_TARGET,
            your_turn=bool(m.groupdict().get("turn")),
        )
    )


def _keyword_cost_is_mana_cost(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    if not out or out[-1].kind is not PermissionKind.KEYWORD or out[-1].keyword != m["kw"]:
        raise _Unreadable(f"the {m['kw']} cost, with no {m['kw']} granted before it")
    last = out.pop()
    others = _added_costs(s, m, "plus", "the mana cost")
    out.append(
        Permission(
            last.kind,
            last.spells,
            last.zones,
            last.rule,
            f"{last.text} {s.text}",
            keyword=last.keyword,
            other_costs=others,
            named_card=last.named_card,
            your_turn=last.your_turn,
        )
    )


_Builder: TypeAlias = Callable[[Template, Sentence, re.Match[str], list[Permission]], None]
_GRANTS: Final[tuple[tuple[tuple[Template, ...], _Builder], ...]] = (
    ((GRANT_FROM_HAND_FREE,), _grant_from_hand_free),
    ((GRANT_FREE,), _grant_free),
    ((GRANT_LIFE_ALTERNATIVE,), _grant_life_alternative),
    ((GRANT_PAY_RATHER,), _grant_pay_rather),
    ((GRANT_ZONE,), _grant_zone),
    ((GRANT_LIFE,), _grant_life),
    ((GRANT_ESCAPE, GRANT_FLASHBACK, GRANT_FLASHBACK_TARGET), _grant_keyword),
    ((KEYWORD_COST_IS_MANA_COST,), _keyword_cost_is_mana_cost),
)
"""Each granting template (CR 601.2b, 601.3, 118.9, 702.34a, 702.138a) and the builder of its permission."""


__all__ = ["ALL_ZONES", "OwnText", "cost_phrase", "read_granted", "read_own", "sentences", "spell_kind"]
