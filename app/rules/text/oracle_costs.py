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
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.casting.effects import (
    NO_EFFECTS,
    CardEffects,
    Condition,
    ConditionKind,
    CostEffect,
    Count,
    CountKind,
    Direction,
    Effect,
    KeywordGrant,
    MinimumTotal,
    Quality,
    SpellFilter,
    Unsupported,
    Who,
)
from app.rules.casting.ways import ANY_NUMBER_COST, is_way_reduction
from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import SymbolKind
from app.rules.values.types import BASIC_LAND_TYPES, CARD_TYPES, SUPERTYPES, canonical_creature_type

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
# A reminder closing directly onto a capital letter or a mana symbol: a spoiler text's lost line break.
_SPOILER_BREAK = re.compile(r"\)(?=[A-Z{])")
_SENTENCE = re.compile(r"(?<=[.!])\s*(?=[A-Z•\"])")
_ABILITY_WORD = re.compile(r"^[A-Z][A-Za-z' -]{1,40} — (?=[A-Z])")
_COST = r"(?P<amt>(?:\{[^{}]+\})+)"
_COLORED_ONLY = "this effect reduces only the amount of colored mana you pay."
# Any sentence about what spells cost to cast: what the templates below do not read becomes a warning.
# Gaps bounded by the longest sentence read (_MAX_SENTENCE): linear time on any text.
_LESS_MORE = re.compile(
    r"\bcosts? (?:up to )?(?:\{[^{}]{1,8}\}){1,12} (?:less|more) to cast\b|costs? \w{1,10} life more"
    r"|\bcosts?\b[^.]{0,400}?\b(?:less|more)\b[^.]{0,400}?\bto cast\b"
    r"|\bcosts? an additional\b[^.]{0,400}?\bto cast\b"
)

