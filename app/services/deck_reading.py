"""A decklist read and resolved (``read``): its entries, every name looked up once in the catalogue, the
problems of lines that name no card, and what the rules need of the deck: its cards per section, lands and
spells, the colors each land could produce, its size and whether it is a Commander deck.

What analysis (``app.services.decks``), castability (``app.services.deck_castability``) and the mana-base
advisor (``app.services.deck_manabase``) share.

Sources (CR 106.7): the deck's distinct main-deck lands are put on one board under one player (with the
deck's commander, for Command Tower) and ``app.rules.mana.production`` says what each could produce, so duals,
triomes, filters, Reflecting Pool and any-color lands count from their own mana abilities; a fetch land
counts for what it could fetch in this deck (``app.rules.decks.deckstats.fetch_colors``); a card with a land
on each face (the Pathways) counts for each face's colors (CR 712.12).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from sqlalchemy.orm import Session

from app.errors import AmbiguousCard, InputError, TooLarge, UnknownCard
from app.rules import deadline
from app.rules.decks import deckstats, faces, legality
from app.rules.decks.decklist import (
    SECTIONS,
    CountOutOfRange,
    DecklistTooLarge,
    Entry,
    check_count,
    companion_once,
    parse_decklist,
    split_name,
)
from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.symbols import COLORS
from app.schemas.decks import (
    MAX_JSON_CARDS,
    CardRef,
    DeckAnalyzeRequest,
    DeckLineOut,
    DeckProblemOut,
    SourceCardOut,
    SuggestionOut,
)
from app.schemas.warnings import DeckWarningOut
from app.services.catalogue import Catalogue

COMMANDER_DECK_SIZE = 99
SUGGESTED_LINES = 25
"""Unknown lines that get suggestions (a close-name search each); later ones get none, with a warning."""


@dataclass(slots=True)
class Held:
    """One distinct card of the deck and its copies per section."""

    card: Card
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SECTIONS, 0))


@dataclass(slots=True)
class Deck:
    """A request's deck read and resolved: what analysis and the advisor share."""

    catalogue: Catalogue
    fmt: str | None
    entries: list[Entry]
    lines: list[DeckLineOut]
    problems: list[DeckProblemOut]
    cards: list[Held]
    warnings: list[DeckWarningOut]
    commander_deck: bool
    lands: list[Held]
    """Main-deck cards played as lands: land cards and modal spell // land cards."""
    spells: list[Held]
    land_colors: dict[str, frozenset[str]]
    deck_size: int
    on_play: bool
    land_reading: LandReading
    model: str = "karsten-2022"

    def sources(self) -> dict[str, int]:
        return sources(self.lands, self.land_colors)

    def source_cards(self) -> dict[str, list[SourceCardOut]]:
        """Per color, the main-deck lands counted as its sources: for a card with a land on each face the
        faces that produce it, for a fetch land the deck's lands it can find that produce it."""
        names = {key(h): h.card.name for h in self.lands}
        out: dict[str, list[SourceCardOut]] = {c: [] for c in COLORS}
        for h in self.lands:
            k = key(h)
            per_face = self.land_reading.face_colors.get(k, {})
            finds = self.land_reading.finds.get(k)
            for c in COLORS:
                if c not in self.land_colors[k]:
                    continue
                out[c].append(
                    SourceCardOut(
                        card=ref(h.card),
                        count=h.counts["main"],
                        faces=[f for f, colors in per_face.items() if c in colors],
                        finds=None
                        if finds is None
                        else [names[f] for f in finds if c in self.land_colors[f]],
                    )
                )
        return out


def sources(lands: list[Held], colors: dict[str, frozenset[str]]) -> dict[str, int]:
    """The main-deck lands that could produce each color."""
    return {c: sum(h.counts["main"] for h in lands if c in colors[key(h)]) for c in COLORS}


@dataclass(slots=True)
class _Resolved:
    """A deck's entries looked up in the catalogue: the lines read, the cards they name, the problems."""

    lines: list[DeckLineOut] = field(default_factory=list)
    held: dict[str, Held] = field(default_factory=dict)
    unknown: int = 0
    """Distinct unknown names, the first ``SUGGESTED_LINES`` of which get suggestions."""


