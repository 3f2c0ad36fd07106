"""The total cost of a spell (CR 601.2f), step by step.

Start from the mana cost or an alternative cost (CR 118.9; X substituted, 0 when neither it nor the
alternative cost has X, 107.3b), add additional costs (118.8) and increases (commander tax, 903.8), apply
reductions (118.7) in the cheapest order with the cheapest halves of hybrid symbols (118.7e, 601.2b), then
effects on the total (Trinisphere); never below {0} (118.7, 601.2f).

Use ``prepare_board`` once per board when costing many spells (a decklist): it reads every permanent's
cost effects from the per-text cache a single time.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Final, NoReturn

from app.rules import deadline
from app.rules.casting.cost_registry import cost_effects
from app.rules.casting.effects import (
    FACE_DOWN_NAME,
    CardEffects,
    Condition,
    ConditionKind,
    CostEffect,
    Count,
    CountKind,
    Direction,
    KeywordGrant,
    MinimumTotal,
    SpellFilter,
    Who,
)
from app.rules.casting.mental_magic import verify_cast_as
from app.rules.casting.party import PARTY_ROLES, party, party_roles
from app.rules.casting.permissions import GrantedText, KeywordCostChange, Permission, PermissionKind
from app.rules.casting.ways import (
    CardWays,
    OtherCost,
    Way,
    WayKind,
    keyword_rule,
    modal_keyword,
    ways_of,
    with_sacrifice,
)
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.characters import CharacterIndex, matches
from app.rules.text.ways_text import read_granted, spell_kind
from app.rules.values.board import Board, Choices, Permanent
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.creature_types import CREATURE_TYPE_LIST
from app.rules.values.names import fold_name
from app.rules.values.symbols import COLORS, ManaSymbol, SymbolKind
from app.rules.values.types import TypeLine, canonical_creature_type

_NO_CHARACTERS: Final = CharacterIndex(())

_MAX_ORDER_SEARCH: Final = 6
_MAX_VARIANTS: Final = 720
# Reduction applications tried in all by the search for the cheapest plan: bounds hostile boards with
# thousands of hybrid reductions (720 plans of 5,000 steps took a minute); real boards stay far below.
_MAX_SEARCH_STEPS: Final = 50_000

_NO_CHOICES = Choices()


class StepKind(StrEnum):
    BASE = "base"
    ALTERNATIVE = "alternative"
    ADDITIONAL = "additional"
    INCREASE = "increase"
    REDUCTION = "reduction"
    TOTAL = "total"


@dataclass(frozen=True, slots=True)
class CastAs:
    """Mental Magic: cast as ``card`` through the Richard Garfield, Ph.D. with id ``via``."""

    card: Card
    via: str


@dataclass(frozen=True, slots=True)
class OptionalChoice:
    """An optional additional cost the caster pays (CR 601.2b): its keyword, which of its costs (kicker's
    two-cost form, 702.33d) and how many times (multikicker, replicate, squad, escalate)."""

    keyword: str
    which: int = 1
    times: int = 1


@dataclass(frozen=True, slots=True)
class WayTotal:
    """A way the card offers from the zone it is cast from, with one optional cost or none: its total."""

    method: str
    optional_costs: tuple[OptionalChoice, ...]
    total_cost: ManaCost
    which: int | None = None  # which alternative cost written in the text (method "alternative")
    granted_by: str | None = None  # the permanent or effect that grants the way (CR 601.2b, 613)
    rule: str = "601.2f"
    other_costs: tuple[OtherCost, ...] = ()


@dataclass(frozen=True, slots=True)
class SpellToCast:
    """A spell being cast. ``face``: a face or half's name, or "fuse"; ``flavor_text`` and
    ``art_characters`` describe the printed card (``printing``), for effects that read it (ruling:vorthos);
    ``targets`` are the ids of permanents and names of players it targets (CR 601.2c); ``method`` is the
    keyword of the way to cast used ("flashback"; None: the normal way, or the only way the card has from
    ``cast_from``), ``optional_costs`` the optional additional costs paid."""

    card: Card
    face: str | None = None
    x: int = 0
    y: int = 0
    z: int = 0
    alternative_cost: ManaCost | None = None
    additional_costs: tuple[ManaCost, ...] = ()
    cast_from: str = "hand"
    commander_casts: int = 0
    cast_as: CastAs | None = None
    flavor_text: str | None = None
    art_characters: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    method: str | None = None
    optional_costs: tuple[OptionalChoice, ...] = ()
    which: int | None = None  # which of several alternative costs (method "alternative")
    granted_by: str | None = None  # the id of the permanent or effect whose grant is used


@dataclass(frozen=True, slots=True)
class CostStep:
    """One step of the computation: what was added or taken, by which permanent, under which rule."""

    kind: StepKind
    result: ManaCost
    rule: str
    source: str | None = None
    card: str | None = None
    amount: ManaCost | None = None
    applied: bool = True
    note: str | None = None


@dataclass(frozen=True, slots=True)
class CostWarning:
    """A text that looks like a cost effect but was not understood: it was given no effect."""

    source: str | None
    card: str
    text: str
    message: str


@dataclass(frozen=True, slots=True)
class CostResult:
    """The answer: the spell's mana cost, mana values (CR 202.3), total cost, steps and warnings.

    ``mana_value`` treats X as 0 (202.3e, off the stack); ``mana_value_on_stack`` counts X as chosen;
    ``x_for_etb`` is the X its enters-the-battlefield abilities see (107.3m).
    """

    card: Card
    face: Face
    cast_as: Card | None
    mana_cost: ManaCost | None
    mana_value: int | float | None
    mana_value_on_stack: int | float | None
    total_cost: ManaCost
    steps: tuple[CostStep, ...]
    warnings: tuple[CostWarning, ...]
    x_for_etb: int
    choices: tuple[str, ...]
    method: str = "normal"
    other_costs: tuple[OtherCost, ...] = ()
    ways: tuple[WayTotal, ...] = ()
    granted: tuple[str, ...] = ()  # ways to pay granted by permanents (convoke, improvise, delve)
    which: int | None = None
    granted_by: str | None = None
    way_rule: str = "601.2f"


@dataclass(frozen=True, slots=True)
class _Source:
    permanent: Permanent
    effect: CostEffect | MinimumTotal


@dataclass(frozen=True, slots=True)
class PreparedBoard:
    """A board with every permanent's cost effects read (once) and the warnings they gave."""

    board: Board
    sources: tuple[_Source, ...]
    warnings: tuple[CostWarning, ...]
    grants: tuple[tuple[Permanent, KeywordGrant], ...] = ()
    permissions: tuple[tuple[Permanent, Permission], ...] = ()  # granted ways to cast (CR 601.2b, 613)
    keyword_costs: tuple[tuple[Permanent, KeywordCostChange], ...] = ()  # "Buyback costs cost {2} less."


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


_ROLES: dict[tuple[int, str | None], tuple[Card, frozenset[str]]] = {}


def _roles_of(perm: Permanent) -> frozenset[str]:
    key = (id(perm.card), perm.face)
    hit = _ROLES.get(key)
    if hit is not None and hit[0] is perm.card:
        return hit[1]
    roles = party_roles(perm)
    if len(_ROLES) >= _BY_CARD_MAX:
        _ROLES.clear()
    _ROLES[key] = (perm.card, roles)
    return roles


def _party_size(board: Board, player: str) -> int:
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


# -- the spell's face and characteristics ---------------------------------------------------------------


def _cast_face(card: Card, face: str | None, cast_from: str) -> tuple[Face, Face | None]:
    """The characteristics of the spell (CR 709.3, 702.102, 712.11, 715.3) and, for the back face of a
    nonmodal double-faced card, the front face whose mana cost gives its mana value (712.8c)."""
    if face is not None and face.casefold() == "fuse":
        if len(card.faces) < 2 or not card.is_split:
            raise InvalidChoiceError(f"{card.name} is not a split card; only split cards fuse", field="face")
        if not any(f.has_keyword("Fuse") for f in card.faces) and "Fuse" not in card.front.oracle_text:
            raise IllegalError(f"{card.name} does not have fuse", rule="702.102a")
        if cast_from != "hand":
            raise IllegalError("a split card with fuse is fused only when cast from a hand", rule="702.102a")
        return card.fused(), None
    if face is None:
        if card.is_split and len(card.faces) > 1:
            halves = " or ".join(repr(f.name) for f in card.faces)
            fuse = ' (or "fuse")' if any(f.has_keyword("Fuse") for f in card.faces) else ""
            raise InvalidChoiceError(
                f"{card.name} is a split card: choose the half to cast, {halves}{fuse} (CR 709.3)",
                field="face",
            )
        return card.front, None
    chosen = card.face(face)
    if card.layout in ("transform", "meld") and chosen is not card.front:
        return chosen, card.front
    return chosen, None


def _check_castable(face: Face) -> None:
    if face.type_line.is_land and len(face.type_line.types) == 1:
        raise IllegalError(f"{face.name} is a land: lands are played, not cast", rule="305.1")


# -- evaluating effects ---------------------------------------------------------------------------------


def _relative(whose: Who, controller: str, who: str) -> bool:
    if whose is Who.ANY:
        return True
    return (who == controller) if whose is Who.YOU else (who != controller)


