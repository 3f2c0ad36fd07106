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
from app.db.repositories import cards as cards_repo
from app.errors import AmbiguousCard, InputError, TooLarge, UnknownCard
from app.rules.decks import castability as model
from app.rules.decks import deckstats, faces, legality, manabase
from app.rules.decks.decklist import (
    SECTIONS,
    CountOutOfRange,
    DecklistTooLarge,
    Entry,
    check_count,
    parse_decklist,
    split_name,
)
from app.rules.mana.abilities import card_identity
from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.symbols import COLORS
from app.schemas.decks import (
    MAX_JSON_CARDS,
    CardRef,
    CastabilityOut,
    ChangeOut,
    DeckAnalyzeAnswer,
    DeckAnalyzeRequest,
    DeckLineOut,
    DeckManabaseAnswer,
    DeckManabaseRequest,
    DeckProblemOut,
    DeckWarningOut,
    LegalityOut,
    LegalityReasonOut,
    SuggestionOut,
    UnreachableOut,
)
from app.services.card_import import legalities_as_of
from app.services.catalogue import Catalogue

COMMANDER_DECK_SIZE = 99
SUGGESTED_LINES = 25
"""Unknown lines that get suggestions (a close-name search each); later ones get none, with a warning."""


@dataclass(slots=True)
class _Held:
    """One distinct card of the deck and its copies per section."""

    card: Card
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SECTIONS, 0))


@dataclass(slots=True)
class _Deck:
    """A request's deck read and resolved: what analysis and the advisor share."""

    catalogue: Catalogue
    fmt: str | None
    entries: list[Entry]
    lines: list[DeckLineOut]
    problems: list[DeckProblemOut]
    cards: list[_Held]
    warnings: list[DeckWarningOut]
    commander_deck: bool
    lands: list[_Held]
    """Main-deck cards played as lands: land cards and modal spell // land cards."""
    spells: list[_Held]
    land_colors: dict[str, frozenset[str]]
    deck_size: int
    on_play: bool

    def sources(self) -> dict[str, int]:
        return _sources(self.lands, self.land_colors)

    def castability(
        self, lands: list[_Held] | None = None, colors: dict[str, frozenset[str]] | None = None
    ) -> list[CastabilityOut]:
        lands = self.lands if lands is None else lands
        colors = self.land_colors if colors is None else colors
        return _castability(
            self.spells,
            lands,
            colors,
            _sources(lands, colors),
            deck_size=self.deck_size,
            on_play=self.on_play,
            commander=self.commander_deck,
            warnings=self.warnings,
        )


def _sources(lands: list[_Held], colors: dict[str, frozenset[str]]) -> dict[str, int]:
    return {c: sum(h.counts["main"] for h in lands if c in colors[_key(h)]) for c in COLORS}


def _read(request: DeckAnalyzeRequest, session: Session) -> _Deck:
    """Read the decklist, resolve every name once, and derive what the rules need of the deck."""
    fmt = _format(request)
    entries, problems, notes = _entries(request)
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
    warnings = [DeckWarningOut(text=n) for n in notes]
    if unknown > SUGGESTED_LINES:
        warnings.append(
            DeckWarningOut(text=f"only the first {SUGGESTED_LINES} unknown lines have suggestions")
        )
    commander_deck = any(h.counts["commander"] for h in cards) or (
        fmt is not None and legality.is_commander_format(fmt)
    )
    main = [h for h in cards if h.counts["main"]]
    lands = [h for h in main if faces.land_face(h.card) is not None]  # modal spell // land cards too
    main_count = sum(h.counts["main"] for h in cards)
    if commander_deck and main_count != COMMANDER_DECK_SIZE:
        warnings.append(
            DeckWarningOut(
                text=f"castability reads a Commander library of {COMMANDER_DECK_SIZE} cards;"
                f" the main deck has {main_count}"
            )
        )
    return _Deck(
        catalogue=catalogue,
        fmt=fmt,
        entries=entries,
        lines=lines,
        problems=problems,
        cards=cards,
        warnings=warnings,
        commander_deck=commander_deck,
        lands=lands,
        spells=[h for h in main if not faces.is_land_card(h.card)],
        land_colors=_land_colors(lands, _commanders(cards), warnings),
        deck_size=COMMANDER_DECK_SIZE if commander_deck else main_count,
        on_play=request.play == "first",
    )


