"""Decklists as players paste them: the text and file exports of deck sites, MTGO and MTG Arena.

Forms read (one entry per physical line, lines numbered from 1):

- ``4 Name``, ``4x Name`` / ``4 x Name``, a bare ``Name`` (one copy);
- MTG Arena and Moxfield lines ``4 Name (SET) 123`` and Archidekt's ``1x Name (set) 123``: the set and
  collector number are dropped; deckstats' ``1 [SET#123] Name`` and MTGGoldfish's ``4 Name <promo> [SET]``
  likewise;
- section headers ``Deck``, ``Main``, ``Sideboard``, ``Commander``, ``Companion``, ``Maybeboard`` /
  ``Considering`` (any case, optional ``:``, an optional count ``Sideboard (15)``, deckstats'
  ``//Sideboard``);
  MTG Arena's ``About`` block (``Name Burn``) names the deck and holds no card;
- category headers (Moxfield's and TappedOut's ``Creatures (4)``, bare ``Lands``, deckstats' ``//Creatures``):
  a group of the main deck;
- markers: Archidekt's ``[Category]`` (``[Commander{top}]``, ``[Maybeboard{noDeck}]``, ``[Sideboard]``),
  ``*F*`` / ``*E*`` (foil, etched), ``*CMDR*`` (TappedOut and Archidekt: a commander), ``^Tag,#hex^``;
  deckstats' ``# !Commander`` comment;
- ``SB: 2 Name`` (a sideboard line wherever it stands);
- MTGO ``.dek`` XML files: ``<Cards Quantity="4" Sideboard="false" Name="..."/>`` lines;
- split cards written with one slash (``Fire/Ice``, MTGO) are read as ``Fire // Ice``;
- comment lines starting with ``//`` or ``#`` are skipped.

Blank lines. A list with section or category headers uses blank lines as spacing. A list without any
header is an MTGO ``.txt`` export (MTGO, MTGGoldfish, Moxfield "MTGO" export): the first blank line after
main-deck cards starts the sideboard, unless what follows holds more cards than a sideboard may (CR 100.4a:
15), in which case the blank lines are read as spacing. Either reading is said in ``Decklist.notes``.

A companion starts the game outside it, in the sideboard (CR 702.139a), so ``Companion`` lines are
sideboard entries marked ``companion``; the same card listed again under ``Sideboard`` (MTG Arena,
MTGGoldfish) is that one card, counted once, with a note. Maybeboard cards are kept in their own
section, never in the deck. A line that cannot be read (a count with no name) is a ``LineProblem``, never
an error of the whole list; only the size limits (``DecklistTooLarge``) and an out-of-range count
(``CountOutOfRange``) fail the parse.

Linear time by construction: each line is split into whitespace-separated tokens once (``str.split``) and
every further step looks at tokens from either end, each token at most once; the only regular expressions
run anchored on one token or on a short XML attribute list, never over a run of spaces from every start.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.errors import RulesError

MAX_CHARS: Final = 100_000
MAX_LINES: Final = 1_000
MAX_COUNT: Final = 1_000
SECTIONS: Final = ("main", "sideboard", "commander", "maybeboard")
SIDEBOARD_MAX: Final = 15
"""CR 100.4a: a constructed sideboard holds at most fifteen cards (used to tell a sideboard from spacing)."""

_HEADERS: Final = {
    "deck": "main",
    "main": "main",
    "maindeck": "main",
    "main deck": "main",
    "mainboard": "main",
    "sideboard": "sideboard",
    "side board": "sideboard",
    "side": "sideboard",
    "commander": "commander",
    "commanders": "commander",
    "companion": "companion",
    "companions": "companion",
    "maybeboard": "maybeboard",
    "maybe": "maybeboard",
    "considering": "maybeboard",
    "about": "about",
    "tokens": "tokens",
}
_CATEGORIES: Final = frozenset(
    {
        "creature",
        "creatures",
        "land",
        "lands",
        "instant",
        "instants",
        "sorcery",
        "sorceries",
        "artifact",
        "artifacts",
        "enchantment",
        "enchantments",
        "planeswalker",
        "planeswalkers",
        "battle",
        "battles",
        "spells",
        "other",
        "others",
        "nonland",
        "nonlands",
    }
)
"""Type groups written bare (``Lands``) by deck sites; with a count ``Name (4)`` any group name is read."""
_COUNT_TOKEN: Final = re.compile(r"(\d+)[xX]?")
_SET_CODE: Final = re.compile(r"[A-Za-z0-9_]{2,8}")
_COLLECTOR: Final = re.compile(r"[A-Za-z0-9★†\-]{1,12}")
_STAR_MARKS: Final = frozenset({"*f*", "*e*", "*f-etch*", "*foil*", "*etched*", "*cmdr*", "*commander*"})
_DEK_CARD: Final = re.compile(r"<Cards\b([^<>]*)>")
_XML_ATTR: Final = re.compile(r'(?<!\w)(\w{1,40})="([^"<>]*)"')


class DecklistTooLarge(RulesError):
    """The decklist holds more characters or lines than accepted (``what``: "characters" or "lines")."""

    def __init__(self, message: str, *, what: str) -> None:
        super().__init__(message)
        self.what = what


class CountOutOfRange(RulesError):
    """A line's count is not 1 to ``MAX_COUNT``."""

    def __init__(self, message: str, *, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True, slots=True)