def _count(board: Board, count: Count, controller: str, source: Permanent | None = None) -> int:
    """CR 601.2f "for each": counted on the board as the cost is determined."""
    if count.kind is CountKind.PARTY:
        return _party_size(board, controller)
    if count.kind is CountKind.OPPONENTS:
        return len(board.opponents_of(controller))
    if count.kind is CountKind.THIS_TURN:
        holders = [p for p in board.players if _relative(count.whose, controller, p.name)]
        return sum(p.this_turn.count(count.fact or "spells_cast") for p in holders)
    if count.kind in (
        CountKind.GRAVEYARD_CARDS,
        CountKind.GRAVEYARD_CARD_TYPES,
        CountKind.GRAVEYARD_MANA_VALUES,
    ):
        return _graveyard_count(board, count, controller)
    if count.kind is CountKind.LIFE:
        return board.player(controller).life if controller in _names(board) else 0
    if count.kind is CountKind.HAND:
        return board.player(controller).cards_in_hand if controller in _names(board) else 0
    if count.kind is CountKind.PLAYER_COUNTERS:  # CR 122.1: counters on the player
        holders = [p for p in board.players if _relative(count.whose, controller, p.name)]
        return sum(p.counter(count.counter or "") for p in holders)
    if count.kind is CountKind.CREATURE_TYPES:  # CR 205.3m; a changeling has every creature type, 702.73a
        creatures = [
            p.characteristics
            for p in board.permanents
            if _relative(count.whose, controller, p.controller)
            and "Creature" in p.characteristics.type_line.types
        ]
        return sum(1 for t in CREATURE_TYPE_LIST if any(f.has_creature_type(t) for f in creatures))
    if count.kind is CountKind.SPEED:  # CR 702.179: the player's speed
        return board.player(controller).speed if controller in _names(board) else 0
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
        return max((_count(board, one, o, source) for o in board.opponents_of(controller)), default=0)
    none = Choices()
    counted = [
        p
        for p in board.permanents
        if _relative(count.whose, controller, p.controller)
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


def _is_commander(board: Board, player: str, card: Card) -> bool:
    """CR 903.3: ``card`` is one of ``player``'s commanders (as the request names them)."""
    if player not in _names(board):
        return False
    return fold_name(card.name) in {fold_name(c.name) for c in board.player(player).commander}


def _names(board: Board) -> set[str]:
    return {p.name for p in board.players}


def _graveyard_count(board: Board, count: Count, controller: str) -> int:
    """Cards in graveyards (CR 404): those with a quality, their card types (205.2a) or their different
    mana values (202.3); ``whose`` relative to the effect's controller, summed over the players."""
    cards = [
        c
        for p in board.players
        if _relative(count.whose, controller, p.name)
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


def _condition_holds(board: Board, cond: Condition, controller: str, source: Permanent | None) -> bool:
    kind = cond.kind
    if kind is ConditionKind.SOURCE_UNTAPPED:
        return source is not None and not source.tapped
    if kind is ConditionKind.SOURCE_TAPPED:
        return source is not None and source.tapped
    if kind is ConditionKind.YOUR_TURN:
        return board.active_player == controller
    if kind is ConditionKind.NOT_YOUR_TURN:
        return board.active_player != controller
    if kind is ConditionKind.DAY_NIGHT:  # CR 730.1: it is day, night, or neither
        return board.day_night == cond.fact
    if kind is ConditionKind.STEP:  # CR 500.1, 513.1: your turn, in that step
        return board.active_player == controller and board.step == cond.fact
    if kind is ConditionKind.THIS_TURN:
        fact = cond.fact or "spells_cast"
        if cond.whose is Who.ANY:  # "if a creature died this turn": anyone's, summed
            n = sum(p.this_turn.count(fact) for p in board.players)
            return n >= cond.at_least and (cond.at_most is None or n <= cond.at_most)
        names = [controller] if cond.whose is Who.YOU else list(board.opponents_of(controller))
        for player in board.players:
            if player.name in names:
                n = player.this_turn.count(fact)
                if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
                    return True
        return False
    if kind is ConditionKind.CLASS_LEVEL:
        return source is not None and source.class_level >= cond.at_least
    if kind is ConditionKind.COUNT and cond.count is not None:
        who = list(board.opponents_of(controller)) if cond.per_opponent else [controller]
        for holder in who:
            count = replace(cond.count, whose=Who.YOU) if cond.per_opponent else cond.count
            n = _count(board, count, holder, source)
            if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
                return True
        return False
    none = Choices()
    holders = [o for o in board.opponents_of(controller)] if cond.whose is Who.OPPONENTS else [controller]
    for holder in holders:
        n = sum(
            1
            for p in board.permanents
            if p.controller == holder and any(q.matches(p.characteristics, none) for q in cond.qualities)
        )
        if n >= cond.at_least and (cond.at_most is None or n <= cond.at_most):
            return True
    return False


@dataclass(slots=True)
class _Ctx:
    board: Board
    caster: str
    spell: SpellToCast
    face: Face
    mv_on_stack: int | float | None
    characters: CharacterIndex
    warnings: list[CostWarning]
    judged: dict[tuple[CostEffect | MinimumTotal, str | None], _Judged] | None = None  # see ways_to_cast


# What cost_increases found for one effect of one source: (covered, why, amount, amount note)
_Judged = tuple[bool, str | None, ManaCost | None, str | None]


def _covers(ctx: _Ctx, f: SpellFilter, source: Permanent | None, controller: str) -> tuple[bool, str | None]:
    """Whether the filter covers this spell: (covered, note); a note means "relevant, but not applied"."""
    if not _relative(f.caster, controller, ctx.caster):
        return False, None
    chosen = source.chosen if source is not None else _NO_CHOICES
    face = ctx.face
    if f.qualities:
        if any(q.chosen_card_type for q in f.qualities) and chosen.card_type is None:
            return False, "no card type was chosen, so no spell costs less (CR 205.2a)"
        if any(q.chosen_creature_type for q in f.qualities) and chosen.creature_type is None:
            return False, "no creature type was chosen, so no spell costs less (ruling:heralds-horn)"
        if not any(q.matches(face, chosen) for q in f.qualities):
            if any(q.chosen_creature_type for q in f.qualities):
                return False, f"{face.name} is not a {chosen.creature_type} spell"
            return False, None
    if f.min_mana_value is not None and (ctx.mv_on_stack is None or ctx.mv_on_stack < f.min_mana_value):
        return False, None
    if f.from_zone is not None and ctx.spell.cast_from != f.from_zone:
        return False, None
    if f.not_from_zone is not None and ctx.spell.cast_from == f.not_from_zone:
        return False, None
    if f.targets_source and (source is None or source.id not in ctx.spell.targets):
        return False, None  # CR 601.2c: the targets are chosen before the total is determined
    if f.from_zones and ctx.spell.cast_from not in f.from_zones:
        return False, None
    if f.commander:
        known = ctx.caster in _names(ctx.board) and ctx.board.player(ctx.caster).knows("commander")
        if not known:
            message = f"{ctx.caster}'s commander was not given: taken as none"
            ctx.warnings.append(
                CostWarning(source.id if source else None, ctx.face.name, "commander", message)
            )
        if not _is_commander(ctx.board, ctx.caster, ctx.spell.card):
            return False, None
    if f.kicked and not any(o.keyword in ("kicker", "multikicker") for o in ctx.spell.optional_costs):
        return False, None  # CR 702.33d: kicked when its kicker cost was paid
    if f.shares_creature_type and not _shares_creature_type(face, source):
        return False, None
    if f.shares_card_type_with_imprinted:
        if chosen.imprinted is None:
            return False, "no card is exiled with it (chosen.imprinted), so no spell shares a card type"
        exiled = set(chosen.imprinted.front.type_line.types)
        if not exiled & set(face.type_line.types):
            return False, None
    if f.chosen_name:
        if chosen.card_name is None:
            return False, "no card name was chosen"
        names = {fold_name(face.name), *(fold_name(x.name) for x in ctx.spell.card.faces)}
        if fold_name(chosen.card_name) not in names:
            return False, None
    if f.character:
        return _character_covers(ctx, chosen)
    return True, None


def _shares_creature_type(face: Face, source: Permanent | None) -> bool:
    """CR 205.3m, 702.73a: the spell and the source have a creature type in common (a changeling has all)."""
    if source is None:
        return False
    other = source.characteristics
    mine = [t for t in face.type_line.subtypes if canonical_creature_type(t) is not None]
    theirs = [t for t in other.type_line.subtypes if canonical_creature_type(t) is not None]
    if face.is_changeling and face.type_line.has_creature_types:
        return (other.is_changeling and other.type_line.has_creature_types) or bool(theirs)
    return any(other.has_creature_type(t) for t in mine)


def _character_covers(ctx: _Ctx, chosen: Choices) -> tuple[bool, str | None]:
    """ruling:vorthos: the chosen character in the printed card's name, flavor text or art, in any form.

    Acorn rules look at the actual printed card being cast, so this reads the physical card (its names
    and ``printing``) even when it is cast as another card through Mental Magic.
    """
    if chosen.character is None:
        return False, "no character was chosen (ruling:vorthos)"
    character = ctx.characters.resolve(chosen.character)
    card = ctx.spell.card
    flavor = ctx.spell.flavor_text
    if flavor is None:
        flavor = ctx.face.flavor_text if ctx.spell.cast_as is None else card.front.flavor_text
    names = [card.name, *(f.name for f in card.faces if f.name != card.name)]
    for name in names:
        m = matches(character, name=name, flavor_text=flavor, art_characters=ctx.spell.art_characters)
        if m is not None:
            return True, m.describe()
    return False, f"{chosen.character} is not in {card.name}'s name, flavor text or art"


def _amount(
    ctx: _Ctx, effect: CostEffect, controller: str, source: Permanent | None = None
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
        yard = ctx.board.player(controller).graveyard if controller in _names(ctx.board) else ()
        n = sum(1 for c in yard if fold_name(c.name) in names)
    elif per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
        n = _count(ctx.board, replace(per, whose=Who.YOU), ctx.caster, source)
    else:
        n = _count(ctx.board, per, controller, source)
    what = f"{effect.amount} for each {effect.per.text}: {n}"
    if effect.max_times is not None and n > effect.max_times:  # its own cap (Valiant Changeling)
        n, what = effect.max_times, f"{what}, at most {effect.max_times}"
    if n == 0:
        return ManaCost.zero(), f"{what}, so nothing to reduce"
    return _times(effect.amount, n), what


def _commander_mana_value(board: Board, controller: str) -> int:
    """The greatest mana value of a commander ``controller`` owns on the battlefield or in the command zone
    (CR 903.3, 202.3; a card's mana value off the stack, X as 0, 107.3b): a commander the request lists in
    that player's graveyard, exile or hand is in neither zone; one not on the battlefield is taken as in
    the command zone, where it starts (903.6)."""
    if controller not in _names(board):
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


def _times(cost: ManaCost, n: int) -> ManaCost:
    return ManaCost(cost.variables * n, cost.generic * n, cost.others * n)


# -- applying reductions --------------------------------------------------------------------------------

_State = tuple[int, tuple[ManaSymbol, ...]]


def _payable_by(sym: ManaSymbol, color: str) -> int:
    """Preference (lower first) for letting a {color} reduction remove ``sym``; -1 when it cannot."""
    kind = sym.kind
    if color == "C":
        if kind is SymbolKind.COLORLESS:
            return 0
        return 3 if kind is SymbolKind.COLORLESS_HYBRID else -1
    if color not in sym.colors:
        return -1
    return {
        SymbolKind.COLORED: 0,
        SymbolKind.PHYREXIAN: 1,
        SymbolKind.HYBRID: 2,
        SymbolKind.HYBRID_PHYREXIAN: 2,
        SymbolKind.COLORLESS_HYBRID: 3,
        SymbolKind.MONO_HYBRID: 4,
    }.get(kind, -1)


def _unit(
    state: _State, color: str, colored_only: bool, pending: frozenset[str], notes: list[str]
) -> tuple[_State, bool]:
    """Reduce by one mana of ``color`` (W U B R G or C): CR 118.7b-d, 118.7f; returns (state, changed)."""
    generic, others = state
    best = -1
    best_rank: tuple[int, int] = (99, 99)
    for i, sym in enumerate(others):
        pref = _payable_by(sym, color)
        if pref < 0:
            continue
        # Keep hybrid symbols that later reductions of another color could also remove.
        clash = sum(1 for c in sym.colors if c != color and c in pending)
        rank = (pref, clash)
        if rank < best_rank:
            best, best_rank = i, rank
    if best >= 0:
        sym = others[best]
        if sym.kind not in (SymbolKind.COLORED, SymbolKind.COLORLESS):
            notes.append(f"{sym} is paid as {{{color}}} (CR 601.2b), so the {{{color}}} reduction removes it")
        return (generic, others[:best] + others[best + 1 :]), True
    if colored_only or color == "" or generic == 0:
        return state, False
    return (generic - 1, others), True  # 118.7b-d: spill onto generic


def _apply(
    state: _State, amount: ManaCost, colored_only: bool, pending: frozenset[str], notes: list[str]
) -> tuple[_State, int]:
    """Apply one concrete reduction (hybrid halves already chosen). Returns (state, unused generic)."""
    generic, others = state
    unused = 0
    if amount.generic and not colored_only:
        r = min(generic, amount.generic)
        generic -= r
        unused = amount.generic - r
    state = (generic, others)
    for sym in amount.others:
        kind = sym.kind
        if kind in (SymbolKind.COLORED, SymbolKind.PHYREXIAN):
            state, _ = _unit(state, sym.colors[0], colored_only, pending, notes)
        elif kind is SymbolKind.COLORLESS:
            state, _ = _unit(state, "C", colored_only, pending, notes)
        elif kind is SymbolKind.SNOW:  # 118.7g
            if not colored_only and state[0] > 0:
                state = (state[0] - 1, state[1])
            elif not colored_only:
                unused += 1
        elif kind is SymbolKind.HALF and sym in state[1]:
            rest = list(state[1])
            rest.remove(sym)
            state = (state[0], tuple(rest))
    return state, unused


def _variants(amount: ManaCost) -> list[tuple[ManaCost, tuple[str, ...]]]:
    """Concrete amounts for a reduction with hybrid symbols: each choice of halves (CR 118.7e)."""
    options: list[list[tuple[ManaSymbol | int, str | None]]] = []
    for sym in amount.others:
        k = sym.kind
        if k in (SymbolKind.HYBRID, SymbolKind.HYBRID_PHYREXIAN):
            options.append([(_COLORED[c], f"{sym} as {{{c}}}") for c in sym.colors])
        elif k is SymbolKind.MONO_HYBRID:
            options.append(
                [(_COLORED[sym.colors[0]], f"{sym} as {{{sym.colors[0]}}}"), (2, f"{sym} as {{2}}")]
            )
        elif k is SymbolKind.COLORLESS_HYBRID:
            options.append(
                [(_COLORED[sym.colors[0]], f"{sym} as {{{sym.colors[0]}}}"), (_COLORLESS, f"{sym} as {{C}}")]
            )
        else:
            options.append([(sym, None)])
    out: list[tuple[ManaCost, tuple[str, ...]]] = []
    for combo in itertools.islice(itertools.product(*options), _MAX_VARIANTS):
        generic = amount.generic
        syms: list[ManaSymbol] = []
        notes: list[str] = []
        for part, note in combo:
            if isinstance(part, int):
                generic += part
            else:
                syms.append(part)
            if note:
                notes.append(note)
        out.append((ManaCost((), generic, tuple(syms)), tuple(notes)))
    return out


_COLORED: Final = {c: ManaSymbol.parse(f"{{{c}}}") for c in COLORS}
_COLORLESS: Final = ManaSymbol.parse("{C}")


def _pay_units(state: _State) -> int:
    """Least mana (in half-units) that pays the cost, each symbol paid its cheapest way with mana."""
    generic, others = state
    total = 2 * generic
    for s in others:
        total += 1 if s.kind is SymbolKind.HALF else 2
    return total


def _metric(state: _State) -> tuple[int, int, str]:
    return (_pay_units(state), len(state[1]), str(ManaCost((), state[0], state[1])))


@dataclass(frozen=True, slots=True)
class _Red:
    """A reduction ready to apply: its concrete variants, its source and the note of its amount."""

    index: int
    effect: CostEffect
    source: Permanent | None
    amount: ManaCost
    amount_note: str | None


def _run(
    start: _State, order: Sequence[_Red], picks: Sequence[int]
) -> tuple[_State, list[tuple[_State, list[str], ManaCost]]]:
    state = start
    trail: list[tuple[_State, list[str], ManaCost]] = []
    # Colors of the reductions after each position, built once (per-step rescans were quadratic).
    after: list[frozenset[str]] = [frozenset()] * (len(order) + 1)
    for pos in range(len(order) - 1, -1, -1):
        after[pos] = after[pos + 1] | {c for s in order[pos].amount.others for c in s.colors}
    for pos, (red, pick) in enumerate(zip(order, picks, strict=True)):
        concrete, choice_notes = _variants(red.amount)[pick]
        later = after[pos + 1]
        notes = list(choice_notes)
        state, unused = _apply(state, concrete, red.effect.colored_only, later, notes)
        if unused and not red.effect.colored_only:
            state = _convert_mono_hybrid(state, unused, notes)
        trail.append((state, notes, concrete))
    return state, trail


def _convert_mono_hybrid(state: _State, unused: int, notes: list[str]) -> _State:
    """Generic reduction left over: announce {2/C} symbols as {2} (CR 601.2b) so it can reduce them."""
    generic, others = state
    rest = list(others)
    for sym in others:
        if unused <= 0:
            break
        if sym.kind is SymbolKind.MONO_HYBRID:
            rest.remove(sym)
            take = min(unused, sym.amount)
            generic += sym.amount - take
            unused -= take
            notes.append(f"{sym} is paid as {{{sym.amount}}} (CR 601.2b), so generic reduction applies to it")
    return (generic, tuple(rest))


def _best_plan(start: _State, reds: list[_Red]) -> tuple[list[_Red], list[int]]:
    """The order and hybrid halves giving the cheapest total (CR 601.2f: any order; 118.7e: either half)."""
    generic_only = [r for r in reds if not r.amount.others and not r.effect.colored_only]
    sensitive = [r for r in reds if r.amount.others or r.effect.colored_only]
    # Colored-only riders first (they never spill), then colored, then generic (CR 118.7a-d).
    sensitive.sort(key=lambda r: (not r.effect.colored_only, r.index))
    best: tuple[tuple[int, int, str], list[_Red], list[int]] | None = None
    orders: list[tuple[_Red, ...]]
    if len(sensitive) <= _MAX_ORDER_SEARCH and len(sensitive) > 1:
        orders = list(itertools.permutations(sensitive))
    else:
        orders = [tuple(sensitive)]
    tried = 0
    for order_t in orders:
        full = [*order_t, *generic_only]
        pick_ranges = [range(len(_variants(r.amount))) for r in full]
        for picks in itertools.product(*pick_ranges):
            deadline.check()  # one order of the cost reductions (CR 601.2f)
            tried += 1
            end, _ = _run(start, full, picks)
            m = _metric(end)
            if best is None or m < best[0]:
                best = (m, full, list(picks))
            if tried >= _MAX_VARIANTS or tried * len(full) >= _MAX_SEARCH_STEPS:
                break
        if tried >= _MAX_VARIANTS or tried * len(reds) >= _MAX_SEARCH_STEPS:
            break
    assert best is not None
    return best[1], best[2]


# -- the engine -----------------------------------------------------------------------------------------


def _check_targets(board: Board, targets: tuple[str, ...]) -> None:
    """CR 601.2c: a spell's targets are objects or players; here permanents on the board or its players."""
    players = {p.name for p in board.players}
    ids = {p.id for p in board.permanents}
    for i, target in enumerate(targets):
        if target not in ids and target not in players:
            raise InvalidChoiceError(
                f"target {target!r} is neither a permanent nor a player of this board (CR 601.2c)",
                field=f"targets.{i}",
            )


@dataclass(slots=True)
class CostRun:
    """The running total of one computation and what it has explained so far (CR 601.2f, in order)."""

    current: ManaCost
    steps: list[CostStep]
    warnings: list[CostWarning]
    choices: list[str]
    other_costs: list[OtherCost] = field(default_factory=list)

    def record(self, step: CostStep) -> None:
        """Append ``step``; an applied step's result becomes the running total."""
        if step.applied:
            self.current = step.result
        self.steps.append(step)


@dataclass(frozen=True, slots=True)
class CastCharacteristics:
    """What is cast: the face (or the card chosen through Mental Magic), its mana cost, and the mana cost
    giving its mana value (the front face's for a transformed back face, CR 712.8c)."""

    face: Face
    cast_as: Card | None
    mana_cost: ManaCost | None
    mv_cost: ManaCost | None


@dataclass(frozen=True, slots=True)
class Variables:
    """X, Y and Z as used for every cost (CR 107.3), and whether any cost lets the caster choose X."""

    x: int
    y: int
    z: int
    chooses_x: bool


def cast_characteristics(
    board: Board, caster: str, spell: SpellToCast, choices: list[str]
) -> CastCharacteristics:
    """The spell's characteristics (CR 601.2a-b): its face (709.3, 702.102, 712.11, 715.3) or, through
    a Richard Garfield, Ph.D., the card it is cast as (ruling:richard-garfield-phd); lands are not cast
    (305.1)."""
    _check_targets(board, spell.targets)
    face, mv_front = _cast_face(spell.card, spell.face, spell.cast_from)
    cast_as_card: Card | None = None
    if spell.cast_as is not None:
        verify_cast_as(board, caster, spell.card, spell.cast_as.card, spell.cast_as.via)
        cast_as_card = spell.cast_as.card
        face = (
            cast_as_card.fused()
            if cast_as_card.is_split and len(cast_as_card.faces) > 1
            else cast_as_card.front
        )
        mv_front = None
        choices.append(
            f"cast as {cast_as_card.name} through {spell.cast_as.via} (ruling:richard-garfield-phd)"
        )
    _check_castable(face)
    mana_cost = face.mana_cost if cast_as_card is None else cast_as_card.mana_cost
    mv_cost = mv_front.mana_cost if mv_front is not None else mana_cost
    return CastCharacteristics(face, cast_as_card, mana_cost, mv_cost)


def base_cost(
    spell: SpellToCast, chars: CastCharacteristics, run: CostRun, way: Way | None = None
) -> Variables:
    """CR 601.2f starts from the mana cost or an alternative cost (118.9), X, Y, Z substituted (107.3a).

    An alternative cost without {X} makes X 0 when the mana cost has {X} (107.3b); a cost with no mana cost
    needs an alternative cost (118.6); {∞} cannot be paid in full (107.4), and the total keeps it. A way to
    cast (``way``) gives the alternative cost its keyword defines: [cost] (118.9), {3} face down (702.37c),
    nothing for "without paying its mana cost" (118.9), or the mana cost itself (retrace, jump-start).
    """
    mana_cost, alt = chars.mana_cost, spell.alternative_cost
    alt_rule, alt_label = "118.9", "paid rather than the mana cost"
    if way is not None and way.kind is not WayKind.WITH_MANA_COST:
        alt = _way_mana(way)
        alt_rule, alt_label = way.rule, f"{way.keyword} cost, paid rather than the mana cost"
        run.other_costs.extend(way.other_costs)
        if way.life_for_mana:  # "pay life equal to its mana value rather than pay its mana cost" (118.9)
            life = _mana_value(chars.mv_cost, 0, 0, 0, on_stack=False)
            paid = int(life) if isinstance(life, int | float) else 0
            run.other_costs.append(OtherCost(f"Pay {paid} life", paid))
    elif way is not None:
        run.other_costs.extend(way.other_costs)
    has_x = bool(mana_cost is not None and mana_cost.variables)
    x, y, z = spell.x, spell.y, spell.z
    x_forced = False
    if alt is not None:
        # X chosen in a non-mana part of the way's cost ("Remove X loyalty counters") is chosen too (107.3a)
        in_others = way is not None and any(" X " in f" {o.text} " for o in way.other_costs)
        chooses_x = bool(alt.variables) or any(a.variables for a in spell.additional_costs) or in_others
        if has_x and not chooses_x and (x or y or z):
            x_forced = True
            x = y = z = 0
        base_src = alt
    else:
        if mana_cost is None:
            raise IllegalError(
                f"{chars.face.name} has no mana cost: it can be cast only with an alternative cost",
                rule="118.6",
            )
        chooses_x = has_x or any(a.variables for a in spell.additional_costs)
        base_src = mana_cost
    if mana_cost is not None and mana_cost.is_infinite and alt is None:
        run.choices.append("{∞} cannot be paid in full; the total keeps it")
    if not chooses_x and (spell.x or spell.y or spell.z) and not x_forced:
        run.warnings.append(
            CostWarning(None, spell.card.name, "x", "X was given but no cost of this spell has {X}")
        )

    current = base_src.with_variables(x, y, z)
    var_note = _var_note(base_src, x, y, z)
    if alt is None:
        run.record(CostStep(StepKind.BASE, current, "601.2f", amount=base_src, note=var_note))
    else:
        bare = "alternative cost" if way is None else f"{way.keyword} cost"
        note = f"{alt_label} {mana_cost}" if mana_cost is not None else bare
        if x_forced:
            note += "; X is 0: the spell is cast without paying a cost that includes {X} (CR 107.3b)"
        elif var_note:
            note += f"; {var_note}"
        run.record(CostStep(StepKind.ALTERNATIVE, current, alt_rule, amount=alt, note=note))
    return Variables(x, y, z, chooses_x)


def additional_costs(spell: SpellToCast, v: Variables, run: CostRun) -> None:
    """CR 601.2f, 118.8: each additional cost is added to the total, with the same X (107.3a)."""
    for extra in spell.additional_costs:
        run.record(
            CostStep(
                StepKind.ADDITIONAL, run.current + extra.with_variables(v.x, v.y, v.z), "118.8", amount=extra
            )
        )


def commander_tax(spell: SpellToCast, run: CostRun) -> None:
    """CR 903.8: {2} more for each previous cast from the command zone, only when cast from there."""
    if not spell.commander_casts:
        return
    tax = ManaCost.of(2 * spell.commander_casts)
    if spell.cast_from == "command":
        note = (
            f"commander tax: {{2}} for each of {spell.commander_casts} previous casts from the command zone"
        )
        run.record(CostStep(StepKind.INCREASE, run.current + tax, "903.8", amount=tax, note=note))
    else:
        note = "commander tax applies only to casts from the command zone"
        run.record(CostStep(StepKind.INCREASE, run.current, "903.8", amount=tax, applied=False, note=note))


def _judge(
    ctx: _Ctx, source: Permanent | None, effect: CostEffect | MinimumTotal, controller: str, card_name: str
) -> tuple[bool, str | None]:
    """Whether ``effect`` applies to this spell (its filter, then its condition), and a note of why not."""
    covered, why = _covers(ctx, effect.spells, source, controller)
    cond = effect.condition
    if covered and cond is not None:
        if cond.kind is ConditionKind.NOT_CASTERS_TURN:
            holds = ctx.board.active_player != ctx.caster  # the spell's controller is its caster (601.2a)
        elif cond.kind is ConditionKind.TARGETS:
            holds = _targets_hold(ctx, cond, controller, source, card_name)
        elif cond.kind is ConditionKind.OPTIONAL_PAID:  # CR 601.2b: announced before the total
            holds = any(o.keyword == cond.fact for o in ctx.spell.optional_costs)
        else:
            holds = _condition_holds(ctx.board, cond, controller, source)
        _warn_unknown_fact(ctx, source, cond.kind is ConditionKind.CLASS_LEVEL, "class_level", card_name)
        if cond.kind is ConditionKind.THIS_TURN:
            _warn_this_turn(ctx, source, controller, cond.whose, cond.fact, card_name)
        if cond.kind is ConditionKind.STEP and ctx.board.step is None:
            message = "step was not given: taken as not that step"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "step", message))
        if cond.kind is ConditionKind.DAY_NIGHT and ctx.board.day_night is None:
            message = "day_night was not given: taken as neither day nor night"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "day_night", message))
        if cond.kind is ConditionKind.COUNT and cond.count is not None:
            whose = Who.OPPONENTS if cond.per_opponent else cond.count.whose
            _warn_zones(ctx, source, controller, replace(cond.count, whose=whose), card_name)
        if not holds:
            return False, f"condition not met: {cond.text.replace('~', card_name)}"
    if covered and isinstance(effect, CostEffect) and effect.per is not None:
        per, counted_for = effect.per, controller
        if per.whose is Who.CASTER:  # "its controller controls", "that player has cast": the caster's
            per, counted_for = replace(per, whose=Who.YOU), ctx.caster
        counts = per.kind is CountKind.COUNTERS_ON_SOURCE
        _warn_unknown_fact(ctx, source, counts, "counters", card_name)
        _warn_zones(ctx, source, counted_for, per, card_name)
        if per.kind is CountKind.THIS_TURN:
            _warn_this_turn(ctx, source, counted_for, per.whose, per.fact, card_name)
    return covered, why


