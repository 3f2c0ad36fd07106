""" "For each" counts (CR 601.2f: counted on the board as the total is determined), one small function per
``CountKind``, and the amount of a "for each" effect for the spell being cast (targets 601.2c, optional
costs 601.2b, commander tax 903.8).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Final

from app.rules.casting.party import PARTY_ROLES, party, party_roles
from app.rules.casting.spell_cost import SpellContext
from app.rules.effects.cost_effects import (
    CostEffect,
    Count,
    CountKind,
    Who,
)
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


def _party(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 700.8: the size of the controller's party."""
    return party_size(board, controller)


def _opponents(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 102.2-102.3: every other player of the board is an opponent (702.125a undaunted, ...)."""
    return len(board.opponents_of(controller))


def _this_turn(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 500.1: a fact of the current turn (``fact``, spells cast by default), summed over the players."""
    holders = [p for p in board.players if relative(count.whose, controller, p.name)]
    return sum(p.this_turn.count(count.fact or "spells_cast") for p in holders)


def _graveyard(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 404: cards in graveyards (``_graveyard_count``)."""
    return _graveyard_count(board, count, controller)


def _life(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 119.1: the controller's life total (0 for a player not on the board)."""
    return board.player(controller).life if controller in player_names(board) else 0


def _hand(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 402: cards in the controller's hand."""
    return board.player(controller).cards_in_hand if controller in player_names(board) else 0


def _player_counters(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 122.1: ``counter`` counters on the players ``whose`` names."""
    holders = [p for p in board.players if relative(count.whose, controller, p.name)]
    return sum(p.counter(count.counter or "") for p in holders)


def _creature_types(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 205.3m: creature types among creatures; a changeling has every creature type (702.73a)."""
    creatures = [
        p.characteristics
        for p in board.permanents
        if relative(count.whose, controller, p.controller) and "Creature" in p.characteristics.type_line.types
    ]
    return sum(1 for t in CREATURE_TYPE_LIST if any(f.has_creature_type(t) for f in creatures))


def _speed(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 702.179: the controller's speed."""
    return board.player(controller).speed if controller in player_names(board) else 0


def _counters_on_source(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 122.1: ``counter`` counters on the effect's source ("for each +1/+1 counter on ~")."""
    return source.counter(count.counter or "") if source is not None else 0


def _domain(board: Board, count: Count, controller: str, source: Permanent | None) -> int:
    """CR 305.6 (domain): basic land types among lands the controller controls."""
    kinds: set[str] = set()
    for p in board.permanents:
        if p.controller == controller:
            kinds.update(p.characteristics.type_line.basic_land_types)
    return len(kinds)


_Counter = Callable[[Board, Count, str, Permanent | None], int]

# The counts that read players, zones or the source rather than the permanents with a quality.
_BY_KIND: Final[dict[CountKind, _Counter]] = {
    CountKind.PARTY: _party,
    CountKind.OPPONENTS: _opponents,
    CountKind.THIS_TURN: _this_turn,
    CountKind.GRAVEYARD_CARDS: _graveyard,
    CountKind.GRAVEYARD_CARD_TYPES: _graveyard,
    CountKind.GRAVEYARD_MANA_VALUES: _graveyard,
    CountKind.LIFE: _life,
    CountKind.HAND: _hand,
    CountKind.PLAYER_COUNTERS: _player_counters,
    CountKind.CREATURE_TYPES: _creature_types,
    CountKind.SPEED: _speed,
    CountKind.COUNTERS_ON_SOURCE: _counters_on_source,
    CountKind.DOMAIN: _domain,
}


def _total_power(board: Board, count: Count, controller: str, counted: list[Permanent]) -> int:
    """CR 208.3: the total power (``fact`` "toughness": toughness) of the permanents counted, each >= 0."""
    return sum(max(0, p.current(count.fact or "power")) for p in counted)


def _greatest_power(board: Board, count: Count, controller: str, counted: list[Permanent]) -> int:
    """CR 208.3: the greatest power among the permanents counted (0 when none)."""
    return max((p.current("power") for p in counted), default=0)


def _devotion(board: Board, count: Count, controller: str, counted: list[Permanent]) -> int:
    """CR 700.5: mana symbols of ``colors`` among the mana costs of every permanent the player controls."""
    mine = (p.characteristics.mana_cost for p in board.permanents if p.controller == controller)
    return sum(cost.devotion_to(count.colors) for cost in mine if cost is not None)


def _total_mana_value(board: Board, count: Count, controller: str, counted: list[Permanent]) -> int:
    """CR 202.3: the total mana value of the permanents counted (X in a permanent's mana cost is 0)."""
    return sum(int(p.characteristics.mana_value or 0) for p in counted)


def _names_counted(board: Board, count: Count, controller: str, counted: list[Permanent]) -> int:
    """CR 201.2: differently named permanents counted; permanents with no name count for nothing."""
    return len({fold_name(p.name) for p in counted if p.name})


_OverPermanents = Callable[[Board, Count, str, list[Permanent]], int]

# The counts over the permanents with a quality; any other kind counts them (CountKind.PERMANENTS).
_OVER_PERMANENTS: Final[dict[CountKind, _OverPermanents]] = {
    CountKind.TOTAL_POWER: _total_power,
    CountKind.GREATEST_POWER: _greatest_power,
    CountKind.DEVOTION: _devotion,
    CountKind.TOTAL_MANA_VALUE: _total_mana_value,
    CountKind.NAMES: _names_counted,
}


def board_count(board: Board, count: Count, controller: str, source: Permanent | None = None) -> int:
    """CR 601.2f "for each": counted on the board as the cost is determined, by the function of its kind;
    "the greatest number of artifacts an opponent controls" is the most any one opponent has."""
    by_kind = _BY_KIND.get(count.kind)
    if by_kind is not None:
        return by_kind(board, count, controller, source)
    if count.fact == "greatest":
        one = replace(count, whose=Who.YOU, fact=None)
        return max((board_count(board, one, o, source) for o in board.opponents_of(controller)), default=0)
    none = Choices()
    counted = [p for p in board.permanents if _counts(board, count, controller, p, none)]
    over = _OVER_PERMANENTS.get(count.kind)
    return over(board, count, controller, counted) if over is not None else len(counted)


def _counts(board: Board, count: Count, controller: str, p: Permanent, none: Choices) -> bool:
    """Whether permanent ``p`` is one the count counts: whose it is, its quality, "with a counter on it",
    modified (CR 700.9), attacking (506.4), a token (111.1), "with power N or greater" (208.3)."""
    return (
        relative(count.whose, controller, p.controller)
        and count.matches(p.characteristics, none)
        and (count.counter is None or p.counter(count.counter) > 0)
        and (count.fact != "modified" or _modified(board, p))
        and (count.fact != "attacking" or p.attacking)
        and (count.fact != "token" or p.token)
        and (count.min_power is None or p.current("power") >= count.min_power)
    )


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


def _targets(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 601.2c: "for each target"; the targets are chosen before the total is determined (601.2f)."""
    return len(ctx.spell.targets)


def _targets_beyond_first(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 601.2c, 702.103a (strive): "for each target beyond the first"."""
    return max(0, len(ctx.spell.targets) - 1)


def _targeted(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 601.2c: the target permanents with the count's quality (each once), the controller's when
    ``whose`` says so."""
    by_id = {p.id: p for p in ctx.board.permanents}
    return sum(
        1
        for t in dict.fromkeys(ctx.spell.targets)
        if t in by_id
        and per.matches(by_id[t].characteristics, Choices())
        and (per.whose is not Who.YOU or by_id[t].controller == controller)
    )


def _commander_value(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 903.3, 202.3: the greatest mana value of the controller's commanders (``_commander_mana_value``)."""
    return _commander_mana_value(ctx.board, controller)


def _optional_times(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 601.2b: the times the caster paid the optional cost ``fact`` (the objects it was paid with)."""
    return sum(o.times for o in ctx.spell.optional_costs if o.keyword == per.fact)


def _commander_casts(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 903.8: the casts of this commander from the command zone before this one."""
    return ctx.spell.commander_casts


def _spell_chosen_colors(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 105.2: the colors chosen for the source that the spell is (each once)."""
    chosen = source.chosen.colors if source is not None else ()
    return sum(1 for c in dict.fromkeys(chosen) if c in ctx.face.color_set)


_SpellCounter = Callable[[SpellContext, Count, str, Permanent | None], int]

# The counts that read the spell being cast (its targets, optional costs, casts), not only the board.
_OF_SPELL: Final[dict[CountKind, _SpellCounter]] = {
    CountKind.TARGETS: _targets,
    CountKind.TARGETS_BEYOND_FIRST: _targets_beyond_first,
    CountKind.TARGETED: _targeted,
    CountKind.COMMANDER_MANA_VALUE: _commander_value,
    CountKind.OPTIONAL_TIMES: _optional_times,
    CountKind.COMMANDER_CASTS: _commander_casts,
    CountKind.SPELL_CHOSEN_COLORS: _spell_chosen_colors,
}


def _same_name(ctx: SpellContext, controller: str) -> int:
    """CR 201.2: cards in the controller's graveyard with the spell's name (any of its faces')."""
    names = {fold_name(f.name) for f in ctx.spell.card.faces} | {fold_name(ctx.spell.card.name)}
    yard = ctx.board.player(controller).graveyard if controller in player_names(ctx.board) else ()
    return sum(1 for c in yard if fold_name(c.name) in names)


def spell_count(ctx: SpellContext, per: Count, controller: str, source: Permanent | None) -> int:
    """CR 601.2f: what a "for each" counts for this spell: the spell's own facts by their kind, the cards
    with its name, else the board's count (the caster's, for "its controller controls")."""
    of_spell = _OF_SPELL.get(per.kind)
    if of_spell is not None:
        return of_spell(ctx, per, controller, source)
    if per.fact == "same_name":
        return _same_name(ctx, controller)
    if per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
        return board_count(ctx.board, replace(per, whose=Who.YOU), ctx.caster, source)
    return board_count(ctx.board, per, controller, source)


def amount_of(
    ctx: SpellContext, effect: CostEffect, controller: str, source: Permanent | None = None
) -> tuple[ManaCost, str | None]:
    """CR 601.2f: the amount of an effect, multiplied by its "for each" count (capped by its own limit,
    Valiant Changeling), with the note that says how it was counted."""
    if effect.per is None:
        return effect.amount, None
    n = spell_count(ctx, effect.per, controller, source)
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
