"""The bundled character index for Vorthos, Steward of Myth (ruling:vorthos), loaded once per process.

The data is ``app/data/characters.json`` (our own file); the matching itself is the pure
``app.rules.text.characters``, which also validates a chosen character (``validate_character``).
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from app.rules.text.characters import Character, CharacterIndex

__all__ = ["DATA_FILE", "character_index", "load_character_index", "resolve_character"]

DATA_FILE = "data/characters.json"


def load_character_index(text: str) -> CharacterIndex:
    """Build an index from the JSON text of a character index document (RulesError when malformed)."""
    return CharacterIndex.from_mapping(json.loads(text))


@lru_cache(maxsize=1)
def character_index() -> CharacterIndex:
    """The bundled index, read and compiled once (each character's pattern is compiled on first use)."""
    return load_character_index(resources.files("app").joinpath(DATA_FILE).read_text(encoding="utf-8"))


def resolve_character(chosen: str) -> Character:
    """The character a Vorthos player chose, with every form that counts (InvalidChoiceError if malformed)."""
    return character_index().resolve(chosen)