_GRAVEYARD_KINDS: Final = (
    CountKind.GRAVEYARD_CARDS,
    CountKind.GRAVEYARD_CARD_TYPES,
    CountKind.GRAVEYARD_MANA_VALUES,
)


def _warn_zones(ctx: _Ctx, source: Permanent | None, controller: str, count: Count, card_name: str) -> None:
    """Nothing silent: a zone a count reads (graveyard, hand) that the request did not give is taken as
    empty, and counters on the permanents counted, when not given, as none; each with a warning."""
    src = source.id if source else None
    facts: tuple[str, ...] = ()
    if count.kind in _GRAVEYARD_KINDS:
        facts = ("graveyard", "exile") if count.fact == "and_exile" else ("graveyard",)
    elif count.kind is CountKind.HAND:
        facts = ("hand",)
    elif count.kind is CountKind.COMMANDER_MANA_VALUE:
        facts = ("commander",)
    elif count.kind is CountKind.PLAYER_COUNTERS:
        facts = ("counters",)
    elif count.kind is CountKind.SPEED:
        facts = ("speed",)
    for fact in facts:
        for player in ctx.board.players:
            if _relative(count.whose, controller, player.name) and not player.knows(fact):
                message = f"{player.name}'s {fact} was not given: taken as empty"
                ctx.warnings.append(CostWarning(src, card_name, fact, message))
    # A permanent fact the count reads that the request did not state: (fact, given name, message).
    unstated = {
        "token": ("token", "whether {} are tokens was not given: taken as cards"),
        "attacking": ("combat", "whether {} attack was not given: taken as not attacking"),
    }
    if count.kind is CountKind.PERMANENTS and count.fact in unstated:
        given, template = unstated[count.fact]
        unknown = [
            p.id
            for p in ctx.board.permanents
            if _relative(count.whose, controller, p.controller)
            and not p.knows(given)
            and count.matches(p.characteristics, Choices())
        ]
        if unknown:
            message = template.format(", ".join(unknown[:5]))
            ctx.warnings.append(CostWarning(src, card_name, count.fact, message))
    if count.min_power is not None or count.kind in (CountKind.TOTAL_POWER, CountKind.GREATEST_POWER):
        which = "toughness" if count.fact == "toughness" else "power"
        unknown = [
            p.id
            for p in ctx.board.permanents
            if _relative(count.whose, controller, p.controller)
            and (p.power if which == "power" else p.toughness) is None
            and count.matches(p.characteristics, Choices())
        ]
        if unknown:
            message = (
                f"the {which} of {', '.join(unknown[:5])} was not given: taken as printed with its +1/+1 and "
                "-1/-1 counters, other effects as none"
            )
            ctx.warnings.append(CostWarning(src, card_name, which, message))
    if count.kind is CountKind.PERMANENTS and (count.counter is not None or count.fact == "modified"):
        for p in ctx.board.permanents:
            mine = _relative(count.whose, controller, p.controller)
            if mine and not p.knows("counters") and count.matches(p.characteristics, Choices()):
                message = f"{p.id}'s counters were not given: taken as no counters"
                ctx.warnings.append(CostWarning(src, card_name, "counters", message))


