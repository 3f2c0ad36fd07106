"""The one shape of a warning, in every answer (costs, analysis, payments, decks, scenarios).

Each warning has ``card`` (the card's name, or null), ``permanent`` (the id on the board, or null for the
spell or a deck line), ``text`` (the sentence concerned, reminder text removed), ``reason`` (what was
assumed or left out) and ``rule`` (the Comprehensive Rules rule, when one applies). The answers' older
warning models add the fields a 1.2 warning had beside them (``source`` and ``message`` for costs and
payments), filled from the new ones and the new ones from them, so a warning made either way has both.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, model_validator


class WarningShape(BaseModel):
    """Something the service did not read, or read with an assumption."""

    card: str | None = Field(None, description="The card's name, or null (a warning about no one card).")
    permanent: str | None = Field(
        None, description="The permanent's id on the board, or null (the spell being cast, or a deck line)."
    )
    text: str = Field(description="The sentence concerned (reminder text removed), or what was left out.")
    reason: str = Field("", description="What was assumed or left out.")
    rule: str | None = Field(None, description="The Comprehensive Rules rule concerned, when one applies.")


def _fill(data: Any, pairs: tuple[tuple[str, str], ...]) -> Any:
    """Each pair (new, old) filled from the other when only one is given (a warning made the 1.2 way or
    the 1.3 way has both)."""
    if not isinstance(data, dict):
        return data
    out = dict(data)
    for new, old in pairs:
        if out.get(new) is None and out.get(old) is not None:
            out[new] = out[old]
        elif out.get(old) is None and out.get(new) is not None and old not in out:
            out[old] = out[new]
    return out


class CostWarningOut(WarningShape):
    """A card text that was not understood, or was read with an assumption (costs and payments)."""

    source: str | None = Field(
        None,
        description="The permanent whose text was not understood (null: the spell). Same as `permanent`.",
    )
    card: str = Field(description="The card whose text it is.")
    message: str = Field("", description="What was assumed or left out. Same as `reason`.")

    @model_validator(mode="before")
    @classmethod
    def _both_shapes(cls, data: Any) -> Any:
        return _fill(data, (("permanent", "source"), ("reason", "message")))


class WarningOut(WarningShape):
    """A text of a permanent that was not understood, so has no effect here (analysis)."""

    permanent: str = Field(description="The permanent's id.")


class DeckWarningOut(WarningShape):
    """Something the analysis did not understand or had to assume (decks). ``text`` keeps its 1.2 meaning:
    what was assumed or left out; ``reason`` says the same."""

    text: str = Field(description="What was assumed or left out.")

    @model_validator(mode="before")
    @classmethod
    def _both_shapes(cls, data: Any) -> Any:
        return _fill(data, (("reason", "text"),))
