"""The oracle-text reader for mana abilities and the static effects that change mana (CR 605, 106, 305, 613).

It reads the templates Oracle text uses; anything mana-related it does not recognise is returned as a
``problem`` (never guessed), so callers can warn. Reminder text in parentheses is no ability (CR 207.2).

Read here:

- activated abilities ``COST: EFFECT`` (CR 602.1) with their cost parts ({T}, {Q}, mana, life, sacrifice,
  loyalty) and, when the effect adds mana, a ``ManaEffect`` (fixed mana, choices, "any color", "N mana of
  any one color", "N mana in any combination of colors", "the chosen color", "for each ...", and the
  CR 106.7 "any type/color that <permanents> could produce" references);
- layer-4 land type changes (Urborg, Blood Moon, Celestial Dawn, Prismatic Omen, auras; CR 305.7, 613.1d);
- layer-6 ability grants in quotes and haste grants (Chromatic Lantern, Cryptolith Rite; CR 613.1f);
- replacement effects on mana production (Contamination, Mana Reflection, Ritual of Subdual; CR 106.12b);
- triggered mana abilities on tapping for mana (Heartbeat of Spring, Wild Growth, Utopia Sprawl; CR 106.12a,
  605.1b);
- since counters a cost removes from the permanent itself (storage lands, mana batteries), power
  (CR 208.1), the life total, the party (CR 700.8), the colors among permanents (CR 105.2), "X mana in any
  combination" split among its types, the mana value of what a cost takes (CR 202.3), another
  permanent's mana cost as mana, "choose a player" mana (CR 106.4), "As long as" grants (CR 611.3a),
  Reality Twist's land type swaps, and abilities that create a token, a grant or a replacement effect
  for a duration (CR 111.4, 611.2).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.bounded_cache import text_cache
from app.rules.text.mana_activated import (
    QUOTED,
    ActivatedText,
    normal_effect,
    parse_activated,
)
from app.rules.text.mana_add import parse_add
from app.rules.text.mana_amounts import (
    ManaEffect,
)
from app.rules.text.mana_filters import (
    sort_mana,
)
from app.rules.text.mana_static import (
    Grant,
    ManaTrigger,
    ProductionReplacement,
    StaticEffect,
    TypeChange,
    read_static,
    until_end_of_turn,
)
from app.rules.values.cards import Card, Face
from app.rules.values.symbols import COLORS, MANA_TYPES
from app.rules.values.types import BASIC_LAND_TYPES

__all__ = [
    "FaceMana",
    "card_produced_mana",
    "face_produced_mana",
    "read_face",
    "read_text",
    "restore_breaks",
    "strip_reminder",
    "without_type_reminders",
]

# Starts only where a run of spaces starts (?<!\s): the same matches, each space run scanned once (it was
# rescanned from every space: quadratic).
_REMINDER = re.compile(r"(?<!\s)\s*\([^()]*\)")


@dataclass(frozen=True, slots=True)
class FaceMana:
    """Everything mana-related read from one face's text; ``problems`` pairs an unread line with why."""

    activated: tuple[ActivatedText, ...] = ()
    type_changes: tuple[TypeChange, ...] = ()
    grants: tuple[Grant, ...] = ()
    replacements: tuple[ProductionReplacement, ...] = ()
    triggers: tuple[ManaTrigger, ...] = ()
    problems: tuple[tuple[str, str], ...] = ()
    lines: tuple[tuple[str, str], ...] = ()
    """Each line of text (reminder removed) with what became of it: ``mana`` (a mana ability read),
    ``ability`` (another activated ability), ``static`` (an effect read), ``problem`` (warned), ``other``."""


def strip_reminder(text: str) -> str:
    """Remove reminder text (CR 207.2: parenthesized text is no rule)."""
    return _REMINDER.sub("", text).strip()


_LOST_BREAK: Final = re.compile(r'"[^"\n]*"|(?<=[.")])(?=\{)')
"""A quoted ability (skipped whole) or an ability's cost starting right after a sentence's end."""


def restore_breaks(text: str) -> str:
    """The text with the line breaks the data lost put back, only where that is unambiguous: a brace
    that opens a cost right after a sentence ends (``.``, a closing quote or parenthesis), outside quotes
    ("... enters tapped.{3}{B}, {T}: Seek ... Activate only once.{T}: Add {B}.", Gate of the Black
    Dragon). Oracle text always starts an ability on a line of its own (CR 113.2, 602.1: one ability per
    paragraph), and a sentence ending mid-paragraph is followed by a space; a brace inside quotes is the
    granted ability's own ("have "{T}: Add {C}.""). Breaks lost elsewhere ("VigilanceWhen") stay."""
    if ".{" not in text and '"{' not in text and "){" not in text:
        return text
    return _LOST_BREAK.sub(lambda m: m.group(0) if m.group(0) else "\n", text)


