"""Activated abilities read from card text (CR 602.1 "[Cost]: [Effect]"): the cost's parts (CR 118, 602.1a),
the effect's "Add" sentence with what may stand beside it (CR 602.5b, 106.6, 614.1a), and whether the
ability is a mana ability (CR 605.1a)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.errors import RulesError
from app.rules.text.mana_add import parse_add
from app.rules.text.mana_amounts import Amount, Condition, ManaEffect, parse_condition
from app.rules.text.mana_filters import Filter, parse_filter
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS

QUOTED = re.compile(r'"[^"]*"')
"""A quoted ability: another object's (CR 111.4, 613.1f)."""
_LOYALTY = re.compile(r"^\[?[+\-−]?(?:\d+|X)\]?$")


# ----------------------------------------------------------------------------------------------- costs


@dataclass(frozen=True, slots=True)
class CostPart:
    """One part of an activation cost (CR 602.1a, 118). ``kind``: tap, untap, mana, life, sacrifice_self,
    sacrifice (``amount`` -1: "Sacrifice X Goats"), exile (a permanent one controls), remove_counters (any
    number or X of its own counters), loyalty or other (a cost this
    reader keeps as text: discard, tap another creature...)."""

    kind: str
    text: str
    mana: ManaCost | None = None
    amount: int = 0
    filter: Filter | None = None
    counter: str | None = None
    """``remove_counters``: the kind of counter removed from the permanent itself."""


_REMOVE_COUNTERS = re.compile(
    r"Remove (?:any number of|X) (?P<kind>[a-z+/\-0-9]{1,20}) counters from (?:~|this [a-z]{1,20})"
)
"""CR 118.3, 122.1: removing its own counters; the number removed is chosen as the cost is paid."""


def parse_cost(text: str, self_name: str) -> tuple[CostPart, ...]:
    """Split an activation cost on commas and read each part."""
    parts: list[CostPart] = []
    for raw in (p.strip() for p in text.split(",")):
        if not raw:
            continue
        if raw == "{T}":
            parts.append(CostPart("tap", raw))
        elif raw == "{Q}":
            parts.append(CostPart("untap", raw))
        elif _LOYALTY.match(raw):
            parts.append(CostPart("loyalty", raw))
        elif raw.startswith("{") and raw.endswith("}") and "{T}" not in raw and "{Q}" not in raw:
            try:
                parts.append(CostPart("mana", raw, mana=ManaCost.parse(raw)))
            except RulesError:
                parts.append(CostPart("other", raw))
        elif m := _REMOVE_COUNTERS.fullmatch(raw.replace(self_name, "~")):
            parts.append(CostPart("remove_counters", raw, counter=m.group("kind")))
        elif m := re.fullmatch(r"Pay (\d+) life", raw):
            parts.append(CostPart("life", raw, amount=int(m.group(1))))
        elif (m := re.fullmatch(r"Exile (an? [^.]{1,60} you control)", raw)) and (
            flt := parse_filter(m.group(1))
        ):
            parts.append(CostPart("exile", raw, filter=flt))  # CR 406.3: exiling a permanent one controls
        elif (m := re.fullmatch(r"Sacrifice X ([A-Za-z]{1,30})", raw)) and (flt := parse_filter(m.group(1))):
            parts.append(CostPart("sacrifice", raw, filter=replace(flt, controller="you"), amount=-1))
        elif m := re.fullmatch(r"Sacrifice (.+)", raw):
            what = m.group(1)
            if what in {"~", self_name, "this permanent"} or re.fullmatch(r"this \w+", what):
                parts.append(CostPart("sacrifice_self", raw))
            else:
                flt = parse_filter(what)
                if flt is not None:  # one can sacrifice only what one controls (CR 701.21a)
                    flt = replace(flt, controller="you")
                parts.append(CostPart("sacrifice", raw, filter=flt))
        else:
            parts.append(CostPart("other", raw))
    return tuple(parts)


def cost_text(parts: tuple[CostPart, ...]) -> str:
    """The canonical cost: parts joined by ", " with each mana part canonical ("{1}, {T}")."""
    return ", ".join(str(p.mana) if p.mana is not None else p.text for p in parts)


