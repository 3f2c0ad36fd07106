"""Deck analysis (``POST /v1/decks/analyze``): read a decklist, resolve its cards through the catalogue, and
answer its counts, curve, colored symbols, sources per color, castability (Karsten's model, exact) and
legality.

Sources (CR 106.7): the deck's distinct main-deck lands are put on one board under one player (with the
deck's commander, for Command Tower) and ``app.rules.mana.production`` says what each could produce, so duals,
triomes, filters, Reflecting Pool and any-color lands count from their own mana abilities; a fetch land
counts for what it could fetch (``app.rules.decks.deckstats.fetch_colors``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import AmbiguousCard, InputError, TooLarge, UnknownCard
from app.rules.decks import castability as model
from app.rules.decks import deckstats, legality
from app.rules.decks.decklist import CountOutOfRange, DecklistTooLarge, Entry, check_count, parse_decklist
from app.rules.mana.abilities import card_identity
from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card
from app.rules.values.symbols import COLORS
from app.schemas.decks import (
    MAX_JSON_CARDS,
    CardRef,
    CastabilityOut,
    DeckAnalyzeAnswer,
    DeckAnalyzeRequest,
    DeckLineOut,
    DeckProblemOut,
    DeckWarningOut,
    LegalityOut,
    LegalityReasonOut,
    SuggestionOut,
)
from app.services.catalogue import Catalogue

COMMANDER_DECK_SIZE = 99
SUGGESTED_LINES = 25
"""Unknown lines that get suggestions (a close-name search each); later ones get none, with a warning."""


@dataclass(slots=True)
class _Held:
    """One distinct card of the deck and its copies per section."""

    card: Card
    counts: dict[str, int] = field(default_factory=lambda: {"main": 0, "sideboard": 0, "commander": 0})


def load_chart() -> None:
    """Import the chart's drawing library (matplotlib: about 2 s on a busy machine) if not yet done. The
    route calls it in a worker thread before the budgeted work: loading a library is not the request's
    work, and it happens once per process (not at start-up, which it would slow for every worker)."""
    from app.services import deck_chart  # noqa: F401


def analyze_or_chart(
    *, request: DeckAnalyzeRequest, session: Session, settings: Settings, chart: bool
) -> DeckAnalyzeAnswer | bytes:
    """``analyze``, or with ``chart`` its curve as an SVG drawing: drawn in the same unit of work, so that
    the drawing (seconds for a large deck) runs within the compute boundary, never on the event loop."""
    answer = analyze(request=request, session=session, settings=settings)
    if not chart:
        return answer
    from app.services import deck_chart  # matplotlib loads on the first chart, not at start-up

    return deck_chart.render_svg(answer)


def analyze(*, request: DeckAnalyzeRequest, session: Session, settings: Settings) -> DeckAnalyzeAnswer:
    """Read the deck and answer every part of the contract."""
    entries, problems = _entries(request)
    catalogue = Catalogue(session)
    lines: list[DeckLineOut] = []
    held: dict[str, _Held] = {}
    unknown = 0
    seen: dict[str, Card | UnknownCard | AmbiguousCard] = {}  # each distinct name is looked up once
    for e in entries:
        found = seen.get(e.name)
        if found is None:
            try:
                found = catalogue.by_name(e.name, suggest=unknown < SUGGESTED_LINES)
            except UnknownCard as exc:
                unknown += 1
                found = exc
            except AmbiguousCard as exc:
                found = exc
            seen[e.name] = found
        if isinstance(found, UnknownCard):
            problems.append(_problem(e, "unknown-card", found, found.extra.get("suggestions") or []))
            continue
        if isinstance(found, AmbiguousCard):
            problems.append(_problem(e, "ambiguous-card", found, found.extra.get("candidates") or []))
            continue
        card = found
        key = card.oracle_id or card.name
        held.setdefault(key, _Held(card)).counts[e.section] += e.count
        lines.append(DeckLineOut(line=e.line, count=e.count, section=e.section, card=_ref(card)))
    problems.sort(key=lambda p: p.line)
    cards = list(held.values())
    warnings: list[DeckWarningOut] = []
    if unknown > SUGGESTED_LINES:
        warnings.append(
            DeckWarningOut(text=f"only the first {SUGGESTED_LINES} unknown lines have suggestions")
        )
    commander_deck = any(h.counts["commander"] for h in cards) or (
        request.format is not None and legality.is_commander_format(request.format)
    )
    main = [h for h in cards if h.counts["main"]]
    lands = [h for h in main if is_land(h.card)]
    spells = [h for h in main if not is_land(h.card)]
    land_colors = _land_colors(lands, [h.card for h in cards if h.counts["commander"]], warnings)
    sources = {c: sum(h.counts["main"] for h in lands if c in land_colors[_key(h)]) for c in COLORS}
    pips = dict.fromkeys(COLORS, 0)
    values: dict[str, tuple[int | float | None, int]] = {}
    for h in spells:
        cost = h.card.mana_cost
        if cost is not None:
            for c, n in deckstats.pips(cost).items():
                pips[c] += n * h.counts["main"]
        values[_key(h)] = (cost.mana_value if cost is not None else 0, h.counts["main"])
    counts = {s: sum(h.counts[s] for h in cards) for s in ("main", "sideboard", "commander")}
    if commander_deck and counts["main"] != COMMANDER_DECK_SIZE:
        warnings.append(
            DeckWarningOut(
                text=f"castability reads a Commander library of {COMMANDER_DECK_SIZE} cards;"
                f" the main deck has {counts['main']}"
            )
        )
    castability = _castability(
        spells,
        lands,
        land_colors,
        sources,
        deck_size=COMMANDER_DECK_SIZE if commander_deck else counts["main"],
        on_play=request.play == "first",
        commander=commander_deck,
        warnings=warnings,
    )
    return DeckAnalyzeAnswer(
        rules_edition=settings.rules_edition,
        data_version=catalogue.data_version,
        cards=lines,
        problems=problems,
        counts=counts,
        lands=sum(h.counts["main"] for h in lands),
        curve=deckstats.curve(values),
        pips=pips,
        sources=sources,
        castability=castability,
        legality=_legality(request.format, cards, commander_deck, warnings) if request.format else None,
        warnings=warnings,
    )


def _entries(request: DeckAnalyzeRequest) -> tuple[list[Entry], list[DeckProblemOut]]:
    if request.cards is not None:
        if len(request.cards) > MAX_JSON_CARDS:
            raise TooLarge(
                f"cards has {len(request.cards)} entries; at most {MAX_JSON_CARDS}",
                errors=[{"loc": ["body", "cards"], "msg": "too many entries", "type": "too_long"}],
            )
        out = []
        for i, c in enumerate(request.cards):
            try:
                check_count(c.count, i + 1)
            except CountOutOfRange as exc:
                raise InputError(
                    str(exc),
                    errors=[{"loc": ["body", "cards", i, "count"], "msg": str(exc), "type": "range"}],
                ) from exc
            section = "sideboard" if c.section == "companion" else c.section
            out.append(Entry(i + 1, c.count, c.card, section, c.card))
        return out, []
    assert request.decklist is not None
    try:
        deck = parse_decklist(request.decklist)
    except DecklistTooLarge as exc:
        raise TooLarge(
            str(exc), errors=[{"loc": ["body", "decklist"], "msg": str(exc), "type": "too_long"}]
        ) from exc
    except CountOutOfRange as exc:
        raise InputError(
            str(exc),
            errors=[{"loc": ["body", "decklist"], "msg": str(exc), "type": "range", "line": exc.line}],
        ) from exc
    problems = [
        DeckProblemOut(line=p.line, text=p.text, type="/problems/unreadable-line", detail=p.detail)
        for p in deck.problems
    ]
    return list(deck.entries), problems


def _problem(
    e: Entry, slug: str, exc: UnknownCard | AmbiguousCard, found: Sequence[dict[str, str]]
) -> DeckProblemOut:
    return DeckProblemOut(
        line=e.line,
        text=e.text,
        type=f"/problems/{slug}",
        detail=exc.detail,
        suggestions=[SuggestionOut(name=s["name"], oracle_id=s["oracle_id"]) for s in found],
    )


def _ref(card: Card) -> CardRef:
    return CardRef(name=card.name, oracle_id=card.oracle_id)


def _key(h: _Held) -> str:
    return h.card.oracle_id or h.card.name


def is_land(card: Card) -> bool:
    """CR 205.2a, 712.8: a card is a land card by its front face's types (a modal DFC spell//land is not)."""
    return card.front.type_line.has_type("Land")


