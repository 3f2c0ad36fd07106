"""Decklists as players paste them: the text forms of deck-building sites and MTG Arena.

Forms read (one entry per physical line, lines numbered from 1):

- ``4 Name``, ``4x Name`` / ``4 x Name``, a bare ``Name`` (one copy);
- MTG Arena lines ``4 Name (SET) 123`` (the set and collector number are dropped);
- section headers ``Deck``, ``Sideboard``, ``Commander``, ``Companion`` (any case, optional ``:``);
- ``SB: 2 Name`` (a sideboard line wherever it stands);
- without any header, a blank line after main-deck cards starts the sideboard;
- comment lines starting with ``//`` or ``#``, and blank lines, are skipped.

A companion starts the game outside it, in the sideboard (CR 702.139a), so ``Companion`` lines are
sideboard entries. A line that cannot be read (a count with no name) is a ``LineProblem``, never an error
of the whole list; only the size limits (``DecklistTooLarge``) and an out-of-range count
(``CountOutOfRange``) fail the parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.errors import RulesError

MAX_CHARS: Final = 100_000
MAX_LINES: Final = 1_000
MAX_COUNT: Final = 1_000
SECTIONS: Final = ("main", "sideboard", "commander")

_HEADERS: Final = {
    "deck": "main",
    "main": "main",
    "maindeck": "main",
    "main deck": "main",
    "mainboard": "main",
    "sideboard": "sideboard",
    "commander": "commander",
    "companion": "sideboard",
}
_SB: Final = re.compile(r"^sb:\s*", re.IGNORECASE)
_COUNT: Final = re.compile(r"^(\d+)\s*[xX]?(?:\s+|$)")
_ARENA: Final = re.compile(r"\s+\([A-Za-z0-9_]{2,8}\)(?:\s+[A-Za-z0-9★-]+)?\s*$")


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


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A line that names no card."""

    line: int
    text: str
    detail: str


@dataclass(frozen=True, slots=True)
class Decklist:
    entries: tuple[Entry, ...]
    problems: tuple[LineProblem, ...]


def check_count(count: int, line: int) -> None:
    """Raise ``CountOutOfRange`` unless ``1 <= count <= MAX_COUNT``."""
    if not 1 <= count <= MAX_COUNT:
        raise CountOutOfRange(f"line {line}: a count is 1 to {MAX_COUNT}, not {count}", line=line)


def _header(text: str) -> str | None:
    return _HEADERS.get(text.rstrip(":").strip().lower())


def parse_decklist(text: str) -> Decklist:
    """Read a pasted decklist (module docstring). Raises ``DecklistTooLarge`` or ``CountOutOfRange``."""
    if len(text) > MAX_CHARS:
        raise DecklistTooLarge(
            f"the decklist has {len(text)} characters; at most {MAX_CHARS}", what="characters"
        )
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DecklistTooLarge(f"the decklist has {len(lines)} lines; at most {MAX_LINES}", what="lines")
    entries: list[Entry] = []
    problems: list[LineProblem] = []
    section = "main"
    headed = False
    for number, raw in enumerate(lines, start=1):
        deadline.check()  # one line of the decklist
        stripped = raw.strip()
        if not stripped:
            if not headed and section == "main" and any(e.section == "main" for e in entries):
                section = "sideboard"
            continue
        if stripped.startswith(("//", "#")):
            continue
        header = _header(stripped)
        if header is not None:
            section, headed = header, True
            continue
        line_section = section
        body = stripped
        sb = _SB.match(body)
        if sb:
            line_section, body = "sideboard", body[sb.end() :]
        count = 1
        m = _COUNT.match(body)
        if m:
            digits = m.group(1)
            count = int(digits) if len(digits) <= 7 else MAX_COUNT + 1
            check_count(count, number)
            body = body[m.end() :]
        name = _ARENA.sub("", body).strip()
        if not name:
            problems.append(LineProblem(number, stripped, "the line has a count but no card name"))
            continue
        entries.append(Entry(number, count, name, line_section, stripped))
    return Decklist(tuple(entries), tuple(problems))
