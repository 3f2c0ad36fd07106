"""Board facts that activation conditions and mana amounts read (CR 602.5b, 107.1): whether a condition
``holds`` ("Activate only if you control ...", threshold, your turn), the warning for a count the request
does not state (``unstated_count``, API 1.1: taken as 0 and said), devotion (CR 700.5), commander color
identity (CR 903.4) and the number an ``Amount`` stands for (``amount_of``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from app.rules.casting.party import party_size
from app.rules.mana.ability_values import (
    BoardState,
    PermanentState,
)
from app.rules.text.mana_amounts import Amount, Condition
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card
from app.rules.values.symbols import COLORS
from app.rules.values.types import BASIC_LAND_TYPES


def commander_identity(board: Board, player: str) -> frozenset[str] | None:
    """CR 903.4: the union of the color identities of ``player``'s commanders; None when the board names
    no commander for that player (then "your commander's color identity" is undefined, 903.4f)."""
    commanders = next((getattr(p, "commander", ()) for p in board.players if p.name == player), ())
    if not commanders:
        return None
    return frozenset(c for card in commanders for c in card_identity(card))


def card_identity(card: Card) -> tuple[str, ...]:
    """CR 903.4: the colors of the mana symbols in its costs and rules text, and its color indicator."""
    found: set[str] = set()
    for face in card.faces:
        found.update(face.color_set)
        for sym in re.findall(r"\{([^}]+)\}", face.oracle_text):
            found.update(c for c in sym.split("/") if c in COLORS)
    return tuple(c for c in COLORS if c in found)


def holds(board_state: BoardState, state: PermanentState, condition: Condition) -> bool | None:
    """Whether a condition read by ``mana_amounts.parse_condition`` holds for ``state`` on this board; None
    when it is not one this module can check (the caller warns and takes it as not met)."""
    if condition.kind == "timing":
        return True  # CR 307.1, 602.5d: a timing restriction is no board fact; the board is "now"
    if condition.kind == "your_turn":
        return board_state.board.active_player == state.controller
    if condition.kind == "not_your_turn":
        return board_state.board.active_player != state.controller
    if condition.kind in {"counters", "cards"}:
        return _count_holds(board_state, state, condition)
    if condition.kind == "player_counters":  # CR 122.1: counters on an opponent, 0 when not stated
        foes = [p for p in board_state.board.players if p.name != state.controller]
        return any(p.counter(condition.counter) >= condition.at_least for p in foes)
    if condition.kind == "control":
        return all(board_state.count(state, flt) >= n for flt, n in condition.needs)
    if condition.kind == "total_power":  # CR 208.1: formidable
        for flt, n in condition.needs:
            powers = [s.power for s in board_state.states if s.matches(flt, state.permanent)]
            if any(p is None for p in powers):
                return None
            if sum(p for p in powers if p is not None) < n:
                return False
        return True
    if condition.kind == "counter":  # CR 122.1: counters the request stated (none when not stated, said)
        return all(board_state.count(state, flt) >= n for flt, n in condition.needs)
    return None


def _count_holds(board_state: BoardState, state: PermanentState, condition: Condition) -> bool:
    """A count between ``at_least`` and ``at_most``: counters on the permanent itself (CR 122.1) or cards
    in its controller's hand or graveyard (CR 402.1, 404.1), as the request states them; a count it does
    not state is 0 (API 1.1: the least), which ``unstated_count`` says in a warning."""
    if condition.kind == "counters":
        known = state.permanent.knows("counters")
        n = state.permanent.counter(condition.counter) if known else 0
    else:
        player = board_state.board.player(state.controller)
        if not player.knows(condition.zone):
            n = 0
        else:
            n = player.cards_in_hand if condition.zone == "hand" else len(player.graveyard)
    return condition.at_least <= n and (condition.at_most is None or n <= condition.at_most)


def unstated_count(board: Board, permanent: Permanent, controller: str, condition: Condition) -> str | None:
    """The warning for a count condition whose fact the request does not state (API 1.1: taken as 0, and
    said), naming the fact and whether the condition then holds; None when the fact is stated or the
    condition counts nothing. Threshold and hellbent (CR 402.1, 404.1: cards in the controller's hand or
    graveyard), counters on the permanent itself (CR 122.1)."""
    if condition.kind in {"counters", "counter"}:
        if permanent.knows("counters"):
            return None
        fact = "its counters are"
    elif condition.kind == "cards":
        if board.player(controller).knows(condition.zone):
            return None
        fact = f"the {condition.zone} of player '{controller}' is"
    elif condition.kind == "player_counters":
        foes = [p.name for p in board.players if p.name != controller]
        unknown = [name for name in foes if not board.player(name).knows("counters")]
        if foes and not unknown:
            return None
        whose = ", ".join(f"player '{name}'" for name in unknown) or "an opponent"
        fact = f"the {condition.counter} counters of {whose} are"
    else:
        return None
    # at 0: a "counter" condition needs one (CR 122.1); a count needs ``at_least`` <= 0 (for an opponent's
    # counters, or another opponent stated with enough)
    met = condition.kind != "counter" and condition.at_least <= 0
    if condition.kind == "player_counters":
        met = met or any(
            p.counter(condition.counter) >= condition.at_least
            for p in board.players
            if p.name != controller and p.knows("counters")
        )
    verdict = "met" if met else "not met"
    return f"{fact} not stated: taken as 0, so 'Activate only {condition.text}' is {verdict} (CR 602.5b)"


def devotion(board_state: BoardState, player: str, colors: tuple[str, ...]) -> int:
    """CR 700.5: the mana symbols among the mana costs of permanents ``player`` controls that are of any of
    ``colors`` (a hybrid symbol of two of them counts once, 700.5a)."""
    total = 0
    for s in board_state.states:
        cost = s.face.mana_cost
        if s.controller != player or cost is None:
            continue
        total += cost.devotion_to(colors)
    return total


def amount_of(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int | None:
    """The number an ``Amount`` stands for on this board (``color``: the color of the mana chosen, for
    "your devotion to that color"); None when the board does not give the fact (counters not stated)."""
    base = _base_amount(board_state, state, amount, color)
    return None if base is None else base + amount.offset


def _base_amount(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int | None:
    """The number an ``Amount`` stands for before its offset: the first kind it states decides, in the
    order of ``_AMOUNT_KINDS`` (each kind names its rule); None when no kind applies or the board does not
    give the fact."""
    for applies, value in _AMOUNT_KINDS:
        if applies(amount):
            return value(board_state, state, amount, color)
    return None


def _greatest_power(
    board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None
) -> int | None:
    """CR 208.1: "the greatest power among <filter>" (0 when none); None when a power is not known."""
    assert amount.filter is not None
    powers = [s.power for s in board_state.states if s.matches(amount.filter, state.permanent)]
    if any(p is None for p in powers):
        return None
    return max((p for p in powers if p is not None), default=0)


def _devotion_amount(
    board_state: BoardState, state: PermanentState, amount: Amount, color: str | None
) -> int:
    """CR 700.5: devotion to the colors named, or (``("*",)``, Nykthos) to the color of the mana chosen."""
    colors = amount.devotion if amount.devotion != ("*",) else ((color,) if color else ())
    return devotion(board_state, state.controller, colors)


def _domain(board_state: BoardState, state: PermanentState, _amount: Amount, _color: str | None) -> int:
    """CR 305.6: the basic land types among lands the controller controls."""
    found = {
        t
        for s in board_state.states
        if s.controller == state.controller and s.is_land
        for t in s.subtypes
        if t in BASIC_LAND_TYPES
    }
    return len(found)


def _opponents_life_lost(
    board_state: BoardState, state: PermanentState, _amount: Amount, _color: str | None
) -> int | None:
    """CR 500.1: the life the controller's opponents lost this turn, when the request stated those facts."""
    foes = [p for p in board_state.board.players if p.name != state.controller]
    if not all(p.this_turn.knows("life_lost") for p in foes):
        return None
    return sum(p.this_turn.life_lost for p in foes)


