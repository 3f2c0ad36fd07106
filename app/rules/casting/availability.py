"""Whether a way to cast is available on the stated board (CR 601.2b, 601.3, 118.9): the condition its
text puts on it, read on the board where a fact of the request decides it.

``way_availability`` answers ``Availability``: ``available`` True, False (with ``reason`` and the way's
``rule``), or None, not known, with ``needs``: the request fields that would decide it (``players.<name>
.this_turn.<fact>``, ``players.<name>.hand``). Read:

- spectacle (CR 702.137a): an opponent lost life this turn (``this_turn.life_lost``);
- surge (CR 702.117a): the caster cast another spell this turn (``this_turn.spells_cast``);
- "If you control a Swamp", "If it's not your turn" (``offered._controls_condition``, the board decides);
- this turn's facts: "If an opponent cast three or more spells this turn" (Mindbreak Trap), "If an opponent
  gained life this turn", "... drew three or more cards this turn", "If you've cast another spell this
  turn", "If an opponent lost life this turn";
- "If you have no land cards in hand" (Land Grant): the caster's stated hand;
- "If you control a commander" (Fierce Guardianship): a permanent of the caster's that is one of their
  stated commanders (CR 903.3); "if there are thirteen or more creatures on the battlefield" (the board);
- a grant limited to one spell each turn ("once during each of your turns", "the first ... each turn"):
  available when the caster is stated to have cast no spell this turn, else not known (no field says
  whether the grant was used).
Any other condition is not known, with no field to decide it (``needs`` empty): the way is listed and
warned about, never assumed silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.effects.ways import Way, number_word
from app.rules.text.spell_kinds import spell_kind
from app.rules.values.board import Board, Player
from app.rules.values.names import fold_name

_UNKNOWN_FACT: Final = "not stated"


@dataclass(frozen=True, slots=True)
class Availability:
    """Whether a way is available: ``available`` True, False or None (not known); ``reason`` says why not
    or what is not known; ``needs`` the request fields that would decide it."""

    available: bool | None
    reason: str | None = None
    needs: tuple[str, ...] = ()


AVAILABLE: Final = Availability(True)

# "if <who> <did> this turn": the fact of ``this_turn`` it reads and the least count that satisfies it.
_TURN: Final = re.compile(
    r"^if (?P<who>you|an opponent) (?:'ve |has |have )?"
    r"(?P<verb>cast|gained life|lost life|drew)"
    r"(?: (?P<n>a|an|one|two|three|four|five|another)(?: or more)?)?"
    r"(?: (?P<kind>creature|noncreature|instant or sorcery|instant and sorcery))?"
    r"(?: (?P<what>spells?|cards?))? this turn$"
)
_CREATURES_ON_BATTLEFIELD: Final = re.compile(
    r"^if there are (?P<n>\w+) or more creatures on the battlefield$"
)
_KIND_FACTS: Final = {
    None: "spells_cast",
    "creature": "creature_spells_cast",
    "noncreature": "noncreature_spells_cast",
    "instant or sorcery": "instant_sorcery_spells_cast",
    "instant and sorcery": "instant_sorcery_spells_cast",
}


def _turn_fact(low: str) -> tuple[str, bool, int] | None:
    """A condition on this turn's facts (CR 500.1): (fact, of an opponent, at least n); None: another."""
    m = _TURN.match(low)
    if m is None:
        return None
    verb, what = m.group("verb"), m.group("what")
    word = m.group("n")
    n = 1 if word in (None, "a", "an", "another") else number_word(word) or 1
    if verb == "cast":
        if what is None or not what.startswith("spell"):
            return None
        fact = _KIND_FACTS.get(m.group("kind"))
        if fact is None:
            return None
    elif verb == "drew":
        if what is None or not what.startswith("card") or m.group("kind"):
            return None
        fact = "cards_drawn"
    else:
        if m.group("n") or m.group("kind") or what:
            return None
        fact = "life_gained" if verb == "gained life" else "life_lost"
    return fact, m.group("who") == "an opponent", n


