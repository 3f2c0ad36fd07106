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
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Final, Literal

from app.rules.bounded_cache import text_cache
from app.rules.effects.cost_effects import (
    NO_EFFECTS,
    CardEffects,
    CostEffect,
    CountKind,
    Direction,
    Effect,
    Unsupported,
)
from app.rules.text.cost_conditions import x_is
from app.rules.text.cost_sentences import (
    CAP,
    CLASS_LEVEL_LINE,
    GRANT,
    GUARD_GRANT,
    LIFE_MORE,
    MINIMUM,
    SPELLS_X,
    STATIC,
    affinity_effect,
    at_level,
    card_type_chosen,
    chooses_a_card_type,
    granted,
    guard_grant_effect,
    life_effect,
    minimum_effect,
    own_effects,
    static_effect,
)
from app.rules.text.cost_subjects import spell_subject
from app.rules.text.cost_turn import this_turn_effect
from app.rules.text.cost_words import THIS_WAY_COUNTS, NotUnderstood
from app.rules.text.keyword_lines import is_way_reduction
from app.rules.text.templates import registry
from app.rules.values.costs import ManaCost

_REMINDER = re.compile(r"\([^()]*\)")
# A reminder closing directly onto a capital letter or a mana symbol: a spoiler text's lost line break.
_SPOILER_BREAK = re.compile(r"\)(?=[A-Z{])")
_SENTENCE = re.compile(r"(?<=[.!])\s*(?=[A-Z•\"])")
_ABILITY_WORD = re.compile(r"^[A-Z][A-Za-z' -]{1,40} — (?=[A-Z])")
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
_MAX_SENTENCE: Final = 400
"""The longest sentence the templates read (the catalogue's longest cost sentence is far shorter)."""
_TRIGGER_WORDS: Final = ("cost", "ffinity", "have convoke", "have improvise", "have delve")
_TRIGGER_OR_ACTIVATED = re.compile(r"^(?:when|whenever|at the beginning|at end)\b|^[^\"]*?:\s|^[ivx, ]+ — ")

COSTS: Final = registry("costs")
"""The cost-effect templates. A sentence is lower-cased, its reminder text removed and the card's name read
as "~", with its final period ("this spell costs {1} less to cast for each artifact you control.")."""


def may_change_costs(oracle_text: str) -> bool:
    """Whether a text has a word every cost effect read here needs ("cost", "affinity", a granted way to
    pay): the prefilter that spares reading the other texts (CR 601.2f effects all say what they change)."""
    return any(w in oracle_text for w in _TRIGGER_WORDS)


@dataclass(slots=True)
class _Card:
    """What one face's text has given so far, and the facts of the whole text its sentences need."""

    oracle_text: str
    chooses_type: bool
    chooses_card_type: bool
    effects: list[Effect] = field(default_factory=list)
    own: list[CostEffect] = field(default_factory=list)
    unsupported: list[Unsupported] = field(default_factory=list)
    own_unsupported: list[Unsupported] = field(default_factory=list)

    def result(self) -> CardEffects:
        if not (self.effects or self.own or self.unsupported or self.own_unsupported):
            return NO_EFFECTS
        return CardEffects(
            tuple(self.effects), tuple(self.own), tuple(self.unsupported), tuple(self.own_unsupported)
        )


