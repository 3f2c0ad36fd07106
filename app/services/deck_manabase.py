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
    TargetOut,
    UnreachableOut,
)
from app.schemas.warnings import DeckWarningOut
from app.services.deck_castability import castability
from app.services.deck_reading import Deck, Held, commanders, key, land_colors, read, ref, sources

BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}


def advise(*, request: DeckManabaseRequest, session: Session, settings: Settings) -> DeckManabaseAnswer:
    """The best land swaps for the deck's spells (or ``request.spells``): the fewest that bring every one to
    Karsten's source counts (``app.rules.decks.manabase.plan``); when none does, the plan that brings the
    most there, then leaves the smallest total shortfall (``manabase.best_plan``). Castability before and
    after, computed exactly both times."""
    deck = read(request, session)
    warnings = deck.warnings
    before = castability(deck)
    land_count = sum(h.counts["main"] for h in deck.lands)
    unreachable: list[UnreachableOut] = []
    rows: list[CastabilityOut] = []
    for row in _targets(deck, request.spells, before):
        if row.probability is None or any(v is None for v in row.sources_needed.values()):
            unreachable.append(_unreachable(row, "no land count of this deck reaches the threshold"))
        else:
            rows.append(row)
    no_count = list(unreachable)  # not in the search: no land count reaches them
    kinds, held_by_key, colors = _land_kinds(deck, request.candidates or [], land_count)
    needs = [{c: v or 0 for c, v in row.sources_needed.items()} for row in rows]
    swaps, complete = _best(kinds, needs, rows, request.max_changes, unreachable, warnings)
    changes: list[ChangeOut] = []
    after = before
    lands_after = deck.lands
    if swaps:
        changes, lands_after = _changed_lands(swaps, kinds, held_by_key)
        after = castability(deck, lands_after, colors)
    have = sources(lands_after, colors)
    reached: list[TargetOut] = []
    unreached: list[TargetOut] = []
    for row, need in zip(rows, needs, strict=True):
        missing = {c: n - have[c] for c, n in need.items() if n > have[c]}
        target = TargetOut(card=row.card, face=row.face, cost=row.cost, missing=missing)
        (unreached if missing else reached).append(target)
    for gone in no_count:
        unreached.append(TargetOut(card=gone.card, face=gone.face, cost=gone.cost))
    return DeckManabaseAnswer(
        rules_edition=settings.rules_edition,
        data_version=deck.catalogue.data_version,
        changes=changes,
        castability_before=before,
        castability_after=after,
        castability_model=deck.model,
        unreachable=unreachable,
        complete=complete,
        fewest_changes=sum(c.count for c in changes),
        reached=reached,
        unreached=unreached,
        total_shortfall=sum(n for t in unreached for n in t.missing.values()),
        problems=deck.problems,
        warnings=list({(w.card, w.text): w for w in warnings}.values()),  # before and after repeat some
    )


def _best(
    kinds: list[manabase.LandKind],
    needs: list[dict[str, int]],
    rows: list[CastabilityOut],
    max_changes: int,
    unreachable: list[UnreachableOut],
    warnings: list[DeckWarningOut],
) -> tuple[tuple[manabase.Swap, ...], bool]:
    """The plan's swaps and whether it is proven best within ``max_changes``: the fewest swaps meeting every
    need when some plan does (``manabase.plan``), else the best plan (``manabase.best_plan``), whose spells
    that no plan brings there alone join ``unreachable``."""
    required = dict.fromkeys(COLORS, 0)
    for need in needs:
        for c, v in need.items():
            required[c] = max(required[c], v)
    full = manabase.plan(kinds, required, max_changes=max_changes)
    if full.swaps is not None:
        if not full.complete:
            warnings.append(
                DeckWarningOut(text=f"the search stopped at its bound ({full.nodes} swap choices)")
            )
        return full.swaps, full.complete
    best = manabase.best_plan(kinds, needs, max_changes=max_changes)
    for i, row in enumerate(rows):
        if not best.reachable[i] and best.complete:
            unreachable.append(_unreachable(row, f"no {max_changes} land changes or fewer bring it there"))
    if not best.complete:
        warnings.append(
            DeckWarningOut(
                text=f"no plan brings every target spell to its threshold; the best plan was searched over"
                f" plans of up to {best.tried_up_to} changes, keeping the {manabase.LAYER_CAP} most useful"
                " sums of lands taken out and put in per plan size: a better plan of those sizes, or of"
                f" {best.tried_up_to + 1} to {max_changes} changes, was not ruled out"
            )
        )
    else:
        warnings.append(
            DeckWarningOut(
                text=f"no plan of {max_changes} changes or fewer brings every target spell to its threshold:"
                f" the plan brings {len(best.reached)} of {len(needs)} there with the smallest total"
                f" shortfall ({best.shortfall} sources), proven best within {max_changes} changes"
            )
        )
    return best.swaps, best.complete


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
    """The rows of the spells to bring to their threshold: every main-deck spell but the spell faces of
    modal spell // land cards (played as lands, CR 712.12: their spell face is a target only when named), or
    those ``names`` names (a card, a half or face of one, or the deck's commander, cast from the command
    zone: CR 903.8); a name that is no spell of the deck is a 422 naming it."""
    if names is None:
        modal = {key(h) for h in deck.spells if faces.is_modal_land(h.card)}
        return [r for r in rows if (r.card.oracle_id or r.card.name) not in modal]
    wanted: set[str] = set()
    commanders_named: list[Held] = []
    for i, name in enumerate(names):
        try:
            card = deck.catalogue.by_name(name, suggest=False)
        except (UnknownCard, AmbiguousCard) as exc:
            raise InputError(
                exc.detail, errors=[{"loc": ["body", "spells", i], "msg": exc.detail, "type": "value_error"}]
            ) from exc
        card_key = card.oracle_id or card.name
        commander = next((h for h in deck.cards if h.counts["commander"] and key(h) == card_key), None)
        if commander is not None:
            if commander not in commanders_named:
                commanders_named.append(commander)
            continue
        if not any(key(h) == card_key for h in deck.spells):
            msg = f"{card.name} is not a spell of the main deck nor its commander"
            raise InputError(msg, errors=[{"loc": ["body", "spells", i], "msg": msg, "type": "value_error"}])
        wanted.add(card_key)
    out = [r for r in rows if (r.card.oracle_id or r.card.name) in wanted]
    if commanders_named:
        out += castability(deck, spells=commanders_named)
    return out


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
