"""Vorthos, Steward of Myth: does the chosen Magic character appear in a spell's name, flavor text or art?

ruling:vorthos: the character's name counts "in any form": possessive (Teferi → Teferi's Protection),
related or derived words (Avacyn → Avacynian Priest, Niv-Mizzet → Izzet Charm) and other names the
character has gone by (Lim-Dûl → The Raven Man, Urza → Blind Seer). Only the name, the printed flavor
text and the art count, never rules text. A character need not be in the index (any character of any
product may be chosen); an unknown one matches its literal name and that name's possessive.

Matching is on whole words, case- and accent-insensitive, with ``’`` equal to ``'``: Kaya never matches
"Kayak", Ral never matches "General". Each character's forms compile into one cached pattern.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.errors import InvalidChoiceError, RulesError

RULE: Final = "ruling:vorthos"
_POSSESSIVE: Final = re.compile(r"'s(?!\w)")
_POSSESSIVE_S: Final = re.compile(r"'(?!\w)")
MAX_CHARACTER_LENGTH: Final = 100

# Characters folded beyond NFKD: apostrophes and hyphen variants, and letters NFKD leaves whole.
_SPECIAL: Final = {
    "’": "'",
    "‘": "'",
    "ʼ": "'",
    "`": "'",
    "´": "'",
    "‐": "-",
    "‑": "-",
    "‒": "-",
    "–": "-",
    "æ": "ae",
    "œ": "oe",
    "ø": "o",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "ı": "i",
}


class FormKind(StrEnum):
    """How a form relates to its character (ruling:vorthos "in any form")."""

    NAME = "name"  # the canonical name
    ALIAS = "alias"  # another name the character went by (a short name, an earlier or later name)
    DERIVED = "derived"  # a word derived from the name (Izzet from Niv-Mizzet)
    LITERAL = "literal"  # a character not in the index: the chosen text itself


class MatchSource(StrEnum):
    """Where on the printed card the character appeared (ruling:vorthos: name, flavor text, art)."""

    NAME = "name"
    FLAVOR_TEXT = "flavor_text"
    ART = "art"


@dataclass(frozen=True, slots=True)
class Form:
    text: str
    kind: FormKind


@dataclass(frozen=True, slots=True)
class Character:
    """A chosen character: its canonical name and every form that counts as it appearing.

    ``known`` is False for a character that is not in the index (it matches only its literal name).
    ``capitalized``: its names are also common words (Braids, Grist), so only a capitalized printing
    counts. ``excluded``: phrases naming someone or something else that contain one of its forms
    ("Edgar Allan Poe", "Rowan Treefolk"); a form inside one of them does not count.
    """

    name: str
    forms: tuple[Form, ...]
    known: bool = True
    capitalized: bool = False
    excluded: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The names a player may choose it by: the canonical name and its aliases."""
        return tuple(f.text for f in self.forms if f.kind is not FormKind.DERIVED)

    @property
    def derived(self) -> tuple[str, ...]:
        return tuple(f.text for f in self.forms if f.kind is FormKind.DERIVED)


@dataclass(frozen=True, slots=True)
class Match:
    """Why a spell counts for Vorthos: which printed text showed which form of the character.

    ``text`` is the words as printed (with a possessive ``'s`` when there is one); ``art_index`` is the
    position in the art characters when ``source`` is ART.
    """

    character: str
    source: MatchSource
    form: str
    form_kind: FormKind
    text: str
    possessive: bool = False
    art_index: int | None = None
    rule: str = RULE

    def describe(self) -> str:
        where = {
            MatchSource.NAME: "the spell's name",
            MatchSource.FLAVOR_TEXT: "its flavor text",
            MatchSource.ART: "its art",
        }[self.source]
        how = {
            FormKind.NAME: "",
            FormKind.ALIAS: f" (another name for {self.character})",
            FormKind.DERIVED: f" (a word derived from {self.character})",
            FormKind.LITERAL: "",
        }[self.form_kind]
        possessive = " (possessive)" if self.possessive else ""
        return f"{self.character} appears in {where} as {self.text!r}{how}{possessive}"