def _targets_hold(
    ctx: _Ctx, cond: Condition, controller: str, source: Permanent | None, card_name: str
) -> bool:
    """CR 601.2c: the targets are chosen before the total cost is determined (601.2f); whether one of them
    is a permanent of the condition's description ("a tapped creature", "a blue permanent you don't
    control", "enchanted creature": the one the source is attached to)."""
    by_id = {p.id: p for p in ctx.board.permanents}
    for target in ctx.spell.targets:
        if cond.attached:
            if source is None or source.attached_to != target:
                continue
            perm = by_id.get(target)  # a player ("enchanted player") has no characteristics to check
            if perm is None or any(q.matches(perm.characteristics, Choices()) for q in cond.qualities):
                return True
            continue
        perm = by_id.get(target)
        if perm is None:
            continue
        if not _relative(cond.whose, controller, perm.controller):
            continue
        if cond.tapped and not perm.tapped:
            continue
        if cond.states:
            if ("attacking" in cond.states or "blocking" in cond.states) and not perm.knows("combat"):
                message = f"whether {perm.id} attacks or blocks was not given: taken as neither"
                ctx.warnings.append(CostWarning(source.id if source else None, card_name, "combat", message))
            if "token" in cond.states and not perm.knows("token"):
                message = f"whether {perm.id} is a token was not given: taken as a card"
                ctx.warnings.append(CostWarning(source.id if source else None, card_name, "token", message))
            state = {
                "tapped": perm.tapped,
                "attacking": perm.attacking,
                "blocking": perm.blocking,
                "token": perm.token,  # CR 111.1
            }
            if not any(state[s] for s in cond.states):
                continue
        if cond.commander and not _is_commander(ctx.board, perm.controller, perm.card):
            continue
        if cond.counter is not None:
            if not perm.knows("counters"):
                message = f"{perm.id}'s counters were not given: taken as no counters"
                ctx.warnings.append(
                    CostWarning(source.id if source else None, card_name, "counters", message)
                )
            if perm.counter(cond.counter) == 0:
                continue
        if any(q.matches(perm.characteristics, Choices()) for q in cond.qualities):
            return True
    return False