@dataclass(slots=True)
class _Sentence:
    """One sentence being read: each method reads one template's match (True: read, None: the next
    template may try). A sentence a template recognises but cannot read becomes an ``Unsupported``."""

    card: _Card
    sentence: str
    low: str
    colored_only: bool
    level: int

    def _warn(self, why: str, *, own: bool) -> Literal[True]:
        (self.card.own_unsupported if own else self.card.unsupported).append(Unsupported(self.sentence, why))
        return True

    def guard_grant(self, m: re.Match[str]) -> Literal[True]:
        try:
            self.card.effects.append(guard_grant_effect(m, self.sentence))
        except NotUnderstood as exc:
            return self._warn(str(exc), own=False)
        return True

    def keyword_grant(self, m: re.Match[str]) -> Literal[True]:
        try:
            self.card.effects.append(granted(m, self.sentence, self.card.chooses_type))
        except NotUnderstood as exc:
            return self._warn(str(exc), own=False)
        return True

    def affinity(self, _m: re.Match[str]) -> Literal[True]:
        try:
            self.card.own.append(affinity_effect(self.low, self.sentence))
        except NotUnderstood as exc:
            return self._warn(str(exc), own=True)
        return True

    def cap(self, m: re.Match[str]) -> Literal[True]:
        """ "This effect can't reduce the amount of mana this spell costs by more than {5}": the most times
        the "for each" reduction before it applies."""
        own = self.card.own
        last = own[-1] if own else None
        if (
            last is None
            or last.per is None
            or last.amount != ManaCost.of(1)
            or last.direction is not Direction.REDUCTION
        ):
            return self._warn("a cap on no reduction this reader can cap", own=True)
        own[-1] = replace(last, max_times=int(m.group("n")))
        return True

    def this_turn(self, _m: re.Match[str]) -> Literal[True] | None:
        if _TRIGGER_OR_ACTIVATED.search(self.low):
            return None
        try:
            turn = this_turn_effect(self.low, self.sentence, self.colored_only)
        except NotUnderstood:
            return None
        if turn is None:
            return None
        (self.card.own if turn.own else self.card.effects).append(turn)
        return True

    def not_tracked(self, _m: re.Match[str]) -> Literal[True] | None:
        low = self.low
        temporary = "this turn" in low and not low.endswith(_TURN_COUNT_ENDINGS)
        if not (_TRIGGER_OR_ACTIVATED.search(low) or temporary or "until " in low):
            return None
        return self._warn("a triggered, activated or temporary effect; not tracked", own="this spell" in low)

    def life(self, m: re.Match[str]) -> Literal[True]:
        effect = life_effect(m, self.sentence, self.card.chooses_type)
        (self.card.own if m.group("own") else self.card.effects).append(effect)
        return True

    def this_spell(self, _m: re.Match[str]) -> Literal[True]:
        read = own_effects(self.low, self.sentence, self.colored_only)
        if any(not _paid_this_way(e, self.card.oracle_text) for e in read):
            raise NotUnderstood("counts objects paid this way, but no such cost was read")
        self.card.own.extend(read)
        return True

    def spells_x(self, m: re.Match[str]) -> Literal[True] | None:
        """ "Noncreature spells you cast cost {X} less to cast, where X is your speed." (CR 118.7a)"""
        if m.group("subject").startswith("this "):
            return None
        spells = spell_subject(m.group("subject"), self.card.chooses_type)
        per = x_is(m.group("x"))
        one = ManaCost.of(1)
        self.card.effects.append(CostEffect(Direction.REDUCTION, one, spells, "118.7a", self.sentence, per))
        return True

    def minimum(self, m: re.Match[str]) -> Literal[True]:
        self.card.effects.append(minimum_effect(m, self.sentence))
        return True

    def spells_cost(self, _m: re.Match[str]) -> Literal[True]:
        card = self.card
        chooses = card.chooses_type or card.chooses_card_type
        effect = static_effect(self.low, self.sentence, self.colored_only, chooses)
        if card.chooses_card_type and not card.chooses_type:
            effect = card_type_chosen(effect)
        card.effects.append(at_level(effect, self.level))
        return True


_Reader = Callable[[_Sentence, re.Match[str]], "Literal[True] | None"]
_FIRST: Final[dict[str, _Reader]] = {}
"""Templates read before the sentence is known to be about costing less or more to cast."""
_THEN: Final[dict[str, _Reader]] = {}
"""Templates read on a sentence about costing less or more to cast that no way to cast claims."""