class Entry:
    """One card line: its physical line number (from 1), copies, the name as written, its section."""

    line: int
    count: int
    name: str
    section: str
    text: str
    companion: bool = False
    """A ``Companion`` section's card: in the sideboard (CR 702.139a), marked as the companion."""


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that names no card."""

    line: int
    text: str
    detail: str


@dataclass(frozen=True, slots=True)
class Decklist:
    """The entries, the lines that name no card, and ``notes``: how an ambiguous list was read."""

    entries: tuple[Entry, ...]
    problems: tuple[LineProblem, ...]
    notes: tuple[str, ...] = ()


def check_count(count: int, line: int) -> None:
    """Raise ``CountOutOfRange`` unless ``1 <= count <= MAX_COUNT``."""
    if not 1 <= count <= MAX_COUNT:
        raise CountOutOfRange(f"line {line}: a count is 1 to {MAX_COUNT}, not {count}", line=line)


@dataclass(frozen=True, slots=True)
class _Header:
    section: str | None
    """The section it opens; None for a category header (a group of the main deck)."""


def _header(tokens: list[str]) -> _Header | None:
    """A section or category header: ``Sideboard``, ``Sideboard:``, ``Sideboard (15)``, ``Creatures (4)``,
    ``//Sideboard`` (deckstats), ``Lands``. Short lines only (a header is at most a few words)."""
    if not tokens or len(tokens) > 6:
        return None
    words = list(tokens)
    counted = False
    last = words[-1]
    if len(words) > 1 and last.startswith("(") and last.endswith(")") and last[1:-1].isdigit():
        words.pop()
        counted = True
    words[0] = words[0].removeprefix("//")
    text = " ".join(words).rstrip(":").strip().lower()
    if not text or text[0].isdigit():
        return None
    if text in _HEADERS:
        return _Header(_HEADERS[text])
    if text in _CATEGORIES or (counted and "(" not in text):
        return _Header(None)
    return None


def _count(tokens: list[str], number: int) -> tuple[int, int] | None:
    """The line's count and how many leading tokens it takes (``4``, ``4x``, ``4 x``)."""
    m = _COUNT_TOKEN.fullmatch(tokens[0])
    if m is None:
        return None
    digits = m.group(1)
    count = int(digits) if len(digits) <= 7 else MAX_COUNT + 1
    check_count(count, number)
    used = 2 if len(tokens) > 1 and tokens[1] in ("x", "X") and tokens[0] == digits else 1
    return count, used


def _group(tokens: list[str], end: int, opener: str, closer: str) -> int | None:
    """Where a trailing group ``opener ... closer`` ending at token ``end - 1`` starts, or None."""
    if not tokens[end - 1].endswith(closer):
        return None
    for i in range(end - 1, -1, -1):
        t = tokens[i]
        if t.startswith(opener) and (i < end - 1 or len(t) > 1):
            return i
    return None


@dataclass(slots=True)
class _Marks:
    section: str | None = None


def _archidekt_section(category: str) -> str | None:
    """Archidekt's ``[Commander{top}]``, ``[Sideboard{noDeck}]``, ``[Maybeboard{noDeck}{noPrice}]``,
    ``[Ramp,Draw]``: the section the card's categories put it in (None: the main deck)."""
    names = [c.split("{")[0].strip().lower() for c in category.split(",")]
    for n in names:
        if _HEADERS.get(n) in ("commander", "sideboard", "maybeboard"):
            return _HEADERS[n]
        if _HEADERS.get(n) == "companion":
            return "sideboard"
    if "{nodeck}" in category.lower():
        return "maybeboard"
    return None


