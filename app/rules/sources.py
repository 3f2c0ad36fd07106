"""The mana sources a player can use to pay (CR 605, 106.12): the input of the payment solver.

A source is one activatable mana ability (CR 605.1a) of a permanent the player controls, with what it
produces after replacement effects and triggered mana abilities (``production.analyze_board``). Left out,
each for a stated reason: abilities that cannot be activated now (CR 107.5, 107.6, 302.6, 119.4), texts not
understood (their permanents are in the analysis warnings), abilities producing nothing, mana with a
spending restriction (CR 106.6: the solver does not know what it pays for), and costs the solver cannot
pay (sacrificing another permanent, discarding, tapping another creature...).
"""

from __future__ import annotations

from app.rules.abilities import check_activation
from app.rules.board import Board
from app.rules.payment import ManaSource
from app.rules.production import BoardAnalysis, analyze_board

LISTED_BOUND = 1_000
"""The solver lists mana symbol by symbol: one activation's mana is cut to this many of each type (a
production beyond it, a Forest under ten Mana Reflections, pays any cost of up to this much alone)."""

_PAYABLE_PARTS = frozenset({"tap", "untap", "mana", "life", "sacrifice_self"})


def payment_sources(
    board: Board, player: str, analysis: BoardAnalysis | None = None
) -> tuple[ManaSource, ...]:
    """Every mana ability ``player`` could activate to pay, in board order then ability order."""
    analysis = analysis if analysis is not None else analyze_board(board)
    out: list[ManaSource] = []
    for state in analysis.state.states:
        if state.controller != player:
            continue
        for ability in state.abilities:
            if not ability.is_mana_ability or ability.mana is None or ability.mana.restriction is not None:
                continue
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
                )
            )
    return tuple(out)