def _norm(line: str, name: str) -> str:
    text = line.replace(name, "~") if name else line
    short = name.split(",")[0]
    if short and short != name:
        text = text.replace(short, "~")
    return text.strip().rstrip(".")


_MANA_WORDS = re.compile(
    r"for mana|could produce|produces? [^.]{0,80}instead|land types? and abilities", re.IGNORECASE
)
_LANDS = re.compile(r"lands?\b", re.IGNORECASE)
_IS_A_LAND_TYPE = re.compile(
    r"\b(?:is|are)\b (?:a |an |every )?(?:basic land type|Plains|Islands?|Swamps?|Mountains?|Forests?)\b",
    re.IGNORECASE,
)
_HAS = re.compile(r"ha(?:s|ve) ", re.IGNORECASE)
_ADD_WORD = re.compile(r"\bAdd\b", re.IGNORECASE)


def _mana_related(line: str) -> bool:
    """Whether a line the templates did not read still speaks of mana: a word of mana (``_MANA_WORDS``);
    in one sentence, "land(s)" then "is/are [a] <basic land type>"; or, in one sentence, "has/have" then a
    quoted ability that says "Add". Linear in the line: each sentence is searched from its first "land"
    or "has" only, and the text between two quotes once (one pattern ``lands?\b[^.]*\b(?:is|are)\b...``
    rescanned the sentence from every "land" in it: quadratic)."""
    if _MANA_WORDS.search(line):
        return True
    start = 0
    while start <= len(line):
        end = line.find(".", start)
        end = len(line) if end < 0 else end
        land = _LANDS.search(line, start, end)
        if land is not None and _IS_A_LAND_TYPE.search(line, land.end(), end):
            return True
        has = _HAS.search(line, start, end)
        if has is not None:
            quote = line.find('"', has.end(), end)
            while quote >= 0:
                closing = line.find('"', quote + 1)
                closing = len(line) if closing < 0 else closing
                if _ADD_WORD.search(line, quote + 1, closing):
                    return True
                quote = closing if closing < end else -1  # any quote of the sentence may open it
        start = end + 1
    return False


_IGNORABLE = re.compile(
    r"^(?:Enchant .*|As ~ enters(?: the battlefield)?, choose a color|Whenever .* for mana, (?:~|it) deals .*"
    r"|Whenever an opponent taps a land for mana, that land doesn't untap during its controller's next "
    r"untap step"
    r"|.*\bcreates?\b.*|Landfall — .*)$"
)


_PRODUCES_INSTEAD = re.compile(r"\bproduces?\b[^.]{0,80}\binstead\b", re.IGNORECASE)
_ABILITY_WORD = re.compile(r"^(?![IVX]+(?:, [IVX]+)* — )(?:• )?[A-Z][A-Za-z'’ -]{0,30} — (?=\S)")
"""An ability word or a mode label before an ability (CR 207.2c, 700.2): "Metalcraft — ", "• Khans — "."""
_ADDS_MANA = re.compile(r"\badds?\b[^.]{0,200}?(?:\{[WUBRGCX]\}|\bmana\b)", re.IGNORECASE)
_TRIGGER = re.compile(r"^(?:When|Whenever|At|(?:[IVX]+, )*[IVX]+ —|Cumulative upkeep ?—) ?")
"""CR 603.1 triggered abilities, 714.2b chapter abilities, 702.24a cumulative upkeep (a trigger whose cost
adds mana)."""
_DELAYED_AT = re.compile(r"\b[Aa]t the beginning of [^,.]{1,80}, add ")
"""CR 603.7a: a delayed triggered ability ("If you do, at the beginning of your first main phase, add")."""
_REMOVE_ALL = re.compile(r"\bremove all ([a-z+/\-0-9]{1,20}) counters from (?:~|it)(?!\w)")
_CREATES = re.compile(r"\b(?:creates?|tokens?|emblem|gains?|becomes?)\b")
_QUOTED_ADD = re.compile(r'"[^"]*\bAdd\b[^"]*"')


