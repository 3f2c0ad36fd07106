"""The bundled character index service: loaded once, resolving choices, rejecting malformed data."""

from __future__ import annotations

import pytest

from app.rules.errors import InvalidChoiceError, RulesError
from app.rules.text.characters import FormKind, matches, validate_character
from app.services import characters


def test_the_bundled_index_is_loaded_once() -> None:
    first = characters.character_index()
    assert characters.character_index() is first
    assert len(first) >= 150


def test_resolve_character_uses_the_bundled_index() -> None:
    lim_dul = characters.resolve_character("lim-dul")
    assert lim_dul.name == "Lim-Dûl"
    assert "The Raven Man" in lim_dul.names
    m = matches(lim_dul, name="The Raven Man", flavor_text=None, art_characters=())
    assert m is not None
    assert m.form_kind is FormKind.ALIAS


def test_resolve_character_rejects_bad_input() -> None:
    with pytest.raises(InvalidChoiceError):
        characters.resolve_character("")
    with pytest.raises(InvalidChoiceError):
        validate_character("x" * 101)


def test_every_entry_of_the_bundled_file_is_well_formed() -> None:
    index = characters.character_index()
    for character in index:
        assert character.forms[0].kind is FormKind.NAME
        assert character.forms[0].text == character.name
        # A character's own forms each match its own name printed on a card.
        for form in character.forms:
            assert matches(character, name=f"{form.text} of Testing", flavor_text=None, art_characters=()), (
                character.name,
                form.text,
            )


@pytest.mark.parametrize(
    "text",
    ['{"characters": 3}', '{"characters": [{"name": "A"}, {"name": "B", "aliases": ["a"]}]}'],
)
def test_load_character_index_rejects_malformed_documents(text: str) -> None:
    with pytest.raises(RulesError):
        characters.load_character_index(text)
