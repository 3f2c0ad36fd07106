"""A card's own casting sentences read: its alternative costs written in its text (CR 118.9, 601.2b) and
its permissions to be cast from another zone (CR 601.3).

"You may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost." is a Way
of method alternative; "You may cast ~ from your graveyard using its blitz ability." an ``OwnPermission``.
A sentence about casting this card that no template reads is returned as not read, so the answer can warn
(nothing silent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.effects.permissions import OwnPermission
from app.rules.effects.ways import Way, WayKind
from app.rules.text.cast_sentences import (
    Sentence,
    Unreadable,
    cast_condition,
    cost_phrase,
    original,
    sentences,
)
from app.rules.text.templates import Template
from app.rules.text.ways_templates import (
    ALL_ZONES,
    MAX_SENTENCE,
    OWN_ALTERNATIVE,
    OWN_ALTERNATIVE_FIRST,
    OWN_TEMPLATES,
    OWN_WITHOUT_PAYING,
    OWN_ZONE_ADDITIONAL,
    OWN_ZONE_PAYING,
    OWN_ZONE_USING,
    WAYS,
)
from app.rules.values.costs import ManaCost

# Sentences that speak of casting this card: when no template reads them, the answer says so.
_OWN_CASTING: Final = re.compile(
    r"rather than pay (?:this spell's|~'s) mana cost|\bcast ~ from\b|cast ~ without"
)


@dataclass(frozen=True, slots=True)
class OwnText:
    """A card's own casting sentences: alternative costs (Ways, method "alternative", ``which`` from 1),
    permissions from other zones, and sentences about casting it that were not read."""

    alternatives: tuple[Way, ...] = ()
    permissions: tuple[OwnPermission, ...] = ()
    not_read: tuple[str, ...] = ()


@text_cache(entries=8192, chars=2_000_000)
def read_own(name: str, oracle_text: str) -> OwnText:
    """A card's own alternative costs and zone permissions (see the module)."""
    alternatives: list[Way] = []
    permissions: list[OwnPermission] = []
    not_read: list[str] = []
    for s in sentences(name, oracle_text):
        if len(s.low) > MAX_SENTENCE:
            if _OWN_CASTING.search(s.low[:MAX_SENTENCE]):
                not_read.append(s.text)
            continue
        found = WAYS.match(s.low)
        if found is None or found[0].name not in OWN_TEMPLATES:
            if _OWN_CASTING.search(s.low):
                not_read.append(s.text)
            continue
        template, m = found
        try:
            _own(template, s, m, alternatives, permissions)
        except Unreadable:
            not_read.append(s.text)
    return OwnText(tuple(alternatives), tuple(permissions), tuple(not_read))


def _own(
    template: Template,
    s: Sentence,
    m: re.Match[str],
    alternatives: list[Way],
    permissions: list[OwnPermission],
) -> None:
    if template in (OWN_ALTERNATIVE, OWN_ALTERNATIVE_FIRST):
        mana, others = cost_phrase(original(s, m, "cost"))
        cond = cast_condition(s, m, "cond", "cond2")
        alternatives.append(
            Way(
                "alternative",
                "118.9",
                WayKind.ALTERNATIVE,
                ALL_ZONES,
                mana,
                others,
                cond,
                s.text,
                which=len(alternatives) + 1,
            )
        )
    elif template is OWN_WITHOUT_PAYING:
        cond = cast_condition(s, m, "cond")
        n = len(alternatives) + 1
        way = Way("alternative", "118.9", WayKind.WITHOUT_MANA, ALL_ZONES, None, (), cond, s.text, which=n)
        alternatives.append(way)
    elif template is OWN_ZONE_USING:
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, keyword=m["kw"].strip()))
    elif template is OWN_ZONE_PAYING:
        mana, others = cost_phrase(original(s, m, "cost"))
        permissions.append(
            OwnPermission(
                m["zone"],
                "601.3",
                s.text,
                cost=mana,
                other_costs=others,
                condition=cast_condition(s, m, "cond"),
            )
        )
    elif template is OWN_ZONE_ADDITIONAL:
        mana, others = cost_phrase(original(s, m, "cost"))
        if mana != ManaCost.zero():
            raise Unreadable("mana added to the costs is not read")
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, other_costs=others))
    else:
        cond = cast_condition(s, m, "cond1", "cond")
        permissions.append(OwnPermission(m["zone"], "601.3", s.text, condition=cond))
        if m["both"]:
            permissions.append(OwnPermission("exile", "601.3", s.text, condition=cond))