def _other_mana_line(line: str) -> tuple[str, str | None]:
    """A line that adds mana but is neither an activated ability nor a static effect read above.

    - ``token``: the mana ability is in quotes, an ability of a token or object it creates or grants
      for a duration (CR 111.4, 611.2); that object has it when it is on the board;
    - ``trigger``: a triggered ability (CR 603.1) or chapter ability (CR 714.2b) that adds mana when it
      resolves; not a mana ability, since it does not trigger from one (CR 605.1b), so it pays for nothing
      here. Understood when its "add" is a template read here; otherwise a warning.
    Anything else is a warning."""
    unquoted = QUOTED.sub('""', line)
    if not _ADDS_MANA.search(unquoted):
        if _CREATES.search(unquoted):
            return "token", None
        return "problem", "a mana ability given to permanents in a way this reader does not know"
    if _TRIGGER.match(line) or _DELAYED_AT.search(line):
        if removed := _REMOVE_ALL.search(unquoted):  # "remove all charge counters from ~. Add ... for each
            kind = removed.group(1)  # charge counter removed this way": the counters it had (CR 122.1)
            unquoted = unquoted.replace(f"{kind} counter removed this way", f"{kind} counter on ~")
        unquoted = normal_effect(re.sub(r"\bchoose a player\. That player adds\b", "add", unquoted))
        for m in re.finditer(r"\b[Aa]dds? ([^.]+)", unquoted):
            clause = re.split(r" and (?:you |~ )| at the beginning", m.group(1))[0].strip()
            if parse_add("Add " + clause) is None:
                return "problem", "a triggered ability adds mana in a way this reader does not know"
        return "trigger", None
    return "problem", "adds mana in a way this reader does not know"


@dataclass(slots=True)
class _Reading:
    """What ``read_text`` gathers line by line, frozen into a ``FaceMana`` at the end."""

    activated: list[ActivatedText]
    statics: list[StaticEffect]
    problems: list[tuple[str, str]]
    lines: list[tuple[str, str]]

    def mark(self, raw: str, kind: str, problem: str | None = None) -> None:
        self.lines.append((raw.strip(), kind))
        if problem is not None:
            self.problems.append((raw.strip(), problem))


def _activated_kind(ability: ActivatedText, line: str) -> tuple[str, str | None]:
    """What became of an activated ability's line, and the warning it needs (CR 602.1, 605.1a)."""
    if ability.problem is not None:
        return "problem", ability.problem
    if ability.mana is None and _PRODUCES_INSTEAD.search(line):
        if until_end_of_turn(ability.effect):
            # CR 611.2, 614.1a: the effect it creates replaces what lands produce until end of turn
            # (Deep Water, Harvest Mage); read, it applies once the ability has resolved
            return "token", None
        # CR 106.12b, 614.1a: an activated ability whose effect replaces what lands produce in a way not
        # read here, so said ("nothing silent").
        return "problem", "an ability whose effect changes the mana lands produce: not read here"
    if ability.mana is None and _QUOTED_ADD.search(line) and _CREATES.search(QUOTED.sub('""', line)):
        # CR 111.4, 611.2: the mana ability is that of a token it creates or of an object it gives it to
        # for a while: that object has it once it is on the board
        return "token", None
    return ("mana" if ability.mana is not None else "ability"), None


def _read_line(line: str, raw: str, reading: _Reading) -> None:
    """One line: an activated ability (CR 602.1), static effects (``mana_static``), another line that adds
    mana (``_other_mana_line``), or other text, warned about when it mentions mana (nothing silent)."""
    ability = parse_activated(line + ".", "~")
    if ability is not None:
        reading.activated.append(ability)
        reading.mark(raw, *_activated_kind(ability, line))
        return
    effects = read_static(line)
    if effects is not None:
        reading.statics.extend(effects)
        reading.mark(raw, "static")
    elif _ADDS_MANA.search(line):
        reading.mark(raw, *_other_mana_line(line))
    elif _mana_related(line) and not _IGNORABLE.match(line):
        reading.mark(raw, "problem", "a mana-related text this reader does not understand")
    else:
        reading.mark(raw, "other")


@text_cache(entries=8192, chars=2_000_000)  # bounded in bytes too: the texts are the client's
def read_text(oracle_text: str, name: str = "") -> FaceMana:
    """Read every line of a face's text (``name`` is replaced by ``~`` for self-references)."""
    reading = _Reading([], [], [], [])
    for raw in restore_breaks(strip_reminder(oracle_text)).splitlines():
        deadline.check()  # one line; the memo keeps only a whole reading
        line = _norm(strip_reminder(raw), name)
        if line:
            # CR 207.2c: an ability word has no rules meaning
            _read_line(_ABILITY_WORD.sub("", line, count=1), raw, reading)
    statics = reading.statics
    return FaceMana(
        tuple(reading.activated),
        tuple(e for e in statics if isinstance(e, TypeChange)),
        tuple(e for e in statics if isinstance(e, Grant)),
        tuple(e for e in statics if isinstance(e, ProductionReplacement)),
        tuple(e for e in statics if isinstance(e, ManaTrigger)),
        tuple(reading.problems),
        tuple(reading.lines),
    )


