"""The mana-base advisor (``POST /v1/decks/manabase``): the fewest land swaps that bring a deck's spells to
Karsten's source counts (``app.rules.decks.manabase``), with castability before and after."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import AmbiguousCard, InputError, UnknownCard
from app.rules.decks import faces, legality, manabase
from app.rules.decks.decklist import SECTIONS
from app.rules.values.cards import Card
from app.rules.values.symbols import COLORS
from app.schemas.decks import (
    CastabilityOut,
    ChangeOut,
    DeckManabaseAnswer,
    DeckManabaseRequest,
    UnreachableOut,
)
from app.schemas.warnings import DeckWarningOut
from app.services.deck_castability import castability
from app.services.deck_reading import Deck, Held, commanders, key, land_colors, read, ref

BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def advise(*, request: DeckManabaseRequest, session: Session, settings: Settings) -> DeckManabaseAnswer:
    """The fewest land swaps that bring the deck's spells (or ``request.spells``) to Karsten's source counts
    (``app.rules.decks.manabase``), with castability before and after, computed exactly both times."""
    deck = read(request, session)
    warnings = deck.warnings
    before = castability(deck)
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
        after = castability(deck, lands_after, colors)
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
    swaps: tuple[manabase.Swap, ...], kinds: list[manabase.LandKind], held_by_key: dict[str, Held]
) -> tuple[list[ChangeOut], list[Held]]:
    """The plan's changes as answered, and the deck's lands once they are made."""
    counts = {k.key: k.count for k in kinds}
    changes: list[ChangeOut] = []
    for swap in swaps:
        counts[swap.remove] -= swap.count
        counts[swap.add] += swap.count
        changes.append(
            ChangeOut(
                remove=ref(held_by_key[swap.remove].card),
                add=ref(held_by_key[swap.add].card),
                count=swap.count,
            )
        )
    lands_after = [
        Held(held_by_key[land].card, {**held_by_key[land].counts, "main": n})
        for land, n in counts.items()
        if n > 0
    ]
    return changes, lands_after


def _unreachable(row: CastabilityOut, reason: str) -> UnreachableOut:
    return UnreachableOut(card=row.card, face=row.face, cost=row.cost, reason=reason)


def _targets(deck: Deck, names: list[str] | None, rows: list[CastabilityOut]) -> list[CastabilityOut]:
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
        if not any(key(h) == (card.oracle_id or card.name) for h in deck.spells):
            msg = f"{card.name} is not a spell of the main deck"
            raise InputError(msg, errors=[{"loc": ["body", "spells", i], "msg": msg, "type": "value_error"}])
        wanted.add(card.oracle_id or card.name)
    return [r for r in rows if (r.card.oracle_id or r.card.name) in wanted]


def _copies_allowed(card: Card, deck: Deck, land_count: int) -> int:
    """How many copies of a land a deck may hold: any number of basic lands (CR 100.2a, 205.4a; at most
    the land count here), one in a singleton deck (CR 903.5b), else four (CR 100.2a)."""
    if faces.is_land_card(card) and card.front.type_line.has_supertype("Basic"):
        return land_count
    if deck.commander_deck or (deck.fmt is not None and deck.fmt in legality.SINGLETON_SIZE):
        return 1
    return legality.MAX_COPIES


def _land_kinds(
    deck: Deck, candidate_names: list[str], land_count: int
) -> tuple[list[manabase.LandKind], dict[str, Held], dict[str, frozenset[str]]]:
    """The lands a plan may take out (the deck's; modal spell // land cards stay: they are spells too) and
    put in (the deck's lands, a basic of each color, the request's candidates), with their colors."""
    held_by_key = {key(h): h for h in deck.lands}
    extra: list[Held] = []
    for name in BASICS.values():
        card = deck.catalogue.by_name(name, suggest=False)
        if key(Held(card)) not in held_by_key:
            extra.append(Held(card, dict.fromkeys(SECTIONS, 0)))
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
        if key(Held(card)) not in held_by_key and all(key(h) != key(Held(card)) for h in extra):
            extra.append(Held(card, dict.fromkeys(SECTIONS, 0)))
    colors = dict(deck.land_colors)
    if extra:
        # The added lands' colors on a board with the deck's lands (a fetch finds what the deck holds).
        board_colors = land_colors(deck.lands + extra, commanders(deck.cards), [])
        colors.update({key(h): board_colors[key(h)] for h in extra})
    kinds = []
    for h in deck.lands + extra:
        modal = not faces.is_land_card(h.card)
        copies = h.counts["main"]
        kinds.append(
            manabase.LandKind(
                key=key(h),
                colors=colors[key(h)],
                count=copies,
                addable=0 if modal else max(0, _copies_allowed(h.card, deck, land_count) - copies),
                removable=not modal,
            )
        )
        held_by_key[key(h)] = h
    return kinds, held_by_key, colors
