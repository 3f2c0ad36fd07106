""" "For each" counts (CR 601.2f: counted on the board as the total is determined), one small function per
``CountKind``, and the amount of a "for each" effect for the spell being cast (targets 601.2c, optional
costs 601.2b, commander tax 903.8).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.rules.casting.effects import (
    CostEffect,
    Count,
    CountKind,
    Who,
)
from app.rules.casting.party import PARTY_ROLES, party, party_roles
from app.rules.casting.spell_cost import SpellContext
from app.rules.values.board import Board, Choices, Permanent
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.rules.values.creature_types import CREATURE_TYPE_LIST
from app.rules.values.names import fold_name

_ROLES_MAX: Final = 16384
_ROLES: dict[tuple[int, str | None], tuple[Card, frozenset[str]]] = {}


def _roles_of(perm: Permanent) -> frozenset[str]:
    key = (id(perm.card), perm.face)
    hit = _ROLES.get(key)
    if hit is not None and hit[0] is perm.card:
        return hit[1]
    roles = party_roles(perm)
    if len(_ROLES) >= _ROLES_MAX:
        _ROLES.clear()
    _ROLES[key] = (perm.card, roles)
    return roles


def party_size(board: Board, player: str) -> int:
    """CR 700.8 party size via ``party``, on only the creatures that can fill a role.

    Creatures with the same roles are interchangeable and a party has four members at most, so keeping
    the first four of each role set preserves the maximum matching (700.8b) while skipping the rest.
    """
    keep: list[Permanent] = []
    seen: dict[frozenset[str], int] = {}
    for p in board.permanents:
        if p.controller != player:
            continue
        roles = _roles_of(p)
        if roles and seen.get(roles, 0) < len(PARTY_ROLES):
            seen[roles] = seen.get(roles, 0) + 1
            keep.append(p)
    return party(Board(tuple(keep), board.players, board.active_player), player).size


def relative(whose: Who, controller: str, who: str) -> bool:
    if whose is Who.ANY:
        return True
    return (who == controller) if whose is Who.YOU else (who != controller)


def board_count(board: Board, count: Count, controller: str, source: Permanent | None = None) -> int:
    """CR 601.2f "for each": counted on the board as the cost is determined."""
    if count.kind is CountKind.PARTY:
        return party_size(board, controller)
    if count.kind is CountKind.OPPONENTS:
        return len(board.opponents_of(controller))
    if count.kind is CountKind.THIS_TURN:
        holders = [p for p in board.players if relative(count.whose, controller, p.name)]
        return sum(p.this_turn.count(count.fact or "spells_cast") for p in holders)
    if count.kind in (
        CountKind.GRAVEYARD_CARDS,
        CountKind.GRAVEYARD_CARD_TYPES,
        CountKind.GRAVEYARD_MANA_VALUES,
    ):
        return _graveyard_count(board, count, controller)
    if count.kind is CountKind.LIFE:
        return board.player(controller).life if controller in player_names(board) else 0
    if count.kind is CountKind.HAND:
        return board.player(controller).cards_in_hand if controller in player_names(board) else 0
    if count.kind is CountKind.PLAYER_COUNTERS:  # CR 122.1: counters on the player
        holders = [p for p in board.players if relative(count.whose, controller, p.name)]
        return sum(p.counter(count.counter or "") for p in holders)
    if count.kind is CountKind.CREATURE_TYPES:  # CR 205.3m; a changeling has every creature type, 702.73a
        creatures = [
            p.characteristics
            for p in board.permanents
            if relative(count.whose, controller, p.controller)
            and "Creature" in p.characteristics.type_line.types
        ]
        return sum(1 for t in CREATURE_TYPE_LIST if any(f.has_creature_type(t) for f in creatures))
    if count.kind is CountKind.SPEED:  # CR 702.179: the player's speed
        return board.player(controller).speed if controller in player_names(board) else 0
    if count.kind is CountKind.COUNTERS_ON_SOURCE:
        return source.counter(count.counter or "") if source is not None else 0
    if count.kind is CountKind.DOMAIN:
        kinds: set[str] = set()
        for p in board.permanents:
            if p.controller == controller:
                kinds.update(p.characteristics.type_line.basic_land_types)
        return len(kinds)
    if count.fact == "greatest":  # "the greatest number of artifacts an opponent controls"
        one = replace(count, whose=Who.YOU, fact=None)
        return max((board_count(board, one, o, source) for o in board.opponents_of(controller)), default=0)
    none = Choices()
    counted = [
        p
        for p in board.permanents
        if relative(count.whose, controller, p.controller)
        and count.matches(p.characteristics, none)
        and (count.counter is None or p.counter(count.counter) > 0)
        and (count.fact != "modified" or _modified(board, p))
        and (count.fact != "attacking" or p.attacking)
        and (count.fact != "token" or p.token)  # CR 111.1
        and (count.min_power is None or p.current("power") >= count.min_power)
    ]
    if count.kind is CountKind.TOTAL_POWER:  # CR 208.3
        return sum(max(0, p.current(count.fact or "power")) for p in counted)
    if count.kind is CountKind.GREATEST_POWER:
        return max((p.current("power") for p in counted), default=0)
    if count.kind is CountKind.DEVOTION:  # CR 700.5: every permanent the player controls
        mine = (p.characteristics.mana_cost for p in board.permanents if p.controller == controller)
        return sum(cost.devotion_to(count.colors) for cost in mine if cost is not None)
    if count.kind is CountKind.TOTAL_MANA_VALUE:  # CR 202.3: X in a permanent's mana cost is 0
        return sum(int(p.characteristics.mana_value or 0) for p in counted)
    if count.kind is CountKind.NAMES:  # CR 201.2: permanents with no name count for nothing
        return len({fold_name(p.name) for p in counted if p.name})
    return len(counted)


def _modified(board: Board, perm: Permanent) -> bool:
    """CR 700.9: it has a counter on it, is equipped, or is enchanted by an Aura its controller controls."""
    if any(n > 0 for _k, n in perm.counters):
        return True
    for other in board.permanents:
        if other.attached_to != perm.id:
            continue
        tl = other.characteristics.type_line
        if "Equipment" in tl.subtypes or ("Aura" in tl.subtypes and other.controller == perm.controller):
            return True
    return False


def is_commander(board: Board, player: str, card: Card) -> bool:
    """CR 903.3: ``card`` is one of ``player``'s commanders (as the request names them)."""
    if player not in player_names(board):
        return False
    return fold_name(card.name) in {fold_name(c.name) for c in board.player(player).commander}