def _commanders(cards: list[_Held]) -> list[Card]:
    return [h.card for h in cards if h.counts["commander"]]


def analyze(*, request: DeckAnalyzeRequest, session: Session, settings: Settings) -> DeckAnalyzeAnswer:
    """Read the deck and answer every part of the contract."""
    deck = _read(request, session)
    pips = dict.fromkeys(COLORS, 0)
    values: dict[str, tuple[int | float | None, int]] = {}
    for h in deck.spells:
        cost = h.card.mana_cost
        if cost is not None:
            for c, n in deckstats.pips(cost).items():
                pips[c] += n * h.counts["main"]
        values[_key(h)] = (cost.mana_value if cost is not None else 0, h.counts["main"])
    counts = {s: sum(h.counts[s] for h in deck.cards) for s in ("main", "sideboard", "commander")}
    if any(e.section == "maybeboard" for e in deck.entries):
        counts["maybeboard"] = sum(h.counts["maybeboard"] for h in deck.cards)
    castability = deck.castability()
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
        castability=castability,
        legality=(
            _legality(fmt, deck.cards, deck.commander_deck, _legality_data(deck.catalogue), deck.warnings)
            if fmt
            else None
        ),
        warnings=deck.warnings,
    )


def _entries(request: DeckAnalyzeRequest) -> tuple[list[Entry], list[DeckProblemOut], tuple[str, ...]]:
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
            out.append(Entry(i + 1, c.count, split_name(c.card.strip()), section, c.card))
        return out, [], ()
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


def _land_colors(
    lands: list[_Held], commanders: list[Card], warnings: list[DeckWarningOut]
) -> dict[str, frozenset[str]]:
    """Per land (by key), the colors it could produce (CR 106.7), fetches by what they could fetch; a modal
    spell // land card by its land face (CR 712.12: played as a land, it enters with that face up)."""
    board = Board(
        permanents=tuple(Permanent(id=_key(h), card=h.card, face=_land_face_name(h.card)) for h in lands),
        players=(Player("you", commander=tuple(commanders)),),
    )
    analysis = analyze_board(board)
    for w in analysis.warnings:
        warnings.append(
            DeckWarningOut(card=board.get(w.permanent).card.name if w.permanent else None, text=w.reason)
        )
    produce = {k: frozenset(t for t in v if t in COLORS) for k, v in analysis.could_produce.items()}
    played = {_key(h): _played_face(h.card) for h in lands}
    deck_lands = [
        (
            played[_key(h)].type_line.subtypes,
            played[_key(h)].type_line.has_supertype("Basic"),
            produce[_key(h)],
        )
        for h in lands
    ]
    out = dict(produce)
    for h in lands:
        target = deckstats.fetch_target(played[_key(h)].oracle_text)
        if target is not None:
            out[_key(h)] = produce[_key(h)] | deckstats.fetch_colors(target, deck_lands)
    return out


def _played_face(card: Card) -> Face:
    face = faces.land_face(card)
    return card.front if face is None else face


def _land_face_name(card: Card) -> str | None:
    """The face up on the battlefield: None (the front) for a land card, the land face of a modal card."""
    return None if faces.is_land_card(card) else _played_face(card).name


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
    """Karsten's model (``app.rules.decks.castability``) on the deck's land kinds: lands (modal spell // land
    cards among them) grouped by the colors they could produce, a dual counting once for a multicolored
    cost; one row per part of a card cast on its own (``app.rules.decks.faces``: split halves, fuse,
    Adventures, modal faces)."""
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
        card=_ref(card),
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


@dataclass(frozen=True, slots=True)
class _LegalityData:
    """What the catalogue's legality data covers: its date, the formats it lists for some card."""

    as_of: str | None
    formats: frozenset[str]