def _warn_this_turn(
    ctx: _Ctx, source: Permanent | None, controller: str, whose: Who, fact: str | None, card_name: str
) -> None:
    """Nothing silent: a this-turn fact not given is taken as 0, with a warning naming it."""
    fact = fact or "spells_cast"
    for player in ctx.board.players:
        if _relative(whose, controller, player.name) and not player.this_turn.knows(fact):
            message = f"{player.name}'s this_turn.{fact} was not given: taken as 0"
            ctx.warnings.append(CostWarning(source.id if source else None, card_name, "this_turn", message))


def _warn_unknown_fact(ctx: _Ctx, source: Permanent | None, needed: bool, fact: str, card_name: str) -> None:
    """Nothing silent: a board fact an effect reads but the request did not state is taken as the least
    (level 1, no counters) and the answer warns."""
    if not needed or source is None or source.knows(fact):
        return
    least = "level 1" if fact == "class_level" else "no counters"
    ctx.warnings.append(
        CostWarning(source.id, card_name, fact, f"{source.id}'s {fact} was not given: taken as {least}")
    )


def cost_increases(
    ctx: _Ctx, candidates: Sequence[tuple[Permanent | None, CostEffect | MinimumTotal]], run: CostRun
) -> tuple[list[_Red], list[tuple[Permanent, MinimumTotal]]]:
    """CR 601.2f: cost increases are added, in board order (addition commutes).

    Every effect that does not apply is recorded with its reason; reductions (118.7) and effects on the
    locked total are set aside for the later stages, in the same order.
    """
    reds: list[_Red] = []
    totals: list[tuple[Permanent, MinimumTotal]] = []
    for source, effect in candidates:
        controller = source.controller if source is not None else ctx.caster
        src_id = source.id if source is not None else None
        card_name = source.card.name if source is not None else ctx.face.name
        key = (effect, src_id)  # by value: an effect made afresh for each call (harmonize) finds itself
        known = ctx.judged.get(key) if ctx.judged is not None else None
        if known is not None:
            covered, why = known[0], known[1]
        else:
            covered, why = _judge(ctx, source, effect, controller, card_name)
        if isinstance(effect, MinimumTotal):
            if covered and source is not None:
                totals.append((source, effect))
            elif why:
                run.record(
                    CostStep(
                        StepKind.TOTAL, run.current, effect.rule, src_id, card_name, applied=False, note=why
                    )
                )
            continue
        kind = StepKind.REDUCTION if effect.direction is Direction.REDUCTION else StepKind.INCREASE
        if not covered:
            if ctx.judged is not None and known is None:
                ctx.judged[key] = (covered, why, None, None)
            if why:
                run.record(
                    CostStep(kind, run.current, effect.rule, src_id, card_name, effect.amount, False, why)
                )
            continue
        if effect.life:
            _life_increase(ctx, effect, source, controller, card_name, run)
            continue
        if known is not None and known[2] is not None:
            amount, amount_note = known[2], known[3]
        else:
            amount, amount_note = _amount(ctx, effect, controller, source)
            if ctx.judged is not None:
                ctx.judged[key] = (covered, why, amount, amount_note)
        if why:
            amount_note = f"{why}; {amount_note}" if amount_note else why
        if amount.is_zero:
            run.record(
                CostStep(kind, run.current, effect.rule, src_id, card_name, amount, False, amount_note)
            )
        elif effect.direction is Direction.INCREASE:
            run.record(
                CostStep(
                    kind, run.current + amount, effect.rule, src_id, card_name, amount, True, amount_note
                )
            )
        else:
            reds.append(_Red(len(reds), effect, source, amount, amount_note))
    return reds, totals


def _life_increase(
    ctx: _Ctx, effect: CostEffect, source: Permanent | None, controller: str, card_name: str, run: CostRun
) -> None:
    """ "costs 3 life more to cast for each target", "cost an additional 3 life to cast": a life payment
    added to the total cost (CR 601.2f, 119.4), shown in other_costs; the mana total is unchanged."""
    unit, note = _amount(ctx, replace(effect, amount=ManaCost.of(1)), controller, source)
    life = effect.life * unit.generic
    src_id = source.id if source is not None else None
    if life <= 0:
        run.record(CostStep(StepKind.INCREASE, run.current, "119.4", src_id, card_name, None, False, note))
        return
    run.other_costs.append(OtherCost(f"Pay {life} life", life))
    text = f"pay {life} life" + (f" ({note})" if note else "")
    run.record(CostStep(StepKind.INCREASE, run.current, "119.4", src_id, card_name, None, True, text))


def cost_reductions(reds: list[_Red], run: CostRun) -> None:
    """CR 601.2f, 118.7: reductions are subtracted in the order, and with the hybrid halves (118.7e), that
    give the cheapest total; generic reductions reduce only generic mana (118.7a), colored ones spill onto
    generic (118.7b-d), never below {0}."""
    if reds:
        run.current = _reduce(run.current, reds, run.steps, run.choices)