_SENTENCE = re.compile(r"(?<=[.])\s+(?=[A-Z\"~])")
_HARMLESS = re.compile(
    r"^(?:~ deals \d+ damage to you|It deals \d+ damage to you|You lose \d+ life|You gain \d+ life"
    r"|Until end of turn, you don't lose this mana as steps and phases end"
    r"|(?:If|When) (?:that|this) mana is spent .*|(?:If|When) you spend this mana .*"
    r"|You can't spend this mana .*"
    r"|Spend this mana only .*)$"
)
_SPENT_TRIGGER = re.compile(r"^(?:If|When|Whenever) (?:that|this) mana is spent\b")
_DELAYED = re.compile(r"^When you (?:next )?cast your next spell this turn\b")
"""CR 603.7a: a delayed triggered ability the effect creates; it and the sentences after it are its own."""
_EFFECT_FORMS: Final = (
    # CR 106.4: the player who adds the mana may be chosen: choosing oneself, it is one's own mana
    (re.compile(r"^(?:Choose a player\. That player|A player of your choice) adds "), "Add "),
    (re.compile(r" they choose(?=\.|$)"), ""),
    # "You add {B}{B} and draw a card": two instructions
    (re.compile(r"(?<=\. )You add ([^.]{1,80}?) and draw a card(?=\.|$)"), r"Add \1. Draw a card"),
    # "Draw a card, then add ...": two instructions
    (re.compile(r"^(Draw a card|Untap ~), then add "), r"\1. Add "),
    # CR 105.2: the colors among permanents (Bloom Tender, Meteor Crater)
    (
        re.compile(r"^For each color among ([^,.]{1,80}), add one mana of that color"),
        r"Add one mana of each color among \1",
    ),
    (
        re.compile(r"^Choose a color of ([^.]{1,80})\. Add one mana of that color"),
        r"Add one mana of any color among \1",
    ),
)
_PUT_COUNTER = re.compile(r"^Put an? ([a-z+/\-0-9]{1,20}) counter on ~$")


def normal_effect(effect: str) -> str:
    """The effect in the forms ``parse_add`` reads (see ``_EFFECT_FORMS``)."""
    for pattern, repl in _EFFECT_FORMS:
        effect = pattern.sub(repl, effect)
    return effect


_INSTEAD = re.compile(r"^If (?P<cond>[^,]+), (?:add (?P<a>.+) instead|instead add (?P<b>.+))$")


@dataclass(frozen=True, slots=True)
class EffectReading:
    mana: ManaEffect | None
    adds_mana: bool
    targets: bool
    problem: str | None
    conditions: tuple[Condition, ...] = ()


def _split_effect(effect: str) -> list[str]:
    """The effect's sentences, without a delayed trigger's (CR 603.7a: "When you next cast ..." and what
    follows belong to it, Codie)."""
    sentences = [s.strip().rstrip(".") for s in _SENTENCE.split(effect.strip()) if s.strip()]
    for k, sentence in enumerate(sentences):
        if _DELAYED.match(sentence):
            return sentences[:k]
    return sentences


def _beside(mana: ManaEffect, sentences: list[str], add: str) -> ManaEffect | str:
    """The "Add" effect with what the other sentences say about it: a spending restriction (CR 106.6), an
    "If ..., add ... instead" (CR 614.1a); or why a sentence may change the mana and is not read."""
    restriction = None
    instead: tuple[Condition, ManaEffect] | None = None
    for s in sentences:
        if s is add:
            continue
        if s.startswith(("Spend this mana only", "You can't spend this mana")):
            restriction = s + "."
        elif (m := _INSTEAD.match(s)) and instead is None:
            other = parse_add("Add " + (m.group("a") or m.group("b")))
            that = re.fullmatch(r"(\w+) mana of that (?:type|color)", m.group("a") or m.group("b") or "")
            if other is None and that and (n := NUMBER_WORDS.get(that.group(1))) and len(mana.options) == 1:
                # Incubation Druid: n mana of the type the ability's own choice gave (CR 106.7)
                other = replace(mana, count=Amount(that.group(0), fixed=n))
            if other is None:
                return f"unknown mana template: {s!r}"
            instead = (parse_condition(m.group("cond")), other)
        elif re.search(r"\b(?:add|adds|instead|mana)\b", s, re.IGNORECASE) and not _HARMLESS.match(s):
            return f"a sentence that may change the mana: {s!r}"
    before = sentences[: sentences.index(add)]
    if mana.count is not None and mana.count.counter is not None:
        # "Put a charge counter on ~. Add X mana ..., where X is the number of charge counters on ~":
        # the counter is put on first (CR 608.2c), so X counts it
        put = sum(1 for b in before if (pm := _PUT_COUNTER.match(b)) and pm.group(1) == mana.count.counter)
        mana = replace(mana, count=replace(mana.count, offset=mana.count.offset + put))
    return replace(mana, restriction=restriction, instead=instead)