def read(request: DeckAnalyzeRequest, session: Session) -> Deck:
    """Read the decklist, resolve every name once, and derive what the rules need of the deck."""
    fmt = _format(request)
    entries, problems, notes = _entries(request)
    catalogue = Catalogue(session)
    resolved = _resolve(entries, catalogue, problems)
    problems.sort(key=lambda p: p.line)
    cards = list(resolved.held.values())
    warnings = [DeckWarningOut(text=n) for n in notes]
    if request.decklist is not None and (fmt is None or legality.is_commander_format(fmt)):
        note = _mtgo_commander(cards, resolved.lines)
        if note is not None:
            warnings.append(DeckWarningOut(text=note))
    if resolved.unknown > SUGGESTED_LINES:
        warnings.append(
            DeckWarningOut(text=f"only the first {SUGGESTED_LINES} unknown lines have suggestions")
        )
    commander_deck = any(h.counts["commander"] for h in cards) or (
        fmt is not None and legality.is_commander_format(fmt)
    )
    main = [h for h in cards if h.counts["main"]]
    lands = [h for h in main if faces.land_face(h.card) is not None]  # modal spell // land cards too
    main_count = sum(h.counts["main"] for h in cards)
    reading = read_lands(lands, commanders(cards), warnings)
    if commander_deck and main_count != COMMANDER_DECK_SIZE:
        warnings.append(
            DeckWarningOut(
                text=f"castability reads a Commander library of {COMMANDER_DECK_SIZE} cards;"
                f" the main deck has {main_count}"
            )
        )
    return Deck(
        catalogue=catalogue,
        fmt=fmt,
        entries=entries,
        lines=resolved.lines,
        problems=problems,
        cards=cards,
        warnings=warnings,
        commander_deck=commander_deck,
        lands=lands,
        spells=[h for h in main if not faces.is_land_card(h.card)],
        land_colors=reading.colors,
        deck_size=COMMANDER_DECK_SIZE if commander_deck else main_count,
        on_play=request.play == "first",
        land_reading=reading,
        model=request.castability_model,
    )


MTGO_COMMANDER_DECK: Final = 100


def _mtgo_commander(cards: list[Held], lines: list[DeckLineOut]) -> str | None:
    """MTGO exports a Commander deck (``.txt`` and ``.dek``) with its commander in the sideboard. A list with
    no commander section whose 100 cards are a main deck and a sideboard holding only its commander (one
    legendary card) or two partners (CR 903.3: "a legendary creature card"; 702.124: partners) is read as
    a Commander deck: the sideboard cards become the commander, with a note. Returns the note, or None."""
    if any(h.counts["commander"] for h in cards):
        return None
    side = [h for h in cards if h.counts["sideboard"]]
    main = sum(h.counts["main"] for h in cards)
    side_copies = sum(h.counts["sideboard"] for h in side)
    if not 1 <= len(side) <= 2 or side_copies != len(side) or main + side_copies != MTGO_COMMANDER_DECK:
        return None
    if not all(_can_command(h.card) for h in side):
        return None
    for h in side:
        h.counts["commander"] += 1
        h.counts["sideboard"] -= 1
    moved = {h.card.oracle_id or h.card.name for h in side}
    for i, line in enumerate(lines):
        if line.section == "sideboard" and (line.card.oracle_id or line.card.name) in moved:
            lines[i] = line.model_copy(update={"section": "commander"})
    names = " and ".join(h.card.name for h in side)
    return (
        f"read as a Commander deck (MTGO form): the {MTGO_COMMANDER_DECK}-card list's sideboard holds only"
        f" {names}, read as its commander"
    )


def _can_command(card: Card) -> bool:
    """A card that can be a commander: a legendary creature (CR 903.3), or one whose text says it can be."""
    front = card.front
    legendary_creature = front.type_line.has_supertype("Legendary") and front.type_line.has_type("Creature")
    return legendary_creature or "can be your commander" in front.oracle_text.lower()


def _resolve(entries: list[Entry], catalogue: Catalogue, problems: list[DeckProblemOut]) -> _Resolved:
    """Look each distinct name up once; a line naming no card, or several, adds to ``problems``."""
    resolved = _Resolved()
    seen: dict[str, Card | UnknownCard | AmbiguousCard] = {}
    for e in entries:
        found = seen.get(e.name)
        if found is None:
            found = seen[e.name] = _look_up(e.name, catalogue, resolved)
        if isinstance(found, UnknownCard):
            problems.append(_problem(e, "unknown-card", found, found.extra.get("suggestions") or []))
        elif isinstance(found, AmbiguousCard):
            problems.append(_problem(e, "ambiguous-card", found, found.extra.get("candidates") or []))
        else:
            held = resolved.held.setdefault(found.oracle_id or found.name, Held(found))
            held.counts[e.section] += e.count
            resolved.lines.append(
                DeckLineOut(
                    line=e.line, count=e.count, section=e.section, card=ref(found), companion=e.companion
                )
            )
    return resolved


def _look_up(name: str, catalogue: Catalogue, resolved: _Resolved) -> Card | UnknownCard | AmbiguousCard:
    """The card ``name`` names, or why none: suggestions only for the first unknown names (each a search)."""
    try:
        return catalogue.by_name(name, suggest=resolved.unknown < SUGGESTED_LINES)
    except UnknownCard as exc:
        resolved.unknown += 1
        return exc
    except AmbiguousCard as exc:
        return exc


def commanders(cards: list[Held]) -> list[Card]:
    return [h.card for h in cards if h.counts["commander"]]


def _entries(request: DeckAnalyzeRequest) -> tuple[list[Entry], list[DeckProblemOut], tuple[str, ...]]:
    """The request's entries (its JSON ``cards`` or its pasted ``decklist``), the problems of lines that
    could not be read, and the reader's notes."""
    if request.cards is not None:
        json_notes: list[str] = []
        return _json_entries(request, json_notes), [], tuple(json_notes)
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
    return list(deck.entries), problems, deck.notes


