"""Castability on a deck's land kinds (Karsten's model, exact: ``app.rules.decks.castability``), one row per
part of a spell cast on its own, with the warnings of what the model cannot answer.

``castability(deck)`` answers the deck as read; the mana-base advisor (``app.services.deck_manabase``) asks
again with the lands its plan leaves.
"""

from __future__ import annotations

from app.rules.decks import castability as model
from app.rules.decks import deckstats, faces
from app.rules.decks.castability_exact import HAND_SIZE
from app.rules.values.cards import Card
from app.schemas.decks import CastabilityOut
from app.schemas.warnings import DeckWarningOut
from app.services.deck_reading import Deck, Held, key, ref, sources


def castability(
    deck: Deck, lands: list[Held] | None = None, colors: dict[str, frozenset[str]] | None = None
) -> list[CastabilityOut]:
    """The deck's castability rows, with its own lands or with ``lands`` (whose colors are ``colors``)."""
    lands = deck.lands if lands is None else lands
    colors = deck.land_colors if colors is None else colors
    return _castability(
        deck.spells,
        lands,
        colors,
        sources(lands, colors),
        deck_size=deck.deck_size,
        on_play=deck.on_play,
        commander=deck.commander_deck,
        warnings=deck.warnings,
    )


def _castability(
    spells: list[Held],
    lands: list[Held],
    land_colors: dict[str, frozenset[str]],
    sources: dict[str, int],
    *,
    deck_size: int,
    on_play: bool,
    commander: bool,
    warnings: list[DeckWarningOut],
) -> list[CastabilityOut]:
    """Karsten's model (``app.rules.decks.castability``) on the deck's land kinds: lands (modal spell // land
    cards among them) grouped by the colors they could produce, a dual counting once for a multicolored
    cost; one row per part of a card cast on its own (``app.rules.decks.faces``: split halves, fuse,
    Adventures, modal faces)."""
    kinds: dict[frozenset[str], int] = {}
    for h in lands:
        colors = land_colors[key(h)]
        kinds[colors] = kinds.get(colors, 0) + h.counts["main"]
    land_count = sum(kinds.values())
    out: list[CastabilityOut] = []
    if deck_size <= 0 or land_count > deck_size:
        warnings.append(DeckWarningOut(text=f"no castability: {land_count} lands in a deck of {deck_size}"))
        return out
    if not HAND_SIZE <= deck_size <= model.MAX_DECK_SIZE:
        warnings.append(DeckWarningOut(text=f"no castability: a deck of {deck_size} cards"))
        return out
    if land_count == 0:
        warnings.append(
            DeckWarningOut(
                text="the deck has no lands yet: castability is absent (probability null), as no game"
                " reaches a land to cast a spell with"
            )
        )
    deck = model.DeckMana(deck_size, kinds)
    for h in spells:
        for part in faces.castables(h.card):
            row = _castability_row(h.card, part, deck, sources, on_play, commander, warnings)
            if row is not None:
                out.append(row)
    return out


def _castability_row(
    card: Card,
    part: faces.Castable,
    deck: model.DeckMana,
    sources: dict[str, int],
    on_play: bool,
    commander: bool,
    warnings: list[DeckWarningOut],
) -> CastabilityOut | None:
    """One castable part's row; a turn beyond the model's range gives none, a turn no game reaches with
    this many lands gives a null probability (the model conditions on having the lands), both with a
    warning: never an error of the whole deck."""
    cost = part.cost
    name = part.face or card.name
    turn = max(1, int(cost.mana_value or 0))
    if turn > model.MAX_TURN:
        warnings.append(DeckWarningOut(card=name, text=f"no castability after turn {model.MAX_TURN}"))
        return None
    pips, left_out = deckstats.castability_pips(cost)
    if left_out:
        warnings.append(
            DeckWarningOut(
                card=name,
                text="hybrid and Phyrexian symbols need no one color (CR 107.4e, 107.4f): left out",
            )
        )
    land_count = deck.land_count
    probability: float | None = None
    needed: dict[str, int | None] = dict.fromkeys(pips)
    if land_count >= turn:
        probability = round(model.cast_probability(deck, pips, turn, on_play=on_play, commander=commander), 6)
        needed = {
            c: model.sources_needed(deck.deck_size, land_count, n, turn, on_play=on_play, commander=commander)
            for c, n in pips.items()
        }
    elif land_count:
        warnings.append(
            DeckWarningOut(
                card=name,
                text=f"no probability on turn {turn}: the deck has {land_count} lands, so no game has"
                f" {turn} lands (the model's condition)",
            )
        )
    meets = probability is not None and all(v is not None and sources[c] >= v for c, v in needed.items())
    return CastabilityOut(
        card=ref(card),
        face=part.face,
        fused=part.fused,
        rule=part.rule,
        cost=str(cost),
        turn=turn,
        probability=probability,
        sources_needed=needed,
        sources={c: sources[c] for c in pips},
        meets=meets,
    )