def read_face(face: Face) -> FaceMana:
    """The mana-related reading of a face's oracle text (cached by text and name)."""
    return read_text(without_type_reminders(face), face.name)


def without_type_reminders(face: Face) -> str:
    """The text without a basic land type's reminder that lost its parentheses with its line break
    ("... Activate only once.{T}: Add {B}." on a "Land — Swamp Gate"): CR 305.6, the land type gives that
    ability, and the printed "({T}: Add {B}.)" is its reminder (CR 207.2), no second ability."""
    text = face.oracle_text
    if ".{T}: Add {" not in text:  # the common case, and the cheaper test first
        return text
    own = [m for t, m in BASIC_LAND_TYPES.items() if t in face.type_line.subtypes]
    if not own:
        return text
    reminders = {"{T}: Add {" + m + "}." for m in own}
    lines = restore_breaks(text).splitlines()
    return "\n".join(line for line in lines if line.strip() not in reminders)


# ----------------------------------------------------------------------------- a card's produced mana

_ADD_PHRASE: Final = re.compile(r"\b[Aa]dds? ([^.\n]{1,300})")
_ANY_COLOR_WORDS: Final = re.compile(
    r"\b(?:any color|any one color|combination of colors|chosen color|that color)\b"
)
_ANY_TYPE_WORDS: Final = re.compile(r"\bany (?:one )?type\b")


def _effect_types(effect: ManaEffect) -> set[str]:
    out: set[str] = set()
    if effect.undefined is not None:  # CR 106.5: it adds no mana at all
        return out
    for option in effect.options:
        out.update(option.fixed)
        if option.chosen:
            out.update(COLORS)  # CR 105.1: a chosen color is one of the five
        if option.reference is not None:  # CR 106.7: whatever another permanent could produce
            out.update(COLORS if option.reference.what == "color" else MANA_TYPES)
    if effect.commander or effect.colors_of is not None:  # CR 903.4f, 105.2: colors of other objects
        out.update(COLORS)
    if effect.cost_of is not None:  # another permanent's mana cost: any color, generic as colorless
        out.update(MANA_TYPES)
    if effect.instead is not None:  # CR 614.1a: what it adds instead, when the condition holds
        out |= _effect_types(effect.instead[1])
    return out


def _phrase_types(phrase: str) -> set[str]:
    """The mana one "add ..." phrase could add: read by ``parse_add``, else from its symbols and words."""
    effect = parse_add("Add " + phrase.strip())
    if effect is not None:
        return _effect_types(effect)
    out = {m for m in re.findall(r"\{([WUBRGC])\}", phrase)}
    if _ANY_COLOR_WORDS.search(phrase):
        out.update(COLORS)
    if _ANY_TYPE_WORDS.search(phrase):
        out.update(MANA_TYPES)
    return out


def face_produced_mana(face: Face) -> tuple[str, ...]:
    """The mana types (W, U, B, R, G, C) that the abilities of this face could ever add.

    CR 305.6: each basic land type gives "{T}: Add [its mana]"; CR 605.1a and 113.3: every ability of the
    face that adds mana (mana abilities, loyalty abilities, spell abilities, triggered abilities), read as
    ``parse_add`` reads it, else from the symbols and "any color"/"any type" words of its "add" phrase;
    CR 106.7 references ("any color a land you control could produce") count as every color (type).
    Abilities granted to other objects are not the face's own and are not counted.
    """
    out: set[str] = {BASIC_LAND_TYPES[t] for t in face.type_line.basic_land_types}
    text = strip_reminder(face.oracle_text)
    for line in text.splitlines():
        if line.lstrip().startswith(('"', "“")) or re.search(r"\bha(?:ve|s) \"", line):
            continue  # a granted ability in quotes belongs to another object (CR 613.1f)
        for m in _ADD_PHRASE.finditer(line):
            out |= _phrase_types(m.group(1))
    return sort_mana(tuple(out))


def card_produced_mana(card: Card) -> tuple[str, ...]:
    """The mana types any face of ``card`` could ever add (``face_produced_mana``), in WUBRGC order."""
    out: set[str] = set()
    for face in card.faces:
        out.update(face_produced_mana(face))
    return sort_mana(tuple(out))
