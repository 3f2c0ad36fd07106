"""A part of a cost that is not mana (CR 118.1), shared by ways to cast and permissions."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OtherCost:
    """A part of a cost that is not mana (CR 118.1): its text, and ``life`` when it is a life payment."""

    text: str
    life: int | None = None

    def __init__(self, text: str, life: int | None = None) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "life", life)
