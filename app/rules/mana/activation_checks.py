"""Whether an ability can be activated now (CR 602.2, 602.5, 107.5, 107.6, 302.6, 118.3): the ``Reason``s
of ``check_activation``, from the permanent's state, the resources its cost consumes, its "Activate only"
conditions, prohibitions, and thresholds (station, max speed) it exists past."""

from __future__ import annotations

import re

from app.rules.mana.ability_conditions import (
    holds,
    unstated_count,
)
from app.rules.mana.ability_values import (
    ORIGIN_PRINTED,
    Ability,
    BoardState,
    PermanentState,
    Reason,
)
from app.rules.mana.prohibitions import forbids
from app.rules.text.activation import Need, Pick
from app.rules.values.board import Board
from app.rules.values.cards import Face


def activation_reasons(board: Board, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """Every reason the ability cannot be activated now; empty when it can.

    Checked: {T} on a tapped permanent (CR 107.5), {Q} on an untapped one (CR 107.6), the summoning-sickness
    rule for {T}/{Q} abilities of creatures without haste (CR 302.6, 702.10c), life the player does not
    have (CR 119.4) and a sacrifice with nothing to sacrifice (CR 118.3). Mana in the cost is the payment
    solver's question; timing restrictions are ``limit_reasons``'s.
    """
    reasons: list[Reason] = []
    p = state.permanent
    if ability.has_tap and p.tapped:
        reasons.append(
            Reason("107.5", f"{state.face.name} is already tapped and can't be tapped to pay {{T}}")
        )
    if ability.has_untap and not p.tapped:
        reasons.append(
            Reason("107.6", f"{state.face.name} is already untapped and can't be untapped to pay {{Q}}")
        )
    if (
        (ability.has_tap or ability.has_untap)
        and state.is_creature
        and not p.controlled_since_turn_began
        and not state.haste
    ):
        reasons.append(
            Reason(
                "302.6",
                f"{state.face.name} is a creature that has not been under its controller's control "
                "continuously since their most recent turn began, and it has no haste",
            )
        )
    life = ability.life_cost
    if life > 0:
        have = next((pl.life for pl in board.players if pl.name == p.controller), 20)
        if have < life:
            reasons.append(
                Reason(
                    "119.4",
                    f"paying {life} life needs a life total of at least {life}; {p.controller} has {have}",
                )
            )
    return tuple(reasons)


def picks(board_state: BoardState, state: PermanentState, pick: Pick) -> list[PermanentState]:
    """The permanents ``state``'s controller controls that ``pick`` names (CR 701.21a: one sacrifices,
    taps or returns only what one controls)."""
    out = []
    for s in board_state.states:
        if s.controller != state.controller:
            continue
        for flt, colors in pick.alternatives:
            if s.matches(flt, state.permanent) and all(c in s.face.color_set for c in colors):
                out.append(s)
                break
    return out


def candidates(
    board_state: BoardState, state: PermanentState, ability: Ability, need: Need
) -> list[PermanentState]:
    """What can pay one ``need`` of ``ability``: for "Tap N untapped ...", the untapped ones other than a
    source that {T} taps itself (a permanent is tapped once, CR 118.3); for a sacrifice or a return, any."""
    if need.pick is None:
        return []
    found = picks(board_state, state, need.pick)
    if need.kind == "tap":
        found = [s for s in found if not s.permanent.tapped and not (ability.has_tap and s.id == state.id)]
    return found


def sacrifice_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 118.3, 602.2b: each non-mana part of the activation cost needs the resources it consumes:
    counters on the permanent, permanents to tap, sacrifice or return, cards in hand or graveyard; an
    ability whose cost moves the card out of a zone works only in that zone (CR 113.6m). Counts the board
    does not state are 0 (``read_board`` warns)."""
    reasons = []
    player = board_state.board.player(state.controller)
    name = state.face.name
    for need in ability.needs:
        if need.kind == "remove_counters" and need.amount:
            have = state.permanent.counter(need.counter or "") if state.permanent.knows("counters") else 0
            if have < need.amount:
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount} {need.counter} counter"
                        f"{'s' if need.amount > 1 else ''} on {name}; it has {have}",
                    )
                )
        elif need.kind in {"tap", "sacrifice", "return", "exile"}:
            if need.pick is None:
                continue
            have = len(candidates(board_state, state, ability, need))
            if have < need.amount:
                what = {
                    "tap": "untapped permanents to tap",
                    "sacrifice": "permanents to sacrifice",
                    "exile": "permanents to exile",
                }.get(need.kind, "permanents to return")
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount}; {state.controller} has {have} such {what}",
                    )
                )
        elif need.kind in {"discard", "exile_cards"} and need.zone is not None:
            if need.zone == "hand":
                have = player.cards_in_hand if player.knows("hand") else 0
            else:
                have = len(player.graveyard) if player.knows("graveyard") else 0
            if have < need.amount:
                reasons.append(
                    Reason(
                        "118.3",
                        f"'{need.text}' needs {need.amount} card{'s' if need.amount > 1 else ''} in the "
                        f"{need.zone} of player '{state.controller}'; there are {have}",
                    )
                )
        elif need.kind == "exile_self":
            reasons.append(
                Reason(
                    "113.6m",
                    f"'{need.text}' moves the card out of the {need.zone}: the ability works only while "
                    f"{name} is in its owner's {need.zone}, not on the battlefield",
                )
            )
    return tuple(reasons)


def condition_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 602.5b: "Activate only if ..." restrictions, checked on the board."""
    reasons = []
    for condition in ability.conditions:
        held = holds(board_state, state, condition)
        if held is None:
            reasons.append(
                Reason("602.5b", f"'Activate only {condition.text}' is not understood here: taken as not met")
            )
        elif not held:
            unstated = unstated_count(board_state.board, state.permanent, state.controller, condition)
            assumed = " (not stated: taken as 0)" if unstated is not None else ""
            why = f"activate only {condition.text}: not met on this board{assumed}"
            reasons.append(Reason("602.5b", why))
    return tuple(reasons)


def prohibition_reasons(
    board_state: BoardState, state: PermanentState, ability: Ability
) -> tuple[Reason, ...]:
    """CR 602.5: the permanents on the board whose prohibitions reach this ability, each named."""
    reasons = []
    names = tuple(dict.fromkeys((state.face.name, state.permanent.card.name)))
    for i, x in board_state.prohibitions:
        forbidder = board_state.board.permanents[i]
        if forbids(
            x,
            forbidder.chosen.card_name,
            forbidder.controller,
            types=state.types,
            names=names,
            controller=state.controller,
            is_mana_ability=ability.is_mana_ability,
            attached_here=forbidder.attached_to == state.id,
            keywords=state.keywords,
            has_tap=ability.has_tap,
            token=state.permanent.token,
        ):
            reasons.append(Reason("602.5", f"{forbidder.name} ({forbidder.id}): {x.text}"))
    return tuple(reasons)


_ONCE = re.compile(r"\bonce\b")
_SORCERY = re.compile(r"\bas a sorcery\b")


def once_each_turn(ability: Ability) -> bool:
    """CR 602.5b: "Activate only once each turn" (or "only once"): at most one activation."""
    return any(_ONCE.search(c.text) for c in ability.conditions)


def as_a_sorcery(ability: Ability) -> bool:
    """CR 602.5d: "Activate only as a sorcery"."""
    return any(_SORCERY.search(c.text) for c in ability.conditions)


def limit_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 602.5b, 602.5d, 307.1: activation limits. "Once each turn": not when the permanent's
    ``activated_this_turn`` lists the ability (unstated: none, and ``read_board`` warns). "As a sorcery":
    only by the active player, in a main phase with the stack empty (mana for a spell is made before it
    is cast); a step the board states other than a main phase stops it (unstated: a main phase, warned)."""
    reasons: list[Reason] = []
    p = state.permanent
    if once_each_turn(ability) and ability.index in p.activated_this_turn:
        reasons.append(
            Reason(
                "602.5b",
                f"{state.face.name}: '{ability.cost_text}: {ability.text}' may be activated only once each "
                "turn, and `activated_this_turn` says it already was",
            )
        )
    if as_a_sorcery(ability):
        board = board_state.board
        if board.active_player != state.controller:
            reasons.append(
                Reason(
                    "602.5d",
                    f"{state.face.name}: activate only as a sorcery, and it is not its controller's turn "
                    f"(active player: {board.active_player})",
                )
            )
        elif board.step is not None and board.step != "main":
            reasons.append(
                Reason(
                    "602.5d",
                    f"{state.face.name}: activate only as a sorcery, and the step is '{board.step}', not a "
                    "main phase (CR 307.1)",
                )
            )
    return tuple(reasons)


_STATION = re.compile(r"^STATION (\d{1,3})\+\s*$")
_MAX_SPEED = "Max speed — "


def existence_gate(face: Face, ability: Ability) -> tuple[str, int] | None:
    """Whether a printed ability exists only past a threshold: ("station", N) for an ability printed after
    a station symbol "STATION N+" (CR 721.2a: as long as it has N or more charge counters), ("speed", 4)
    for "Max speed — [ability]" (CR 702.178a: as long as its controller's speed is 4); None otherwise."""
    if ability.origin != ORIGIN_PRINTED or (
        "STATION" not in face.oracle_text and _MAX_SPEED not in face.oracle_text
    ):
        return None
    station: int | None = None
    for line in face.oracle_text.splitlines():
        line = line.strip()
        if m := _STATION.match(line):
            station = int(m.group(1))
            continue
        if ability.text and ability.text.replace(face.name, "~") in line.replace(face.name, "~"):
            if line.startswith(_MAX_SPEED):
                return ("speed", 4)
            return ("station", station) if station is not None else None
    return None


def existence_reasons(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """CR 721.2a, 702.178a: an ability that exists only past a threshold the board does not reach is not
    there to activate (counters or speed not stated: 0, and ``read_board`` does not know it; the reason
    says so)."""
    gate = existence_gate(state.face, ability)
    if gate is None:
        return ()
    kind, n = gate
    if kind == "station":
        known = state.permanent.knows("counters")
        have = state.permanent.counter("charge") if known else 0
        if have >= n:
            return ()
        stated = "" if known else " (counters not stated: taken as 0)"
        return (Reason("721.2a", f"STATION {n}+: {state.face.name} has {have} charge counters{stated}"),)
    player = board_state.board.player(state.controller)
    speed = player.speed if player.knows("speed") else 0
    if speed >= n:
        return ()
    stated = "" if player.knows("speed") else " (speed not stated: taken as none)"
    return (Reason("702.178a", f"Max speed: player '{state.controller}' has speed {speed}{stated}"),)


def check_activation(board_state: BoardState, state: PermanentState, ability: Ability) -> tuple[Reason, ...]:
    """All the reasons of ``activation_reasons``, ``sacrifice_reasons``, ``condition_reasons``,
    ``prohibition_reasons``, ``existence_reasons`` and ``limit_reasons``."""
    return (
        activation_reasons(board_state.board, state, ability)
        + sacrifice_reasons(board_state, state, ability)
        + condition_reasons(board_state, state, ability)
        + prohibition_reasons(board_state, state, ability)
        + existence_reasons(board_state, state, ability)
        + limit_reasons(board_state, state, ability)
    )