_LEGALITY_DATA: dict[str, _LegalityData] = {}
"""By data_version (one kept: a new import gives a new version)."""


def _legality_data(catalogue: Catalogue) -> _LegalityData:
    version = catalogue.data_version
    found = _LEGALITY_DATA.get(version)
    if found is None:
        found = _LegalityData(
            legalities_as_of(catalogue.session), cards_repo.legality_formats(catalogue.session)
        )
        _LEGALITY_DATA.clear()
        _LEGALITY_DATA[version] = found
    return found


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


def _legality(
    fmt: str,
    cards: list[_Held],
    commander_deck: bool,
    data: _LegalityData,
    warnings: list[DeckWarningOut],
) -> LegalityOut:
    """The deck's legality in ``fmt`` (``app.rules.decks.legality``). A card without legality data, or a
    format the data does not list for any card, is ``unknown`` with a warning: never ``not_legal``."""
    covered = fmt in data.formats
    if not covered:
        warnings.append(
            DeckWarningOut(
                text=f"the catalogue's legality data (as of {data.as_of or 'an unknown date'}) lists no"
                f" card in format {fmt!r}: every card's legality there is unknown"
            )
        )
    if data.as_of is None:
        warnings.append(DeckWarningOut(text="the date of the catalogue's legality data is not known"))
    rows = []
    for h in cards:
        if not (h.counts["main"] or h.counts["sideboard"] or h.counts["commander"]):
            continue  # a maybeboard card is not in the deck
        status: str | None
        if not covered or not h.card.legalities:
            status = legality.UNKNOWN
            if covered:
                warnings.append(
                    DeckWarningOut(
                        card=h.card.name, text=f"no legality data: its legality in {fmt} is unknown"
                    )
                )
        else:
            found = dict(h.card.legalities).get(fmt)
            status = found if found in ("legal", "banned", "restricted") else None
        rows.append(
            legality.DeckCard(
                name=h.card.name,
                main=h.counts["main"],
                sideboard=h.counts["sideboard"],
                commander=h.counts["commander"],
                status=status,
                basic_land=h.card.front.type_line.has_supertype("Basic") and faces.is_land_card(h.card),
                any_number=any(legality.any_number(f.oracle_text) for f in h.card.faces),
                identity=frozenset(card_identity(h.card)),
            )
        )
    reasons = legality.check(fmt, rows, commander_deck=commander_deck)
    return LegalityOut(
        format=fmt,
        legal=legality.decided(reasons),
        legalities_as_of=data.as_of,
        reasons=[
            LegalityReasonOut(card=r.card, reason=r.reason, detail=r.detail, rule=r.rule) for r in reasons
        ],
    )


# --- the mana-base advisor (POST /v1/decks/manabase) ---------------------------------------------------

BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def advise(*, request: DeckManabaseRequest, session: Session, settings: Settings) -> DeckManabaseAnswer:
    """The fewest land swaps that bring the deck's spells (or ``request.spells``) to Karsten's source counts
    (``app.rules.decks.manabase``), with castability before and after, computed exactly both times."""
    deck = _read(request, session)
    warnings = deck.warnings
    before = deck.castability()
    land_count = sum(h.counts["main"] for h in deck.lands)
    unreachable: list[UnreachableOut] = []
    reachable_rows: list[CastabilityOut] = []
    for row in _targets(deck, request.spells, before):
        if row.probability is None or any(v is None for v in row.sources_needed.values()):
            unreachable.append(_unreachable(row, "no land count of this deck reaches the threshold"))
        else:
            reachable_rows.append(row)
    kinds, held_by_key, colors = _land_kinds(deck, request.candidates or [], land_count)
    result = manabase.plan(kinds, _required(reachable_rows), max_changes=request.max_changes)
    if result.swaps is None and result.complete:
        result = _plan_for_the_reachable(kinds, reachable_rows, request.max_changes, unreachable, warnings)
    if not result.complete:
        warnings.append(
            DeckWarningOut(
                text=f"the search stopped at its bound ({result.nodes} swap choices tried): no plan has fewer"
                f" than {result.proven_below} changes; plans of {result.proven_below} to"
                f" {request.max_changes} changes were not all tried"
            )
        )
    changes: list[ChangeOut] = []
    after = before
    if result.swaps:
        changes, lands_after = _changed_lands(result.swaps, kinds, held_by_key)
        after = deck.castability(lands_after, colors)
    return DeckManabaseAnswer(
        rules_edition=settings.rules_edition,
        data_version=deck.catalogue.data_version,
        changes=changes,
        castability_before=before,
        castability_after=after,
        unreachable=unreachable,
        complete=result.complete,
        fewest_changes=sum(c.count for c in changes) if result.swaps is not None else None,
        problems=deck.problems,
        warnings=list({(w.card, w.text): w for w in warnings}.values()),  # before and after repeat some
    )