def player_names(board: Board) -> set[str]:
    return {p.name for p in board.players}


def _graveyard_count(board: Board, count: Count, controller: str) -> int:
    """Cards in graveyards (CR 404): those with a quality, their card types (205.2a) or their different
    mana values (202.3); ``whose`` relative to the effect's controller, summed over the players."""
    cards = [
        c
        for p in board.players
        if relative(count.whose, controller, p.name)
        for c in (p.graveyard + p.exile if count.fact == "and_exile" else p.graveyard)
        if count.matches(c.front, Choices())
    ]
    if count.kind is CountKind.GRAVEYARD_CARD_TYPES:  # a split card has both halves' types (709.4)
        return len(
            {t for c in cards for f in (c.faces if c.is_split else (c.front,)) for t in f.type_line.types}
        )
    if count.kind is CountKind.GRAVEYARD_MANA_VALUES:  # CR 709.4: a split card's is both halves' total
        return len({c.mana_cost.mana_value if c.mana_cost is not None else 0 for c in cards})
    return len(cards)


def amount_of(
    ctx: SpellContext, effect: CostEffect, controller: str, source: Permanent | None = None
) -> tuple[ManaCost, str | None]:
    if effect.per is None:
        return effect.amount, None
    per = effect.per
    if per.kind is CountKind.TARGETS:
        n = len(ctx.spell.targets)  # CR 601.2c: targets are chosen before the total (601.2f)
    elif per.kind is CountKind.TARGETS_BEYOND_FIRST:
        n = max(0, len(ctx.spell.targets) - 1)
    elif per.kind is CountKind.TARGETED:
        by_id = {p.id: p for p in ctx.board.permanents}
        n = sum(
            1
            for t in dict.fromkeys(ctx.spell.targets)
            if t in by_id
            and per.matches(by_id[t].characteristics, Choices())
            and (per.whose is not Who.YOU or by_id[t].controller == controller)
        )
    elif per.kind is CountKind.COMMANDER_MANA_VALUE:
        n = _commander_mana_value(ctx.board, controller)
    elif per.kind is CountKind.OPTIONAL_TIMES:  # CR 601.2b: the objects the caster paid that cost with
        n = sum(o.times for o in ctx.spell.optional_costs if o.keyword == per.fact)
    elif per.kind is CountKind.COMMANDER_CASTS:  # CR 903.8: the casts from the command zone before this one
        n = ctx.spell.commander_casts
    elif per.kind is CountKind.SPELL_CHOSEN_COLORS:  # CR 105.2: the spell's colors among those chosen
        chosen = source.chosen.colors if source is not None else ()
        n = sum(1 for c in dict.fromkeys(chosen) if c in ctx.face.color_set)
    elif per.fact == "same_name":  # CR 201.2: cards in the graveyard with the spell's name
        names = {fold_name(f.name) for f in ctx.spell.card.faces} | {fold_name(ctx.spell.card.name)}
        yard = ctx.board.player(controller).graveyard if controller in player_names(ctx.board) else ()
        n = sum(1 for c in yard if fold_name(c.name) in names)
    elif per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
        n = board_count(ctx.board, replace(per, whose=Who.YOU), ctx.caster, source)
    else:
        n = board_count(ctx.board, per, controller, source)
    what = f"{effect.amount} for each {effect.per.text}: {n}"
    if effect.max_times is not None and n > effect.max_times:  # its own cap (Valiant Changeling)
        n, what = effect.max_times, f"{what}, at most {effect.max_times}"
    if n == 0:
        return ManaCost.zero(), f"{what}, so nothing to reduce"
    return times(effect.amount, n), what


def _commander_mana_value(board: Board, controller: str) -> int:
    """The greatest mana value of a commander ``controller`` owns on the battlefield or in the command zone
    (CR 903.3, 202.3; a card's mana value off the stack, X as 0, 107.3b): a commander the request lists in
    that player's graveyard, exile or hand is in neither zone; one not on the battlefield is taken as in
    the command zone, where it starts (903.6)."""
    if controller not in player_names(board):
        return 0
    player = board.player(controller)
    elsewhere = {fold_name(c.name) for c in (*player.graveyard, *player.exile, *player.hand)}
    on_battlefield = {fold_name(p.card.name) for p in board.permanents}
    best = 0
    for card in player.commander:
        if fold_name(card.name) in elsewhere and fold_name(card.name) not in on_battlefield:
            continue
        value = card.front.mana_cost.mana_value if card.front.mana_cost is not None else 0
        best = max(best, int(value or 0))
    return best


def times(cost: ManaCost, n: int) -> ManaCost:
    return ManaCost(cost.variables * n, cost.generic * n, cost.others * n)
