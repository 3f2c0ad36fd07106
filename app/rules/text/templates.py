"""Card-text templates as named, registered data.

A reader of card text (the cost-effect reader, the mana-ability reader, the ways-to-cast reader) asks its
registry for the first template whose pattern matches a sentence. Each template carries its name, its
pattern, the Comprehensive Rules rule it implements, real sentences it must read (``examples``) and a line
saying what it yields, so the set of sentences the product understands can be listed, tested and counted:
``tests/rules/text/test_templates.py`` reads every template's examples through its registry and fails
when an example is claimed by an earlier template that is not named in ``shadows`` (an order the author
stated on purpose), and the coverage sweeps in ``bench/`` report how often each template matched.

Templates match the sentence as their reader prepares it (reminder text removed, the card's own name
replaced by ``~``; the cost reader also lower-cases it, the mana reader keeps Oracle's capitals), and
``examples`` are written that way too: each module that registers templates says what its sentences are.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final, TypeVar

T = TypeVar("T")


class TemplateRegistryError(ValueError):
    """A template was registered twice under one name, or named an unknown template in ``shadows``."""


@dataclass(frozen=True, slots=True)
class Template:
    """One sentence shape a reader understands.

    ``shadows`` names the templates registered earlier in the same registry that this one is allowed to
    lose to: the first match wins (the order of registration), so an example that an earlier template also
    matches is a test failure unless that template is named here, which says the order is deliberate.
    """

    name: str
    pattern: re.Pattern[str]
    rule: str
    examples: tuple[str, ...]
    yields: str
    shadows: tuple[str, ...] = ()


@dataclass(slots=True)
class Registry:
    """The ordered templates of one reader, and how often each has matched (for the sweeps)."""

    reader: str
    _templates: list[Template] = field(default_factory=list)
    _by_name: dict[str, Template] = field(default_factory=dict)
    hits: Counter[str] = field(default_factory=Counter)

    def register(self, template: Template) -> Template:
        if template.name in self._by_name:
            raise TemplateRegistryError(f"{self.reader}: template {template.name!r} registered twice")
        unknown = [name for name in template.shadows if name not in self._by_name]
        if unknown:
            raise TemplateRegistryError(f"{self.reader}: {template.name!r} shadows unknown {unknown}")
        self._templates.append(template)
        self._by_name[template.name] = template
        return template

    def add(
        self,
        name: str,
        pattern: str,
        *,
        rule: str,
        examples: tuple[str, ...],
        yields: str,
        shadows: tuple[str, ...] = (),
    ) -> Template:
        """Register a template from its pattern text; returns it, so a reader can keep it by name."""
        return self.register(Template(name, re.compile(pattern), rule, examples, yields, shadows))

    def match(self, sentence: str) -> tuple[Template, re.Match[str]] | None:
        """The first template (in registration order) that matches ``sentence`` from its start."""
        for template in self._templates:
            found = template.pattern.match(sentence)
            if found is not None:
                self.hits[template.name] += 1
                return template, found
        return None

    def read(self, sentence: str, readers: Mapping[str, Callable[[re.Match[str]], T | None]]) -> T | None:
        """What the first template (in registration order) that matches ``sentence`` and whose reader reads
        the match yields; that template's hit is counted.

        A reader returning None passes the sentence on to the next template (a shape whose parts it does
        not know, "for each <something not on the board>"), as the ladders of ``if`` the registries replace
        did. Templates with no reader in ``readers`` belong to another consumer of the registry and are
        skipped.
        """
        for template in self._templates:
            reader = readers.get(template.name)
            if reader is None:
                continue
            found = template.pattern.match(sentence)
            if found is None:
                continue
            value = reader(found)
            if value is not None:
                self.hits[template.name] += 1
                return value
        return None

    def report(self) -> list[str]:
        """One line per template, in order: its hits since start-up (a cached reading counts once), its rule
        and its name; a template never hit is listed too (a sweep shows what the catalogue never uses)."""
        return [f"{self.hits[t.name]:>7}  {t.rule:<10} {self.reader}/{t.name}" for t in self._templates]

    def get(self, name: str) -> Template:
        return self._by_name[name]

    def __iter__(self) -> Iterator[Template]:
        return iter(tuple(self._templates))

    def __len__(self) -> int:
        return len(self._templates)


REGISTRIES: Final[dict[str, Registry]] = {}


def registry(reader: str) -> Registry:
    """The registry of one reader, made on first use (``"costs"``, ``"mana"``, ``"ways"``...)."""
    found = REGISTRIES.get(reader)
    if found is None:
        found = REGISTRIES[reader] = Registry(reader)
    return found
