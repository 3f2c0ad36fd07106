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

from dataclasses import dataclass
from typing import Final

from app.rules.mana.abilities import Warning, check_activation
from app.rules.mana.payment import ManaSource
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.restrictions import spell_meets
from app.rules.values.board import Board
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
) -> PaymentInputs:
    """The sources paying ``cost`` for casting ``spell`` (None: a bare cost): mana abilities, restricted
    mana the spell meets, convoke, improvise and delve when the spell has them (or is ``granted`` them by
    a permanent, "Creature spells you cast have convoke"); and the warnings: the
    player's permanents whose text was not understood, restrictions not understood."""
    analysis = analysis if analysis is not None else analyze_board(board)
    if spell is None:
        return bare_payment_inputs(board, player, analysis)
    skipped: list[Warning] = []
    sources = list(_mana_sources(board, player, analysis, spell, skipped))
    warnings = _analysis_warnings(analysis, player)
    keywords = {k.casefold() for k in (*spell.keywords, *granted)}  # granted: CR 613.1f
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
    for st in analysis.state.states:
        if st.controller != player or st.permanent.tapped:
            continue
        if "convoke" in wanted and st.is_creature:  # CR 702.51a; summoning sickness does not matter
            colors = st.face.color_set
            sources.append(ManaSource(st.id, CONVOKE, tuple((c,) for c in (*colors, "C")), spell_only=True))
        if "improvise" in wanted and "Artifact" in st.types:  # CR 702.126a
            sources.append(ManaSource(st.id, IMPROVISE, (("C",),), spell_only=True))
    if "delve" in wanted:  # CR 702.66a
        for i, _card in enumerate(board.player(player).graveyard):
            sources.append(ManaSource(f"{GRAVEYARD_PREFIX}{i}", DELVE, (("C",),), spell_only=True))
    return PaymentInputs(tuple(sources), tuple(warnings + skipped))


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
    return PaymentInputs(sources, tuple(warnings + skipped))


def _analysis_warnings(analysis: BoardAnalysis, player: str) -> list[Warning]:
    """The analysis's warnings about ``player``'s permanents (texts not understood)."""
    mine = {st.id for st in analysis.state.states if st.controller == player}
    return [w for w in analysis.warnings if w.permanent in mine]


def _mana_sources(
    board: Board, player: str, analysis: BoardAnalysis | None, spell: Face | None, skipped: list[Warning]
) -> tuple[ManaSource, ...]:
    analysis = analysis if analysis is not None else analyze_board(board)
    out: list[ManaSource] = []
    for state in analysis.state.states:
        if state.controller != player:
            continue
        for ability in state.abilities:
            if not ability.is_mana_ability or ability.mana is None:
                continue
            spell_only = False
            if ability.mana.restriction is not None:
                if spell is None:
                    continue
                meets = spell_meets(ability.mana.restriction, spell, state.permanent.chosen)
                if meets is None:
                    skipped.append(
                        Warning(
                            state.id,
                            ability.mana.restriction,
                            "spending restriction not understood: its mana is not used (CR 106.6)",
                        )
                    )
                if not meets:
                    continue
                spell_only = True
            if any(p.kind not in _PAYABLE_PARTS for p in ability.cost):
                continue
            outputs = analysis.produces.get((state.id, ability.index))
            if not outputs or check_activation(analysis.state, state, ability):
                continue
            out.append(
                ManaSource(
                    permanent=state.id,
                    ability=ability.index,
                    outputs=tuple(m.as_tuple(LISTED_BOUND) for m in outputs),
                    activation_cost=ability.mana_cost,
                    life_cost=ability.life_cost,
                    snow=state.is_snow,
                    uses_permanent=ability.has_tap
                    or ability.has_untap
                    or any(p.kind == "sacrifice_self" for p in ability.cost),
                    spell_only=spell_only,
                )
            )
    return tuple(out)