def validate_character(text: str) -> str:
    """The chosen character's name, cleaned (NFC, spaces merged), or InvalidChoiceError (field "character").

    ruling:vorthos lets any named or clearly defined character be chosen, so only the shape is checked:
    not empty, at most 100 characters, no control or format characters, at least one letter or digit.
    """
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise InvalidChoiceError("a character's name cannot contain control characters", field="character")
    cleaned = " ".join(unicodedata.normalize("NFC", text).split())
    if not cleaned:
        raise InvalidChoiceError("a character's name cannot be empty", field="character")
    if len(cleaned) > MAX_CHARACTER_LENGTH:
        raise InvalidChoiceError(
            f"a character's name is at most {MAX_CHARACTER_LENGTH} characters long", field="character"
        )
    if not any(ch.isalnum() for ch in cleaned):
        raise InvalidChoiceError("a character's name needs at least one letter or digit", field="character")
    return cleaned


class CharacterIndex:
    """The known characters, looked up by any of their names (folded: case, accents, ``’``)."""

    __slots__ = ("_by_key", "_characters")

    def __init__(self, characters: Iterable[Character]) -> None:
        self._characters: tuple[Character, ...] = tuple(characters)
        self._by_key: dict[str, Character] = {}
        for character in self._characters:
            for name in character.names:
                key = fold(name)
                other = self._by_key.get(key)
                if other is not None and other is not character:
                    raise RulesError(
                        f"character index: {name!r} names both {other.name} and {character.name}"
                    )
                self._by_key[key] = character

    @classmethod
    def from_mapping(cls, data: Mapping[str, object]) -> CharacterIndex:
        """Build from the JSON document: ``{"characters": [{"name", "aliases", "derived", "exclude",
        "capitalized"}, ...]}`` (all but ``name`` optional)."""
        entries = data.get("characters")
        if not isinstance(entries, list):
            raise RulesError("character index: 'characters' must be a list")
        characters: list[Character] = []
        for entry in entries:
            if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
                raise RulesError(f"character index: bad entry {entry!r}")
            name = validate_character(entry["name"])
            forms = [Form(name, FormKind.NAME)]
            for key, kind in (("aliases", FormKind.ALIAS), ("derived", FormKind.DERIVED)):
                values = entry.get(key, [])
                if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                    raise RulesError(f"character index: {name}: {key!r} must be a list of strings")
                forms.extend(Form(validate_character(v), kind) for v in values)
            excluded = entry.get("exclude", [])
            if not isinstance(excluded, list) or not all(isinstance(v, str) for v in excluded):
                raise RulesError(f"character index: {name}: 'exclude' must be a list of strings")
            capitalized = entry.get("capitalized", False)
            if not isinstance(capitalized, bool):
                raise RulesError(f"character index: {name}: 'capitalized' must be true or false")
            characters.append(
                Character(
                    name=name,
                    forms=tuple(forms),
                    capitalized=capitalized,
                    excluded=tuple(validate_character(v) for v in excluded),
                )
            )
        return cls(characters)

    def __len__(self) -> int:
        return len(self._characters)

    def __iter__(self) -> Iterator[Character]:
        return iter(self._characters)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and fold(name) in self._by_key

    def get(self, name: str) -> Character | None:
        """The indexed character ``name`` (any of its names, folded) names, or None."""
        return self._by_key.get(fold(name))

    def resolve(self, chosen: str) -> Character:
        """The character a player chose (ruling:vorthos: any Magic character).

        An indexed name or alias gives the indexed character with all its forms; "Name, Epithet" (a card
        name such as "Jace, the Mind Sculptor") gives the character before the comma when it is indexed;
        anything else is a character outside the index matching its literal name. Raises
        InvalidChoiceError for text that cannot be a name (see ``validate_character``).
        """
        cleaned = validate_character(chosen)
        found = self._by_key.get(fold(cleaned))
        if found is None and "," in cleaned:
            found = self._by_key.get(fold(cleaned.split(",", 1)[0]))
        return found if found is not None else _literal(cleaned)


