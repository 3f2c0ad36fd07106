"""The mana sources a player can use to pay (CR 605, 106.12): the input of the payment solver.

A source is one activatable mana ability (CR 605.1a) of a permanent the player controls, with what it
produces after replacement effects and triggered mana abilities (``production.analyze_board``). Left out,
each for a stated reason: abilities that cannot be activated now (CR 107.5, 107.6, 302.6, 119.4), texts not
understood (their permanents are in the analysis warnings), abilities producing nothing, mana with a
spending restriction (CR 106.6) unless the spell being paid for meets it, and costs the solver cannot
pay (sacrificing another permanent, discarding, tapping another creature...).

``payment_inputs`` adds, for a spell, what its restrictions and keywords allow: restricted mana the spell
meets (``spell_only``: it never pays another ability's cost), convoke (CR 702.51a: each untapped creature
pays {1} or one mana of one of its colors), improvise (CR 702.126a: each untapped artifact pays {1}) and
delve (CR 702.66a: each card exiled from the graveyard pays {1}). Those are listed as sources with the
ability numbers ``CONVOKE``, ``IMPROVISE``, ``DELVE``; their generic payments are modelled as {C} mana,
which is exact only when no symbol of the cost other than generic accepts colorless mana, so they are
used only then (otherwise a warning says so).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.mana.abilities import (
    Ability,
    PermanentState,
    Warning,
    candidates,
    check_activation,
    prohibition_reasons,
)
from app.rules.mana.payment import CARD, LEAVES, TAP, Consumed, ManaSource
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.restrictions import Casting, spell_meets
from app.rules.text.activation import Need
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import SymbolKind

CONVOKE: Final = -1
IMPROVISE: Final = -2
DELVE: Final = -3
GRAVEYARD_PREFIX: Final = "graveyard:"
"""Delve sources are named ``graveyard:<index>`` (the index in the player's graveyard)."""

_GENERIC_ONLY_UNSAFE: Final = frozenset(
    {SymbolKind.COLORLESS, SymbolKind.COLORLESS_HYBRID, SymbolKind.MONO_HYBRID, SymbolKind.HALF}
)

LISTED_BOUND = 1_000
"""The solver lists mana symbol by symbol: one activation's mana is cut to this many of each type (a
production beyond it, a Forest under ten Mana Reflections, pays any cost of up to this much alone)."""

_PAYABLE_PARTS = frozenset({"tap", "untap", "mana", "life", "sacrifice_self", "remove_counters"})


@dataclass(frozen=True, slots=True)
class PaymentInputs:
    """The solver's sources for one payment, and what was left out for want of understanding it."""

    sources: tuple[ManaSource, ...]
    warnings: tuple[Warning, ...]
    no_mana: bool = False
    """CR 609.4b-like spell text "You can't spend mana to cast this spell" (Hogaak): the pool's mana can't
    pay either; only convoke, improvise and delve are listed."""
    any_color: str | None = None
    """The permanent that lets its controller spend mana as though it were mana of any color (CR 609.4b,
    Chromatic Orrery), when there is one: see ``as_any_color``."""


def payment_sources(
    board: Board, player: str, analysis: BoardAnalysis | None = None
) -> tuple[ManaSource, ...]:
    """Every mana ability ``player`` could activate to pay, in board order then ability order."""
    return _mana_sources(board, player, analysis, None, [])


def payment_inputs(
    board: Board,
    player: str,
    cost: ManaCost,
    spell: Face | None,
    analysis: BoardAnalysis | None = None,
    granted: tuple[str, ...] = (),
    casting: Casting | None = None,
) -> PaymentInputs:
    """The sources paying ``cost`` for casting ``spell`` (None: a bare cost): mana abilities, restricted
    mana the spell meets (``casting``: how it is cast, for "kicked spells", "spells from exile" and the
    like; None: such restrictions are not decided, and said), convoke, improvise and delve when the spell
    has them (or is ``granted`` them by a permanent, "Creature spells you cast have convoke"); and the
    warnings: the player's permanents whose text was not understood, restrictions not understood."""
    analysis = analysis if analysis is not None else analyze_board(board)
    if spell is None:
        return bare_payment_inputs(board, player, analysis)
    skipped: list[Warning] = []
    warnings = _analysis_warnings(analysis, player)
    # granted: CR 613.1f; from the text: a keyword line the data's keyword list lacks (CR 702.1)
    keywords = {k.casefold() for k in (*spell.keywords, *granted, *text_keywords(spell))}
    wanted = [k for k in ("convoke", "improvise", "delve") if k in keywords]
    if wanted and any(sym.kind in _GENERIC_ONLY_UNSAFE for sym in cost.others):
        skipped.append(
            Warning(
                spell.name,
                ", ".join(wanted),
                f"not used: the cost {cost} has symbols this payment model cannot keep apart from generic",
            )
        )
        wanted = []
    # Convoke and improvise tap the permanent while the cost is paid (CR 601.2h), after every mana ability:
    # it must still be there (``LEAVES``), and not have been tapped (its own {T}).
    extra: list[ManaSource] = []
    for st in analysis.state.states:
        if st.controller != player or st.permanent.tapped:
            continue
        gone = frozenset({LEAVES + st.id})
        if "convoke" in wanted and st.is_creature:  # CR 702.51a; summoning sickness does not matter
            colors = st.face.color_set
            extra.append(
                ManaSource(st.id, CONVOKE, tuple((c,) for c in (*colors, "C")), spell_only=True, tokens=gone)
            )
        if "improvise" in wanted and "Artifact" in st.types:  # CR 702.126a
            extra.append(ManaSource(st.id, IMPROVISE, (("C",),), spell_only=True, tokens=gone))
    if "delve" in wanted:  # CR 702.66a: a card exiled from the graveyard (once, as any other exile)
        for i, _card in enumerate(board.player(player).graveyard):
            extra.append(
                ManaSource(
                    f"{GRAVEYARD_PREFIX}{i}",
                    DELVE,
                    (("C",),),
                    spell_only=True,
                    tokens=frozenset({f"{CARD}graveyard:{i}"}),
                )
            )
    busy = frozenset(s.permanent for s in extra if s.ability != DELVE)
    if _NO_MANA.search(spell.oracle_text):  # "You can't spend mana to cast this spell." (Hogaak)
        return PaymentInputs(tuple(extra), tuple(warnings + skipped), no_mana=True)
    sources = [*_mana_sources(board, player, analysis, spell, skipped, busy=busy, casting=casting), *extra]
    return PaymentInputs(
        tuple(sources), tuple(warnings + skipped), any_color=any_color_source(analysis, player)
    )


_NO_MANA: Final = re.compile(r"^You can't spend mana to cast this spell\.", re.MULTILINE)
_ANY_COLOR: Final = re.compile(r"^You may spend mana as though it were mana of any color\.", re.MULTILINE)


def any_color_source(analysis: BoardAnalysis, player: str) -> str | None:
    """CR 609.4b: a permanent of ``player``'s saying "You may spend mana as though it were mana of any
    color" (Chromatic Orrery), by id; None when there is none."""
    for st in analysis.state.states:
        if st.controller == player and not st.lost_own_abilities and _ANY_COLOR.search(st.face.oracle_text):
            return st.id
    return None


def as_any_color(cost: ManaCost) -> ManaCost:
    """CR 609.4b: with mana spent as though it were mana of any color, a colored symbol takes any mana:
    {W}, {W/U}, {2/W} and {C/W} are paid as {1} (one mana of any type: colorless too). {C} still needs
    colorless mana (it is a type, not a color), {S} snow mana, and Phyrexian symbols keep their color or
    2 life (left as they are: the least)."""
    kinds = (SymbolKind.COLORED, SymbolKind.HYBRID, SymbolKind.MONO_HYBRID, SymbolKind.COLORLESS_HYBRID)
    kept = tuple(sym for sym in cost.others if sym.kind not in kinds)
    return ManaCost(cost.variables, cost.generic + len(cost.others) - len(kept), kept)


_KEYWORD_LINE: Final = re.compile(
    r"^(convoke|improvise|delve)\b(?:\s*\([^)]*\))?\s*$", re.IGNORECASE | re.MULTILINE
)


def text_keywords(face: Face) -> tuple[str, ...]:
    """Convoke, improvise and delve written as keyword lines of the card's text (CR 702.51, 702.126,
    702.66), for cards whose data lists no keywords."""
    return tuple(m.group(1).casefold() for m in _KEYWORD_LINE.finditer(face.oracle_text))


def bare_payment_inputs(board: Board, player: str, analysis: BoardAnalysis | None = None) -> PaymentInputs:
    """The sources paying a cost that is not a spell's (``payment_inputs`` with no spell): restricted mana
    is left out (CR 106.6), with a warning for each such ability. Depends on the board and player only,
    so a board asked about many costs reads it once."""
    analysis = analysis if analysis is not None else analyze_board(board)
    skipped: list[Warning] = []
    sources = _mana_sources(board, player, analysis, None, skipped)
    warnings = _analysis_warnings(analysis, player)
    for st in analysis.state.states:
        for ab in st.abilities:
            if st.controller == player and ab.is_mana_ability and ab.restriction is not None:
                warnings.append(
                    Warning(st.id, ab.restriction, "restricted mana is used only when `spell` is given")
                )
    return PaymentInputs(sources, tuple(warnings + skipped), any_color=any_color_source(analysis, player))


def _analysis_warnings(analysis: BoardAnalysis, player: str) -> list[Warning]:
    """The analysis's warnings about ``player``'s permanents (texts not understood)."""
    mine = {st.id for st in analysis.state.states if st.controller == player}
    return [w for w in analysis.warnings if w.permanent in mine]


def _mana_sources(
    board: Board,
    player: str,
    analysis: BoardAnalysis | None,
    spell: Face | None,
    skipped: list[Warning],
    *,
    busy: frozenset[str] = frozenset(),
    casting: Casting | None = None,
) -> tuple[ManaSource, ...]:
    """The player's mana abilities as sources. ``busy``: permanents that have another use in this payment
    (convoke, improvise), so tapping or sacrificing them for a cost is a choice to solve, not free;
    ``casting``: how the spell is cast (restricted mana, CR 106.6)."""
    analysis = analysis if analysis is not None else analyze_board(board)
    plain: list[ManaSource] = []
    consuming: list[tuple[PermanentState, Ability, tuple[tuple[tuple[str, ...], ...], bool]]] = []
    for state in analysis.state.states:
        if state.controller != player:
            continue
        for ability in state.abilities:
            if not ability.is_mana_ability or ability.mana is None:
                continue
            spell_only = _spell_only(state, ability.mana.restriction, spell, skipped, casting)
            if spell_only is None or not _payable(state, ability, skipped):
                continue
            kinds = {n.kind for n in ability.needs}
            outputs = analysis.produces.get((state.id, ability.index))
            if not outputs or check_activation(analysis.state, state, ability):
                continue
            listed = tuple(m.as_tuple(LISTED_BOUND) for m in outputs)
            if kinds - _OWN_NEEDS:
                consuming.append((state, ability, (listed, spell_only)))
                continue
            plain.append(_source(state, ability, listed, spell_only))
    plain.extend(_zone_sources(analysis, player))
    if not consuming:
        return tuple(plain)
    busy_tap = set(busy) | {s.permanent for s in plain if s.uses_permanent}
    busy_leave = set(busy) | {t[len(LEAVES) :] for s in plain for t in s.tokens if t.startswith(LEAVES)}
    claimed: set[str] = set()
    out = list(plain)
    for state, ability, (listed, spell_only) in consuming:
        out.extend(
            _consuming(analysis, state, ability, listed, spell_only, busy_tap, busy_leave, claimed, skipped)
        )
    return tuple(out)


def _spell_only(
    state: PermanentState,
    restriction: str | None,
    spell: Face | None,
    skipped: list[Warning],
    casting: Casting | None = None,
) -> bool | None:
    """CR 106.6: whether mana under ``restriction`` is used for this payment: None (not used: a bare cost,
    a spell that does not meet it, or a restriction not understood, said in ``skipped``), True (used, for
    the spell only: it never pays another ability's cost), False (no restriction)."""
    if restriction is None:
        return False
    if spell is None:
        return None
    meets = spell_meets(restriction, spell, state.permanent.chosen, casting)
    if meets is None:
        skipped.append(Warning(state.id, restriction, _undecided(restriction, spell, state, casting)))
    return True if meets else None


def _undecided(restriction: str, spell: Face, state: PermanentState, casting: Casting | None) -> str:
    """Why a restriction was not decided: how the spell is cast was not given (a restriction that depends
    on it: "kicked spells", "from exile"), the board names no commander, or the text is not understood."""
    chosen = state.permanent.chosen
    if casting is None and spell_meets(restriction, spell, chosen, Casting(commander=False)) is not None:
        return "how the spell is cast is not given: its mana is not used (CR 106.6)"
    no_commander = casting is not None and casting.commander is None
    if no_commander and spell_meets(restriction, spell, chosen, Casting(commander=False)) is not None:
        return "the player's `commander` is not stated: the spell is not taken as it, its mana is not used"
    return "spending restriction not understood: its mana is not used (CR 106.6)"


def _payable(state: PermanentState, ability: Ability, skipped: list[Warning]) -> bool:
    """CR 602.2b, 118.3: whether every part of the ability's cost is one the solver pays; a cost exiling a
    permanent is said in ``skipped`` ("unknown" parts are in the analysis warnings; exiling the card
    itself works off the battlefield, CR 113.6m)."""
    kinds = {n.kind for n in ability.needs}
    if not kinds - _PAYABLE_NEEDS:
        return True
    if "exile" in kinds:
        text = next(n.text for n in ability.needs if n.kind == "exile")
        skipped.append(
            Warning(state.id, text, "a cost that exiles a permanent: payments do not use this ability")
        )
    return False


_PAYABLE_NEEDS: Final = frozenset(
    {
        "life",
        "sacrifice_self",
        "return_self",
        "remove_counters",
        "tap",
        "sacrifice",
        "return",
        "discard",
        "discard_hand",
        "exile_cards",
    }
)
NOTHING: Final = Consumed()
_OWN_NEEDS: Final = frozenset({"life", "sacrifice_self", "return_self"})
"""Needs that use nothing but the permanent itself and life: one source, no choice."""

ALTERNATIVES_BOUND: Final = 8
"""The most alternatives listed for which permanents one activation taps or sacrifices; beyond, the first
are listed and a warning says the others were not tried."""
REPEAT_BOUND: Final = 40
"""The most activations listed of one ability that can be activated repeatedly (an Altar)."""


def _source(
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


def _consuming(
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
                _source(
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


def _zone_sources(analysis: BoardAnalysis, player: str) -> list[ManaSource]:
    """Mana abilities that work from the hand or the graveyard because their cost moves the card out of
    it (CR 113.6m: Elvish Spirit Guide "Exile ~ from your hand: Add {G}", Jack-o'-Lantern "{1}, Exile ~
    from your graveyard: Add one mana of any color"), for the cards the request lists in those zones.
    Each is listed as ``<zone>:<index>``; it exiles that card (``card:`` token: once, and never also
    delved or discarded). Prohibitions on the board still reach them (CR 602.5: an artifact card is an
    artifact)."""
    board = analysis.state.board
    owner = board.player(player)
    out: list[ManaSource] = []
    for zone, cards in (("hand", owner.hand), ("graveyard", owner.graveyard)):
        for i, card in enumerate(cards):
            text = card.front.oracle_text
            if f"from your {zone}" not in text or "Add" not in text:
                continue
            pid = f"{zone}:{i}"
            scratch = analyze_board(Board((Permanent(pid, card, player),), board.players))
            state = scratch.state.states[0]
            for ability in state.abilities:
                kinds = {n.kind for n in ability.needs}
                here = any(n.kind == "exile_self" and n.zone == zone for n in ability.needs)
                if not here or not ability.is_mana_ability or ability.restriction is not None:
                    continue
                if kinds - {"exile_self", "life"} or prohibition_reasons(analysis.state, state, ability):
                    continue
                outputs = scratch.produces.get((pid, ability.index))
                if not outputs:
                    continue
                out.append(
                    ManaSource(
                        permanent=pid,
                        ability=ability.index,
                        outputs=tuple(m.as_tuple(LISTED_BOUND) for m in outputs),
                        activation_cost=ability.mana_cost,
                        life_cost=ability.life_cost,
                        uses_permanent=False,
                        tokens=frozenset({f"{CARD}{zone}:{i}"}),
                        consumes=Consumed(exiles=(card.name,)),
                    )
                )
    return out


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