def read_effect(effect: str) -> EffectReading:
    """Find the "Add" sentence of an ability's effect and check the other sentences leave mana alone.

    Read beside it: "Activate only ..." (CR 602.5b), spending restrictions and riders (CR 106.6), and an
    "If ..., add ... instead" (CR 614.1a)."""
    effect = normal_effect(effect)
    sentences = _split_effect(effect)
    # CR 605.1a, 603.7: a target of the delayed trigger the mana sets up ("When that mana is spent to cast
    # ..., copy that spell and you may choose new targets", Pyromancer's Goggles) is not the ability's.
    own = [s for s in sentences if not _SPENT_TRIGGER.match(s)]
    targets = any(re.search(r"\btargets?\b", s) for s in own)
    conditions = tuple(
        parse_condition(s.removeprefix("Activate only ")) for s in sentences if s.startswith("Activate only ")
    )
    sentences = [s for s in sentences if not s.startswith("Activate only ") and s != "Choose a color"]
    adds = [s for s in sentences if re.match(r"Add\b", s)]
    # a quoted ability is another object's (CR 111.4, 613.1f): its "Add" is not this effect's
    mentions = bool(re.search(r"\badds?\b", QUOTED.sub('""', effect), re.IGNORECASE))
    if not adds:
        problem = "adds mana in a way this reader does not know" if mentions else None
        return EffectReading(None, mentions, targets, problem, conditions)
    if len(adds) > 1:
        return EffectReading(None, True, targets, "more than one 'Add' instruction", conditions)
    mana = parse_add(adds[0])
    if mana is None:
        return EffectReading(None, True, targets, f"unknown mana template: {adds[0]!r}", conditions)
    read = _beside(mana, sentences, adds[0])
    if isinstance(read, str):
        return EffectReading(None, True, targets, read, conditions)
    return EffectReading(read, True, targets, None, conditions)


# ------------------------------------------------------------------------------------ activated abilities


@dataclass(frozen=True, slots=True)
class ActivatedText:
    """An activated ability read from text (CR 602.1: "[Cost]: [Effect]").

    ``is_mana_ability`` follows CR 605.1a (no target, could add mana, not a loyalty ability); it is None
    when the reader could not tell whether the effect adds mana. ``problem`` says what was not understood.
    """

    cost: tuple[CostPart, ...]
    effect: str
    mana: ManaEffect | None
    is_mana_ability: bool | None
    is_loyalty: bool
    problem: str | None
    conditions: tuple[Condition, ...] = ()

    @property
    def cost_text(self) -> str:
        return cost_text(self.cost)

    @property
    def has_tap(self) -> bool:
        return any(p.kind == "tap" for p in self.cost)

    @property
    def has_untap(self) -> bool:
        return any(p.kind == "untap" for p in self.cost)


_ACTIVATED = re.compile(r"^(?P<cost>[^:\"]+?):\s+(?P<effect>.+)$")
_COST_START = re.compile(
    r"^(?:\{|\[?[+\-−]?(?:\d+|X)\b|Pay |Sacrifice |Discard |Tap |Untap |Remove |Exile |Put |"
    r"Return |Reveal |Mill |Collect )"
)


def _removed_counters(effect: str, cost: tuple[CostPart, ...]) -> str:
    """The effect with the counters its cost removes from the permanent read as the counters on it: the
    most it can remove, and so the most mana (removing fewer adds less, CR 118.3 lets one choose). "{B}
    for each storage counter removed this way" reads "for each storage counter on ~", "Add X mana ..."
    (X the counters removed) "... where X is the number of storage counters on ~"."""
    for part in cost:
        if (
            part.kind == "sacrifice"
            and part.amount == -1
            and part.filter is not None
            and "where X" not in effect
        ):
            noun = part.text.removeprefix("Sacrifice X ")  # "Sacrifice X Goats: Add X mana": at most all
            effect = re.sub(
                r"^(Add X mana [^.]{1,200})", rf"\1, where X is the number of {noun} you control", effect
            )
        if part.kind != "remove_counters" or part.counter is None:
            continue
        kind = part.counter
        effect = effect.replace(f"{kind} counter removed this way", f"{kind} counter on ~")
        if " X " in part.text and "where X is" not in effect:
            effect = re.sub(
                r"^(Add X mana [^.]{1,200})", rf"\1, where X is the number of {kind} counters on ~", effect
            )
            effect = effect.replace("equal to X", f"equal to the number of {kind} counters on ~")
    return effect


@text_cache(entries=8192, chars=1_000_000)  # bounded in bytes too: the texts are the client's
def parse_activated(line: str, self_name: str = "~") -> ActivatedText | None:
    """Read ``line`` as an activated ability; None when it is not of the form ``COST: EFFECT``."""
    m = _ACTIVATED.match(line.strip())
    if m is None or not _COST_START.match(m.group("cost")):
        return None
    cost = parse_cost(m.group("cost"), self_name)
    effect = m.group("effect").strip()
    loyalty = any(p.kind == "loyalty" for p in cost)
    reading = read_effect(_removed_counters(effect, cost))
    if loyalty or reading.targets:
        is_mana: bool | None = False  # CR 605.1a, 605.5a
    elif reading.problem is not None:
        is_mana = None
    else:
        is_mana = reading.adds_mana
    return ActivatedText(cost, effect, reading.mana, is_mana, loyalty, reading.problem, reading.conditions)