_ABILITY_RIDER = re.compile(
    r"^(?P<spells>[^.]{1,200}? to cast) and abilities [a-z ]{1,40} cost (?:\{[^{}]{1,8}\}){1,4} more to "
    r"activate(?: unless they're mana abilities)?\.$"
)
_TURN_COUNT_ENDINGS: Final = (
    " for each other spell that player has cast this turn.",
    " for each 1 life your opponents have lost this turn.",
    " for each card your opponents have drawn this turn.",
)
"""Static sentences whose only "this turn" is a count the board's this_turn facts answer."""
_LIFE_MORE = re.compile(
    r"^(?:(?P<own>this spell) costs (?P<n>\w{1,6}) life more to cast(?: for each (?P<each>[a-z ]{1,40}))?"
    r"|(?P<subject>[a-z ~',-]{1,120}?) costs? an additional (?P<m>\w{1,6}) life to cast)\.$"
)
_OWN_TWICE = re.compile(
    r"^this spell costs (?P<a>\{[^{}]{1,8}\}) less to cast (?P<c1>if [^.]{1,80}?) and "
    r"(?P<b>\{[^{}]{1,8}\}) less to cast (?P<c2>if [^.]{1,80})\.$"
)
_OWN = re.compile(
    r"^(?:(?P<pre>(?:if|as long as) .+?), )?this spell costs " + _COST + r" (?P<dir>less|more) to cast"
    r"(?:(?P<tail> for each .+?| if .+?| as long as .+?| during your turn| during your end step)"
    r"|, where x is (?P<x>.+?))?\.$"
)
_STATIC = re.compile(
    r"^(?:(?P<pre>as long as .+?|during your turn|if .+?), )?(?P<subject>.+?) costs? (?P<upto>up to )?"
    + _COST
    + r" (?P<dir>less|more) to cast(?: for each (?P<each>.+?))?"
    r"(?P<except> except during its controller's turn)?"
    r"(?: (?P<post>if it has [a-z ]{1,20}|as long as [^.]{1,100}))?"
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
_GUARD_GRANT = re.compile(
    r"^(?P<what>[a-z ,]{1,60}?) you control(?: with (?P<kw>[a-z ]{1,20}))? have \"spells your opponents cast "
    r"that target this (?:permanent|creature) cost (?P<amt>(?:\{[^{}]{1,8}\}){1,4}) more to cast\.\"?$"
)
_CLASS_LEVEL_LINE = re.compile(r"^(?:\{[^{}]{1,8}\}){1,12}: level (?P<n>[2-9])$")
_AFFINITY = re.compile(r"^affinity for (?P<what>[a-z' -]+?)\.?$")
_TRIGGER_OR_ACTIVATED = re.compile(r"^(?:when|whenever|at the beginning|at end)\b|^[^\"]*?:\s|^[ivx, ]+ — ")


class _NotUnderstood(Exception):
    """Internal: a recognised sentence shape with a part the reader does not know."""


@text_cache(entries=8192, chars=2_000_000)  # bounded in bytes too: the texts are the client's
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
        guard = _GUARD_GRANT.match(low)
        if guard:  # Jubilant Skybonder, Callaphe: each such permanent taxes spells that target it
            try:
                effects.append(_guard_grant(guard, sentence))
            except _NotUnderstood as exc:
                unsupported.append(Unsupported(sentence, str(exc)))
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
        cap = _CAP.match(low)
        if cap:  # "This effect can't reduce the amount of mana this spell costs by more than {5}."
            last = own[-1] if own else None
            if (
                last is None
                or last.per is None
                or last.amount != ManaCost.of(1)
                or last.direction is not (Direction.REDUCTION)
            ):
                own_unsupported.append(Unsupported(sentence, "a cap on no reduction this reader can cap"))
            else:
                own[-1] = replace(last, max_times=int(cap.group("n")))
            continue
        looks = _LESS_MORE.search(low) is not None or "would cost less than" in low
        if not looks or is_way_reduction(low):  # a way's own reduction: the ways reader applies it
            continue
        if low.startswith("it also costs "):  # "It also costs {1} less to cast if ...": this spell
            low = "this spell costs " + low[len("it also costs ") :]
        ability_rider = _ABILITY_RIDER.match(low)
        if ability_rider:  # "... cost {1} more to cast and abilities ... cost {1} more to activate"
            low = ability_rider.group("spells") + "."
        if ("this turn" in low or "each turn" in low) and not _TRIGGER_OR_ACTIVATED.search(low):
            try:
                turn = _this_turn_effect(low, sentence, colored_only)
            except _NotUnderstood:
                turn = None
            if turn is not None:
                (own if turn.own else effects).append(turn)
                continue
        temporary = "this turn" in low and not low.endswith(_TURN_COUNT_ENDINGS)
        if _TRIGGER_OR_ACTIVATED.search(low) or temporary or "until " in low:
            target = own_unsupported if "this spell" in low else unsupported
            target.append(Unsupported(sentence, "a triggered, activated or temporary effect; not tracked"))
            continue
        try:
            life = _LIFE_MORE.match(low)
            if life:
                (own if life.group("own") else effects).append(_life_effect(life, sentence, chooses_type))
                continue
            if "this spell costs" in low:
                read = _own_effects(low, sentence, colored_only)
                if any(not _paid_this_way(e, oracle_text) for e in read):
                    raise _NotUnderstood("counts objects paid this way, but no such cost was read")
                own.extend(read)
                continue
            spells_x = _SPELLS_X.match(low)
            if spells_x and not spells_x.group("subject").startswith("this "):
                # "Noncreature spells you cast cost {X} less to cast, where X is your speed." (118.7a)
                spells = _spell_subject(spells_x.group("subject"), chooses_type)
                per = _x_is(spells_x.group("x"))
                one = ManaCost.of(1)
                effects.append(CostEffect(Direction.REDUCTION, one, spells, "118.7a", sentence, per))
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


def _paid_this_way(effect: CostEffect, oracle_text: str) -> bool:
    """ "for each creature sacrificed this way" counts only when the text offers "you may sacrifice any number
    of ..." as an additional cost (CR 601.2b): the count is the times that optional cost is paid."""
    if effect.per is None or effect.per.kind is not CountKind.OPTIONAL_TIMES:
        return True
    verb = _THIS_WAY_COUNTS[effect.per.text]
    return f"you may {verb} any number of " in oracle_text.casefold()


def _sentences(name: str, text: str) -> list[tuple[str, bool, int]]:
    """Sentences with reminder text removed and the card's name (or short name) read as "~", each with the
    Class level whose ability it is (1 outside a Class's "{cost}: Level N" sections, CR 716.2a).

    The colored-only rider is folded into the sentence before it. Spoiler texts whose line breaks were
    lost ("character.Each spell", "Affinity for Equipment (reminder)Trample") are split too.
    """
    text = _REMINDER.sub("", _SPOILER_BREAK.sub(")\n", text))
    names = {name}
    if ", " in name:
        names.add(name.split(", ")[0])
    for n in sorted(names, key=len, reverse=True):
        text = text.replace(n, "~")
    text = re.sub(r"\.(?=[A-Z])", ". ", text)
    text = re.sub(r"\.(?=\{)", ".\n", text)  # "... to cast.{1}{W}{U}: Exile ~.": a lost line break
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
    "creature that died this turn": ("creatures_died", Who.ANY),
    "1 life you gained this turn": ("life_gained", Who.YOU),
    "creature that attacked this turn": ("creatures_attacked", Who.ANY),
    "creature you attacked with this turn": ("creatures_attacked", Who.YOU),
    "card your opponents have drawn this turn": ("cards_drawn", Who.OPPONENTS),
    "permanent sacrificed this turn": ("permanents_sacrificed", Who.ANY),
    # CR 702.29a: cycling discards the card, so "cycled or discarded" counts each card once
    "card you've cycled or discarded this turn": ("cards_discarded", Who.YOU),
}
# "for each card exiled this way": each object paid for "you may exile any number of ..." (CR 601.2b), with
# the verb that cost must use.
_THIS_WAY_COUNTS: Final = {
    "card exiled this way": "exile",
    "creature sacrificed this way": "sacrifice",
    "permanent sacrificed this way": "sacrifice",
    "creature tapped this way": "tap",
    "counter removed this way": "remove",
}
_CAP: Final = re.compile(
    r"^this effect can't reduce the amount of mana this spell costs by more than \{(?P<n>\d{1,2})\}\.$"
)
# Counters on players (CR 122.1): "experience counter you have", "poison counters".
_PLAYER_COUNTER: Final = re.compile(
    r"^(?P<kind>poison|experience|energy|rad|ticket) counters?(?: (?P<whose>you have))?$"
)
# "where X is ...": a this-turn count as the amount.
_TURN_X: Final = {
    "the amount of life you gained this turn": ("life_gained", Who.YOU),
    "the total amount of noncombat damage dealt to your opponents this turn": (
        "noncombat_damage_taken",
        Who.OPPONENTS,
    ),
}
# "Creature spells you cast cost {X} less to cast, where X is ..." (Ezzaroot Channeler): spells' X.
_SPELLS_X: Final = re.compile(
    r"^(?P<subject>[a-z -]{1,60}) cost \{x\} less to cast, where x is (?P<x>[a-z' ]{1,90})\.$"
)
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


