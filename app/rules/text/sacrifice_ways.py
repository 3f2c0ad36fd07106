"""Offering and emerge: the ways to cast that sacrifice a permanent and reduce the cost by it (CR 702.48,
702.119).

"[Quality] offering" read as a way (CR 702.48a), and both ways on a board: the permanent sacrificed (the
cheapest, among the caster's, CR 701.21a) and the reduction it gives (CR 702.119a: its mana value, 202.3;
702.48c: its mana cost, symbol for symbol).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.rules.effects.cost_effects import CostEffect, Direction, SpellFilter
from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import Way, WayKind
from app.rules.text.keyword_lines import strip_reminder
from app.rules.text.spell_kinds import spell_kind
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost


def offering_way(text: str) -> Way | None:
    """CR 702.48a: "[Quality] offering" lets the card be cast any time an instant could be, by sacrificing a
    [quality] permanent and paying the difference in mana costs (the total is reduced by the sacrificed
    permanent's mana cost, including color)."""
    for raw in text.split("\n"):
        line = strip_reminder(raw)
        words = line.split(" ")
        if 2 <= len(words) <= 3 and words[-1].casefold() == "offering" and line[0].isupper():
            quality = " ".join(words[:-1])
            if quality.casefold() in ("artifact", "creature", "enchantment", "land", "planeswalker"):
                quality = quality.casefold()  # a card type is written in lowercase in a cost (CR 205.2a)
            article = "an" if quality[0].casefold() in "aeiou" else "a"
            return Way(
                "offering",
                "702.48a",
                WayKind.WITH_MANA_COST,
                ("hand",),
                None,
                (OtherCost(f"Sacrifice {article} {quality}"),),
                None,
                line,
            )
    return None


_SACRIFICE_KEYWORDS: Final = frozenset({"emerge", "offering"})


def with_sacrifice(board: Board, caster: str, face: Face, way: Way) -> Way:
    """Emerge and offering on this board: the way with the permanent it sacrifices, the cheapest one, and
    its reduction, as the engine offers it (``offered_ways``); any other way unchanged.

    - CR 702.119a: emerge is cast "by paying [cost] and sacrificing a creature rather than paying its mana
      cost", and "its total cost is reduced by an amount of generic mana equal to the sacrificed creature's
      mana value": the creature of greatest mana value is sacrificed (202.3b-c: a transformed permanent's
      from its front face, a melded one's its fronts' combined).
    - CR 702.48a: "[Quality] offering" means "As an additional cost to cast this spell, you may sacrifice a
      [quality] permanent. If you chose to pay the additional cost, this spell's total cost is reduced by
      the sacrificed permanent's mana cost"; 702.48c: its colored and colorless mana reduces mana of the same
      type, any excess generic: the permanent leaving the least mana value to pay is sacrificed.

    Only a permanent the caster controls can be sacrificed (CR 701.21a). With none, the way keeps the
    condition "if you control [a quality]", which the engine refuses under the way's rule (nothing silent).
    The choice is the cheapest; ``other_costs`` and the reduction's text name the permanent. ``face``: the
    spell's face, whose mana cost offering reduces."""
    if way.keyword not in _SACRIFICE_KEYWORDS or way.sacrifice is not None or not way.other_costs:
        return way
    what = way.other_costs[-1].text.removeprefix("Sacrifice ")  # "a creature", "a Snake", "an artifact"
    try:
        kind = spell_kind(what.casefold())
    except ValueError:  # the engine warns that this condition is not checked
        return replace(way, condition=f"a permanent to sacrifice ({what}) is on the board")
    mine = [p for p in board.permanents if p.controller == caster and kind.covers(p.characteristics)]
    if not mine:
        return replace(way, condition=f"if you control {what}")
    if way.keyword == "emerge":
        best = max(mine, key=lambda p: _sacrificed_value(p.card, p.characteristics))
        amount = ManaCost.of(int(_sacrificed_value(best.card, best.characteristics)))
        rule, says = "702.119a", "its mana value"
    else:
        spell = face.mana_cost if face.mana_cost is not None else ManaCost.zero()
        best = min(mine, key=lambda p: _left_after(spell, p.characteristics.mana_cost))
        amount = (best.characteristics.mana_cost or ManaCost.zero()).with_variables()  # X is 0 (107.3)
        rule, says = "702.48c", "its mana cost"
    named = f"Sacrifice {best.characteristics.name} ({best.id})"
    text = f"{way.text}: sacrifices {best.characteristics.name} ({best.id}), the cost reduced by {says}"
    reduction = None
    if not amount.is_zero:
        reduction = CostEffect(Direction.REDUCTION, amount, SpellFilter(), rule, text, own=True)
    return replace(
        way, other_costs=(*way.other_costs[:-1], OtherCost(named)), reduction=reduction, sacrifice=best.id
    )


def _sacrificed_value(card: Card, face: Face) -> int:
    """The mana value of a permanent with ``face`` up (CR 202.3; 202.3b: a nonmodal double-faced card's back
    face has its front's; 202.3c: a melded permanent's in ``Face.mana_value``); X counts 0 (202.3e)."""
    mv = card.front.mana_value if card.layout == "transform" and face is not card.front else face.mana_value
    return int(mv) if isinstance(mv, int | float) else 0


def _left_after(spell: ManaCost, sacrificed: ManaCost | None) -> float:
    """The mana value left of ``spell`` once reduced by ``sacrificed`` (CR 702.48c: generic reduces generic,
    each colored or colorless symbol the same symbol, any excess generic): to choose the cheapest."""
    if sacrificed is None:
        return float(spell.mana_value or 0)
    generic, others = spell.generic, list(spell.others)
    excess = sacrificed.with_variables().generic
    for sym in sacrificed.others:
        if sym in others:
            others.remove(sym)
        else:
            excess += int((sym.half_value or 0) / 2)
    left = ManaCost(spell.variables, max(0, generic - excess), tuple(others))
    return float(left.mana_value or 0)
