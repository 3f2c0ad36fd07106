"""Every example of the readers' templates is read into a value by its reader, not only matched by its
pattern (``test_templates`` checks the patterns and their order): an example the reader gives up on would
claim a sentence the product does not understand."""

from __future__ import annotations

import pytest

from app.rules.text.mana_add import ADD, parse_add
from app.rules.text.mana_static import STATIC, read_static
from app.rules.text.oracle_costs import COSTS, _Card, _read_sentence

MANA = [(t.name, example) for t in ADD for example in t.examples]
STATICS = [(t.name, example) for t in STATIC for example in t.examples]


@pytest.mark.parametrize(("name", "example"), MANA)
def test_each_add_example_is_read_by_its_template(name: str, example: str) -> None:
    before = ADD.hits[name]
    assert parse_add(example) is not None
    assert ADD.hits[name] == before + 1, f"{example!r} was read by another template than {name}"


@pytest.mark.parametrize(("name", "example"), STATICS)
def test_each_static_example_is_read_by_its_template(name: str, example: str) -> None:
    before = STATIC.hits[name]
    assert read_static(example) is not None
    assert STATIC.hits[name] == before + 1, f"{example!r} was read by another template than {name}"


COSTS_CASES = [(t.name, example) for t in COSTS for example in t.examples]
# Valiant Changeling: the cap reads the "for each" reduction of the sentence before it
_CAPPED = "this spell costs {1} less to cast for each creature type among creatures you control."


@pytest.mark.parametrize(("name", "example"), COSTS_CASES)
def test_each_cost_example_is_read_by_its_template(name: str, example: str) -> None:
    card = _Card(example, chooses_type=False, chooses_card_type=False)
    if name == "reduction-cap":
        _read_sentence(card, _CAPPED, False, 1)
    before = COSTS.hits[name]
    _read_sentence(card, example, False, 1)
    assert COSTS.hits[name] == before + 1, f"{example!r} was read by another template than {name}"
    if name == "not-tracked":  # said, never silent
        assert [u.text for u in card.unsupported + card.own_unsupported] == [example]
    else:
        assert not card.unsupported and not card.own_unsupported, card
        assert card.effects or card.own
