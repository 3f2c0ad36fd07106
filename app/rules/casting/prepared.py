"""A board read once for costing (``prepare_board``): every permanent's cost effects (CR 601.2f), the ways
to pay it grants (613.1f), and what permanents and lasting effects grant for casting (601.2b, 601.3, 613),
with the warnings for text not understood. Readings are cached per card object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules import deadline
from app.rules.casting.spell_cost import CostWarning
from app.rules.effects.cost_effects import (
    CardEffects,
    CostEffect,
    KeywordGrant,
    MinimumTotal,
)
from app.rules.effects.permissions import GrantedText, KeywordCostChange, Permission
from app.rules.mana.ability_loss import may_lose_abilities
from app.rules.mana.board_reading import read_board
from app.rules.text.granted_text import read_granted
from app.rules.text.reading import read_face
from app.rules.text.standing_text import standing_text
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


_BY_CARD: dict[tuple[int, str | None, int | None], tuple[Card, CardEffects, GrantedText | None]] = {}


_BY_CARD_MAX: Final = 16384


_NOTHING_GRANTED: Final = GrantedText()


def _effects_of(perm: Permanent, standing: bool = True) -> tuple[CardEffects, GrantedText | None]:
    """The cost effects of the face that is up, and what it grants for casting (None: nothing), cached per
    card object (catalogue cards are shared): one look-up per permanent when a board is prepared.
    ``standing``: a permanent, granting what its state gives (``standing_text``); False for a stated
    lasting effect, whose whole text is what resolved."""
    face = perm.characteristics
    is_class = standing and "Class" in face.type_line.subtypes
    level = perm.class_level if is_class else None if standing else -1
    key = (id(perm.card), perm.face, level)
    hit = _BY_CARD.get(key)
    if hit is not None and hit[0] is perm.card:
        return hit[1], hit[2]
    found = read_face(face).costs
    # CR 716.2a, 714.2b, 606: a later Class level, a chapter or a loyalty ability grants nothing standing
    text = standing_text(face.oracle_text, perm.class_level, is_class) if standing else face.oracle_text
    granted: GrantedText | None = read_granted(face.name, text)
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
    silenced = _silenced(board)
    for perm in board.permanents:
        deadline.check()  # one permanent's cost effects read from its text
        if perm.id in silenced:
            continue  # CR 613.1f: it lost all its abilities (Humility, Frogify): no cost effect of its own
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
        if "class_level" not in perm.given and "Class" in perm.characteristics.type_line.subtypes:
            _warn_unstated_level(perm, granted, warnings)
    for effect in board.effects:
        granted = _effects_of(effect, standing=False)[1]
        if granted is not None:
            _granted(effect, granted, True, permissions, keyword_costs, warnings)
    return PreparedBoard(
        board, tuple(sources), tuple(warnings), tuple(grants), tuple(permissions), tuple(keyword_costs)
    )


def _silenced(board: Board) -> frozenset[str]:
    """The permanents that lost all their abilities to another's effect (CR 613.1f), read as the mana
    reader reads the board (layers 4 and 6), only when some text could do it."""
    if not may_lose_abilities(tuple(p.characteristics.oracle_text for p in board.permanents)):
        return frozenset()
    return frozenset(st.id for st in read_board(board).states if st.stripped)


def _warn_unstated_level(perm: Permanent, granted: GrantedText | None, warnings: list[CostWarning]) -> None:
    """Nothing silent: a Class whose level is not stated is taken at level 1 (CR 716.2d); a permission of a
    later level is then not granted, and said."""
    face = perm.characteristics
    every = read_granted(face.name, standing_text(face.oracle_text, 3, True)).permissions
    have = granted.permissions if granted is not None else ()
    for p in every:
        if p not in have:
            message = "class_level not stated: level 1 assumed, this level's ability not granted (CR 716.2a)"
            warnings.append(CostWarning(perm.id, perm.card.name, p.text, message))


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
    for p in granted.permissions:
        if p.chosen_type and perm.chosen.creature_type is None:  # nothing silent: a choice not made
            message = "chosen.creature_type not stated: the permission covers no spell (CR 205.3m)"
            warnings.append(CostWarning(perm.id, perm.card.name, p.text, message))
    if not is_effect:
        keyword_costs.extend((perm, k) for k in granted.keyword_costs)
    for text in granted.not_read:
        message = "a permission or cost for casting spells that is not understood, given no effect (CR 601.3)"
        warnings.append(CostWarning(perm.id, perm.card.name, text, message))
