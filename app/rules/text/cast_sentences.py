"""Casting text cut into sentences as the ``"ways"`` templates read them, and cost phrases read (CR 118.1).

A sentence has reminder text removed (CR 207.2), the card's own name (and its short name) replaced by
``~`` and is lower-cased for the templates, its case kept for the answer. A cost phrase ("pay 1 life and
exile a blue card from your hand") is split into its parts, all paid (CR 118.1): its mana, a life payment
(CR 119.4) and the other parts as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import number_word
from app.rules.errors import RulesError
from app.rules.values.costs import ManaCost

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


class Unreadable(ValueError):
    pass


def cost_mana(text: str) -> ManaCost:
    try:
        return ManaCost.parse(text)
    except RulesError as exc:
        raise Unreadable(f"the cost {text!r} does not parse: {exc}") from exc


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
            raise Unreadable("an empty part of a cost")
        head, _, rest = phrase.partition(" ")
        if head.lower() == "pay" and rest.startswith("{") and rest.endswith("}") and " " not in rest:
            mana = mana + cost_mana(rest)
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
            raise Unreadable(f"a cost part that is not read: {phrase!r}")
        others.append(OtherCost(phrase[0].upper() + phrase[1:]))
    return mana, tuple(others)


def original(s: Sentence, m: re.Match[str], group: str) -> str:
    start, end = m.span(group)
    return s.text[start:end]


def cast_condition(s: Sentence, m: re.Match[str], *groups: str) -> str | None:
    for g in groups:
        if m.groupdict().get(g):
            return original(s, m, g)
    return None
