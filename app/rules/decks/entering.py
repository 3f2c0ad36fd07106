"""How a land enters the battlefield, read from its text, for the ``tapped-lands`` castability model.

A land that enters tapped cannot be tapped for mana the turn it is played (CR 110.5b: a permanent that
"enters tapped" does so; CR 106.12 / 605: a mana ability needs {T}, and a tapped permanent can't pay
{T}, CR 107.5). The rules read here, each from the card's own sentence:

- ``untapped``: no sentence makes it enter tapped (basic lands, pain lands, Pathways);
- ``tapped``: "<name> enters the battlefield tapped." with no condition (gain lands, tri-lands, bounce
  lands);
- ``types``: "... enters the battlefield tapped unless you control a Swamp or a Mountain." (check lands):
  untapped when another land you control has one of those land types;
- ``at_most_other``: "... unless you control two or fewer other lands." (fast lands);
- ``at_least_other``: "... unless you control two or more other lands." (slow lands);
  "If you control two or more other lands, <name> enters the battlefield tapped." (Lair of the Hydra) is
  ``at_most_other`` 1;
- ``basics``: "... unless you control two or more basic lands." (battle lands);
- ``life``: "As <name> enters the battlefield, you may pay 2 life. If you don't, it enters the battlefield
  tapped." (shock lands; the mythic modal lands pay 3): the model assumes the life is paid, so it enters
  untapped, and says so in a warning (a player casting on curve pays it);
- ``unknown``: a sentence that makes it enter tapped under a condition not read here (a land revealing a
  card from hand, a player's life total): the model treats it as entering tapped, with a warning.

A land that searches for a land (``deckstats.fetch_target``) brings what it finds: "put it onto the
battlefield tapped" (Evolving Wilds) is ``tapped``, with Fabled Passage's "Then if you control four or more
lands, untap that land" read as ``at_least_other`` 3 (the found land and three others); otherwise the land
found enters untapped (Bloodstained Mire, Prismatic Vista), the fetch itself needing to be untapped to be
activated ({T} in its cost, CR 602.2b).

Read in linear time: the text is split into sentences once, each looked at with anchored patterns.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.decks.deckstats import BASIC_TYPE_COLORS

UNTAPPED: Final = "untapped"
TAPPED: Final = "tapped"
TYPES: Final = "types"
AT_MOST_OTHER: Final = "at_most_other"
AT_LEAST_OTHER: Final = "at_least_other"
BASICS: Final = "basics"
LIFE: Final = "life"
UNKNOWN: Final = "unknown"

_NUMBER_WORDS: Final = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
_REMINDER: Final = re.compile(r"\([^()]{0,400}\)")
_ENTERS_TAPPED: Final = re.compile(r"enters(?: the battlefield)? tapped(?P<rest>.{0,200})$")
_UNLESS: Final = re.compile(r" unless you control (?P<what>.{1,120})$")
_OTHER_LANDS: Final = re.compile(r"^(?P<n>\w+) or (?P<dir>fewer|more) other lands$")
_BASIC_LANDS: Final = re.compile(r"^(?P<n>\w+) or more basic lands$")
_IF_OTHER_LANDS: Final = re.compile(r"if you control (?P<n>\w+) or more other lands, ")
_PAY_LIFE: Final = re.compile(r"you may pay (?P<n>\d+) life$")
_FETCH_TAPPED: Final = re.compile(r"onto the battlefield tapped")
_FETCH_UNTAP: Final = re.compile(r"then if you control (?P<n>\w+) or more lands, untap that land")


@dataclass(frozen=True, slots=True)
class EntryRule:
    """How a land enters: ``kind`` (module docstring), the land ``types`` a check land looks for, the count
    ``n`` of a land-count condition, and ``sentence``, the text it was read from (empty: none)."""

    kind: str
    types: tuple[str, ...] = ()
    n: int = 0
    sentence: str = ""

    def untapped_on(self, turn: int) -> str:
        """The rule on the turn it is played as the ``turn``-th land (``turn - 1`` other lands): ``untapped``,
        ``tapped``, or ``types`` / ``basics`` (decided by the other lands)."""
        others = turn - 1
        if self.kind in (UNTAPPED, LIFE):
            return UNTAPPED
        if self.kind == AT_MOST_OTHER:
            return UNTAPPED if others <= self.n else TAPPED
        if self.kind == AT_LEAST_OTHER:
            return UNTAPPED if others >= self.n else TAPPED
        if self.kind in (TYPES, BASICS):
            return self.kind
        return TAPPED  # tapped, unknown


UNTAPPED_RULE: Final = EntryRule(UNTAPPED)


def _sentences(oracle_text: str) -> list[str]:
    text = _REMINDER.sub("", oracle_text)
    out: list[str] = []
    for line in text.splitlines():
        out += [s.strip() for s in line.split(". ") if s.strip()]
    return out


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() and len(word) <= 2 else _NUMBER_WORDS.get(word)


def entry_rule(oracle_text: str) -> EntryRule:
    """How a land with this text enters (module docstring)."""
    sentences = _sentences(oracle_text)
    for i, sentence in enumerate(sentences):
        low = sentence.lower().rstrip(".")
        m = _ENTERS_TAPPED.search(low)
        if m is None or "onto the battlefield" in low:
            continue
        rest = m.group("rest")
        if not rest:
            before = sentences[i - 1].lower().rstrip(".") if i else ""
            paid = _PAY_LIFE.search(before)
            if low.startswith("if you don't") and paid is not None:
                return EntryRule(LIFE, n=int(paid.group("n")), sentence=f"{sentences[i - 1]} {sentence}")
            lair = _IF_OTHER_LANDS.match(low)
            if lair is not None and (n := _number(lair.group("n"))) is not None:
                return EntryRule(AT_MOST_OTHER, n=n - 1, sentence=sentence)
            if low.startswith("if you don't") or low.startswith("if "):
                return EntryRule(UNKNOWN, sentence=f"{sentences[i - 1]} {sentence}" if i else sentence)
            return EntryRule(TAPPED, sentence=sentence)
        unless = _UNLESS.match(rest)
        if unless is None:
            return EntryRule(UNKNOWN, sentence=sentence)
        return _condition(unless.group("what"), sentence)
    return UNTAPPED_RULE


def _condition(what: str, sentence: str) -> EntryRule:
    m = _OTHER_LANDS.fullmatch(what)
    if m is not None and (n := _number(m.group("n"))) is not None:
        return EntryRule(
            AT_MOST_OTHER if m.group("dir") == "fewer" else AT_LEAST_OTHER, n=n, sentence=sentence
        )
    m = _BASIC_LANDS.fullmatch(what)
    if m is not None and (n := _number(m.group("n"))) is not None:
        return EntryRule(BASICS, n=n, sentence=sentence)
    words = [w for w in what.replace(",", " ").split() if w not in ("a", "an", "or")]
    types = tuple(w.capitalize() for w in words)
    if types and all(t in BASIC_TYPE_COLORS for t in types):
        return EntryRule(TYPES, types=types, sentence=sentence)
    return EntryRule(UNKNOWN, sentence=sentence)


def fetched_rule(oracle_text: str) -> EntryRule:
    """How the land a fetch land finds enters: tapped when the text puts it "onto the battlefield tapped"
    (with Fabled Passage's later untap read as a land-count condition), else untapped."""
    for sentence in _sentences(oracle_text):
        low = sentence.lower()
        if "search your library" not in low and "untap that land" not in low:
            continue
        if _FETCH_TAPPED.search(low) is None:
            continue
        tail = " ".join(s.lower().rstrip(".") for s in _sentences(oracle_text))
        untap = _FETCH_UNTAP.search(tail)
        if untap is not None and (n := _number(untap.group("n"))) is not None:
            return EntryRule(AT_LEAST_OTHER, n=n - 1, sentence=sentence)
        return EntryRule(TAPPED, sentence=sentence)
    return UNTAPPED_RULE
