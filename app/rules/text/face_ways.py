"""Ways to cast and optional costs that a card's own text defines by keyword (CR 702), read from its text.

A keyword line ("Flashback—{1}{G}, Pay 3 life.", "Kicker {1}{G} and/or {2}{U}", "Awaken 3—{4}{U}") is read
with plain string operations: reminder text cut at its parentheses, the keyword matched literally at the
start of the line, the cost split at ", " and " and/or ". No regular expression, so no backtracking
whatever the text. Which keywords exist, their rule and the zones they apply from are the
Comprehensive Rules' (a table of keywords, never of card names).

This module reads a face (``ways_of``): its keyword lines (``keyword_lines``: CR 207.2, 601.2f, 118.7a),
additional costs, spree and tiered modes (``additional_costs``: CR 601.2b, 118.8, 702.172a, 702.183a),
emerge and offering (``sacrifice_ways``: CR 702.119a, 702.48a), then its own casting sentences
(``own_text``: CR 118.9, 601.3). The values it builds are ``app.rules.effects.ways``; the keyword table is
``app.rules.effects.keywords`` (CR 702). The engine reads a face through ``reading.read_face``.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.bounded_cache import text_cache
from app.rules.effects.permissions import OwnPermission
from app.rules.effects.ways import CardWays, NotRead, OptionalCost, Way, WayKind
from app.rules.text.additional_costs import modal_costs, read_mandatory
from app.rules.text.keyword_lines import lines, read_line
from app.rules.text.own_text import read_own
from app.rules.text.sacrifice_ways import offering_way
from app.rules.values.cards import Face


@text_cache(entries=8192, chars=2_000_000)
def _read_text(text: str) -> CardWays:
    ways: list[Way] = []
    optional: list[OptionalCost] = []
    not_read: list[NotRead] = []
    mandatory: list[OptionalCost] = []
    for line in lines(text):
        if not line:
            continue
        extra_cost = read_mandatory(line)
        if isinstance(extra_cost, OptionalCost):
            (optional if extra_cost.repeatable else mandatory).append(extra_cost)
            continue
        if isinstance(extra_cost, NotRead):
            not_read.append(extra_cost)
            continue
        found, extra = read_line(line)
        if extra is not None:
            not_read.append(extra)
        if isinstance(found, Way):
            ways.append(found)
        elif isinstance(found, OptionalCost):
            optional.append(found)
        elif isinstance(found, NotRead):
            not_read.append(found)
    modal = modal_costs(text)
    if isinstance(modal, OptionalCost):
        optional.append(modal)
    elif modal is not None:
        not_read.append(modal)
    offering = offering_way(text)
    if offering is not None:
        ways.append(offering)
    return CardWays(tuple(ways), tuple(optional), tuple(not_read), tuple(mandatory))


@text_cache(entries=8192, chars=2_000_000)
def read_ways(name: str, text: str) -> CardWays:
    """The keyword lines, then the casting sentences that are not keywords (``own_text``): alternative
    costs written in the text (CR 118.9) and permissions to be cast from another zone (CR 601.3)."""
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
    return read_ways(face.name, face.oracle_text)


__all__ = ["read_ways", "ways_of"]