def effects_on_total(totals: Sequence[tuple[Permanent, MinimumTotal]], run: CostRun) -> None:
    """CR 601.2f: once the total is determined, effects that directly affect the total apply (Trinisphere:
    a total of less than three mana costs three, the rest generic), then the total is locked in."""
    for source, mt in totals:
        current = run.current
        units = _pay_units((current.generic, current.others))
        if current.is_infinite or units >= 2 * mt.amount:
            note = f"the total already costs {mt.amount} or more mana"
            run.record(
                CostStep(
                    StepKind.TOTAL, current, mt.rule, source.id, source.card.name, applied=False, note=note
                )
            )
            continue
        add = ManaCost.of((2 * mt.amount - units + 1) // 2)
        note = f"the spell would cost less than {mt.amount} mana; the rest is generic"
        run.record(
            CostStep(StepKind.TOTAL, current + add, mt.rule, source.id, source.card.name, add, note=note)
        )
    run.record(CostStep(StepKind.TOTAL, run.current, "601.2f", note="total cost locked in"))


FACE_DOWN: Final = Face(FACE_DOWN_NAME, None, TypeLine.parse("Creature"))
"""CR 708.2a: a face-down spell is a 2/2 creature with no name, no mana cost, no types but creature."""


def _way_mana(way: Way) -> ManaCost:
    if way.kind is WayKind.FACE_DOWN:
        return ManaCost.of(3)  # 702.37c, 702.168a: {3} rather than its mana cost
    if way.kind is WayKind.WITHOUT_MANA or way.cost is None:
        return ManaCost.zero()  # 118.9: "without paying its mana cost" is an alternative cost of {0}
    return way.cost


def _has_aftermath(face: Face) -> bool:
    return any(w.keyword == "aftermath" for w in ways_of(face).ways)


_NEEDS_PERMISSION: Final = ("graveyard", "library")


def _zone(zone: str) -> str:
    """ "the graveyard", "exile", "the top of the library" as a sentence says it."""
    return {"exile": "exile", "library": "the top of the library"}.get(zone, f"the {zone}")


def _covered(board: Board, caster: str, source: Permanent, perm: Permission, face: Face, card: Card) -> bool:
    """Whether ``perm`` of ``source`` reaches this spell: its controller's spells ("you may cast", any
    player's for "any player may cast"), of the kind described, the named card for a trigger's target."""
    if source.controller != caster and not perm.any_player:
        return False
    if perm.your_turn and board.active_player != source.controller:  # "during your turn" (CR 500)
        return False
    if perm.named_card and (
        source.chosen.card_name is None
        or fold_name(source.chosen.card_name) not in (fold_name(card.name), fold_name(face.name))
    ):
        return False
    return perm.spells.covers(face)


def offered_ways(
    prepared: PreparedBoard, caster: str, cast_from: str, face: Face, card: Card
) -> list[Way | None]:
    """Every way to cast ``face`` from ``cast_from`` on this board (CR 601.2b, 601.3, 118.9), in order:

    - the normal way (None from the hand or the command zone; from another zone, one per permission to cast
      from there for the normal costs: the card's own "You may cast ~ from your graveyard", or a permanent's
      or effect's, ``granted_by`` it);
    - the card's keyword ways that apply from that zone (702.x; "using its mutate ability" adds a zone);
    - the alternative costs written in its text (118.9), wherever it may be cast from;
    - the ways permanents grant: alternative costs (Omniscience, Leyline of Mutation), life for mana
      (Bolas's Citadel), escape and flashback (Underworld Breach, Past in Flames, a Snapcaster's target).
    """
    board = prepared.board
    own = ways_of(face)
    out: list[Way | None] = []
    zone_open = cast_from in ("hand", "command")
    if zone_open:
        out.append(None)
    elif cast_from == "exile" and card.layout == "adventure" and face is card.front:
        # CR 715.4: an Adventure that resolved is exiled, and its controller may cast the card later from
        # exile, but not as an Adventure (the front face's characteristics)
        text = "it went on an adventure: it may be cast from exile, not as an Adventure"
        out.append(Way("normal", "715.4", WayKind.WITH_MANA_COST, ("exile",), None, (), None, text))
        zone_open = True
    for p in own.permissions:
        if p.zone == cast_from:
            out.append(
                Way(
                    "normal",
                    p.rule,
                    WayKind.WITH_MANA_COST,
                    (p.zone,),
                    None,
                    p.other_costs,
                    p.condition,
                    p.text,
                )
            )
            zone_open = True
    granted: list[Way] = []
    alternatives: list[Way] = []  # granted alternative costs: only where the card may be cast (601.3)
    for source, perm in prepared.permissions:
        if cast_from not in perm.zones or not _covered(board, caster, source, perm, face, card):
            continue
        if perm.kind is PermissionKind.ZONE and perm.life_for_mana:
            granted.append(_granted_way(source, perm, "alternative", WayKind.ALTERNATIVE, ManaCost.zero()))
        elif perm.kind is PermissionKind.ZONE:
            out.append(_granted_way(source, perm, "normal", WayKind.WITH_MANA_COST))
            zone_open = True
        elif perm.kind is PermissionKind.KEYWORD and perm.keyword is not None:
            granted.append(_granted_way(source, perm, perm.keyword, WayKind.WITH_MANA_COST))
        elif perm.kind is PermissionKind.ALTERNATIVE:
            alternatives.append(_granted_way(source, perm, "alternative", WayKind.ALTERNATIVE, perm.cost))
    extra = {kw for kw, zone in own.extra_zones if zone == cast_from}
    for way in own.ways:
        if way.keyword == "alternative":
            if cast_from in way.zones and (zone_open or way.rule == "601.3"):
                out.append(way)
        elif cast_from in way.zones or way.keyword in extra:
            out.append(with_sacrifice(board, caster, face, way))  # emerge, offering: what it sacrifices
    if zone_open:
        granted.extend(alternatives)
    out.extend(granted)
    return out


def _granted_way(
    source: Permanent, perm: Permission, keyword: str, kind: WayKind, cost: ManaCost | None = None
) -> Way:
    """A way ``source`` grants: its permission's rule, zones and text, its keyword's extra costs."""
    return Way(
        keyword,
        perm.rule,
        kind,
        perm.zones,
        cost,
        perm.other_costs,
        None,
        perm.text,
        granted_by=source.id,
        life_for_mana=perm.life_for_mana,
        once_per_turn=perm.once_per_turn,
    )


def _matches(way: Way | None, method: str, which: int | None, granted_by: str | None) -> bool:
    keyword = "normal" if way is None else way.keyword
    if keyword != method:
        return False
    if which is not None and (way is None or way.which != which):
        return False
    return granted_by is None or (way is not None and way.granted_by == granted_by)


def chosen_way(
    prepared: PreparedBoard, caster: str, spell: SpellToCast, chars: CastCharacteristics, run: CostRun
) -> Way | None:
    """CR 601.2b: the way to cast announced, among the ways ``offered_ways`` finds on this board.

    No ``method``: the normal way from the hand; from another zone, the card's own way there first (a card
    with flashback cast from a graveyard has only its flashback cost, 702.34a), then a permission's. A method
    the card lacks and no permanent grants, or that does not apply from ``cast_from``, is illegal under its
    rule; casting from a graveyard or a library needs a permission (601.3).
    """
    board = prepared.board
    if chars.cast_as is not None:  # Mental Magic casts from the hand as another card's characteristics
        offered: list[Way | None] = [None]
    else:
        offered = offered_ways(prepared, caster, spell.cast_from, chars.face, spell.card)
    own = ways_of(chars.face)
    zone = spell.cast_from
    method = spell.method
    if method is None and spell.which is not None:  # "which" numbers the alternative costs of the text
        method = "alternative"
    if chars.cast_as is None and _has_aftermath(chars.face) and zone != "graveyard":
        raise IllegalError(
            f"{chars.face.name} has aftermath: it is cast only from a graveyard", rule="702.127a"
        )
    way: Way | None
    if method is None:
        if spell.granted_by is None and None in offered:
            return None  # the normal way, from the hand or the command zone
        pool = [w for w in offered if w is not None and spell.granted_by in (None, w.granted_by)]
        own_keyword = [w for w in pool if w.granted_by is None and w.keyword not in ("normal", "alternative")]
        normal = [w for w in pool if w.keyword == "normal"]
        granted_keyword = [w for w in pool if w.granted_by is not None and w.keyword != "normal"]
        pick = own_keyword or normal or granted_keyword or pool
        if not pick:
            if spell.granted_by is not None:
                raise IllegalError(
                    f"{spell.granted_by} does not let {chars.face.name} be cast from {_zone(zone)}",
                    rule="601.3",
                )
            _no_permission(zone, chars.face.name, run)
            return None
        # the first way offered whose condition holds on this board ("as long as you control a Zombie")
        way = next(
            (
                w
                for w in pick
                if w.condition is None or _controls_condition(board, caster, w.condition) is not False
            ),
            pick[0],
        )
        by = f" granted by {way.granted_by}" if way.granted_by else ""
        label = "normal costs" if way.keyword == "normal" else way.keyword
        run.choices.append(f"cast from {_zone(zone)} by its {label}{by} (CR {way.rule})")
    else:
        found = [w for w in offered if _matches(w, method, spell.which, spell.granted_by)]
        if not found:
            _refuse(method, spell, chars.face, own, offered)
        way = found[0]
        if len(found) > 1 and spell.which is None and spell.granted_by is None and way is not None:
            run.choices.append(f"{method}: the first of {len(found)} ways offered (give which or granted_by)")
        if way is None:
            return None
    if spell.alternative_cost is not None and way.kind is not WayKind.WITH_MANA_COST:
        raise IllegalError("only one alternative cost can be applied to a spell", rule="118.9a")
    _check_way_condition(board, caster, way, chars.face.name, run)
    return way


def _no_permission(zone: str, name: str, run: CostRun) -> None:
    """CR 601.3: a card is cast from a zone other than the hand only where a rule or effect allows it."""
    if zone in _NEEDS_PERMISSION:
        raise IllegalError(
            f"nothing allows {name} to be cast from {_zone(zone)}: neither its text nor a permanent or "
            "effect on this board (CR 601.3)",
            rule="601.3",
        )
    message = (
        f"nothing in its text or on the board allows casting it from {_zone(zone)} (CR 601.3); costed as "
        "if an effect did"
    )
    run.warnings.append(CostWarning(None, name, zone, message))


def _refuse(
    method: str, spell: SpellToCast, face: Face, own: CardWays, offered: list[Way | None]
) -> NoReturn:
    """The 422 for a way not offered: why, with its rule."""
    zone = spell.cast_from
    if method == "normal":
        here = [w for w in offered if w is not None and w.granted_by is None and w.keyword != "alternative"]
        if here:
            raise IllegalError(
                f"from {_zone(zone)}, {face.name} is cast by its {here[0].keyword} (CR {here[0].rule}), "
                "not normally",
                rule=here[0].rule,
            )
        if spell.granted_by is not None:
            raise IllegalError(
                f"{spell.granted_by} does not let {face.name} be cast from {_zone(zone)}", rule="601.3"
            )
        raise IllegalError(
            f"nothing allows {face.name} to be cast from {_zone(zone)} for its normal costs (CR 601.3)",
            rule="601.3",
        )
    if method == "alternative":
        mine = [w for w in own.ways if w.keyword == "alternative"]
        if spell.which is not None and mine and not any(w.which == spell.which for w in mine):
            raise InvalidChoiceError(
                f"{face.name} has {len(mine)} alternative cost(s) in its text, not a cost {spell.which}",
                field="which",
            )
        if mine:
            raise IllegalError(
                f"{face.name}'s alternative cost applies only where it may be cast; nothing allows "
                f"casting it from {_zone(zone)} (CR 601.3)",
                rule="601.3",
            )
        by = f" and {spell.granted_by} grants none" if spell.granted_by else " and no permanent grants one"
        raise IllegalError(f"{face.name} has no alternative cost in its text{by} (CR 118.9)", rule="118.9")
    rule = keyword_rule(method) or "601.2b"
    named = own.way(method)
    if named is not None:
        zones = " or ".join(named.zones)
        raise IllegalError(
            f"{method} applies when the card is cast from the {zones}, not from {_zone(zone)}",
            rule=named.rule,
        )
    if spell.granted_by is not None:
        raise IllegalError(f"{spell.granted_by} does not give {face.name} {method} here", rule=rule)
    raise IllegalError(
        f"{face.name} has no {method} in its text and no permanent or effect on this board grants it",
        rule=rule,
    )


def _check_way_condition(board: Board, caster: str, way: Way, name: str, run: CostRun) -> None:
    """Spectacle (702.137a) and surge (702.117a) read the turn's facts; other conditions are checked on the
    board where they can be (emerge and offering need a permanent to sacrifice: ``with_sacrifice``), else
    warned about (nothing silent). A fact not given is assumed to allow the method, with a warning."""
    if way.once_per_turn:  # nothing silent: the request does not say whether the grant was used this turn
        message = (
            f"{way.granted_by} allows one such spell each turn: whether it was used already this turn is not "
            "stated, assumed not (CR 601.3)"
        )
        run.warnings.append(CostWarning(way.granted_by, name, way.text, message))
    if way.keyword == "spectacle":
        opponents = [board.player(o) for o in board.opponents_of(caster)]
        if any(o.this_turn.knows("life_lost") and o.this_turn.life_lost > 0 for o in opponents):
            return
        if opponents and all(o.this_turn.knows("life_lost") for o in opponents):
            raise IllegalError("spectacle needs an opponent who lost life this turn", rule=way.rule)
        message = "whether an opponent lost life this turn was not given (this_turn.life_lost): assumed so"
    elif way.keyword == "surge":
        turn = board.player(caster).this_turn
        if turn.knows("spells_cast"):
            if turn.spells_cast > 0:
                return
            raise IllegalError("surge needs another spell cast this turn", rule=way.rule)
        message = "whether another spell was cast this turn was not given (this_turn.spells_cast): assumed so"
    elif way.condition is not None:
        held = _controls_condition(board, caster, way.condition)
        if held is True:
            return
        if held is False:
            raise IllegalError(
                f"{name}'s {way.keyword} cost holds only {way.condition[0].lower()}{way.condition[1:]}: "
                "not so on this board",
                rule=way.rule,
            )
        message = f"{way.keyword} needs that {way.condition}: not checked, assumed so"
    else:
        return
    run.warnings.append(CostWarning(None, name, way.text, message))


def _controls_condition(board: Board, caster: str, condition: str) -> bool | None:
    """ "If you control a Swamp", "as long as you control a Giant": whether the caster controls a permanent
    of that kind on this board (CR 109.5); "if it's not your turn": whether another player is the active
    player (CR 102.1); None for any other condition (not checked)."""
    low = condition.lower()
    if low in ("if it's not your turn", "if it isn't your turn"):  # whose turn: the board's active player
        return board.active_player != caster
    if low in ("if it's your turn", "as long as it's your turn"):
        return board.active_player == caster
    for prefix in ("if you control ", "as long as you control "):
        if low.startswith(prefix):
            what = low[len(prefix) :]
            break
    else:
        return None
    try:
        kind = spell_kind(what)
    except ValueError:
        return None
    return any(kind.covers(p.characteristics) for p in board.permanents if p.controller == caster)


def way_characteristics(chars: CastCharacteristics, way: Way | None, card: Card) -> CastCharacteristics:
    """The spell's characteristics under its way: face down (708.2a, mana value 0), transformed for disturb
    (712.8e: the back face, its mana value from the front), prototyped (718.3b: the prototype cost)."""
    if way is None:
        return chars
    if way.kind is WayKind.FACE_DOWN:
        return CastCharacteristics(FACE_DOWN, chars.cast_as, None, None)
    if way.keyword == "disturb" and len(card.faces) > 1:
        return CastCharacteristics(card.faces[1], chars.cast_as, chars.mana_cost, card.front.mana_cost)
    if way.keyword == "prototype" and way.cost is not None:
        return CastCharacteristics(chars.face, chars.cast_as, chars.mana_cost, way.cost)
    return chars


def optional_costs(spell: SpellToCast, face: Face, v: Variables, run: CostRun) -> None:
    """CR 601.2b, 601.2f, 118.8: each optional additional cost paid is added (kicker 702.33, multikicker
    702.33c, buyback 702.27, entwine 702.42, replicate 702.56, ...), read from the card's text; one that
    the card lacks, paid twice, or paid more than once when it is not repeatable, is illegal."""
    own = ways_of(face)
    seen: set[tuple[str, int]] = set()
    modal = modal_keyword(own)
    if modal is not None:
        chosen_modes = sum(1 for c in spell.optional_costs if c.keyword == modal.keyword)
        if modal.keyword == "tiered" and chosen_modes > 1:
            raise IllegalError("tiered: exactly one of its additional costs is chosen", rule=modal.rule)
        if not chosen_modes:
            message = (
                f"{modal.keyword}: at least one mode and its + cost is chosen as the spell is cast (CR "
                f"{modal.rule}); none was, so the base cost alone is shown: add an optional cost "
                f"{modal.keyword} with which n for each mode"
            )
            run.warnings.append(CostWarning(None, face.name, modal.text, message))
    for choice in spell.optional_costs:
        opt = own.optional_cost(choice.keyword)
        if opt is None:
            rule = keyword_rule(choice.keyword) or "601.2b"
            raise IllegalError(f"{face.name} has no {choice.keyword} in its text", rule=rule)
        if not 1 <= choice.which <= len(opt.costs):
            raise InvalidChoiceError(
                f"{face.name}'s {opt.keyword} has {len(opt.costs)} cost(s), not a cost {choice.which}",
                field="optional_costs",
            )
        if (choice.keyword, choice.which) in seen:
            raise IllegalError(f"{opt.keyword} is chosen once; give times to pay it again", rule=opt.rule)
        seen.add((choice.keyword, choice.which))
        if choice.times > 1 and not opt.repeatable:
            raise IllegalError(f"{opt.keyword} can be paid only once", rule=opt.rule)
        if opt.x_at_least_one and v.x == 0:
            raise IllegalError(f"{face.name}: X can't be 0 when its {opt.keyword} is paid", rule="601.2b")
        mana, others = opt.costs[choice.which - 1]
        amount = _times(mana.with_variables(v.x, v.y, v.z), choice.times)
        note = opt.keyword if choice.times == 1 else f"{opt.keyword} paid {choice.times} times"
        run.record(CostStep(StepKind.ADDITIONAL, run.current + amount, opt.rule, amount=amount, note=note))
        for _ in range(min(choice.times, 20)):
            run.other_costs.extend(others)


def mandatory_costs(face: Face, v: Variables, run: CostRun) -> None:
    """CR 601.2b, 601.2f, 118.8: the additional costs the spell's text always asks for ("As an additional
    cost to cast this spell, sacrifice a creature."): mana is added to the total, the rest goes to the other
    costs. When the text offers a choice ("sacrifice a creature or pay {3}{B}") the first is shown, with a
    warning naming the others (the caster chooses as the spell is cast, 601.2b)."""
    for extra in ways_of(face).mandatory:
        mana, others = extra.costs[0]
        amount = mana.with_variables(v.x, v.y, v.z)
        note = "; ".join(o.text for o in others) or f"pay {mana}"
        run.record(CostStep(StepKind.ADDITIONAL, run.current + amount, "601.2b", amount=amount, note=note))
        run.other_costs.extend(others)
        if len(extra.costs) > 1:
            rest = " or ".join(o[1][0].text if o[1] else f"pay {o[0]}" for o in extra.costs[1:])
            message = f"the caster chooses one of these additional costs; shown: {note}; instead: {rest}"
            run.warnings.append(CostWarning(None, face.name, extra.text, message))


def ways_to_cast(
    board: Board | PreparedBoard,
    caster: str,
    spell: SpellToCast,
    *,
    characters: CharacterIndex | None = None,
    known: CostResult | None = None,
    refused: list[CostWarning] | None = None,
) -> tuple[WayTotal, ...]:
    """Each way to cast the card from ``cast_from`` on this board (``offered_ways``: the normal way where it
    applies, its keywords, the alternative costs in its text, the ways permanents grant), alone and with
    each optional cost it offers, and its total (CR 601.2b, 601.2f). An alternative cost is one at a time
    (118.9a): each way is listed alone; optional costs combine with it.

    ``known``: ``total_cost`` of ``spell`` itself on this board; when ``spell`` is cast the normal way with
    no optional or alternative cost, the normal way's total is its total (not computed again). ``refused``
    receives a warning for each way the text or the board offers that this board does not allow (a
    condition it does not meet), with the rule: nothing is left out unsaid."""
    plain = (
        known is not None
        and known.method == "normal"
        and known.granted_by is None
        and spell.method in (None, "normal")
        and not spell.optional_costs
        and spell.alternative_cost is None
    )
    prepared = board if isinstance(board, PreparedBoard) else prepare_board(board)
    face = _cast_face(spell.card, spell.face, spell.cast_from)[0] if spell.cast_as is None else None
    if face is None:
        return ()
    if _has_aftermath(face) and spell.cast_from != "graveyard":
        return ()
    own = ways_of(face)
    offered = offered_ways(prepared, caster, spell.cast_from, face, spell.card)
    # a spree or tiered spell is cast with at least one mode chosen (CR 702.172a, 702.183a): never bare
    options: list[tuple[OptionalChoice, ...]] = [] if modal_keyword(own) is not None else [()]
    for opt in own.optional:
        options.extend((OptionalChoice(opt.keyword, which),) for which in range(1, len(opt.costs) + 1))
    out: list[WayTotal] = []
    # Whether and by how much each board effect applies depends on the spell (its face, mana value, zone,
    # optional costs, X), not on the way: it is worked out once per such spell for all the ways (the
    # answer's warnings come from the spell's own computation, not from these)
    judged: dict[tuple[object, ...], dict[tuple[CostEffect | MinimumTotal, str | None], _Judged]] = {}
    for way in offered:
        method = "normal" if way is None else way.keyword
        which = None if way is None else way.which
        granted_by = None if way is None else way.granted_by
        for chosen in options:
            if plain and way is None and not chosen:
                assert known is not None
                out.append(WayTotal(method, chosen, known.total_cost, other_costs=known.other_costs))
                continue
            variant = replace(
                spell,
                method=method,
                which=which,
                granted_by=granted_by,
                optional_costs=chosen,
                alternative_cost=None,
            )
            try:
                result = total_cost(prepared, caster, variant, characters=characters, judged=judged)
            except (IllegalError, InvalidChoiceError) as exc:
                if refused is not None and not chosen and way is not None:
                    rule = getattr(exc, "rule", None) or way.rule
                    message = f"{method} is not available on this board: {exc} (CR {rule})"
                    refused.append(CostWarning(way.granted_by, face.name, way.text, message))
                continue
            rule = "601.2f" if way is None else way.rule
            out.append(
                WayTotal(method, chosen, result.total_cost, which, granted_by, rule, result.other_costs)
            )
    return tuple(out)


def total_cost(
    board: Board | PreparedBoard,
    caster: str,
    spell: SpellToCast,
    *,
    characters: CharacterIndex | None = None,
    judged: dict[tuple[object, ...], dict[tuple[CostEffect | MinimumTotal, str | None], _Judged]]
    | None = None,
) -> CostResult:
    """The total cost of ``spell`` cast by ``caster`` on ``board`` (CR 601.2f), with every step explained.

    The stages of 601.2f in order: ``base_cost`` (mana cost or alternative cost), ``additional_costs``,
    increases (``commander_tax``, ``cost_increases``), ``cost_reductions``, ``effects_on_total``.
    Raises ``InvalidChoiceError`` for a face the card does not have (or a split card with no half chosen),
    ``IllegalError`` for what cannot be cast (a land, 305.1; no mana cost and no alternative cost, 118.6;
    an impossible ``cast_as``, ruling:richard-garfield-phd).
    """
    prepared = board if isinstance(board, PreparedBoard) else prepare_board(board)
    run = CostRun(ManaCost.zero(), [], list(prepared.warnings), [])
    chars = cast_characteristics(prepared.board, caster, spell, run.choices)
    way = chosen_way(prepared, caster, spell, chars, run)
    chars = way_characteristics(chars, way, spell.card)
    v = base_cost(spell, chars, run, way)
    for unread in ways_of(chars.face).not_read:  # nothing silent: a casting line not read is said
        run.warnings.append(
            CostWarning(
                None, chars.face.name, unread.text, f"not understood, given no effect: {unread.reason}"
            )
        )
    if way is not None and way.x_at_least_one and v.x == 0:  # the card's own restriction (601.2b)
        raise IllegalError(f"{chars.face.name}: X can't be 0 when cast by its {way.keyword}", rule="601.2b")
    additional_costs(spell, v, run)
    optional_costs(spell, chars.face, v, run)
    mandatory_costs(chars.face, v, run)
    commander_tax(spell, run)

    mv_on_stack = _mana_value(chars.mv_cost, v.x, v.y, v.z, on_stack=True)
    ctx = _Ctx(
        prepared.board, caster, spell, chars.face, mv_on_stack, characters or _NO_CHARACTERS, run.warnings
    )
    if judged is not None:  # the ways of one spell share what each effect does to the same spell
        spell_key = (
            id(chars.face),
            mv_on_stack,
            spell.cast_from,
            spell.optional_costs,
            spell.x,
            spell.y,
            spell.z,
        )
        ctx.judged = judged.setdefault(spell_key, {})
    candidates: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = [
        (s.permanent, s.effect) for s in prepared.sources
    ]
    candidates.extend(_own_effects(chars.face, run))
    if way is not None and way.reduction is not None:  # "costs {X} less to cast this way" (CR 601.2f)
        candidates.append((None, way.reduction))
    if way is not None and way.keyword == "harmonize":
        candidates.extend(_harmonize(prepared.board, caster, chars.face.name, run))
    if spell.optional_costs:
        candidates.extend(_keyword_cost_changes(prepared, spell, chars.face))
    reds, totals = cost_increases(ctx, candidates, run)
    cost_reductions(reds, run)
    effects_on_total(totals, run)
    granted = granted_keywords(ctx, prepared.grants, run)
    return CostResult(
        card=spell.card,
        face=chars.face,
        cast_as=chars.cast_as,
        mana_cost=chars.mana_cost,
        mana_value=_mana_value(chars.mv_cost, 0, 0, 0, on_stack=False),
        mana_value_on_stack=mv_on_stack,
        total_cost=run.current,
        steps=tuple(run.steps),
        warnings=tuple(run.warnings),
        x_for_etb=v.x if v.chooses_x else 0,
        choices=tuple(run.choices),
        method=way.keyword if way is not None else "normal",
        other_costs=tuple(run.other_costs),
        granted=granted,
        which=way.which if way is not None else None,
        granted_by=way.granted_by if way is not None else None,
        way_rule=way.rule if way is not None else "601.2f",
    )


def _harmonize(
    board: Board, caster: str, name: str, run: CostRun
) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """CR 702.180a: casting it by harmonize, its controller may tap an untapped creature they control to
    reduce the cost by {X}, X that creature's power. The cheapest choice: the greatest power (its stated
    power, else the printed one, CR 208.3)."""
    creatures = [
        p
        for p in board.permanents
        if p.controller == caster and not p.tapped and "Creature" in p.characteristics.type_line.types
    ]
    if not creatures:
        return []
    best = max(creatures, key=lambda p: p.current("power"))
    power = best.current("power")
    if power <= 0:
        return []
    run.choices.append(
        f"harmonize: taps {best.id} (power {power}) to reduce the cost by {{{power}}} (CR 702.180a)"
    )
    if best.power is None:
        message = "its power was not stated: its printed power with its counters is used (CR 208.3)"
        run.warnings.append(CostWarning(best.id, best.card.name, "power", message))
    effect = CostEffect(
        Direction.REDUCTION, ManaCost.of(power), SpellFilter(), "702.180a", "Harmonize: tap a creature"
    )
    return [(best, effect)]


def _keyword_cost_changes(
    prepared: PreparedBoard, spell: SpellToCast, face: Face
) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """ "Buyback costs cost {2} less." (Memory Crystal): a reduction of the generic mana of that optional
    cost when it is paid (CR 118.7a, 601.2f): at most the generic mana that cost has, each time it is paid."""
    out: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = []
    own = ways_of(face)
    for source, change in prepared.keyword_costs:
        for choice in spell.optional_costs:
            opt = own.optional_cost(choice.keyword)
            if choice.keyword != change.keyword or opt is None or not 1 <= choice.which <= len(opt.costs):
                continue
            generic = opt.costs[choice.which - 1][0].generic
            amount = min(change.amount, generic) * choice.times
            effect = CostEffect(
                Direction.REDUCTION, ManaCost.of(amount), SpellFilter(), "118.7a", change.text
            )
            out.append((source, effect))
    return out


def granted_keywords(
    ctx: _Ctx, grants: Sequence[tuple[Permanent, KeywordGrant]], run: CostRun
) -> tuple[str, ...]:
    """CR 613.1f: the ways to pay that permanents grant this spell ("Creature spells you cast have
    convoke"): convoke 702.51a, improvise 702.126a, delve 702.66a. The total stays as it is (they are
    ways to pay it); the payment uses them."""
    out: list[str] = []
    for source, grant in grants:
        covered, _why = _covers(ctx, grant.spells, source, source.controller)
        if covered and grant.keyword not in out:
            out.append(grant.keyword)
            run.choices.append(
                f"{source.card.name} gives it {grant.keyword} (CR {grant.rule}): a way to pay, the total is "
                "unchanged"
            )
    return tuple(out)


def _own_effects(face: Face, run: CostRun) -> list[tuple[Permanent | None, CostEffect | MinimumTotal]]:
    """The spell's own cost abilities (affinity, "this spell costs ... for each ..."), warning on the rest."""
    own = cost_effects(face)
    for u in own.own_unsupported:
        run.warnings.append(
            CostWarning(None, face.name, u.text, f"not understood, given no effect: {u.reason}")
        )
    found: list[tuple[Permanent | None, CostEffect | MinimumTotal]] = [(None, e) for e in own.own]
    if face.has_keyword("Undaunted") or _undaunted_line(face.oracle_text):
        found.append((None, _UNDAUNTED))
    return found


@lru_cache(maxsize=8192)
def _undaunted_line(text: str) -> bool:
    """An "Undaunted" keyword line (reminder text aside), for faces whose keyword list does not say it."""
    return any(line.strip().split(" (", 1)[0] == "Undaunted" for line in text.split("\n"))


# CR 702.125a: "Undaunted" means "This spell costs {1} less to cast for each opponent you have."
_UNDAUNTED: Final = CostEffect(
    Direction.REDUCTION,
    ManaCost.of(1),
    SpellFilter(),
    "702.125a",
    "Undaunted",
    Count(CountKind.OPPONENTS, "opponent", whose=Who.OPPONENTS),
    own=True,
)


def _var_note(cost: ManaCost, x: int, y: int, z: int) -> str | None:
    if not cost.variables:
        return None
    values = {"X": x, "Y": y, "Z": z}
    return ", ".join(f"{v}={values[v]}" for v in dict.fromkeys(cost.variables)) + " (CR 107.3a)"


def _mana_value(cost: ManaCost | None, x: int, y: int, z: int, *, on_stack: bool) -> int | float | None:
    """CR 202.3: no mana cost is 0 (202.3a); X is 0 off the stack and its value on the stack (202.3e)."""
    if cost is None:
        return 0
    return cost.with_variables(x, y, z).mana_value if on_stack else cost.mana_value


def _reduce(current: ManaCost, reds: list[_Red], steps: list[CostStep], choices: list[str]) -> ManaCost:
    start: _State = (current.generic, current.others)
    order, picks = _best_plan(start, reds)
    _, trail = _run(start, order, picks)
    if [r.index for r in order] != sorted(r.index for r in order) and len(order) > 1:
        choices.append(
            "reductions applied in the order listed in steps, which gives the cheapest total (CR 601.2f)"
        )
    prev = start
    for red, (state, notes, concrete) in zip(order, trail, strict=True):
        result = ManaCost((), state[0], state[1])
        changed = state != prev
        note_parts = [n for n in (red.amount_note, *notes) if n]
        if not changed:
            note_parts.append(_why_nothing(red, prev))
        for n in notes:
            choices.append(n)
        src = red.source
        steps.append(
            CostStep(
                StepKind.REDUCTION,
                result,
                _step_rule(red, concrete),
                src.id if src else None,
                src.card.name if src else None,
                red.amount,
                changed,
                "; ".join(note_parts) or None,
            )
        )
        prev = state
    return ManaCost((), prev[0], prev[1])


def _step_rule(red: _Red, concrete: ManaCost) -> str:
    rule = red.effect.rule
    if rule.startswith("118.7") and concrete != red.amount:
        return "118.7e"
    return rule


def _why_nothing(red: _Red, state: _State) -> str:
    if red.effect.colored_only:
        return "this effect reduces only colored mana, and the cost has none of those colors left"
    if not red.amount.others:
        return "reduces only generic mana (CR 118.7a), and the cost has no generic mana left"
    return "nothing left in the cost that this reduction can reduce"


__all__ = [
    "CastAs",
    "CostResult",
    "CostStep",
    "CostWarning",
    "OptionalChoice",
    "PreparedBoard",
    "SpellToCast",
    "StepKind",
    "WayTotal",
    "prepare_board",
    "total_cost",
    "ways_to_cast",
]