def _required(rows: list[CastabilityOut]) -> dict[str, int]:
    """The sources of each color the plan must reach: the largest table cell over the spells."""
    required = dict.fromkeys(COLORS, 0)
    for row in rows:
        for c, v in row.sources_needed.items():
            required[c] = max(required[c], v or 0)
    return required


def _plan_for_the_reachable(
    kinds: list[manabase.LandKind],
    rows: list[CastabilityOut],
    max_changes: int,
    unreachable: list[UnreachableOut],
    warnings: list[DeckWarningOut],
) -> manabase.Plan:
    """No plan brings every spell there: the plan for the spells that some plan brings to their threshold
    on their own; the others join ``unreachable`` (proven) or a warning (undecided within the bound).
    Spells with the same needs share one search; all of them share one node budget."""
    kept: list[CastabilityOut] = []
    undecided: list[str] = []
    verdicts: dict[tuple[tuple[str, int], ...], manabase.Plan] = {}
    budget = manabase.MAX_NODES
    for row in rows:
        needs = tuple(sorted((c, v or 0) for c, v in row.sources_needed.items()))
        alone = verdicts.get(needs)
        if alone is None and budget > 0:
            alone = manabase.plan(kinds, dict(needs), max_changes=max_changes, max_nodes=budget)
            budget -= max(1, alone.nodes)
            verdicts[needs] = alone
        if alone is not None and alone.swaps is not None:
            kept.append(row)
        elif alone is not None and alone.complete:
            unreachable.append(_unreachable(row, f"no {max_changes} land changes or fewer bring it there"))
        else:
            undecided.append(row.face or row.card.name)
    result = manabase.plan(kinds, _required(kept), max_changes=max_changes)
    if undecided:
        result = manabase.Plan(result.swaps, False, result.proven_below, result.nodes)
        warnings.append(
            DeckWarningOut(
                text="the search bound was reached before deciding whether these spells can reach their"
                f" threshold (left out of the plan): {', '.join(undecided)}"
            )
        )
    if result.swaps is None and kept:
        warnings.append(
            DeckWarningOut(
                text=f"each spell can reach its threshold alone, but no {max_changes} land"
                " changes or fewer bring them all there together"
            )
        )
    return result


def _changed_lands(
    swaps: tuple[manabase.Swap, ...], kinds: list[manabase.LandKind], held_by_key: dict[str, _Held]
) -> tuple[list[ChangeOut], list[_Held]]:
    """The plan's changes as answered, and the deck's lands once they are made."""
    counts = {k.key: k.count for k in kinds}
    changes: list[ChangeOut] = []
    for swap in swaps:
        counts[swap.remove] -= swap.count
        counts[swap.add] += swap.count
        changes.append(
            ChangeOut(
                remove=_ref(held_by_key[swap.remove].card),
                add=_ref(held_by_key[swap.add].card),
                count=swap.count,
            )
        )
    lands_after = [
        _Held(held_by_key[key].card, {**held_by_key[key].counts, "main": n})
        for key, n in counts.items()
        if n > 0
    ]
    return changes, lands_after


