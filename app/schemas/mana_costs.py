"""Request and response models for the mana cost language (``/v1/mana-costs/parse``, ``/v1/symbols``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, field_validator

from app.rules.values.costs import MAX_COST_LENGTH, ManaCost
from app.rules.values.symbols import COLOR_NAMES, ManaSymbol, SymbolKind
from app.schemas.common import ComputedAnswer, StrictModel


class ParseRequest(StrictModel):
    """A mana cost to parse, loose (`2WW`, `2{g}2`) or in brace syntax."""

    mana_cost: Annotated[
        str, Field(max_length=MAX_COST_LENGTH, examples=["2WW", "{2}{W/U}{G/P}", "2{g}2"])
    ] = Field(
        description="The cost: brace symbols of CR 107.4, or loose input as Scryfall's parse-mana takes it."
    )

    @field_validator("mana_cost")
    @classmethod
    def _is_a_cost(cls, text: str) -> str:
        ManaCost.parse_loose(text)  # a ManaCostSyntaxError here is a malformed-cost problem at this path
        return text


class SymbolOut(BaseModel):
    """One mana symbol (CR 107.4): its text, kind, colors and share of mana value."""

    symbol: str = Field(description="The symbol as written, in braces.", examples=["{W/U}"])
    kind: SymbolKind = Field(
        description="What kind of symbol it is (generic, colored, hybrid, Phyrexian...)."
    )
    colors: list[str] = Field(description="The colors it has (CR 105.2; a hybrid symbol has both).")
    mana_value: int | float | None = Field(description="CR 202.3 share of mana value; null for {∞}.")
    generic: int = Field(0, description="Generic mana it stands for ({2} → 2; {2/W}'s generic half → 2).")
    description: str = Field(description="The symbol in words.")

    @classmethod
    def of(cls, sym: ManaSymbol) -> SymbolOut:
        hv = sym.half_value
        mv = None if hv is None else (hv // 2 if hv % 2 == 0 else hv / 2)
        return cls(
            symbol=sym.text,
            kind=sym.kind,
            colors=list(sym.colors),
            mana_value=mv,
            generic=sym.amount,
            description=describe(sym),
        )


class ParsedCostOut(ComputedAnswer):
    """A mana cost in canonical form with its mana value, colors and symbols."""

    mana_cost: str = Field(description="Canonical form.", examples=["{2}{W/U}{G/P}"])
    mana_value: int | float | None = Field(description="CR 202.3 (X is 0; half mana gives .5; null for {∞}).")
    infinite: bool = Field(description="True for a cost holding {∞} (its mana value is then null).")
    colors: list[str] = Field(description="The cost's colors (CR 105.2), W U B R G.")
    symbols: list[SymbolOut] = Field(description="Each symbol of the canonical cost, in order.")

    @classmethod
    def of(cls, cost: ManaCost, *, rules_edition: str, data_version: str) -> ParsedCostOut:
        return cls(
            mana_cost=str(cost),
            mana_value=cost.mana_value,
            infinite=cost.is_infinite,
            colors=list(cost.colors),
            symbols=[SymbolOut.of(s) for s in cost.symbols],
            rules_edition=rules_edition,
            data_version=data_version,
        )


class SymbolList(BaseModel):
    """Every mana symbol the service reads."""

    data: list[SymbolOut] = Field(description="The symbols.")
    has_more: bool = Field(False, description="Always false: the list is whole.")
    next_cursor: str | None = Field(None, description="Always null.")


def describe(sym: ManaSymbol) -> str:
    """A short English reading of the symbol (CR 107.4)."""
    names = [COLOR_NAMES[c] for c in sym.colors]
    match sym.kind:
        case SymbolKind.GENERIC:
            return f"{sym.amount} generic mana"
        case SymbolKind.VARIABLE:
            return f"{sym.text[1]} generic mana, chosen as the spell is cast (CR 107.3)"
        case SymbolKind.COLORED:
            return f"one {names[0]} mana"
        case SymbolKind.COLORLESS:
            return "one colorless mana; only colorless mana pays it (CR 107.4c)"
        case SymbolKind.SNOW:
            return "one mana from a snow source (CR 107.4h)"
        case SymbolKind.HYBRID:
            return f"one {names[0]} or one {names[1]} mana (CR 107.4e)"
        case SymbolKind.MONO_HYBRID:
            return f"one {names[0]} mana or {sym.amount} generic mana (CR 107.4e)"
        case SymbolKind.COLORLESS_HYBRID:
            return f"one {names[0]} mana or one colorless mana (CR 107.4e)"
        case SymbolKind.PHYREXIAN:
            return f"one {names[0]} mana or 2 life (CR 107.4f)"
        case SymbolKind.HYBRID_PHYREXIAN:
            return f"one {names[0]} or one {names[1]} mana, or 2 life (CR 107.4f)"
        case SymbolKind.HALF:
            return f"half of one {names[0]} mana" if names else "half of one generic mana"
        case SymbolKind.INFINITY:
            return "infinitely much generic mana"
    return sym.text  # pragma: no cover
