"""Counts and conditions of cost sentences: "for each ..." (CR 601.2f), "where X is ..." (CR 601.2f,
700.5, 202.3), and the "if" and "as long as" conditions on the board, the players' zones and the spell's
targets (CR 601.2c: targets are chosen before the total cost is determined)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from app.rules.effects.cost_effects import (
    Condition,
    ConditionKind,
    Count,
    CountKind,
    Quality,
    Who,
)
from app.rules.text.additional_costs import ANY_NUMBER_COST
from app.rules.text.cost_words import (
    COLOR_WORDS,
    PLAYER_COUNTER,
    THIS_WAY_COUNTS,
    NotUnderstood,
    card_count,
    number,
    read_quality,
    split_alternatives,
)


def x_is(text: str) -> Count:
    """ "where X is your devotion to white" (CR 700.5), "the total mana value of noncreature artifacts you
    control" (CR 202.3), "the number of differently named lands you control" (CR 201.2), "the number of
    [permanents] you control": X counted as the total is determined (CR 601.2f)."""
    t = text.strip()
    m = re.match(r"^your devotion to (white|blue|black|red|green)$", t)
    if m:
        return Count(CountKind.DEVOTION, t, colors=(COLOR_WORDS[m.group(1)],))
    m = re.match(r"^the total mana value of (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.TOTAL_MANA_VALUE, t, read_quality(m.group("what"), plural=True), Who.YOU)
    m = re.match(r"^the number of differently named (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.NAMES, t, read_quality(m.group("what"), plural=True), Who.YOU)
    m = re.match(r"^the (total|greatest) (power|toughness) (?:of|among) creatures you control$", t)
    if m and not (m.group(1) == "greatest" and m.group(2) == "toughness"):
        kind = CountKind.TOTAL_POWER if m.group(1) == "total" else CountKind.GREATEST_POWER
        fact = "toughness" if m.group(2) == "toughness" else None
        return Count(kind, t, Quality(types=("Creature",)), Who.YOU, fact=fact)
    m = re.match(r"^the greatest number of (?P<what>[a-z ]{1,40}) an opponent controls$", t)
    if m:
        quality = read_quality(m.group("what"), plural=True)
        return Count(CountKind.PERMANENTS, t, quality, Who.OPPONENTS, fact="greatest")
    m = re.match(r"^the number of (?P<what>[a-z ]{1,40}) you control$", t)
    if m:
        return Count(CountKind.PERMANENTS, t, read_quality(m.group("what"), plural=True), Who.YOU)
    if t == "your speed":  # CR 702.179
        return Count(CountKind.SPEED, t, None, Who.YOU)
    raise NotUnderstood(f"X is {t}: a number that is not on the board")


_GRAVEYARD_COUNT = re.compile(r"^(?P<what>[a-z ,/+-]{0,60}?) ?cards? in your graveyard$")
_COUNTER_ON_IT = re.compile(
    r"^(?P<what>[a-z ]{1,40}) you control with (?:an? )?(?P<kind>[a-z0-9/+-]{1,20}) counters? on (?:it|them)$"
)


_CREATURE: Final = Quality(types=("Creature",))
_EXACT_COUNTS: Final[dict[str, Callable[[str], Count]]] = {
    "card type among cards in your graveyard": lambda t: Count(CountKind.GRAVEYARD_CARD_TYPES, t),
    "time it's been cast from the command zone this game": lambda t: Count(CountKind.COMMANDER_CASTS, t),
    "of the chosen colors it is": lambda t: Count(CountKind.SPELL_CHOSEN_COLORS, t),
    "other spell that player has cast this turn": lambda t: Count(
        CountKind.THIS_TURN, t, None, Who.CASTER, fact="spells_cast"
    ),
    "1 life your opponents have lost this turn": lambda t: Count(
        CountKind.THIS_TURN, t, None, Who.OPPONENTS, fact="life_lost"
    ),
    "card your opponents have drawn this turn": lambda t: Count(
        CountKind.THIS_TURN, t, None, Who.OPPONENTS, fact="cards_drawn"
    ),
    # CR 201.2
    "card with the same name as that spell in your graveyard": lambda t: Count(
        CountKind.GRAVEYARD_CARDS, t, Quality(), Who.YOU, fact="same_name"
    ),
    # CR 506.4
    "attacking creature": lambda t: Count(CountKind.PERMANENTS, t, _CREATURE, Who.ANY, fact="attacking"),
    "attacking creature you control": lambda t: Count(
        CountKind.PERMANENTS, t, _CREATURE, Who.YOU, fact="attacking"
    ),
    "creature type among creatures you control": lambda t: Count(CountKind.CREATURE_TYPES, t, None, Who.YOU),
    "creature token you control": lambda t: Count(CountKind.PERMANENTS, t, _CREATURE, Who.YOU, fact="token"),
    "modified creature you control": lambda t: Count(
        CountKind.PERMANENTS, t, _CREATURE, Who.YOU, fact="modified"
    ),  # CR 700.9
    "creature in your party": lambda t: Count(CountKind.PARTY, t),  # CR 700.8
    "basic land type among lands you control": lambda t: Count(CountKind.DOMAIN, t),
    "opponent you have": lambda t: Count(CountKind.OPPONENTS, t),
    "target beyond the first": lambda t: Count(CountKind.TARGETS_BEYOND_FIRST, t),
    "target": lambda t: Count(CountKind.TARGETS, t),
    "card in your graveyard": lambda t: Count(CountKind.GRAVEYARD_CARDS, t, Quality(), Who.YOU),
}
"""The counts "for each" names word for word (CR 601.2f)."""
_OWNED_IN_EXILE = re.compile(r"^(?P<what>[a-z ]{1,30}) cards? you own in exile and in your graveyard$")
_WITH_POWER = re.compile(r"^(?P<what>[a-z ]{1,30}) you control with power (?P<n>\d{1,2}) or greater$")
_COUNT_SUFFIXES: Final = (
    (" you control", Who.YOU),
    (" your opponents control", Who.OPPONENTS),
    (" on the battlefield", Who.ANY),
)


def read_count(text: str) -> Count:
    """ "for each ..." (CR 601.2f): party (CR 700.8), domain, opponents, permanents you/opponents control,
    cards in your graveyard (CR 404), card types and mana values among them, permanents with a counter
    (CR 122.1), creatures the spell targets (601.2c), the commander's previous casts (903.8)."""
    t = text.strip()
    if len(t) > 120:
        raise NotUnderstood("a count too long to read")
    exact = _EXACT_COUNTS.get(t)
    if exact is not None:
        return exact(t)
    if t in THIS_WAY_COUNTS:  # CR 601.2b: the objects paid for the "any number of" additional cost
        return Count(CountKind.OPTIONAL_TIMES, t, None, Who.YOU, fact=ANY_NUMBER_COST)
    found = _zone_count(t) or _board_count(t)
    if found is None:
        raise NotUnderstood(f"for each {t}: a count that is not on the board")
    return found


def _zone_count(t: str) -> Count | None:
    """Counts of cards (graveyard, exile; CR 404, 406), of targets (CR 601.2c) and of player counters."""
    if t.startswith("different mana value among ") and t.endswith(" in your graveyard"):
        what = t[len("different mana value among ") : -len(" in your graveyard")]
        what = what[: -len("cards")].strip() if what.endswith("cards") else what
        return card_count(what, CountKind.GRAVEYARD_MANA_VALUES, t)
    if t.endswith(" it targets") and len(t) <= 40:
        return Count(CountKind.TARGETED, t, read_quality(t[: -len(" it targets")], plural=False), Who.ANY)
    if t.endswith(" its controller controls") and len(t) <= 60:
        what = t[: -len(" its controller controls")]
        return Count(CountKind.PERMANENTS, t, read_quality(what, plural=False), Who.CASTER)
    m = PLAYER_COUNTER.match(t)
    if m and m.group("whose") == "you have":  # "experience counter you have" (CR 122.1)
        return Count(CountKind.PLAYER_COUNTERS, t, None, Who.YOU, counter=m.group("kind"))
    m = _OWNED_IN_EXILE.match(t)
    if m:
        quality = read_quality(m.group("what"), plural=False)
        return Count(CountKind.GRAVEYARD_CARDS, t, quality, Who.YOU, fact="and_exile")
    return None


def _board_count(t: str) -> Count | None:
    """Counts of permanents: with power (CR 208.1), with counters (CR 122.1), cards in your graveyard by
    quality, counters on the source, and permanents by controller."""
    m = _WITH_POWER.match(t)
    if m:
        quality = read_quality(m.group("what"), plural=False)
        return Count(CountKind.PERMANENTS, t, quality, Who.YOU, min_power=int(m.group("n")))
    m = _COUNTER_ON_IT.match(t)
    if m:
        what = m.group("what")
        return Count(CountKind.PERMANENTS, t, read_quality(what, plural=False), Who.YOU, m.group("kind"))
    m = _GRAVEYARD_COUNT.match(t)
    if m:
        return card_count(m.group("what"), CountKind.GRAVEYARD_CARDS, t)
    if t.endswith(" counter on ~") and len(t) <= 40:
        kind = t[: -len(" counter on ~")]
        if kind and " " not in kind.strip():
            return Count(CountKind.COUNTERS_ON_SOURCE, t, counter=kind)
    for suffix, whose in _COUNT_SUFFIXES:
        if t.endswith(suffix):
            return Count(CountKind.PERMANENTS, t, read_quality(t[: -len(suffix)], plural=False), whose)
    return None


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
        raise NotUnderstood(f"{t}: a target that is not on the board")
    qualities = split_alternatives(rest) if rest else (Quality(),)
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
        quality = read_quality(m.group("what"), plural=False)
        strong = Count(CountKind.PERMANENTS, t, quality, Who.YOU, min_power=int(m.group("n")))
        return Condition(ConditionKind.COUNT, t, at_least=1, count=strong)
    m = re.match(r"^if (?:you have (?P<a>\w+) or less life|your life total is (?P<b>\w+) or less)$", t)
    if m:
        n = number(m.group("a") or m.group("b"))
        return Condition(ConditionKind.COUNT, t, at_least=0, at_most=n, count=Count(CountKind.LIFE, "life"))
    if t == "if an opponent has no cards in hand":
        hand = Count(CountKind.HAND, "cards in hand")
        return Condition(ConditionKind.COUNT, t, at_least=0, at_most=0, count=hand, per_opponent=True)
    m = re.match(r"^if there is an? (?P<what>[a-z]{1,20}) card in your graveyard$", t)
    if m:
        cards = card_count(m.group("what"), CountKind.GRAVEYARD_CARDS, t)
        return Condition(ConditionKind.COUNT, t, at_least=1, count=cards)
    m = re.match(r"^(?:if|as long as) (?P<who>you have|an opponent has|there are) (?P<rest>.{1,100})$", t)
    if not m:
        m2 = re.match(r"^if your opponents control (?P<n>\w+) or more (?P<what>[a-z -]{1,40})$", t)
        if m2:
            theirs = Count(
                CountKind.PERMANENTS, t, read_quality(m2.group("what"), plural=True), Who.OPPONENTS
            )
            return Condition(ConditionKind.COUNT, t, at_least=number(m2.group("n")), count=theirs)
        return None
    who, rest = m.group("who"), m.group("rest")
    least = _AT_LEAST.match(rest)
    if not least:
        return None
    n, what = number(least.group("n")), least.group("what")
    per_opponent = who == "an opponent has"
    whose = Who.OPPONENTS if per_opponent else Who.YOU
    count: Count | None = None
    if what == "card types among cards in your graveyard" and who == "there are":
        count = Count(CountKind.GRAVEYARD_CARD_TYPES, what)
    elif who == "there are" and what.endswith(" total in all graveyards"):
        body = what[: -len(" total in all graveyards")]
        if body.endswith("cards"):
            count = card_count(body[: -len("cards")].strip(), CountKind.GRAVEYARD_CARDS, what, Who.ANY)
    elif who != "there are" and PLAYER_COUNTER.match(what):  # "an opponent has three or more poison counters"
        kind = PLAYER_COUNTER.match(what)
        counter = kind.group("kind") if kind else None
        count = Count(CountKind.PLAYER_COUNTERS, what, None, Who.YOU, counter=counter)
    elif who == "there are" and what.endswith(" on the battlefield"):
        body = what[: -len(" on the battlefield")]
        count = Count(CountKind.PERMANENTS, what, read_quality(body, plural=True), Who.ANY)
    else:
        for suffix in (" in your graveyard", " in their graveyard"):
            if what.endswith(suffix) and (suffix == " in their graveyard") is per_opponent:
                body = what[: -len(suffix)]
                if body.endswith("cards"):
                    body = body[: -len("cards")].strip()
                    count = card_count(body, CountKind.GRAVEYARD_CARDS, what, whose)
    if count is None:
        return None
    return Condition(ConditionKind.COUNT, t, at_least=n, count=count, per_opponent=per_opponent)


def read_condition(text: str) -> Condition:
    t = text.strip()
    if t in ("if it's night", "if it's day"):  # CR 730.1
        return Condition(ConditionKind.DAY_NIGHT, t, fact=t.rsplit(" ", 1)[1])
    if t == "if it's bargained":
        return Condition(ConditionKind.OPTIONAL_PAID, t, fact="bargain")
    if t.startswith("if it targets "):
        m = _TARGETS.match(t)
        if not m:
            raise NotUnderstood(f"{t}: a target that is not read")
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
            at_least, plural = number(m.group("n")), True
        elif m.group("art") == "no":
            at_least, at_most, plural = 0, 0, True
        alternatives = [p for p in re.split(r" or (?!greater\b)(?:a |an )?", what) if p]
        qualities = tuple(read_quality(p, plural=plural) for p in alternatives)
        return Condition(ConditionKind.CONTROLS, t, qualities, whose, at_least, at_most)
    raise NotUnderstood(f"{t}: a condition that is not on the board")


def target_subject(what: str) -> Condition:
    """ "spells that target a creature you control", "... that target enchanted creature" (the permanent or
    player the source is attached to): a condition on the spell's targets (CR 601.2c)."""
    text = f"if it targets {what}"
    if what == "enchanted creature":
        return Condition(ConditionKind.TARGETS, text, (Quality(types=("Creature",)),), attached=True)
    if what == "one or more commanders you control":  # CR 903.3
        return Condition(ConditionKind.TARGETS, text, (Quality(),), Who.YOU, commander=True)
    if what.startswith("one or more ") or what.startswith("you "):
        raise NotUnderstood(f"spells that target {what}")
    return _targets_condition(text, what)