def _unreachable(row: CastabilityOut, reason: str) -> UnreachableOut:
    return UnreachableOut(card=row.card, face=row.face, cost=row.cost, reason=reason)


def _targets(deck: _Deck, names: list[str] | None, rows: list[CastabilityOut]) -> list[CastabilityOut]:
    """The rows of the spells to bring to their threshold: all, or those ``names`` names (a card, or a half
    or face of one); a name that is no spell of the deck is a 422 naming it."""
    if names is None:
        return rows
    wanted: set[str] = set()
    for i, name in enumerate(names):
        try:
            card = deck.catalogue.by_name(name, suggest=False)
        except (UnknownCard, AmbiguousCard) as exc:
            raise InputError(
                exc.detail, errors=[{"loc": ["body", "spells", i], "msg": exc.detail, "type": "value_error"}]
            ) from exc
        if not any(_key(h) == (card.oracle_id or card.name) for h in deck.spells):
            msg = f"{card.name} is not a spell of the main deck"
            raise InputError(msg, errors=[{"loc": ["body", "spells", i], "msg": msg, "type": "value_error"}])
        wanted.add(card.oracle_id or card.name)
    return [r for r in rows if (r.card.oracle_id or r.card.name) in wanted]


def _copies_allowed(card: Card, deck: _Deck, land_count: int) -> int:
    """How many copies of a land a deck may hold: any number of basic lands (CR 100.2a, 205.4a; at most
    the land count here), one in a singleton deck (CR 903.5b), else four (CR 100.2a)."""
    if faces.is_land_card(card) and card.front.type_line.has_supertype("Basic"):
        return land_count
    if deck.commander_deck or (deck.fmt is not None and deck.fmt in legality.SINGLETON_SIZE):
        return 1
    return legality.MAX_COPIES


def _land_kinds(
    deck: _Deck, candidate_names: list[str], land_count: int
) -> tuple[list[manabase.LandKind], dict[str, _Held], dict[str, frozenset[str]]]:
    """The lands a plan may take out (the deck's; modal spell // land cards stay: they are spells too) and
    put in (the deck's lands, a basic of each color, the request's candidates), with their colors."""
    held_by_key = {_key(h): h for h in deck.lands}
    extra: list[_Held] = []
    for name in BASICS.values():
        card = deck.catalogue.by_name(name, suggest=False)
        if _key(_Held(card)) not in held_by_key:
            extra.append(_Held(card, dict.fromkeys(SECTIONS, 0)))
    for i, name in enumerate(candidate_names):
        try:
            card = deck.catalogue.by_name(name, suggest=False)
        except (UnknownCard, AmbiguousCard) as exc:
            raise InputError(
                exc.detail,
                errors=[{"loc": ["body", "candidates", i], "msg": exc.detail, "type": "value_error"}],
            ) from exc
        if not faces.is_land_card(card):
            msg = f"{card.name} is not a land card"
            raise InputError(
                msg, errors=[{"loc": ["body", "candidates", i], "msg": msg, "type": "value_error"}]
            )
        if _key(_Held(card)) not in held_by_key and all(_key(h) != _key(_Held(card)) for h in extra):
            extra.append(_Held(card, dict.fromkeys(SECTIONS, 0)))
    colors = dict(deck.land_colors)
    if extra:
        # The added lands' colors on a board with the deck's lands (a fetch finds what the deck holds).
        board_colors = _land_colors(deck.lands + extra, _commanders(deck.cards), [])
        colors.update({_key(h): board_colors[_key(h)] for h in extra})
    kinds = []
    for h in deck.lands + extra:
        modal = not faces.is_land_card(h.card)
        copies = h.counts["main"]
        kinds.append(
            manabase.LandKind(
                key=_key(h),
                colors=colors[_key(h)],
                count=copies,
                addable=0 if modal else max(0, _copies_allowed(h.card, deck, land_count) - copies),
                removable=not modal,
            )
        )
        held_by_key[_key(h)] = h
    return kinds, held_by_key, colors