def _template(
    stage: dict[str, _Reader],
    name: str,
    pattern: str,
    reader: _Reader,
    *,
    rule: str,
    examples: tuple[str, ...],
    yields: str,
    shadows: tuple[str, ...] = (),
) -> None:
    COSTS.add(name, pattern, rule=rule, examples=examples, yields=yields, shadows=shadows)
    stage[name] = reader


def _bound(
    stage: dict[str, _Reader], sentence: _Sentence
) -> dict[str, Callable[[re.Match[str]], bool | None]]:
    return {name: partial(reader, sentence) for name, reader in stage.items()}


_template(
    _FIRST,
    "guard-grant",
    GUARD_GRANT.pattern,
    _Sentence.guard_grant,
    rule="613.1f",
    examples=(
        'creatures you control with flying have "spells your opponents cast that target this creature cost '
        "{2} more to cast.",
    ),
    yields="a tax on opponents' spells, once for each such permanent the spell targets (601.2c)",
)
_template(
    _FIRST,
    "keyword-grant",
    GRANT.pattern,
    _Sentence.keyword_grant,
    rule="702.41a",
    examples=(
        "artifact spells you cast have convoke.",
        "artifact creature spells you cast have affinity for artifacts.",
        "nonartifact spells you cast have improvise.",
    ),
    yields="granted affinity as a reduction; convoke, improvise, delve as a way to pay the payment uses",
)
_template(
    _FIRST,
    "affinity",
    r"^affinity for ",
    _Sentence.affinity,
    rule="702.41a",
    examples=(
        "affinity for artifacts",
        "affinity for tokens",
    ),
    yields="this spell costs {1} less for each permanent of that quality its caster controls",
)
_template(
    _FIRST,
    "reduction-cap",
    CAP.pattern,
    _Sentence.cap,
    rule="601.2f",
    examples=("this effect can't reduce the amount of mana this spell costs by more than {5}.",),
    yields="the most times the 'for each' reduction before it applies",
)
_template(
    _THEN,
    "this-turn",
    r"^(?=.*?(?:this|each) turn)",
    _Sentence.this_turn,
    rule="500.1",
    examples=(
        "this spell costs {3} less to cast if a creature died this turn.",
        "the first creature spell you cast each turn costs {2} less to cast.",
        "this spell costs {1} less to cast for each creature that died this turn.",
    ),
    yields="a reduction or increase counted on this turn's facts (spells cast, life lost, the first spell)",
)
_template(
    _THEN,
    "not-tracked",
    r'^(?:(?:when|whenever|at the beginning|at end)\b|[^"]*?:\s|[ivx, ]+ — |.*?this turn|.*?until )',
    _Sentence.not_tracked,
    rule="601.2f",
    examples=(
        "noncreature spells your opponents cast cost {2} more to cast until your next turn.",
        "spells with the chosen name cost {1} less to cast this turn.",
    ),
    yields="a warning: a triggered, activated or temporary effect is not tracked on the board",
    shadows=("this-turn",),
)
_template(
    _THEN,
    "life-more",
    LIFE_MORE.pattern,
    _Sentence.life,
    rule="119.4",
    examples=(
        "this spell costs 3 life more to cast for each target.",
        "spells your opponents cast that target ~ cost an additional 3 life to cast.",
    ),
    yields="a life payment added to the cost, of this spell or of the spells named",
)
_template(
    _THEN,
    "this-spell-costs",
    r"^(?=.*?this spell costs)",
    _Sentence.this_spell,
    rule="601.2f",
    examples=(
        "this spell costs {1} less to cast if you control a wizard.",
        "this spell costs {2}{u} more to cast for each target beyond the first.",
    ),
    yields="this spell's own reduction or increase, with its 'for each', 'if' or 'where X is'",
    shadows=("reduction-cap", "this-turn", "life-more"),
)
_template(
    _THEN,
    "spells-cost-x",
    SPELLS_X.pattern,
    _Sentence.spells_x,
    rule="118.7a",
    examples=("noncreature spells you cast cost {x} less to cast, where x is your speed.",),
    yields="a generic reduction of X for the spells named, X counted on the board",
)
_template(
    _THEN,
    "minimum-total",
    MINIMUM.pattern,
    _Sentence.minimum,
    rule="601.2f",
    examples=(
        "as long as ~ is untapped, each spell that would cost less than three mana to cast costs three mana "
        "to cast.",
    ),
    yields="a floor on the total cost (Trinisphere)",
)
_template(
    _THEN,
    "spells-cost",
    STATIC.pattern,
    _Sentence.spells_cost,
    rule="601.2f",
    examples=(
        "spells your opponents cast that target ~ cost {1} less to cast.",
        "white spells you cast cost {w} more to cast.",
        "creature spells you cast cost {1} less to cast for each +1/+1 counter on ~.",
    ),
    yields="a reduction or increase for the spells named, with its condition and 'for each'",
    # the broadest shape, tried last: "[subject] cost(s) {N} less|more to cast" where the subject may be
    # this spell, granted in quotes, or "the first ... spell you cast each turn"
    shadows=("guard-grant", "this-turn", "this-spell-costs"),
)


