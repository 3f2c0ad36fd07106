"""Ways to cast and optional costs that a card's own text defines by keyword (CR 702), read from its text.

A keyword line ("Flashback—{1}{G}, Pay 3 life.", "Kicker {1}{G} and/or {2}{U}", "Awaken 3—{4}{U}") is read
with plain string operations: reminder text cut at its parentheses, the keyword matched literally at the
start of the line, the cost split at ", " and " and/or ". No regular expression, so no backtracking
whatever the text. Which keywords exist, their rule and the zones they apply from are the
Comprehensive Rules' (a table of keywords, never of card names).

This module reads a face (``ways_of``: its keyword lines, additional costs, spree and tiered modes and
offering, then the casting sentences of ``ways_text``: CR 118.9, 601.3) and re-exports, as before issue
29's split, the names of the modules it is made of: the values (``way_values``: CR 601.2b, 118.8, 118.9),
the keyword table (``cast_keywords``: CR 702), the keyword lines (``keyword_lines``: CR 207.2, 601.2f,
118.7a), the additional costs (``additional_costs``: CR 601.2b, 118.8, 702.172a, 702.183a) and the
sacrifice of emerge and offering (``sacrifice_ways``: CR 702.119a, 702.48a).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from app.rules.casting.additional_costs import ANY_NUMBER_COST, _mandatory, _modal_costs, modal_keyword
from app.rules.casting.cast_keywords import keyword_rule, optional_keywords, way_keywords
from app.rules.casting.keyword_lines import _lines, _read_line, is_way_reduction
from app.rules.casting.sacrifice_ways import _offering, with_sacrifice
from app.rules.casting.way_values import (
    CardWays,
    NotRead,
    OptionalCost,
    OtherCost,
    Way,
    WayKind,
)
from app.rules.casting.way_values import number_word as number_word
from app.rules.values.cards import Face

if TYPE_CHECKING:
    from app.rules.casting.permissions import OwnPermission


@lru_cache(maxsize=8192)
def _read_text(text: str) -> CardWays:
    ways: list[Way] = []
    optional: list[OptionalCost] = []
    not_read: list[NotRead] = []
    mandatory: list[OptionalCost] = []
    for line in _lines(text):
        if not line:
            continue
        extra_cost = _mandatory(line)
        if isinstance(extra_cost, OptionalCost):
            (optional if extra_cost.repeatable else mandatory).append(extra_cost)
            continue
        if isinstance(extra_cost, NotRead):
            not_read.append(extra_cost)
            continue
        found, extra = _read_line(line)
        if extra is not None:
            not_read.append(extra)
        if isinstance(found, Way):
            ways.append(found)
        elif isinstance(found, OptionalCost):
            optional.append(found)
        elif isinstance(found, NotRead):
            not_read.append(found)
    modal = _modal_costs(text)
    if isinstance(modal, OptionalCost):
        optional.append(modal)
    elif modal is not None:
        not_read.append(modal)
    offering = _offering(text)
    if offering is not None:
        ways.append(offering)
    return CardWays(tuple(ways), tuple(optional), tuple(not_read), tuple(mandatory))


@lru_cache(maxsize=8192)
def _read_face(name: str, text: str) -> CardWays:
    """The keyword lines, then the casting sentences that are not keywords (``ways_text``): alternative
    costs written in the text (CR 118.9) and permissions to be cast from another zone (CR 601.3)."""
    from app.rules.text.own_text import read_own  # the sentence reader builds this module's values

    keywords = _read_text(text)
    own = read_own(name, text)
    if not (own.alternatives or own.permissions or own.not_read):
        return keywords
    ways = list(keywords.ways)
    extra: list[tuple[str, str]] = []
    plain: list[OwnPermission] = []
    for p in own.permissions:
        if p.keyword is not None:
            extra.append((p.keyword, p.zone))
        elif p.cost is not None:
            ways.append(
                Way(
                    "alternative",
                    "601.3",
                    WayKind.ALTERNATIVE,
                    (p.zone,),
                    p.cost,
                    p.other_costs,
                    p.condition,
                    p.text,
                    which=sum(1 for w in ways if w.keyword == "alternative") + 1,
                )
            )
        else:
            plain.append(p)
    ways.extend(
        replace(w, which=sum(1 for x in ways if x.keyword == "alternative") + 1) for w in own.alternatives
    )
    not_read = (
        *keywords.not_read,
        *(NotRead(t, "a sentence about casting it that is not read") for t in own.not_read),
    )
    return replace(
        keywords, ways=tuple(ways), not_read=not_read, extra_zones=tuple(extra), permissions=tuple(plain)
    )


def ways_of(face: Face) -> CardWays:
    """The ways to cast and optional costs that ``face``'s own text defines (cached per text)."""
    return _read_face(face.name, face.oracle_text)


__all__ = [
    "ANY_NUMBER_COST",
    "CardWays",
    "NotRead",
    "OptionalCost",
    "OtherCost",
    "Way",
    "WayKind",
    "is_way_reduction",
    "keyword_rule",
    "modal_keyword",
    "optional_keywords",
    "way_keywords",
    "ways_of",
    "with_sacrifice",
]
