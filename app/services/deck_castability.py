"""Castability on a deck's land kinds (Karsten's model, exact: ``app.rules.decks.castability``), one row per
part of a spell cast on its own, with the warnings of what the model cannot answer.

``castability(deck)`` answers the deck as read; the mana-base advisor (``app.services.deck_manabase``) asks
again with the lands its plan leaves.
"""

from __future__ import annotations

from app.rules.decks import castability as model
from app.rules.decks import deckstats, entering, faces
from app.rules.decks.castability_exact import HAND_SIZE
from app.rules.decks.castability_tapped import TappedKind, TooManyKinds, cast_probability_tapped
from app.rules.values.cards import Card
from app.schemas.decks import CastabilityOut
from app.schemas.warnings import DeckWarningOut
from app.services.deck_reading import Deck, Held, key, ref, sources

TAPPED_MODEL = "tapped-lands"


def castability(
    deck: Deck,
    lands: list[Held] | None = None,
    colors: dict[str, frozenset[str]] | None = None,
    spells: list[Held] | None = None,
) -> list[CastabilityOut]:
    """The deck's castability rows, with its own lands or with ``lands`` (whose colors are ``colors``), for
    its main-deck spells or for ``spells`` (the commander, which the advisor may be asked about)."""
    lands = deck.lands if lands is None else lands
    colors = deck.land_colors if colors is None else colors
    tapped = tapped_kinds(lands, colors, deck.warnings) if deck.model == TAPPED_MODEL else None
    return _castability(
        deck.spells if spells is None else spells,
        lands,
        colors,
        sources(lands, colors),
        deck_size=deck.deck_size,
        on_play=deck.on_play,
        commander=deck.commander_deck,
        warnings=deck.warnings,
        tapped=tapped,
    )


def tapped_kinds(
    lands: list[Held], colors: dict[str, frozenset[str]], warnings: list[DeckWarningOut]
) -> dict[TappedKind, int]:
    """The deck's lands as the ``tapped-lands`` model sees them (``app.rules.decks.entering``): how each
    enters, read from its text (a fetch land by how the land it finds enters, with the types of what it can
    find in this deck), its land types and whether it is basic; with a warning for each assumption."""
    by_key = {key(h): h for h in lands}
    reads: dict[str, tuple[entering.EntryRule, frozenset[str], bool]] = {}
    for h in lands:
        face = faces.land_face(h.card) or h.card.front
        types = frozenset(face.type_line.subtypes)
        basic = face.type_line.has_supertype("Basic")
        rule = entering.entry_rule(face.oracle_text)
        target = deckstats.fetch_target(face.oracle_text)
        if target is not None and rule.kind == entering.UNTAPPED:
            rule = entering.fetched_rule(face.oracle_text)
            for f in by_key.values():
                other = faces.land_face(f.card) or f.card.front
                other_basic = other.type_line.has_supertype("Basic")
                if f is not h and deckstats.fetchable(target, other.type_line.subtypes, other_basic):
                    types |= frozenset(other.type_line.subtypes)  # it becomes the land it finds
                    basic = basic or other_basic
        if rule.kind == entering.LIFE:
            warnings.append(
                DeckWarningOut(
                    card=h.card.name,
                    text=f"tapped-lands model: assumed the {rule.n} life is paid, so it enters untapped"
                    f" ({rule.sentence})",
                )
            )
        elif rule.kind == entering.UNKNOWN:
            warnings.append(
                DeckWarningOut(
                    card=h.card.name,
                    text="tapped-lands model: a condition not read, treated as entering tapped"
                    f" ({rule.sentence})",
                )
            )
        reads[key(h)] = (rule, types, basic)
    out: dict[TappedKind, int] = {}
    for h in lands:
        rule, types, basic = reads[key(h)]
        kind = TappedKind(colors[key(h)], rule, types, basic)
        out[kind] = out.get(kind, 0) + h.counts["main"]
    return out


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
    tapped: dict[TappedKind, int] | None = None,
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
            row = _castability_row(h.card, part, deck, sources, on_play, commander, warnings, tapped)
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
    tapped: dict[TappedKind, int] | None = None,
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
        if tapped is None:
            probability = model.cast_probability(deck, pips, turn, on_play=on_play, commander=commander)
        else:
            try:
                probability = cast_probability_tapped(
                    deck.deck_size, tapped, pips, turn, on_play=on_play, commander=commander
                )
            except TooManyKinds as exc:
                warnings.append(
                    DeckWarningOut(
                        card=name,
                        text="tapped-lands model: no probability, the exact computation's bound is"
                        f" passed: {exc}",
                    )
                )
        probability = None if probability is None else round(probability, 6)
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
