"""The template registries, enumerated: every template's examples read as stated, and no example is claimed by
two templates unless the later one names the earlier in ``shadows`` (the order is then stated on purpose)."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import app.rules
from app.rules.text.templates import REGISTRIES, Registry, TemplateRegistryError


def _load_every_reader() -> None:
    for module in pkgutil.walk_packages(app.rules.__path__, "app.rules."):
        importlib.import_module(module.name)


_load_every_reader()
CASES = [
    (reader, template.name, example)
    for reader, registry in sorted(REGISTRIES.items())
    for template in registry
    for example in template.examples
]


@pytest.mark.parametrize(("reader", "name", "example"), CASES)
def test_each_example_reads_as_its_template(reader: str, name: str, example: str) -> None:
    """The template claims its example, and every other template claiming it is ordered on purpose: one
    tried before it is named in its ``shadows`` (its reader passes such a sentence on), and one tried after
    it names it in theirs (``test_template_readers`` checks which reader really reads the example)."""
    registry = REGISTRIES[reader]
    claimed = [t.name for t in registry if t.pattern.match(example)]
    assert name in claimed, f"{example!r} is not matched by {name} (matched by {claimed})"
    position = claimed.index(name)
    for earlier in claimed[:position]:
        assert earlier in registry.get(name).shadows, (
            f"{example!r} is claimed first by {earlier}, order not stated"
        )
    for later in claimed[position + 1 :]:
        assert name in registry.get(later).shadows, (
            f"{example!r} is also claimed by {later}, order not stated"
        )


def test_every_template_has_examples_and_a_rule() -> None:
    for registry in REGISTRIES.values():
        for template in registry:
            assert template.examples, template.name
            assert re.fullmatch(r"\d{3}(\.\d+[a-z]?)?|ruling:[a-z0-9-]+", template.rule), template.rule


def test_registration_refuses_a_second_name_and_an_unknown_shadow() -> None:
    registry = Registry("test")
    registry.add("a", r"^x", rule="601.2f", examples=("x",), yields="nothing")
    with pytest.raises(TemplateRegistryError):
        registry.add("a", r"^y", rule="601.2f", examples=("y",), yields="nothing")
    with pytest.raises(TemplateRegistryError):
        registry.add("b", r"^y", rule="601.2f", examples=("y",), yields="nothing", shadows=("zz",))


def test_first_match_wins_and_hits_are_counted() -> None:
    registry = Registry("test")
    registry.add("general", r"^add \{", rule="106.1", examples=("add {g}.",), yields="mana")
    registry.add("never", r"^add \{g\}", rule="106.1", examples=(), yields="mana", shadows=("general",))
    found = registry.match("add {g}.")
    assert found is not None and found[0].name == "general"
    assert registry.hits["general"] == 1 and registry.hits["never"] == 0
    assert registry.match("draw a card.") is None
