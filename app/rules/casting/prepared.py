"""A board read once for costing (``prepare_board``): every permanent's cost effects (CR 601.2f), the ways
to pay it grants (613.1f), and what permanents and lasting effects grant for casting (601.2b, 601.3, 613),
with the warnings for text not understood. Readings are cached per card object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.casting.cost_registry import cost_effects
from app.rules.casting.effects import (
    CardEffects,
    CostEffect,
    KeywordGrant,
    MinimumTotal,
)
from app.rules.casting.permissions import GrantedText, KeywordCostChange, Permission
from app.rules.casting.spell_cost import CostWarning
from app.rules.text.ways_text import read_granted
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card


@dataclass(frozen=True, slots=True)
class _Source:
    permanent: Permanent
    effect: CostEffect | MinimumTotal

    def __init__(self, permanent: Permanent, effect: CostEffect | MinimumTotal) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanent", permanent)
        object.__setattr__(self, "effect", effect)


@dataclass(frozen=True, slots=True)
class PreparedBoard:
    """A board with every permanent's cost effects read (once) and the warnings they gave."""

    board: Board
    sources: tuple[_Source, ...]
    warnings: tuple[CostWarning, ...]
    grants: tuple[tuple[Permanent, KeywordGrant], ...] = ()
    permissions: tuple[tuple[Permanent, Permission], ...] = ()  # granted ways to cast (CR 601.2b, 613)
    keyword_costs: tuple[tuple[Permanent, KeywordCostChange], ...] = ()  # "Buyback costs cost {2} less."

    def __init__(
        self,
        board: Board,
        sources: tuple[_Source, ...],
        warnings: tuple[CostWarning, ...],
        grants: tuple[tuple[Permanent, KeywordGrant], ...] = (),
        permissions: tuple[tuple[Permanent, Permission], ...] = (),
        keyword_costs: tuple[tuple[Permanent, KeywordCostChange], ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "sources", sources)
        object.__setattr__(self, "warnings", warnings)
        object.__setattr__(self, "grants", grants)
        object.__setattr__(self, "permissions", permissions)
        object.__setattr__(self, "keyword_costs", keyword_costs)


_BY_CARD: dict[tuple[int, str | None], tuple[Card, CardEffects, GrantedText | None]] = {}


_BY_CARD_MAX: Final = 16384


_NOTHING_GRANTED: Final = GrantedText()


def _effects_of(perm: Permanent) -> tuple[CardEffects, GrantedText | None]:
    """The cost effects of the face that is up, and what it grants for casting (None: nothing), cached per
    card object (catalogue cards are shared): one look-up per permanent when a board is prepared."""
    key = (id(perm.card), perm.face)
    hit = _BY_CARD.get(key)
    if hit is not None and hit[0] is perm.card:
        return hit[1], hit[2]
    face = perm.characteristics
    found = cost_effects(face)
    granted: GrantedText | None = read_granted(face.name, face.oracle_text)
    if granted == _NOTHING_GRANTED:
        granted = None
    if len(_BY_CARD) >= _BY_CARD_MAX:
        _BY_CARD.clear()
    _BY_CARD[key] = (perm.card, found, granted)  # holding the card keeps its id from being reused
    return found, granted


def prepare_board(board: Board) -> PreparedBoard:
    """Read the cost effects of every permanent, and what permanents and lasting effects grant for casting
    (cached per card and per text)."""
    sources: list[_Source] = []
    warnings: list[CostWarning] = []
    grants: list[tuple[Permanent, KeywordGrant]] = []
    permissions: list[tuple[Permanent, Permission]] = []
    keyword_costs: list[tuple[Permanent, KeywordCostChange]] = []
    for perm in board.permanents:
        deadline.check()  # one permanent's cost effects read from its text
        found, granted = _effects_of(perm)
        if found.effects:
            for e in found.effects:
                if isinstance(e, KeywordGrant):
                    grants.append((perm, e))
                else:
                    sources.append(_Source(perm, e))
        for u in found.unsupported:
            warnings.append(
                CostWarning(perm.id, perm.card.name, u.text, f"not understood, given no effect: {u.reason}")
            )
        if granted is not None:
            _granted(perm, granted, False, permissions, keyword_costs, warnings)
    for effect in board.effects:
        granted = _effects_of(effect)[1]
        if granted is not None:
            _granted(effect, granted, True, permissions, keyword_costs, warnings)
    return PreparedBoard(
        board, tuple(sources), tuple(warnings), tuple(grants), tuple(permissions), tuple(keyword_costs)
    )


def _granted(
    perm: Permanent,
    granted: GrantedText,
    is_effect: bool,
    permissions: list[tuple[Permanent, Permission]],
    keyword_costs: list[tuple[Permanent, KeywordCostChange]],
    warnings: list[CostWarning],
) -> None:
    """What ``perm`` grants (CR 601.2b, 613). A trigger's grant to its target (Snapcaster Mage) holds only as
    a stated effect, not for the permanent on the battlefield (its trigger may never have resolved)."""
    permissions.extend((perm, p) for p in granted.permissions if is_effect or not p.named_card)
    if not is_effect:
        keyword_costs.extend((perm, k) for k in granted.keyword_costs)
    for text in granted.not_read:
        message = "a permission or cost for casting spells that is not understood, given no effect (CR 601.3)"
        warnings.append(CostWarning(perm.id, perm.card.name, text, message))
