"""The payment sources of mana abilities whose costs consume more than the permanent itself (CR 118.3,
602.2b): counters removed, other permanents tapped, sacrificed or returned, cards discarded or exiled.

Each activation is a source of its own, its ``tokens`` naming what it uses (each resource used once) and
``consumes`` what it takes; which permanents pay a cost is listed as alternatives for the solver when it
matters (``ALTERNATIVES_BOUND``), and an ability that can be activated again is listed per activation
(``REPEAT_BOUND``). ``sources.py`` collects the sources of a board and calls ``consuming_sources``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.mana.ability_values import Ability, PermanentState, Warning
from app.rules.mana.activation_checks import candidates, once_each_turn
from app.rules.mana.payment_values import CARD, LEAVES, TAP, Consumed, ManaSource
from app.rules.mana.production import BoardAnalysis
from app.rules.text.activation import Need
from app.rules.values.board import Player

NOTHING: Final = Consumed()
ALTERNATIVES_BOUND: Final = 8
"""The most alternatives listed for which permanents one activation taps or sacrifices; beyond, the first
are listed and a warning says the others were not tried."""
REPEAT_BOUND: Final = 40
"""The most activations listed of one ability that can be activated repeatedly (an Altar)."""


def ability_source(
    state: PermanentState,
    ability: Ability,
    listed: tuple[tuple[str, ...], ...],
    spell_only: bool,
    *,
    tokens: frozenset[str] = frozenset(),
    activation: int = 0,
    consumes: Consumed = NOTHING,
) -> ManaSource:
    own = frozenset(LEAVES + state.id for n in ability.needs if n.kind in {"sacrifice_self", "return_self"})
    if own:  # the plan step says it: "Sacrifice Irrigation Ditch" sacrifices the Ditch (CR 701.21a)
        kinds = {n.kind for n in ability.needs}
        mine = (state.id,)
        consumes = Consumed(
            sacrifices=(mine if "sacrifice_self" in kinds else ()) + consumes.sacrifices,
            taps=consumes.taps,
            returns=(mine if "return_self" in kinds else ()) + consumes.returns,
            removes=consumes.removes,
            exiles=consumes.exiles,
            discards=consumes.discards,
        )
    return ManaSource(
        permanent=state.id,
        ability=ability.index,
        outputs=listed,
        activation_cost=ability.mana_cost,
        life_cost=ability.life_cost,
        snow=state.is_snow,
        uses_permanent=ability.has_tap or ability.has_untap,
        spell_only=spell_only,
        tokens=tokens | own,
        activation=activation,
        consumes=consumes,
    )


@dataclass(frozen=True, slots=True)
class _Resources:
    """What one ability's cost takes besides the permanent itself (CR 118.3), as found on the board:
    counters removed per activation, cards per activation from each zone (with the zone's cards), the
    permanents each "tap/sacrifice/return N ..." may use, and the whole hand for "Discard your hand"."""

    counters: tuple[tuple[str, int], ...]
    cards: tuple[tuple[str, int, tuple[str, ...]], ...]
    picks: tuple[tuple[Need, list[PermanentState]], ...]
    discard_all: tuple[str, ...] | None


def consuming_sources(
    analysis: BoardAnalysis,
    state: PermanentState,
    ability: Ability,
    listed: tuple[tuple[str, ...], ...],
    spell_only: bool,
    busy_tap: set[str],
    busy_leave: set[str],
    claimed: set[str],
    skipped: list[Warning],
) -> list[ManaSource]:
    """The sources of one ability whose cost uses counters, other permanents or cards (CR 118.3).

    Counters and cards are interchangeable: activation k takes the k-th ones. Permanents are not (one may
    make mana of its own): a "free" one (no use of its own in this payment) is taken first, and it is
    exact to do so; when an activation must use a busy one, each choice is listed as an alternative (the
    solver then decides, tokens keeping each permanent used once), up to ``ALTERNATIVES_BOUND``. An
    ability without {T}/{Q} or a self-sacrifice can be activated again while its resources last (CR
    602.2b); each activation is listed (at most ``REPEAT_BOUND``)."""
    once = (
        ability.has_tap
        or ability.has_untap
        or any(n.kind in {"sacrifice_self", "return_self", "discard_hand"} for n in ability.needs)
        or once_each_turn(ability)  # CR 602.5b
    )
    found, limit = _resources(analysis, state, ability, once)
    if limit <= 0:
        return []
    notes: list[str] = []
    choices = _activation_choices(
        state, ability, found, once, limit, (busy_tap, busy_leave, claimed), notes, skipped
    )
    if choices is None:
        return []
    if not once and len(choices) == REPEAT_BOUND:
        skipped.append(
            Warning(state.id, ability.cost_text, f"only the first {REPEAT_BOUND} activations are considered")
        )
    for text in notes:
        skipped.append(
            Warning(
                state.id,
                text,
                "which permanents pay this cost was chosen, not searched: a plan using others may exist",
            )
        )
    out: list[ManaSource] = []
    for k, alts in enumerate(choices):
        for alt in alts:
            tokens, consumes = _consumed(ability, found, k, alt)
            out.append(
                ability_source(
                    state, ability, listed, spell_only, tokens=tokens, activation=len(out), consumes=consumes
                )
            )
    return out


def _resources(
    analysis: BoardAnalysis, state: PermanentState, ability: Ability, once: bool
) -> tuple[_Resources, int]:
    """What the ability's cost takes, and how many times it can be activated with what the board holds
    (CR 602.2b, 118.3: counters stated on it, cards in the zones stated, life, permanents to tap or
    sacrifice; once for an ability that taps, untaps or sacrifices itself)."""
    player = analysis.state.board.player(state.controller)
    limit = 1 if once else REPEAT_BOUND
    if ability.life_cost:
        limit = min(limit, max(player.life, 0) // ability.life_cost)
    counters: list[tuple[str, int]] = []
    cards: list[tuple[str, int, tuple[str, ...]]] = []  # (zone, per activation, names)
    picks: list[tuple[Need, list[PermanentState]]] = []
    discard_all: tuple[str, ...] | None = None
    for need in ability.needs:
        if need.kind == "remove_counters" and need.amount:
            have = state.permanent.counter(need.counter or "") if state.permanent.knows("counters") else 0
            counters.append((need.counter or "", need.amount))
            limit = min(limit, have // need.amount)
        elif need.kind in {"discard", "exile_cards"} and need.zone is not None:
            names = _zone_cards(player, need.zone)
            cards.append((need.zone, need.amount, names))
            limit = min(limit, len(names) // need.amount)
        elif need.kind == "discard_hand":
            discard_all = _zone_cards(player, "hand")
        elif need.kind in {"tap", "sacrifice", "return"}:
            found = candidates(analysis.state, state, ability, need)
            picks.append((need, found))
            if once:
                limit = min(limit, len(found) // max(need.amount, 1))
    return _Resources(tuple(counters), tuple(cards), tuple(picks), discard_all), limit


def _activation_choices(
    state: PermanentState,
    ability: Ability,
    found: _Resources,
    once: bool,
    limit: int,
    busy: tuple[set[str], set[str], set[str]],
    notes: list[str],
    skipped: list[Warning],
) -> list[list[tuple[PermanentState, ...]]] | None:
    """Per activation, its alternatives for which permanents it uses (CR 118.3); None when the ability is
    not used (a repeatable cost using two kinds of permanents, said in ``skipped``). ``busy``: the
    permanents tapped, and leaving, for other sources, and those claimed by another ability's cost."""
    busy_tap, busy_leave, claimed = busy
    if once:
        alternatives: list[tuple[PermanentState, ...]] = [()]
        for need, cands in found.picks:
            alternatives = [
                old + new
                for old in alternatives
                for new in _once_choices(need, cands, busy_tap, busy_leave, claimed, notes)
            ]
        return [alternatives]
    if not found.picks:
        return [[()] for _ in range(limit)]
    if len(found.picks) > 1:
        skipped.append(Warning(state.id, ability.cost_text, "a cost using two kinds of permanents: not used"))
        return None
    need, cands = found.picks[0]
    taken = busy_tap if need.kind == "tap" else busy_leave
    pool = [c for c in cands if c.id not in taken] + [c for c in cands if c.id in taken]
    n = max(need.amount, 1)
    # n == 1: each activation uses a different one, one listing each (the solver picks among them);
    # n > 1: consecutive groups, free ones first; the grouping is chosen, not searched (said if so)
    lists = [tuple(pool[k : k + n]) for k in range(0, len(pool) - n + 1, n)]
    if n > 1 and len(pool) > n and not _alike([c for c in pool if c.id in taken]):
        notes.append(need.text)
    return [[one] for one in lists[:limit]]


def _consumed(
    ability: Ability, found: _Resources, k: int, alt: tuple[PermanentState, ...]
) -> tuple[frozenset[str], Consumed]:
    """The tokens (each resource used once, CR 118.3) and what activation ``k`` consumes, using the
    permanents ``alt`` for its picks in order and the k-th counters and cards."""
    tokens: set[str] = set()
    consumed: dict[str, list[str]] = {"sacrifices": [], "taps": [], "returns": []}
    slot = 0
    for need, _cands in found.picks:
        n = max(need.amount, 1)
        for c in alt[slot : slot + n]:
            if need.kind == "tap":
                tokens.add(TAP + c.id)
                consumed["taps"].append(c.id)
            else:
                tokens.add(LEAVES + c.id)
                consumed["sacrifices" if need.kind == "sacrifice" else "returns"].append(c.id)
        slot += n
    exiles: list[str] = []
    discards: list[str] = []
    for zone, per_act, names in found.cards:
        for i in range(k * per_act, (k + 1) * per_act):
            tokens.add(f"{CARD}{zone}:{i}")
            (discards if zone == "hand" and _is_discard(ability) else exiles).append(names[i])
    if found.discard_all is not None:
        discards.extend(found.discard_all)
        tokens.update(f"{CARD}hand:{i}" for i in range(len(found.discard_all)))
    consumes = Consumed(
        sacrifices=tuple(consumed["sacrifices"]),
        taps=tuple(consumed["taps"]),
        returns=tuple(consumed["returns"]),
        removes=found.counters,
        exiles=tuple(exiles),
        discards=tuple(discards),
    )
    return frozenset(tokens), consumes


def _once_choices(
    need: Need,
    found: list[PermanentState],
    busy_tap: set[str],
    busy_leave: set[str],
    claimed: set[str],
    notes: list[str],
) -> list[tuple[PermanentState, ...]]:
    """The alternatives for one activation's "tap/sacrifice N ...": free ones when there are enough (any
    free one is as good as another, and taking one costs no mana); else each busy one as an alternative
    (n = 1, up to ``ALTERNATIVES_BOUND``) or the first n (chosen, and said)."""
    busy = busy_tap if need.kind == "tap" else busy_leave
    n = max(need.amount, 1)
    free = [c for c in found if c.id not in busy and c.id not in claimed]
    if len(free) >= n:
        claimed.update(c.id for c in free[:n])
        return [tuple(free[:n])]
    rest = [c for c in found if c not in free]
    if n == 1:
        if len(rest) > ALTERNATIVES_BOUND and not _alike(rest):
            notes.append(need.text)
        return [(c,) for c in rest[:ALTERNATIVES_BOUND]]
    pool = free + rest
    if len(pool) > n and not _alike(rest):
        notes.append(need.text)
    return [tuple(pool[:n])]


def _alike(states: list[PermanentState]) -> bool:
    """Permanents of one card, untapped alike: which of them a cost uses makes no difference."""
    return len({(s.face.name, s.permanent.controlled_since_turn_began) for s in states}) <= 1


def _is_discard(ability: Ability) -> bool:
    return any(n.kind == "discard" for n in ability.needs)


def _zone_cards(player: Player, zone: str) -> tuple[str, ...]:
    """The cards of a zone by name ("a card" for a hand stated by its size only); none when not stated."""
    if not player.knows(zone):
        return ()
    if zone == "hand":
        listed = tuple(c.name for c in player.hand)
        return listed + ("a card",) * (player.cards_in_hand - len(listed))
    return tuple(c.name for c in (player.graveyard if zone == "graveyard" else player.exile))