def _own_counters(
    board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None
) -> int | None:
    """CR 122.1: counters of a kind on the permanent itself, when the request stated its counters."""
    if amount.counter is None or not state.permanent.knows("counters"):
        return None
    return state.permanent.counter(amount.counter)


def _filter_count(board_state: BoardState, state: PermanentState, amount: Amount, _color: str | None) -> int:
    """CR 109.2: "for each <filter>" / "equal to the number of <filter>": the permanents counted."""
    assert amount.filter is not None
    return board_state.count(state, amount.filter)


_AmountValue = Callable[[BoardState, PermanentState, Amount, "str | None"], "int | None"]
_AMOUNT_KINDS: Final[tuple[tuple[Callable[[Amount], bool], _AmountValue], ...]] = (
    (lambda a: a.fixed is not None, lambda _b, _s, a, _c: a.fixed),  # a plain number
    (lambda a: a.power == "self", lambda _b, s, _a, _c: s.power),  # CR 208.1: "~'s power"
    (lambda a: a.power == "greatest" and a.filter is not None, _greatest_power),
    (lambda a: a.filter is not None, _filter_count),
    (lambda a: bool(a.devotion), _devotion_amount),
    (lambda a: a.domain, _domain),
    (lambda a: a.life, lambda b, s, _a, _c: max(0, b.board.player(s.controller).life)),  # CR 119.1
    (lambda a: a.party, lambda b, s, _a, _c: party_size(b.board, s.controller)),  # CR 700.8
    (lambda a: a.opponents_life_lost, _opponents_life_lost),
    (lambda a: a.counter is not None, _own_counters),
)
"""The kinds of ``Amount``, in the order ``_base_amount`` tries them: (does it state this kind, its value)."""