def _strip_suffixes(tokens: list[str], marks: _Marks) -> int:
    """Drop printing and site markers from the end of a card line; return the name's end token."""
    end = len(tokens)
    while end > 1:
        last = tokens[end - 1]
        low = last.lower()
        if low in _STAR_MARKS:
            if "cmdr" in low or "commander" in low:
                marks.section = "commander"
            end -= 1
            continue
        start = None
        if last.endswith("^"):
            start = _group(tokens, end, "^", "^")
        elif last.endswith("]"):
            start = _group(tokens, end, "[", "]")
            if start is not None and start > 0:
                inner = " ".join(tokens[start:end])[1:-1]
                if not _SET_CODE.fullmatch(inner.split("#")[0]) or inner != inner.upper():
                    section = _archidekt_section(inner)
                    if section is not None:
                        marks.section = section
        elif last.endswith(">"):
            start = _group(tokens, end, "<", ">")
        elif last.startswith("(") and last.endswith(")") and _SET_CODE.fullmatch(last[1:-1]):
            start = end - 1
        elif (
            end > 2
            and tokens[end - 2].startswith("(")
            and tokens[end - 2].endswith(")")
            and _SET_CODE.fullmatch(tokens[end - 2][1:-1])
            and _COLLECTOR.fullmatch(last)
        ):
            start = end - 2
        if start is None or start == 0:
            return end
        end = start
    return end


def split_name(name: str) -> str:
    """Split names as the catalogue writes them (CR 709.1: a split card's name is both halves' names):
    ``Fire/Ice`` (MTGO), ``Fire / Ice`` and ``Wear//Tear`` become ``Fire // Ice``, ``Wear // Tear``."""
    if "/" not in name:
        return name
    return " // ".join(part for part in (p.strip() for p in name.split("/")) if part)


def _read_dek(lines: list[str]) -> Decklist:
    """An MTGO ``.dek`` file: one ``<Cards .../>`` element per line (attributes ``Quantity``, ``Sideboard``,
    ``Name``); every other line is XML structure and names no card."""
    entries: list[Entry] = []
    problems: list[LineProblem] = []
    for number, raw in enumerate(lines, start=1):
        for m in _DEK_CARD.finditer(raw):
            attrs = {k.lower(): html.unescape(v) for k, v in _XML_ATTR.findall(m.group(1))}
            name = split_name(" ".join(attrs.get("name", "").split()))
            quantity = attrs.get("quantity", "1").strip()
            if not quantity.isdigit():
                problems.append(LineProblem(number, raw.strip(), "Quantity is not a number"))
                continue
            count = int(quantity) if len(quantity) <= 7 else MAX_COUNT + 1
            check_count(count, number)
            if not name:
                problems.append(LineProblem(number, raw.strip(), "the card has no Name"))
                continue
            section = "sideboard" if attrs.get("sideboard", "").lower() == "true" else "main"
            entries.append(Entry(number, count, name, section, raw.strip()))
    notes = ('read as an MTGO .dek file (XML): Sideboard="true" cards are the sideboard',)
    return Decklist(tuple(entries), tuple(problems), notes)


def parse_decklist(text: str) -> Decklist:
    """Read a pasted decklist (module docstring). Raises ``DecklistTooLarge`` or ``CountOutOfRange``."""
    if len(text) > MAX_CHARS:
        raise DecklistTooLarge(
            f"the decklist has {len(text)} characters; at most {MAX_CHARS}", what="characters"
        )
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DecklistTooLarge(f"the decklist has {len(lines)} lines; at most {MAX_LINES}", what="lines")
    head = text.lstrip()[:200]
    if head.startswith("<?xml") or head.startswith("<Deck"):
        return _read_dek(lines)
    entries: list[Entry] = []
    problems: list[LineProblem] = []
    headed = False
    section = "main"
    breaks: list[tuple[int, int]] = []
    """Headerless lists: (blank line number, index of the first entry after it) of each blank line that
    follows cards."""
    pending_blank: int | None = None
    for number, raw in enumerate(lines, start=1):
        deadline.check()  # one line of the decklist
        tokens = raw.split()
        if not tokens:
            if entries and pending_blank is None:
                pending_blank = number
            continue
        header = _header(tokens)
        if header is not None:
            headed = True
            section = header.section if header.section is not None else "main"
            pending_blank = None
            continue
        if tokens[0].startswith(("//", "#")):
            continue
        if section in ("about", "tokens"):
            continue  # MTG Arena's ``Name Burn``; tokens are not cards of the deck
        if pending_blank is not None:
            breaks.append((pending_blank, len(entries)))
            pending_blank = None
        companion = section == "companion"
        read = _card_line(tokens, number, raw, "sideboard" if companion else section)
        if isinstance(read, LineProblem):
            problems.append(read)
        elif companion and read.section == "sideboard":
            entries.append(Entry(read.line, read.count, read.name, "sideboard", read.text, companion=True))
        else:
            entries.append(read)
    notes: list[str] = []
    if not headed and breaks:
        entries, note = _headerless_sideboard(entries, breaks)
        notes.append(note)
    if any(e.companion for e in entries):
        entries = companion_once(entries, notes)
    return Decklist(tuple(entries), tuple(problems), tuple(notes))