def _facts_hold(board: Board, players: list[Player], fact: str, at_least: int) -> Availability:
    """One of ``players`` has ``fact`` at least ``at_least`` this turn: True once a stated count says so,
    False when every count is stated and none does, else not known with the unstated fields."""
    if not players:  # no opponent on the board: the request says nothing of one
        field = f"players.opponent.this_turn.{fact}"
        return Availability(None, f"{field} {_UNKNOWN_FACT}", (field,))
    unknown: list[str] = []
    for p in players:
        if p.this_turn.knows(fact):
            if p.this_turn.count(fact) >= at_least:
                return AVAILABLE
        else:
            unknown.append(f"players.{p.name}.this_turn.{fact}")
    if unknown:
        return Availability(None, f"{', '.join(unknown)} {_UNKNOWN_FACT}", tuple(unknown))
    return Availability(False)


def condition_availability(board: Board, caster: str, condition: str) -> Availability:
    """Whether the condition a way's text puts on it holds on this board ("If you control a Swamp", "If an
    opponent cast three or more spells this turn"); the reason is left to the caller when it fails."""
    low = condition.lower().strip()
    held = controls_condition(board, caster, low)
    if held is not None:
        return Availability(held)
    turn = _turn_fact(low)
    if turn is not None:
        fact, of_opponent, n = turn
        who = [board.player(o) for o in board.opponents_of(caster)] if of_opponent else [board.player(caster)]
        return _facts_hold(board, who, fact, n)
    if low == "if you control a commander":  # Fierce Guardianship, Obscuring Haze (CR 903.3)
        you = board.player(caster)
        if not you.commander and not you.knows("commander"):
            field = f"players.{caster}.commander"
            return Availability(None, f"{field} {_UNKNOWN_FACT}", (field,))
        names = {fold_name(c.name) for c in you.commander}
        mine = (p for p in board.permanents if p.controller == caster)
        return Availability(any(fold_name(p.card.name) in names for p in mine))
    many = _CREATURES_ON_BATTLEFIELD.match(low)
    if many is not None:  # Blasphemous Edict: the board lists every permanent
        word = many.group("n")
        least = number_word(word) if word != "thirteen" else 13  # the number words of rules text stop at 12
        if least is not None:
            count = sum(1 for p in board.permanents if "Creature" in p.characteristics.type_line.types)
            return Availability(count >= least)
    if low == "if you have no land cards in hand":  # Land Grant
        you = board.player(caster)
        if not you.knows("hand"):
            field = f"players.{caster}.hand"
            return Availability(None, f"{field} {_UNKNOWN_FACT}", (field,))
        return Availability(not any("Land" in c.front.type_line.types for c in you.hand))
    return Availability(None, "a condition the service does not read", ())


def way_availability(board: Board, caster: str, way: Way, name: str) -> Availability:
    """Whether ``way`` is available to ``caster`` on ``board`` (CR 601.2b): its own condition, spectacle,
    surge, and a grant's once-each-turn limit; False carries the reason a 422 gives."""
    if way.keyword == "spectacle":  # CR 702.137a
        opponents = [board.player(o) for o in board.opponents_of(caster)]
        found = _facts_hold(board, opponents, "life_lost", 1)
        if found.available is False:
            return Availability(False, "spectacle needs an opponent who lost life this turn")
        return found
    if way.keyword == "surge":  # CR 702.117a
        found = _facts_hold(board, [board.player(caster)], "spells_cast", 1)
        if found.available is False:
            return Availability(False, "surge needs another spell cast this turn")
        return found
    if way.condition is not None:
        found = condition_availability(board, caster, way.condition)
        if found.available is False:
            cond = way.condition
            return Availability(
                False,
                f"{name}'s {way.keyword} cost holds only {cond[0].lower()}{cond[1:]}: not so on this board",
            )
        if found.available is None:
            return found
    if way.once_per_turn:  # a grant of one spell each turn: used already? Only "no spell cast" decides
        you = board.player(caster)
        if you.this_turn.knows("spells_cast") and you.this_turn.spells_cast == 0:
            return AVAILABLE
        field = f"players.{caster}.this_turn.spells_cast"
        return Availability(
            None,
            f"{way.granted_by} allows one such spell each turn: whether it was used is not stated",
            (field,),
        )
    return AVAILABLE


def unknown_message(way: Way, found: Availability) -> str:
    """The warning for a way whose availability the request does not decide: what is not known, what would
    decide it, and that it was assumed available (API 1.3)."""
    cond = way.condition
    if cond is not None and cond.lower().startswith("if "):
        cond = cond[3:]
    what = f"{way.keyword} needs that {cond}" if cond else way.keyword
    return f"{what}: {found.reason}; not checked, assumed so"


def controls_condition(board: Board, caster: str, condition: str) -> bool | None:
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