def _this_turn_effect(low: str, sentence: str, colored_only: bool) -> CostEffect | None:
    """Cost sentences that read this turn's facts (CR 500.1; a spell being cast is not yet cast, 601.2i)."""
    if len(low) > 200:
        return None
    spells_x = _SPELLS_X.match(low)
    if spells_x and spells_x.group("x") in _TURN_X and not spells_x.group("subject").startswith("this "):
        fact, whose = _TURN_X[spells_x.group("x")]
        x_count = Count(CountKind.THIS_TURN, spells_x.group("x"), None, whose, fact=fact)
        spells = _spell_subject(spells_x.group("subject"), False)
        return CostEffect(
            Direction.REDUCTION, ManaCost.of(1), spells, "118.7a", sentence, x_count, None, colored_only
        )
    m = _OWN.match(low)
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
            rest = " ".join(low[len(head) :].split())
            each_count: Count | None = None
            if " to cast for each " in rest:  # Eluge: "... costs {U} less to cast for each land ..."
                rest, each = rest.split(" to cast for each ", 1)
                rest, each_count = rest + " to cast.", _count(each.rstrip("."))
            for direction, word in (
                (Direction.REDUCTION, " less to cast."),
                (Direction.INCREASE, " more to cast."),
            ):
                if rest.endswith(word):
                    amount = _cost(rest[: -len(word)])
                    if kind == "kicked ":  # CR 702.33d: a kicked spell is one whose kicker cost was paid
                        spells = replace(_spell_subject("spells you cast", False), kicked=True)
                    else:
                        spells = _spell_subject(f"{kind}spells you cast", False)
                    text = f"the {ordinal} {kind}spell you cast each turn"
                    condition = Condition(ConditionKind.THIS_TURN, text, (), Who.YOU, earlier, earlier, fact)
                    rule = _rule_for(amount, direction)
                    return CostEffect(
                        direction, amount, spells, rule, sentence, each_count, condition, colored_only
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


_PAY_RULES: Final = {"convoke": "702.51a", "improvise": "702.126a", "delve": "702.66a"}


def _guard_grant(m: re.Match[str], sentence: str) -> CostEffect:
    """ "Creatures you control with flying have 'Spells your opponents cast that target this creature cost
    {2} more to cast.'" (CR 613.1f: each such permanent has the ability, so a spell pays it once for each of
    them it targets, CR 601.2c)."""
    qualities = _alternatives(m.group("what"), plural=True)
    kw = m.group("kw")
    if kw is not None:
        if kw not in _KEYWORDS_WITH:
            raise _NotUnderstood(f"permanents with {kw}")
        qualities = tuple(replace(q, keyword=kw) for q in qualities)
    text = f"{m.group('what')} you control" + (f" with {kw}" if kw else "") + " it targets"
    per = Count(CountKind.TARGETED, text, None, Who.YOU, alternatives=qualities)
    amount = _cost(m.group("amt"))
    return CostEffect(Direction.INCREASE, amount, SpellFilter(Who.OPPONENTS), "601.2f", sentence, per)


def _granted(m: re.Match[str], sentence: str, chooses_type: bool) -> CostEffect | KeywordGrant:
    """ "[spells] you cast have affinity for [quality]" (CR 702.41a, 613.1f: granted, it counts like a
    printed affinity). Convoke, improvise and delve are ways to pay (CR 702.51a, 702.126a, 702.66a), not
    changes of the total: a grant the payment uses."""
    kw = m.group("kw")
    if not kw.startswith("affinity for "):
        return KeywordGrant(kw, _spell_subject(m.group("subject"), chooses_type), sentence, _PAY_RULES[kw])
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


def _life_effect(m: re.Match[str], sentence: str, chooses_type: bool) -> CostEffect:
    """ "This spell costs 3 life more to cast for each target." (Phyrexian Purge), "Spells your opponents
    cast that target ~ cost an additional 3 life to cast." (Terror of the Peaks): a life payment added to
    the cost (CR 601.2f, 119.4)."""
    zero = ManaCost.zero()
    if m.group("own"):
        per = _count(m.group("each")) if m.group("each") else None
        life = _number(m.group("n"))
        return CostEffect(
            Direction.INCREASE, zero, SpellFilter(), "119.4", sentence, per, own=True, life=life
        )
    spells, targets = _subject(m.group("subject"), chooses_type)
    life = _number(m.group("m"))
    return CostEffect(Direction.INCREASE, zero, spells, "119.4", sentence, None, targets, life=life)


def _own_effects(low: str, sentence: str, colored_only: bool) -> list[CostEffect]:
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
    m = _OWN.match(low)
    if not m:
        raise _NotUnderstood("this spell's cost sentence has an unknown shape")
    direction = Direction.REDUCTION if m.group("dir") == "less" else Direction.INCREASE
    amount = ManaCost.parse("{X}") if m.group("x") and m.group("amt") == "{x}" else _cost(m.group("amt"))
    per: Count | None = None
    condition: Condition | None = None
    tail = (m.group("tail") or "").strip()
    if m.group("pre"):
        condition = _condition(m.group("pre"))
    if m.group("x"):
        if amount != ManaCost.parse("{X}"):
            raise _NotUnderstood("an amount with X beside other mana")
        amount, per = ManaCost.of(1), _x_is(m.group("x"))
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


def _x_is(text: str) -> Count:
    """ "where X is your devotion to white" (CR 700.5), "the total mana value of noncreature artifacts you
    control" (CR 202.3), "the number of differently named lands you control" (CR 201.2), "the number of
    [permanents] you control": X counted as the total is determined (CR 601.2f)."""
    t = text.strip()
    m = re.match(r"^your devotion to (white|blue|black|red|green)$", t)
    if m:
        return Count(CountKind.DEVOTION, t, colors=(_COLOR_WORDS[m.group(1)],))
    m = re.match(r"^the total mana value of (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.TOTAL_MANA_VALUE, t, _quality(m.group("what"), plural=True), Who.YOU)
    m = re.match(r"^the number of differently named (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.NAMES, t, _quality(m.group("what"), plural=True), Who.YOU)
    m = re.match(r"^the (total|greatest) (power|toughness) (?:of|among) creatures you control$", t)
    if m and not (m.group(1) == "greatest" and m.group(2) == "toughness"):
        kind = CountKind.TOTAL_POWER if m.group(1) == "total" else CountKind.GREATEST_POWER
        fact = "toughness" if m.group(2) == "toughness" else None
        return Count(kind, t, Quality(types=("Creature",)), Who.YOU, fact=fact)
    m = re.match(r"^the greatest number of (?P<what>[a-z ]{1,40}) an opponent controls$", t)
    if m:
        quality = _quality(m.group("what"), plural=True)
        return Count(CountKind.PERMANENTS, t, quality, Who.OPPONENTS, fact="greatest")
    m = re.match(r"^the number of (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.PERMANENTS, t, _quality(m.group("what"), plural=True), Who.YOU)
    if t == "your speed":  # CR 702.179
        return Count(CountKind.SPEED, t, None, Who.YOU)
    raise _NotUnderstood(f"X is {t}: a number that is not on the board")


def _affinity(low: str, sentence: str) -> CostEffect:
    """CR 702.41a: "Affinity for [text]" = "This spell costs {1} less to cast for each [text] you control"."""
    m = _AFFINITY.match(low.strip())
    if not m:
        raise _NotUnderstood("unknown affinity")
    what = m.group("what")
    text = f"one of the {what} you control"
    if what == "outlaws":  # CR 700.12: Assassin, Mercenary, Pirate, Rogue and/or Warlock
        per = Count(CountKind.PERMANENTS, text, None, Who.YOU, alternatives=_OUTLAWS)
    elif what == "tokens":  # CR 111.1
        per = Count(CountKind.PERMANENTS, text, Quality(), Who.YOU, fact="token")
    else:
        per = Count(CountKind.PERMANENTS, text, _quality(what, plural=True), Who.YOU)
    return CostEffect(
        Direction.REDUCTION, ManaCost.of(1), SpellFilter(), "702.41a", sentence, per, None, False, False, True
    )


_OUTLAWS: Final = tuple(
    Quality(subtypes=(t,)) for t in ("Assassin", "Mercenary", "Pirate", "Rogue", "Warlock")
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
    subject, pre, post = m.group("subject"), m.group("pre"), m.group("post")
    if subject.endswith(" during your turn") and not pre:  # "spells your opponents cast during your turn"
        subject, pre = subject[: -len(" during your turn")], "during your turn"
    spells, targets = _subject(subject, chooses_type)
    if post and post.startswith("if it has "):  # "Each creature spell you cast costs {1} less ... if it has
        keyword = post[len("if it has ") :]  # mutate": the spell's own keyword (CR 702)
        if keyword not in _KEYWORDS_WITH:
            raise _NotUnderstood(f"spells that have {keyword}")
        qualities = tuple(replace(q, keyword=keyword) for q in (spells.qualities or (Quality(),)))
        spells, post = replace(spells, qualities=qualities), None
    if post and pre:
        raise _NotUnderstood("two conditions")
    pre = pre or post
    condition = _condition(pre) if pre and pre not in _ALWAYS else None
    if targets is not None:
        if condition is not None:
            raise _NotUnderstood("two conditions")
        condition = targets
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
    (re.compile(r"^(?:a player casts|you control)\b"), "caster_you_or_any"),
    (
        re.compile(r"^that targets? (?:an? )?([a-z +/,'-]{1,60}?)(?= you cast\b| your opponents cast\b|$)"),
        "targets",
    ),
    (re.compile(r"^of the chosen type\b"), "chosen_type"),
    (re.compile(r"^with the chosen name\b"), "chosen_name"),
    (re.compile(r"^with mana value (\d+) or greater\b"), "min_mv"),
    (re.compile(r"^from (?:your graveyard|graveyards) or from exile\b"), "from_zones"),
    (re.compile(r"^from your graveyard\b"), "from_graveyard"),
    (re.compile(r"^from exile\b"), "from_exile"),
    (re.compile(r"^with power (\d+) or greater\b"), "min_power"),
    (re.compile(r"^that share a creature type with ~(?= |$)"), "shares_type"),
    (re.compile(r"^that share a card type with the exiled card\b"), "shares_imprinted"),
    (re.compile(r"^that's (?:an? )?([a-z]+(?:(?:,|,? or) (?:an? )?[a-z]+){0,4})$"), "that_is"),
    (re.compile(r"^from anywhere other than your hand\b"), "not_from_hand"),
    (re.compile(r"^that targets? ~(?= |$)"), "targets_source"),
    (re.compile(r"^with ([a-z ]+?)(?= you cast\b| your opponents cast\b| of the\b|$)"), "keyword"),
)


_ALWAYS: Final = frozenset({"as long as ~ is in the command zone or on the battlefield"})
"""Conditions always true for a permanent on the battlefield (eminence)."""


def _spell_subject(subject: str, chooses_type: bool) -> SpellFilter:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter (no "that target ..." here)."""
    spells, targets = _subject(subject, chooses_type)
    if targets is not None:
        raise _NotUnderstood("spells that target something, where no condition can say so")
    return spells


def _subject(subject: str, chooses_type: bool) -> tuple[SpellFilter, Condition | None]:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter, and the condition on the spell's
    targets that "that target a creature you control" states (CR 601.2c), if any."""
    s = subject.strip()
    if s == "your commander":  # CR 903.3: the spell is one of its caster's commanders
        return SpellFilter(Who.YOU, commander=True), None
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
    chosen_type = chosen_name = targets_source = shares_type = shares_imprinted = False
    keyword: str | None = None
    min_power: int | None = None
    from_zones: tuple[str, ...] = ()
    that_is: tuple[Quality, ...] = ()
    targets: Condition | None = None
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
            elif tag == "from_exile":
                from_zone = "exile"
            elif tag == "not_from_hand":
                not_from = "hand"
            elif tag == "targets_source":
                targets_source = True
            elif tag == "caster_you_or_any":
                caster = Who.YOU if mm.group(0) == "you control" else Who.ANY
            elif tag == "targets":
                targets = _target_subject(mm.group(1))
            elif tag == "from_zones":
                from_zones = ("graveyard", "exile")
            elif tag == "min_power":
                min_power = int(mm.group(1))
            elif tag == "shares_type":
                shares_type = True
            elif tag == "shares_imprinted":
                shares_imprinted = True
            elif tag == "that_is":
                that_is = _alternatives(mm.group(1))
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
    if that_is:
        if qualities:
            raise _NotUnderstood('spells of a quality and "that\'s" another')
        qualities = list(that_is)
    if chosen_type or keyword or min_power is not None:
        base = qualities or [Quality()]
        qualities = [
            replace(
                q,
                chosen_creature_type=chosen_type or q.chosen_creature_type,
                keyword=keyword or q.keyword,
                min_power=min_power,
            )
            for q in base
        ]
    spells = SpellFilter(
        caster,
        tuple(qualities),
        min_mv,
        from_zone,
        not_from,
        chosen_name,
        False,
        targets_source=targets_source,
        from_zones=from_zones,
        shares_creature_type=shares_type,
        shares_card_type_with_imprinted=shares_imprinted,
    )
    return spells, targets


def _target_subject(what: str) -> Condition:
    """ "spells that target a creature you control", "... that target enchanted creature" (the permanent or
    player the source is attached to): a condition on the spell's targets (CR 601.2c)."""
    text = f"if it targets {what}"
    if what == "enchanted creature":
        return Condition(ConditionKind.TARGETS, text, (Quality(types=("Creature",)),), attached=True)
    if what == "one or more commanders you control":  # CR 903.3
        return Condition(ConditionKind.TARGETS, text, (Quality(),), Who.YOU, commander=True)
    if what.startswith("one or more ") or what.startswith("you "):
        raise _NotUnderstood(f"spells that target {what}")
    return _targets_condition(text, what)


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
    min_mv: int | None = None
    mv = re.match(r"^(.{1,60}?) with mana value (\d{1,2}) or greater$", text)
    if mv:
        text, min_mv = mv.group(1), int(mv.group(2))
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
    colorless = multicolored = monocolored = historic = face_down = False
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
        elif word == "face-down":  # CR 708.2a: cast face down (morph, disguise)
            face_down = True
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
        min_mana_value=min_mv,
        face_down=face_down,
    )


def _subtype(word: str) -> str | None:
    ct = canonical_creature_type(word)
    if ct is not None:
        return ct
    return _OTHER_SUBTYPES.get(word.casefold())


_ALTERNATIVE_SPLIT = re.compile(r",? (?:and/or|and|or) |, ")


def _alternatives(text: str, *, plural: bool = False) -> tuple[Quality, ...]:
    """ "red or green", "a Demon, Horror, or Nightmare", "instant and sorcery" (each object that is one of
    them, CR 700.8-style lists of "and" meaning "or" for a single card); "noncreature, nonland": every
    part is a "non-" word, so the object must be all of them."""
    parts = [p.strip() for p in _ALTERNATIVE_SPLIT.split(text.strip()) if p.strip()]
    parts = [p.split(" ", 1)[1] if p.startswith(("a ", "an ")) else p for p in parts]
    if len(parts) > 1 and all(p.startswith("non") for p in parts):
        return (_quality(" ".join(parts), plural=plural),)
    return tuple(_quality(p, plural=plural) for p in parts)


_PERMANENT_TYPES: Final = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")


def _card_count(what: str, kind: CountKind, text: str, whose: Who = Who.YOU) -> Count:
    """Cards with a quality ("instant and sorcery", "creature", "" for any card). A "permanent card" is one
    of the permanent types (CR 110.4), which a card in a graveyard must have to count."""
    words = what.split()
    if "permanent" in words:
        base = _quality(" ".join(w for w in words if w != "permanent"), plural=False)
        perms = tuple(replace(base, types=(*base.types, t)) for t in _PERMANENT_TYPES)
        return Count(kind, text, None, whose, alternatives=perms)
    qualities = _alternatives(what) if what else (Quality(),)
    if len(qualities) == 1:
        return Count(kind, text, qualities[0], whose)
    return Count(kind, text, None, whose, alternatives=qualities)


_GRAVEYARD_COUNT = re.compile(r"^(?P<what>[a-z ,/+-]{0,60}?) ?cards? in your graveyard$")
_COUNTER_ON_IT = re.compile(
    r"^(?P<what>[a-z ]{1,40}) you control with (?:an? )?(?P<kind>[a-z0-9/+-]{1,20}) counters? on (?:it|them)$"
)


def _count(text: str) -> Count:
    """ "for each ..." (CR 601.2f): party (CR 700.8), domain, opponents, permanents you/opponents control,
    cards in your graveyard (CR 404), card types and mana values among them, permanents with a counter
    (CR 122.1), creatures the spell targets (601.2c), the commander's previous casts (903.8)."""
    t = text.strip()
    if len(t) > 120:
        raise _NotUnderstood("a count too long to read")
    if t == "card type among cards in your graveyard":
        return Count(CountKind.GRAVEYARD_CARD_TYPES, t)
    if t.startswith("different mana value among ") and t.endswith(" in your graveyard"):
        what = t[len("different mana value among ") : -len(" in your graveyard")]
        what = what[: -len("cards")].strip() if what.endswith("cards") else what
        return _card_count(what, CountKind.GRAVEYARD_MANA_VALUES, t)
    if t == "time it's been cast from the command zone this game":
        return Count(CountKind.COMMANDER_CASTS, t)
    if t == "of the chosen colors it is":
        return Count(CountKind.SPELL_CHOSEN_COLORS, t)
    if t.endswith(" it targets") and len(t) <= 40:
        return Count(CountKind.TARGETED, t, _quality(t[: -len(" it targets")], plural=False), Who.ANY)
    if t.endswith(" its controller controls") and len(t) <= 60:
        what = t[: -len(" its controller controls")]
        return Count(CountKind.PERMANENTS, t, _quality(what, plural=False), Who.CASTER)
    if t == "other spell that player has cast this turn":
        return Count(CountKind.THIS_TURN, t, None, Who.CASTER, fact="spells_cast")
    if t == "1 life your opponents have lost this turn":
        return Count(CountKind.THIS_TURN, t, None, Who.OPPONENTS, fact="life_lost")
    if t == "card your opponents have drawn this turn":
        return Count(CountKind.THIS_TURN, t, None, Who.OPPONENTS, fact="cards_drawn")
    m = _PLAYER_COUNTER.match(t)
    if m and m.group("whose") == "you have":  # "experience counter you have" (CR 122.1)
        return Count(CountKind.PLAYER_COUNTERS, t, None, Who.YOU, counter=m.group("kind"))
    if t in _THIS_WAY_COUNTS:  # CR 601.2b: the objects paid for the "any number of" additional cost
        return Count(CountKind.OPTIONAL_TIMES, t, None, Who.YOU, fact=ANY_NUMBER_COST)
    if t == "card with the same name as that spell in your graveyard":  # CR 201.2
        return Count(CountKind.GRAVEYARD_CARDS, t, Quality(), Who.YOU, fact="same_name")
    if t in ("attacking creature", "attacking creature you control"):  # CR 506.4
        whose = Who.YOU if t.endswith(" you control") else Who.ANY
        return Count(CountKind.PERMANENTS, t, Quality(types=("Creature",)), whose, fact="attacking")
    if t == "creature type among creatures you control":  # CR 205.3m
        return Count(CountKind.CREATURE_TYPES, t, None, Who.YOU)
    if t == "creature token you control":  # CR 111.1
        return Count(CountKind.PERMANENTS, t, Quality(types=("Creature",)), Who.YOU, fact="token")
    if t == "modified creature you control":  # CR 700.9
        return Count(CountKind.PERMANENTS, t, Quality(types=("Creature",)), Who.YOU, fact="modified")
    m = re.match(r"^(?P<what>[a-z ]{1,30}) cards? you own in exile and in your graveyard$", t)
    if m:
        quality = _quality(m.group("what"), plural=False)
        return Count(CountKind.GRAVEYARD_CARDS, t, quality, Who.YOU, fact="and_exile")
    m = re.match(r"^(?P<what>[a-z ]{1,30}) you control with power (?P<n>\d{1,2}) or greater$", t)
    if m:
        quality = _quality(m.group("what"), plural=False)
        return Count(CountKind.PERMANENTS, t, quality, Who.YOU, min_power=int(m.group("n")))
    m = _COUNTER_ON_IT.match(t)
    if m:
        what = m.group("what")
        return Count(CountKind.PERMANENTS, t, _quality(what, plural=False), Who.YOU, m.group("kind"))
    m = _GRAVEYARD_COUNT.match(t)
    if m and t != "card in your graveyard":
        return _card_count(m.group("what"), CountKind.GRAVEYARD_CARDS, t)
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
    if t == "card in your graveyard":
        return Count(CountKind.GRAVEYARD_CARDS, t, Quality(), Who.YOU)
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


_TARGETS = re.compile(r"^if it targets (?:an? )?(?P<what>[a-z0-9 +/,'-]{1,80})$")
_WHOSE_SUFFIXES: Final = (
    (" you control", Who.YOU),
    (" you don't control", Who.OPPONENTS),
    (" an opponent controls", Who.OPPONENTS),
)
_AT_LEAST = re.compile(r"^(?P<n>\w+) or more (?P<what>.+)$")


def _targets_condition(t: str, what: str) -> Condition:
    """ "if it targets a tapped creature", "... a blue permanent you don't control", "... a creature with
    flying", "... a creature you control with a +1/+1 counter on it" (CR 601.2c: the targets are chosen
    before the total cost is determined, 601.2f)."""
    counter: str | None = None
    m = re.match(r"^(.+?) with an? ([a-z0-9/+-]{1,20}) counter on it$", what)
    if m:
        what, counter = m.group(1), m.group(2)
    whose = Who.ANY
    for suffix, who in _WHOSE_SUFFIXES:
        if what.endswith(suffix):
            what, whose = what[: -len(suffix)], who
            break
    words = what.split()
    # "a creature token" (CR 111.1): being a token is read as a state of the target, alone only
    states = [w for w in words if w in _STATES or (w == "token" and words.count("token") == 1)]
    kept = [w for w in words if w not in states]
    if len(states) > 1:  # "an attacking or tapped creature": the "or" joins the states
        kept = [w for w in kept if w != "or"] if kept.count("or") == len(states) - 1 else kept
    rest = " ".join(kept)
    # A spell target is not a permanent; a token among other states is not read.
    token_and_more = "token" in words and (len(states) > 1 or "token" not in states)
    if " spell" in f" {rest}" or "enchanted" in words or token_and_more or ("or" in kept and states):
        raise _NotUnderstood(f"{t}: a target that is not on the board")
    qualities = _alternatives(rest) if rest else (Quality(),)
    tapped = states == ["tapped"]
    others = () if tapped else tuple(states)
    return Condition(
        ConditionKind.TARGETS, t, qualities, whose, tapped=tapped, counter=counter, states=others
    )


_STATES: Final = ("tapped", "attacking", "blocking")  # CR 506.4, 509.1


def _count_condition(t: str) -> Condition | None:
    """Conditions on a count of the board or of the players' zones (CR 119 life, 402 hand, 404 graveyard)."""
    m = re.match(r"^if you control an? (?P<what>[a-z ]{1,30}) with power (?P<n>\d{1,2}) or greater$", t)
    if m:
        quality = _quality(m.group("what"), plural=False)
        strong = Count(CountKind.PERMANENTS, t, quality, Who.YOU, min_power=int(m.group("n")))
        return Condition(ConditionKind.COUNT, t, at_least=1, count=strong)
    m = re.match(r"^if (?:you have (?P<a>\w+) or less life|your life total is (?P<b>\w+) or less)$", t)
    if m:
        n = _number(m.group("a") or m.group("b"))
        return Condition(ConditionKind.COUNT, t, at_least=0, at_most=n, count=Count(CountKind.LIFE, "life"))
    if t == "if an opponent has no cards in hand":
        hand = Count(CountKind.HAND, "cards in hand")
        return Condition(ConditionKind.COUNT, t, at_least=0, at_most=0, count=hand, per_opponent=True)
    m = re.match(r"^if there is an? (?P<what>[a-z]{1,20}) card in your graveyard$", t)
    if m:
        cards = _card_count(m.group("what"), CountKind.GRAVEYARD_CARDS, t)
        return Condition(ConditionKind.COUNT, t, at_least=1, count=cards)
    m = re.match(r"^(?:if|as long as) (?P<who>you have|an opponent has|there are) (?P<rest>.{1,100})$", t)
    if not m:
        m2 = re.match(r"^if your opponents control (?P<n>\w+) or more (?P<what>[a-z -]{1,40})$", t)
        if m2:
            theirs = Count(CountKind.PERMANENTS, t, _quality(m2.group("what"), plural=True), Who.OPPONENTS)
            return Condition(ConditionKind.COUNT, t, at_least=_number(m2.group("n")), count=theirs)
        return None
    who, rest = m.group("who"), m.group("rest")
    least = _AT_LEAST.match(rest)
    if not least:
        return None
    n, what = _number(least.group("n")), least.group("what")
    per_opponent = who == "an opponent has"
    whose = Who.OPPONENTS if per_opponent else Who.YOU
    count: Count | None = None
    if what == "card types among cards in your graveyard" and who == "there are":
        count = Count(CountKind.GRAVEYARD_CARD_TYPES, what)
    elif who == "there are" and what.endswith(" total in all graveyards"):
        body = what[: -len(" total in all graveyards")]
        if body.endswith("cards"):
            count = _card_count(body[: -len("cards")].strip(), CountKind.GRAVEYARD_CARDS, what, Who.ANY)
    elif who != "there are" and _PLAYER_COUNTER.match(
        what
    ):  # "an opponent has three or more poison counters"
        kind = _PLAYER_COUNTER.match(what)
        counter = kind.group("kind") if kind else None
        count = Count(CountKind.PLAYER_COUNTERS, what, None, Who.YOU, counter=counter)
    elif who == "there are" and what.endswith(" on the battlefield"):
        body = what[: -len(" on the battlefield")]
        count = Count(CountKind.PERMANENTS, what, _quality(body, plural=True), Who.ANY)
    else:
        for suffix in (" in your graveyard", " in their graveyard"):
            if what.endswith(suffix) and (suffix == " in their graveyard") is per_opponent:
                body = what[: -len(suffix)]
                if body.endswith("cards"):
                    body = body[: -len("cards")].strip()
                    count = _card_count(body, CountKind.GRAVEYARD_CARDS, what, whose)
    if count is None:
        return None
    return Condition(ConditionKind.COUNT, t, at_least=n, count=count, per_opponent=per_opponent)


def _condition(text: str) -> Condition:
    t = text.strip()
    if t in ("if it's night", "if it's day"):  # CR 730.1
        return Condition(ConditionKind.DAY_NIGHT, t, fact=t.rsplit(" ", 1)[1])
    if t == "if it's bargained":
        return Condition(ConditionKind.OPTIONAL_PAID, t, fact="bargain")
    if t.startswith("if it targets "):
        m = _TARGETS.match(t)
        if not m:
            raise _NotUnderstood(f"{t}: a target that is not read")
        return _targets_condition(t, m.group("what"))
    counted = _count_condition(t)
    if counted is not None:
        return counted
    if t in ("as long as ~ is untapped",):
        return Condition(ConditionKind.SOURCE_UNTAPPED, t)
    if t in ("as long as ~ is tapped",):
        return Condition(ConditionKind.SOURCE_TAPPED, t)
    if t == "during your end step":  # CR 513.1: the end step of your turn
        return Condition(ConditionKind.STEP, t, fact="end")
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
        alternatives = [p for p in re.split(r" or (?!greater\b)(?:a |an )?", what) if p]
        qualities = tuple(_quality(p, plural=plural) for p in alternatives)
        return Condition(ConditionKind.CONTROLS, t, qualities, whose, at_least, at_most)
    raise _NotUnderstood(f"{t}: a condition that is not on the board")