def _land_colors(
    lands: list[_Held], commanders: list[Card], warnings: list[DeckWarningOut]
) -> dict[str, frozenset[str]]:
    """Per land (by key), the colors it could produce (CR 106.7), fetches by what they could fetch."""
    board = Board(
        permanents=tuple(Permanent(id=_key(h), card=h.card) for h in lands),
        players=(Player("you", commander=tuple(commanders)),),
    )
    analysis = analyze_board(board)
    for w in analysis.warnings:
        warnings.append(
            DeckWarningOut(card=board.get(w.permanent).card.name if w.permanent else None, text=w.reason)
        )
    produce = {k: frozenset(t for t in v if t in COLORS) for k, v in analysis.could_produce.items()}
    deck_lands = [
        (h.card.front.type_line.subtypes, h.card.front.type_line.has_supertype("Basic"), produce[_key(h)])
        for h in lands
    ]
    out = dict(produce)
    for h in lands:
        target = deckstats.fetch_target(" ".join(f.oracle_text for f in h.card.faces))
        if target is not None:
            out[_key(h)] = produce[_key(h)] | deckstats.fetch_colors(target, deck_lands)
    return out


def _castability(
    spells: list[_Held],
    lands: list[_Held],
    land_colors: dict[str, frozenset[str]],
    sources: dict[str, int],
    *,
    deck_size: int,
    on_play: bool,
    commander: bool,
    warnings: list[DeckWarningOut],
) -> list[CastabilityOut]:
    """Karsten's model (``app.rules.decks.castability``) on the deck's land kinds: lands grouped by the colors
    they could produce, a dual counting once for a multicolored cost."""
    kinds: dict[frozenset[str], int] = {}
    for h in lands:
        colors = land_colors[_key(h)]
        kinds[colors] = kinds.get(colors, 0) + h.counts["main"]
    land_count = sum(kinds.values())
    out: list[CastabilityOut] = []
    if deck_size <= 0 or land_count > deck_size:
        warnings.append(DeckWarningOut(text=f"no castability: {land_count} lands in a deck of {deck_size}"))
        return out
    if not model.HAND_SIZE <= deck_size <= model.MAX_DECK_SIZE:
        warnings.append(DeckWarningOut(text=f"no castability: a deck of {deck_size} cards"))
        return out
    deck = model.DeckMana(deck_size, kinds)
    for h in spells:
        cost = h.card.mana_cost
        if cost is None:
            continue
        turn = max(1, int(cost.mana_value or 0))
        if turn > model.MAX_TURN:
            warnings.append(
                DeckWarningOut(card=h.card.name, text=f"no castability after turn {model.MAX_TURN}")
            )
            continue
        pips, left_out = deckstats.castability_pips(cost)
        if left_out:
            warnings.append(
                DeckWarningOut(
                    card=h.card.name,
                    text="hybrid and Phyrexian symbols need no one color (CR 107.4e, 107.4f): left out",
                )
            )
        probability = model.cast_probability(deck, pips, turn, on_play=on_play, commander=commander)
        needed = {
            c: model.sources_needed(deck_size, land_count, n, turn, on_play=on_play, commander=commander)
            for c, n in pips.items()
        }
        meets = all(v is not None and sources[c] >= v for c, v in needed.items())
        out.append(
            CastabilityOut(
                card=_ref(h.card),
                cost=str(cost),
                turn=turn,
                probability=round(probability, 6),
                sources_needed=needed,
                sources={c: sources[c] for c in pips},
                meets=meets,
            )
        )
    return out


def _legality(
    fmt: str, cards: list[_Held], commander_deck: bool, warnings: list[DeckWarningOut]
) -> LegalityOut:
    if cards and not any(fmt == f for h in cards for f, _ in h.card.legalities):
        warnings.append(DeckWarningOut(text=f"no card of the deck lists format {fmt!r}: is it a format key?"))
    rows = []
    for h in cards:
        status = dict(h.card.legalities).get(fmt)
        rows.append(
            legality.DeckCard(
                name=h.card.name,
                main=h.counts["main"],
                sideboard=h.counts["sideboard"],
                commander=h.counts["commander"],
                status=status if status in ("legal", "banned", "restricted") else None,
                basic_land=h.card.front.type_line.has_supertype("Basic") and is_land(h.card),
                any_number=any(legality.any_number(f.oracle_text) for f in h.card.faces),
                identity=frozenset(card_identity(h.card)),
            )
        )
    reasons = legality.check(fmt, rows, commander_deck=commander_deck)
    return LegalityOut(
        format=fmt,
        legal=not reasons,
        reasons=[LegalityReasonOut(card=r.card, reason=r.reason, rule=r.rule) for r in reasons],
    )
