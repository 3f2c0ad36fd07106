"""Activated abilities of permanents and whether they can be activated (CR 602, 605, 305.6, 107.5, 302.6).

The public names of four modules, importable from here as before their split: the values
(``ability_values``: CR 602.1, 613.1), the board read with layers 4 and 6 (``board_reading``: CR 613),
the conditions and amounts read from the board (``ability_conditions``: CR 602.5b, 700.5, 903.4) and the
activation checks (``activation_checks``: CR 107.5, 107.6, 302.6, 118.3, 602.5)."""

from __future__ import annotations

from app.rules.mana.ability_conditions import (
    amount_of,
    card_identity,
    commander_identity,
    devotion,
    holds,
    unstated_count,
)
from app.rules.mana.ability_values import (
    ORIGIN_GRANTED,
    ORIGIN_LAND_TYPE,
    ORIGIN_PRINTED,
    Ability,
    BoardState,
    PermanentState,
    Reason,
    Warning,
)
from app.rules.mana.activation_checks import (
    activation_reasons,
    candidates,
    check_activation,
    condition_reasons,
    existence_gate,
    existence_reasons,
    picks,
    prohibition_reasons,
    sacrifice_reasons,
)
from app.rules.mana.board_reading import (
    own_abilities,
    read_board,
)

__all__ = [
    "ORIGIN_GRANTED",
    "ORIGIN_LAND_TYPE",
    "ORIGIN_PRINTED",
    "Ability",
    "BoardState",
    "PermanentState",
    "Reason",
    "Warning",
    "activation_reasons",
    "amount_of",
    "candidates",
    "card_identity",
    "check_activation",
    "commander_identity",
    "condition_reasons",
    "devotion",
    "existence_gate",
    "existence_reasons",
    "holds",
    "own_abilities",
    "picks",
    "prohibition_reasons",
    "read_board",
    "sacrifice_reasons",
    "unstated_count",
]