def _json_entries(request: DeckAnalyzeRequest, notes: list[str]) -> list[Entry]:
    assert request.cards is not None
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
        out.append(
            Entry(
                i + 1,
                c.count,
                split_name(c.card.strip()),
                section,
                c.card,
                companion=c.section == "companion",
            )
        )
    if any(e.companion for e in out):
        out = companion_once(out, notes)
    return out


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


def _format(request: DeckAnalyzeRequest) -> str | None:
    """The request's format as a data key (case-insensitive, aliases: ``legality.normalize_format``); an
    unknown one is a 422 naming the field and listing the known formats."""
    if request.format is None:
        return None
    try:
        return legality.normalize_format(request.format)
    except legality.UnknownFormat as exc:
        raise InputError(
            str(exc),
            errors=[{"loc": ["body", "format"], "msg": str(exc), "type": "enum"}],
            extra={"known_formats": list(exc.known)},
        ) from exc


def ref(card: Card) -> CardRef:
    return CardRef(name=card.name, oracle_id=card.oracle_id)


def key(h: Held) -> str:
    return h.card.oracle_id or h.card.name


@dataclass(frozen=True, slots=True)
class LandReading:
    """What the deck's lands could produce: per land (by key) its colors (CR 106.7); for a card with a land
    on more than one face (the Pathways, CR 712.12) each land face's colors; for a land that searches for
    lands, the deck's lands it can find."""

    colors: dict[str, frozenset[str]]
    face_colors: dict[str, dict[str, frozenset[str]]]
    finds: dict[str, tuple[str, ...]]


def land_colors(
    lands: list[Held], commanders: list[Card], warnings: list[DeckWarningOut]
) -> dict[str, frozenset[str]]:
    """Per land (by key), the colors it could produce (``read_lands``)."""
    return read_lands(lands, commanders, warnings).colors


def read_lands(lands: list[Held], commanders: list[Card], warnings: list[DeckWarningOut]) -> LandReading:
    """Per land (by key), the colors it could produce (CR 106.7), fetches by what they could fetch in this
    deck; a modal spell // land card by its land face (CR 712.12: played as a land, it enters with that face
    up), a card with a land on each face by each of them (CR 712.12: "chooses one of its faces that's a
    land")."""
    permanents = []
    faces_of: dict[str, list[tuple[str, str]]] = {}  # key -> (permanent id, face name) of each land face
    for h in lands:
        land_faces = _land_faces(h.card)
        for i, face in enumerate(land_faces):
            pid = key(h) if i == 0 else f"{key(h)}#{i}"
            permanents.append(
                Permanent(
                    id=pid, card=h.card, face=None if i == 0 and faces.is_land_card(h.card) else face.name
                )
            )
            faces_of.setdefault(key(h), []).append((pid, face.name))
    board = Board(permanents=tuple(permanents), players=(Player("you", commander=tuple(commanders)),))
    analysis = analyze_board(board)
    for w in analysis.warnings:
        warnings.append(
            DeckWarningOut(card=board.get(w.permanent).card.name if w.permanent else None, text=w.reason)
        )
    by_id = {pid: frozenset(t for t in v if t in COLORS) for pid, v in analysis.could_produce.items()}
    produce: dict[str, frozenset[str]] = {}
    face_colors: dict[str, dict[str, frozenset[str]]] = {}
    for k, ids in faces_of.items():
        produce[k] = frozenset().union(*(by_id[pid] for pid, _ in ids))
        if len(ids) > 1:
            face_colors[k] = {name: by_id[pid] for pid, name in ids}
    deck_lands = [
        (
            key(h),
            tuple(t for f in _land_faces(h.card) for t in f.type_line.subtypes),
            any(f.type_line.has_supertype("Basic") for f in _land_faces(h.card)),
            produce[key(h)],
        )
        for h in lands
    ]
    out = dict(produce)
    finds: dict[str, tuple[str, ...]] = {}
    for h in lands:
        target = deckstats.fetch_target(_played_face(h.card).oracle_text)
        if target is None:
            continue
        deadline.check()  # one fetch land against the deck's lands
        found = [
            (k, colors)
            for k, subtypes, basic, colors in deck_lands
            if k != key(h) and deckstats.fetchable(target, subtypes, basic)
        ]
        finds[key(h)] = tuple(k for k, _ in found)
        out[key(h)] = produce[key(h)].union(*(c for _, c in found))
    return LandReading(out, face_colors, finds)


def _land_faces(card: Card) -> list[Face]:
    """The faces a card can be played as a land with: the front of a land card (and a modal card's other
    land faces: the Pathways), or a modal spell // land card's land face (CR 712.12)."""
    if card.layout == "modal_dfc":
        return [f for f in card.faces if f.type_line.has_type("Land")]
    face = faces.land_face(card)
    return [] if face is None else [face]


def _played_face(card: Card) -> Face:
    face = faces.land_face(card)
    return card.front if face is None else face


def _land_face_name(card: Card) -> str | None:
    """The face up on the battlefield: None (the front) for a land card, the land face of a modal card."""
    return None if faces.is_land_card(card) else _played_face(card).name
