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

from app.rules.mana.ability_values import Ability, PermanentState, Warning
from app.rules.mana.activation_checks import (
    activation_reasons,
    check_activation,
    once_each_turn,
    prohibition_reasons,
)
from app.rules.mana.consuming_sources import (
    REPEAT_BOUND,
    ability_source,
    consuming_sources,
)
from app.rules.mana.payment_values import CARD, LEAVES, Consumed, ManaSource
from app.rules.mana.permanent_facts import permanent_facts
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.restrictions import Casting, spell_meets
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost
from app.rules.values.mana import Mana
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
    *,
    memo: bool = True,
) -> PaymentInputs:
    """The sources paying ``cost`` for casting ``spell`` (None: a bare cost): mana abilities, restricted
    mana the spell meets (``casting``: how it is cast, for "kicked spells", "spells from exile" and the
    like; None: such restrictions are not decided, and said), convoke, improvise and delve when the spell
    has them (or is ``granted`` them by a permanent, "Creature spells you cast have convoke"); and the
    warnings: the player's permanents whose text was not understood, restrictions not understood.
    ``memo`` False checks every ability anew (``_mana_sources``)."""
    analysis = analysis if analysis is not None else analyze_board(board)
    if spell is None:
        return bare_payment_inputs(board, player, analysis, memo=memo)
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
    sources = [
        *_mana_sources(board, player, analysis, spell, skipped, busy=busy, casting=casting, memo=memo),
        *extra,
    ]
    return PaymentInputs(
        tuple(sources), tuple(warnings + skipped), any_color=any_color_source(analysis, player)
    )


_NO_MANA: Final = re.compile(r"^You can't spend mana to cast this spell\.", re.MULTILINE)
ANY_COLOR: Final = re.compile(r"^You may spend mana as though it were mana of any color\.", re.MULTILINE)


def any_color_source(analysis: BoardAnalysis, player: str) -> str | None:
    """CR 609.4b: a permanent of ``player``'s saying "You may spend mana as though it were mana of any
    color" (Chromatic Orrery), by id; None when there is none."""
    for st in analysis.state.states:
        if st.controller == player and not st.lost_own_abilities and ANY_COLOR.search(st.face.oracle_text):
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


def bare_payment_inputs(
    board: Board, player: str, analysis: BoardAnalysis | None = None, *, memo: bool = True
) -> PaymentInputs:
    """The sources paying a cost that is not a spell's (``payment_inputs`` with no spell): restricted mana
    is left out (CR 106.6), with a warning for each such ability. Depends on the board and player only,
    so a board asked about many costs reads it once."""
    analysis = analysis if analysis is not None else analyze_board(board)
    skipped: list[Warning] = []
    sources = _mana_sources(board, player, analysis, None, skipped, memo=memo)
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
    memo: bool = True,
) -> tuple[ManaSource, ...]:
    """The player's mana abilities as sources. ``busy``: permanents that have another use in this payment
    (convoke, improvise), so tapping or sacrificing them for a cost is a choice to solve, not free;
    ``casting``: how the spell is cast (restricted mana, CR 106.6); ``memo`` False checks every ability
    anew (``permanent_facts`` unused: the property tests compare the two)."""
    analysis = analysis if analysis is not None else analyze_board(board)
    plain: list[ManaSource] = []
    consuming: list[tuple[PermanentState, Ability, tuple[tuple[tuple[str, ...], ...], bool]]] = []
    # Each production listed once per board: identical permanents (twenty Forests) produce alike, and then
    # share one listing, which the solver's per-board tables also find at once (``option_groups``).
    lists: dict[tuple[Mana, ...], tuple[tuple[str, ...], ...]] = {}
    # ``permanent_facts``: a permanent whose every mana ability only its state can forbid is listed from
    # its kept facts; a prohibition on the board (CR 602.5) sends every permanent through the full checks.
    # (A player not on the board is refused by ``_zone_sources`` below, on either path.)
    kept_ok = memo and not analysis.state.prohibitions
    for state in analysis.state.states:
        if state.controller != player:
            continue
        simple = permanent_facts(state.face, state.abilities).simple if kept_ok else None
        if simple is not None:
            plain.extend(_simple_sources(analysis, state, simple, lists))
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
            listed = lists.get(outputs)
            if listed is None:
                listed = lists[outputs] = tuple(m.as_tuple(LISTED_BOUND) for m in outputs)
            if kinds - _OWN_NEEDS:
                consuming.append((state, ability, (listed, spell_only)))
                continue
            plain.append(ability_source(state, ability, listed, spell_only))
            for k in range(1, _repeats(board, state, ability, skipped)):
                plain.append(ability_source(state, ability, listed, spell_only, activation=k))
    plain.extend(_zone_sources(analysis, player))
    if not consuming:
        return tuple(plain)
    busy_tap = set(busy) | {s.permanent for s in plain if s.uses_permanent}
    busy_leave = set(busy) | {t[len(LEAVES) :] for s in plain for t in s.tokens if t.startswith(LEAVES)}
    claimed: set[str] = set()
    out = list(plain)
    for state, ability, (listed, spell_only) in consuming:
        out.extend(
            consuming_sources(
                analysis, state, ability, listed, spell_only, busy_tap, busy_leave, claimed, skipped
            )
        )
    return tuple(out)


def _simple_sources(
    analysis: BoardAnalysis,
    state: PermanentState,
    simple: tuple[Ability, ...],
    lists: dict[tuple[Mana, ...], tuple[tuple[str, ...], ...]],
) -> list[ManaSource]:
    """The sources of a permanent whose mana abilities are all ``simple`` (``permanent_facts``): no
    restriction, nothing consumed, no condition, prohibition or threshold, so of ``check_activation``'s
    reasons only ``activation_reasons`` can apply (its state: {T} on a tapped permanent, CR 107.5; {Q} on
    an untapped one, 107.6; a creature new this turn without haste, 302.6)."""
    board = analysis.state.board
    out: list[ManaSource] = []
    for ability in simple:
        if activation_reasons(board, state, ability):
            continue
        outputs = analysis.produces.get((state.id, ability.index))
        if not outputs:
            continue
        listed = lists.get(outputs)
        if listed is None:
            listed = lists[outputs] = tuple(m.as_tuple(LISTED_BOUND) for m in outputs)
        out.append(ability_source(state, ability, listed, False))
    return out


def _repeats(board: Board, state: PermanentState, ability: Ability, skipped: list[Warning]) -> int:
    """How many times an ability whose cost uses only life (besides mana) can be activated for one
    payment: as often as the life total allows (CR 119.4, 602.2b), once with {T}, {Q}, a cost that moves
    the permanent, or "Activate only once each turn" (CR 602.5b)."""
    life = ability.life_cost
    if (
        life <= 0
        or ability.has_tap
        or ability.has_untap
        or any(n.kind in {"sacrifice_self", "return_self"} for n in ability.needs)
        or once_each_turn(ability)
    ):
        return 1
    n = max(board.player(state.controller).life, 0) // life
    if n > REPEAT_BOUND:
        skipped.append(
            Warning(state.id, ability.cost_text, f"only the first {REPEAT_BOUND} activations are considered")
        )
    return max(1, min(n, REPEAT_BOUND))


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
_OWN_NEEDS: Final = frozenset({"life", "sacrifice_self", "return_self"})
"""Needs that use nothing but the permanent itself and life: one source, no choice."""


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
