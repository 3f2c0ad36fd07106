"""The rules core's exceptions: every one a ``ValueError``, each kind for one way input can be wrong.

Modelled on python-chess (``InvalidMoveError`` / ``IllegalMoveError`` / ``AmbiguousMoveError``): callers can
catch ``ValueError`` broadly or a kind precisely, and the service maps each kind to one problem type.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error raised by ``app.rules``."""


class ManaCostSyntaxError(RulesError):
    """Text that is not a mana cost (CR 107.4): names the offending symbol and its 0-based position."""

    def __init__(self, message: str, *, symbol: str, position: int) -> None:
        super().__init__(message)
        self.symbol = symbol
        self.position = position


class IllegalError(RulesError):
    """What was asked breaks a rule; ``rule`` names it (``"601.2f"``, ``"ruling:richard-garfield-phd"``)."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class AmbiguousError(RulesError):
    """The input could mean several things and the rules core will not pick one silently."""

    def __init__(self, message: str, *, candidates: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.candidates = candidates


class InvalidChoiceError(RulesError):
    """A value chosen for a card (a creature type, a character, a face...) is not a legal choice."""

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.field = field