def matches(
    character: Character, *, name: str, flavor_text: str | None, art_characters: Sequence[str]
) -> Match | None:
    """Whether ``character`` appears on the printed spell (ruling:vorthos), and where, or None.

    Looks at the spell's name, then its printed flavor text, then each character shown in its art; never
    at rules text ("It doesn't care about rules text, watermark, set symbol, artist").
    """
    pattern = _pattern(character.forms)
    sources: list[tuple[MatchSource, str, int | None]] = [(MatchSource.NAME, name, None)]
    if flavor_text:
        sources.append((MatchSource.FLAVOR_TEXT, flavor_text, None))
    sources.extend((MatchSource.ART, shown, i) for i, shown in enumerate(art_characters))
    for source, text, art_index in sources:
        folded, offsets = _fold_with_offsets(text)
        for found in pattern.finditer(folded):
            start, end = found.span()
            if character.capitalized and not text[offsets[start]].isupper():
                continue
            if character.excluded and _inside_excluded(character.excluded, folded, start, end):
                continue
            assert found.lastgroup is not None
            form = character.forms[int(found.lastgroup[1:])]
            # "Teferi's", and "Mogis'" only after an s: a lone quote after another letter closes a quote.
            suffix = _POSSESSIVE_S.match(folded, end) if folded[end - 1] == "s" else None
            suffix = suffix or _POSSESSIVE.match(folded, end)
            if suffix is not None:
                end = suffix.end()
            return Match(
                character=character.name,
                source=source,
                form=form.text,
                form_kind=form.kind,
                text=text[offsets[start] : offsets[end - 1] + 1],
                possessive=suffix is not None,
                art_index=art_index,
            )
    return None


def _inside_excluded(excluded: tuple[str, ...], folded: str, start: int, end: int) -> bool:
    return any(
        e.start() <= start and end <= e.end() for e in _pattern(_exclusion_forms(excluded)).finditer(folded)
    )


@lru_cache(maxsize=1024)
def _exclusion_forms(excluded: tuple[str, ...]) -> tuple[Form, ...]:
    return tuple(Form(text, FormKind.LITERAL) for text in excluded)


@lru_cache(maxsize=65536)
def _fold_char(ch: str) -> str:
    special = _SPECIAL.get(ch)
    if special is not None:
        return special
    out = []
    for c in unicodedata.normalize("NFKD", ch.casefold()):
        if not unicodedata.combining(c):
            out.append(_SPECIAL.get(c, c))
    return "".join(out)


def fold(text: str) -> str:
    """Fold text for comparison: casefolded, accents removed, ``’`` → ``'``, spaces merged."""
    return " ".join("".join(_fold_char(ch) for ch in text).split())


@text_cache(entries=8192, chars=1_000_000)  # bounded in bytes too: the texts are the client's
def _fold_with_offsets(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` folded character by character, each run of spaces and hyphens made one space, with each
    folded character's index in ``text``.

    Separators are normalized here so that the patterns can match them literally: a pattern with a
    repeated separator class inside an optional group backtracked exponentially ("a--------b" against
    40 spaces).
    """
    chars: list[str] = []
    offsets: list[int] = []
    for i, ch in enumerate(text):
        for c in _fold_char(ch):
            if c == "-" or c.isspace():
                if chars and chars[-1] == _SEPARATOR:
                    continue
                c = _SEPARATOR
            chars.append(c)
            offsets.append(i)
    return "".join(chars), tuple(offsets)


_SEPARATOR: Final = " "


def _form_regex(form: str) -> str:
    """A form as a regex over folded, separator-normalized text (see ``_fold_with_offsets``).

    A hyphen alone may also be a space or nothing (Niv-Mizzet, Niv Mizzet, NivMizzet); a run holding a
    space may be any run of spaces and hyphens. Each run is one optional or required literal space, so
    the pattern is a plain alternation of literals: linear in the text.
    """
    out: list[str] = []
    for part in _SEPARATOR_RUN.split(fold(form)):
        if not part:
            continue
        if _SEPARATOR_RUN.fullmatch(part):
            out.append(" " if any(c.isspace() for c in part) else " ?")
        else:
            out.append(re.escape(part))
    return "".join(out)


_SEPARATOR_RUN: Final = re.compile(r"([\s-]+)")


@lru_cache(maxsize=4096)
def _pattern(forms: tuple[Form, ...]) -> re.Pattern[str]:
    """One pattern per character: every form as a whole word, the longest form tried first."""
    order = sorted(range(len(forms)), key=lambda i: (-len(fold(forms[i].text)), i))
    alternatives = "|".join(f"(?P<f{i}>{_form_regex(forms[i].text)})" for i in order)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")


@text_cache(entries=4096, chars=2_000_000)
def _literal(name: str) -> Character:
    return Character(name=name, forms=(Form(name, FormKind.LITERAL),), known=False)
