"""Use cases of the mana cost language: parse loose input, list the symbols."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from app.rules.values.costs import ManaCost
from app.rules.values.symbols import ManaSymbol, SymbolKind, all_symbols, generic_symbol
from app.services.catalogue import Catalogue

_LISTED_NUMBERS = (*range(21), 100, 1_000_000)  # the numbers Scryfall's symbology lists


@dataclass(frozen=True, slots=True)
class ParsedCost:
    cost: ManaCost
    data_version: str


def parse_cost(*, session: Session, text: str) -> ParsedCost:
    """Loose input (``2WW``, ``2{g}2``) in canonical form; ManaCostSyntaxError names the bad symbol."""
    return ParsedCost(ManaCost.parse_loose(text), Catalogue(session).data_version)


def list_symbols() -> tuple[ManaSymbol, ...]:
    """Every symbol of CR 107.4 and the Un symbols: variables, numbers, then the rest."""
    symbols = all_symbols()
    variables = tuple(s for s in symbols if s.kind is SymbolKind.VARIABLE)
    rest = tuple(s for s in symbols if s.kind is not SymbolKind.VARIABLE)
    return variables + tuple(generic_symbol(n) for n in _LISTED_NUMBERS) + rest
