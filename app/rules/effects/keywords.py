"""The keywords that are ways to cast or optional costs, as the Comprehensive Rules define them (CR 702).

For each way to cast with its own cost (CR 601.2b, 118.9: flashback 702.34a, evoke 702.74a, escape
702.138a, plot 702.170d, suspend 702.62a, ...): its rule, how it sets the cost (``WayKind``, CR 601.2f), the
zones it applies from (CR 601.3), whether it needs a cost, the condition the rule states and what it adds;
for each optional additional cost (CR 118.8: buyback 702.27a, kicker 702.33a, casualty 702.153a, gift
702.174a, ...): its rule and whether it is paid any number of times. A table of keywords, never of card
names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.effects.ways import WayKind


@dataclass(frozen=True, slots=True)
class WayDef:
    keyword: str
    rule: str
    kind: WayKind
    zones: tuple[str, ...]
    needs_cost: bool = True
    condition: str | None = None
    adds: str | None = None  # the non-mana part the keyword itself adds (retrace: discard a land card)


# CR 702: every keyword that is a way to cast with its own cost, the zones it applies from, and for the
# ones that hold only under a condition, that condition as the rule states it.
_WAYS: Final[tuple[WayDef, ...]] = (
    WayDef("flashback", "702.34a", WayKind.ALTERNATIVE, ("graveyard",)),
    WayDef("madness", "702.35a", WayKind.ALTERNATIVE, ("exile",)),
    WayDef("morph", "702.37c", WayKind.FACE_DOWN, ("hand",)),
    WayDef("megamorph", "702.37b", WayKind.FACE_DOWN, ("hand",)),
    WayDef("disguise", "702.168a", WayKind.FACE_DOWN, ("hand",)),
    WayDef("evoke", "702.74a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef(
        "prowl",
        "702.76a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="a player was dealt combat damage this turn by a source of yours sharing a creature type",
    ),
    WayDef("retrace", "702.81a", WayKind.WITH_MANA_COST, ("graveyard",), False, adds="Discard a land card"),
    WayDef(
        "miracle",
        "702.94a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="it is the first card drawn this turn, revealed as it is drawn",
    ),
    WayDef("overload", "702.96a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("bestow", "702.103a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("dash", "702.109a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("awaken", "702.113a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("surge", "702.117a", WayKind.ALTERNATIVE, ("hand",), condition="surge"),
    WayDef("emerge", "702.119a", WayKind.ALTERNATIVE, ("hand",), adds="Sacrifice a creature"),
    WayDef("aftermath", "702.127a", WayKind.WITH_MANA_COST, ("graveyard",), False),
    WayDef("jump-start", "702.133a", WayKind.WITH_MANA_COST, ("graveyard",), False, adds="Discard a card"),
    WayDef("spectacle", "702.137a", WayKind.ALTERNATIVE, ("hand",), condition="spectacle"),
    WayDef("escape", "702.138a", WayKind.ALTERNATIVE, ("graveyard",)),
    WayDef("mutate", "702.140a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("foretell", "702.143a", WayKind.ALTERNATIVE, ("exile",)),
    WayDef("disturb", "702.146a", WayKind.ALTERNATIVE, ("graveyard",)),
    WayDef("cleave", "702.148a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("blitz", "702.152a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("prototype", "702.160a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("more than meets the eye", "702.162a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("plot", "702.170d", WayKind.WITHOUT_MANA, ("exile",)),
    # 702.62a: the last time counter removed, it is cast from exile without paying its mana cost; the cost
    # after "Suspend N—" is paid to exile it from the hand, not to cast it.
    WayDef("suspend", "702.62a", WayKind.WITHOUT_MANA, ("exile",), needs_cost=False),
    WayDef(
        "freerunning",
        "702.173a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="a player was dealt combat damage this turn by an Assassin or a commander of yours",
    ),
    WayDef("impending", "702.176a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef(
        "harmonize", "702.180a", WayKind.ALTERNATIVE, ("graveyard",), adds="Tap up to one untapped creature"
    ),
    WayDef("warp", "702.185a", WayKind.ALTERNATIVE, ("hand",)),
    WayDef("mayhem", "702.187a", WayKind.ALTERNATIVE, ("graveyard",), condition="you discarded it this turn"),
    # Sneak (Teenage Mutant Ninja Turtles, after the 2026-01-16 rules): "You may cast this spell for [cost]
    # if you also return an unblocked attacker you control to hand during the declare blockers step": an
    # alternative cost (118.9) with a condition and a return.
    WayDef(
        "sneak",
        "118.9",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="it is the declare blockers step and you control an unblocked attacker",
        adds="Return an unblocked attacker you control to its owner's hand",
    ),
    WayDef(
        "web-slinging",
        "702.188a",
        WayKind.ALTERNATIVE,
        ("hand",),
        adds="Return a tapped creature you control to its owner's hand",
    ),
)


@dataclass(frozen=True, slots=True)
class OptionalDef:
    keyword: str
    rule: str
    repeatable: bool = False  # paid any number of times (multikicker, replicate, squad, escalate)
    needs_cost: bool = True
    fixed: str | None = None  # the cost a keyword without one states in the rules (conspire, bargain, ...)


_OPTIONAL: Final[tuple[OptionalDef, ...]] = (
    OptionalDef("buyback", "702.27a"),
    OptionalDef("kicker", "702.33a"),
    OptionalDef("multikicker", "702.33c", repeatable=True),
    OptionalDef("entwine", "702.42a"),
    OptionalDef("replicate", "702.56a", repeatable=True),
    OptionalDef(
        "conspire",
        "702.78a",
        needs_cost=False,
        fixed="Tap two untapped creatures you control that share a color with it",
    ),
    OptionalDef("escalate", "702.120a", repeatable=True),
    OptionalDef("casualty", "702.153a"),
    OptionalDef("squad", "702.157a", repeatable=True),
    OptionalDef(
        "bargain",
        "702.166a",
        needs_cost=False,
        fixed="Sacrifice an artifact, enchantment, or token",
    ),
    OptionalDef("gift", "702.174a"),
    OptionalDef("offspring", "702.175a"),
)

KEYWORDS: Final = sorted(
    [(d.keyword, d) for d in _WAYS] + [(d.keyword, d) for d in _OPTIONAL], key=lambda kv: -len(kv[0])
)


def keyword_rule(keyword: str) -> str | None:
    """The CR 702 rule of a way-to-cast or optional-cost keyword, None for a word that is neither."""
    return next((d.rule for k, d in KEYWORDS if k == keyword), None)


def way_keywords() -> tuple[str, ...]:
    """Every method keyword the reader knows (for the OpenAPI description and the coverage bench)."""
    return tuple(d.keyword for d in _WAYS)


def optional_keywords() -> tuple[str, ...]:
    return tuple(d.keyword for d in _OPTIONAL)
