"""Deck analysis (``POST /v1/decks/analyze``): read a decklist, resolve its cards through the catalogue, and
answer its counts, curve, colored symbols, sources per color, castability (Karsten's model, exact) and
legality.

The parts live in modules of their own, named for what they hold: reading and resolving the decklist
(``deck_reading``), castability (``deck_castability``), legality (``deck_legality``) and the mana-base
advisor (``deck_manabase``, ``POST /v1/decks/manabase``). This module keeps the names callers import from
it (``analyze``, ``advise``).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.config import Settings
from app.rules.decks import deckstats, faces
from app.rules.values.symbols import COLORS
from app.schemas.decks import DeckAnalyzeAnswer, DeckAnalyzeRequest
from app.services.deck_castability import castability as deck_castability
from app.services.deck_legality import legality_answer, legality_data
from app.services.deck_reading import key, read

__all__ = ["analyze"]


def analyze(*, request: DeckAnalyzeRequest, session: Session, settings: Settings) -> DeckAnalyzeAnswer:
    """Read the deck and answer every part of the contract."""
    deck = read(request, session)
    pips = dict.fromkeys(COLORS, 0)
    values: dict[str, tuple[int | float | None, int]] = {}
    for h in deck.spells:
        cost = h.card.mana_cost
        if cost is not None:
            for c, n in deckstats.pips(cost).items():
                pips[c] += n * h.counts["main"]
        values[key(h)] = (cost.mana_value if cost is not None else 0, h.counts["main"])
    counts = {s: sum(h.counts[s] for h in deck.cards) for s in ("main", "sideboard", "commander")}
    if any(e.section == "maybeboard" for e in deck.entries):
        counts["maybeboard"] = sum(h.counts["maybeboard"] for h in deck.cards)
    castability = deck_castability(deck)
    fmt = deck.fmt
    return DeckAnalyzeAnswer(
        rules_edition=settings.rules_edition,
        data_version=deck.catalogue.data_version,
        cards=deck.lines,
        problems=deck.problems,
        counts=counts,
        lands=sum(h.counts["main"] for h in deck.lands if faces.is_land_card(h.card)),
        modal_lands=sum(h.counts["main"] for h in deck.lands if not faces.is_land_card(h.card)),
        curve=deckstats.curve(values),
        pips=pips,
        sources=deck.sources(),
        source_cards=deck.source_cards(),
        castability=castability,
        castability_model=deck.model,
        legality=(
            legality_answer(
                fmt, deck.cards, deck.commander_deck, legality_data(deck.catalogue), deck.warnings
            )
            if fmt
            else None
        ),
        warnings=deck.warnings,
    )