def companion_once(entries: list[Entry], notes: list[str]) -> list[Entry]:
    """MTG Arena and MTGGoldfish list the companion under ``Companion`` and again under ``Sideboard``: it is
    one card, in the sideboard (CR 702.139a), so the ``Sideboard`` line's copies of it are the companion's
    and are counted once (the line is dropped, or keeps the copies beyond the companion's)."""
    owed: dict[str, tuple[int, int]] = {}  # name folded -> (companion copies still to match, its line)
    for e in entries:
        if e.companion:
            left, line = owed.get(e.name.lower(), (0, e.line))
            owed[e.name.lower()] = (left + e.count, line)
    out: list[Entry] = []
    for e in entries:
        found = owed.get(e.name.lower())
        if e.companion or e.section != "sideboard" or found is None or found[0] == 0:
            out.append(e)
            continue
        left, line = found
        taken = min(left, e.count)
        owed[e.name.lower()] = (left - taken, line)
        notes.append(f"line {e.line}: {e.name} under Sideboard is the companion of line {line}, counted once")
        if e.count > taken:
            out.append(Entry(e.line, e.count - taken, e.name, e.section, e.text))
    return out


def _card_line(tokens: list[str], number: int, raw: str, section: str) -> Entry | LineProblem:
    """One line of cards: ``SB:`` (sideboard), the count, deckstats' ``[SET#123]``, the name, TappedOut's
    ``# !Commander`` comment and the export marks after the name (``_strip_suffixes``)."""
    line_section = section
    first = tokens[0]
    if first.lower().startswith("sb:"):
        line_section = "sideboard"
        rest = first[3:]
        tokens = [rest, *tokens[1:]] if rest else tokens[1:]
        if not tokens:
            return LineProblem(number, raw.strip(), "the line has a count but no card name")
    start = 0
    count = 1
    counted = _count(tokens, number)
    if counted is not None:
        count, start = counted
    if start < len(tokens) and tokens[start].startswith("[") and tokens[start].endswith("]"):
        start += 1  # deckstats' ``[SET#123]`` before the name
    if "#" in tokens[start:]:
        cut = tokens.index("#", start)
        if any("!commander" in t.lower() for t in tokens[cut:]):
            line_section = "commander"
        tokens = tokens[:cut]
    marks = _Marks()
    end = _strip_suffixes(tokens[start:], marks) + start if start < len(tokens) else start
    if marks.section is not None:
        line_section = marks.section
    name = split_name(" ".join(tokens[start:end]))
    if not name:
        return LineProblem(number, raw.strip(), "the line has a count but no card name")
    return Entry(number, count, name, line_section, raw.strip())


def _headerless_sideboard(entries: list[Entry], breaks: list[tuple[int, int]]) -> tuple[list[Entry], str]:
    """A list with no headers: MTGO's ``.txt`` form puts the sideboard after one blank line. Read so when
    what follows the first blank line fits in a sideboard (CR 100.4a: at most 15 cards); else the blank
    lines are spacing between groups of the main deck (a site's grouped export without its headers)."""
    blank, first = breaks[0]
    after = [e for e in entries[first:] if e.section == "main"]
    copies = sum(e.count for e in after)
    if copies > SIDEBOARD_MAX:
        return entries, (
            f"the list has no section headers and {len(breaks)} blank line(s); the {copies} cards after line"
            f" {blank} are more than a sideboard's {SIDEBOARD_MAX}, so blank lines were read as spacing and"
            " every card as the main deck"
        )
    moved = [
        Entry(e.line, e.count, e.name, "sideboard", e.text) if i >= first and e.section == "main" else e
        for i, e in enumerate(entries)
    ]
    return moved, (
        f"the list has no section headers: the blank line at line {blank} was read as the start of the"
        f" sideboard (MTGO .txt form), {copies} cards"
    )