@text_cache(entries=8192, chars=2_000_000)  # bounded in bytes too: the texts are the client's
def read_cost_effects(name: str, oracle_text: str) -> CardEffects:
    """The cost effects in one face's ``oracle_text`` (``name`` is the face's name, read as "~"), read by the
    templates of ``COSTS`` in order; a sentence about costs no template reads is ``Unsupported``.

    Cached per (name, text), so a board of repeated cards reads each text once.
    """
    if not oracle_text or not may_change_costs(oracle_text):
        return NO_EFFECTS
    card = _Card(oracle_text, "choose a creature type" in oracle_text, chooses_a_card_type(oracle_text))
    for sentence, colored_only, level in _sentences(name, oracle_text):
        _read_sentence(card, sentence, colored_only, level)
    return card.result()


def _read_sentence(card: _Card, sentence: str, colored_only: bool, level: int) -> None:
    low = sentence.casefold()
    if len(low) > _MAX_SENTENCE:
        # Linear-time guard: the templates run only on sentences of real length, so no pattern ever sees a
        # long hostile text; a long sentence that mentions costs is warned about, not read.
        if "cost" in low and ("less" in low or "more" in low or "ffinity" in low or " have " in low):
            card.unsupported.append(Unsupported(sentence[:200], "a sentence too long to be a cost effect"))
        return
    if COSTS.read(low, _bound(_FIRST, _Sentence(card, sentence, low, colored_only, level))):
        return
    looks = _LESS_MORE.search(low) is not None or "would cost less than" in low
    if not looks or is_way_reduction(low):  # a way's own reduction: the ways reader applies it
        return
    if low.startswith("it also costs "):  # "It also costs {1} less to cast if ...": this spell
        low = "this spell costs " + low[len("it also costs ") :]
    ability_rider = _ABILITY_RIDER.match(low)
    if ability_rider:  # "... cost {1} more to cast and abilities ... cost {1} more to activate"
        low = ability_rider.group("spells") + "."
    try:
        read = COSTS.read(low, _bound(_THEN, _Sentence(card, sentence, low, colored_only, level)))
        if not read:
            raise NotUnderstood("a cost sentence of an unknown shape")
    except NotUnderstood as exc:
        target = card.own_unsupported if "this spell" in low else card.unsupported
        target.append(Unsupported(sentence, str(exc)))


def _paid_this_way(effect: CostEffect, oracle_text: str) -> bool:
    """ "for each creature sacrificed this way" counts only when the text offers "you may sacrifice any number
    of ..." as an additional cost (CR 601.2b): the count is the times that optional cost is paid."""
    if effect.per is None or effect.per.kind is not CountKind.OPTIONAL_TIMES:
        return True
    verb = THIS_WAY_COUNTS[effect.per.text]
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
            m = CLASS_LEVEL_LINE.match(line.casefold())
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
