"""A deck's legality in a format (``app.rules.decks.legality``) as answered, and what the catalogue's
legality data covers (read once per catalogue version)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from app.db.repositories import cards as cards_repo
from app.rules.decks import faces, legality
from app.rules.mana.ability_conditions import card_identity
from app.rules.values.cards import Card
from app.schemas.decks import LegalityOut, LegalityReasonOut
from app.schemas.warnings import DeckWarningOut
from app.services.card_import import bundled_legalities_as_of, is_bundled_version, legalities_as_of
from app.services.catalogue import Catalogue
from app.services.deck_reading import Held


@dataclass(frozen=True, slots=True)
class _LegalityData:
    """What the catalogue's legality data covers: its date, the formats it lists for some card."""

    as_of: str | None
    formats: frozenset[str]


STALE_AFTER_DAYS = 180
"""Legality data older than this gets a warning: formats ban cards several times a year."""

_LEGALITY_DATA: dict[str, _LegalityData] = {}
"""By data_version (one kept: a new import gives a new version)."""


def legality_data(catalogue: Catalogue) -> _LegalityData:
    version = catalogue.data_version
    found = _LEGALITY_DATA.get(version)
    if found is None:
        as_of = legalities_as_of(catalogue.session)
        if as_of is None and is_bundled_version(version):
            as_of = bundled_legalities_as_of()  # the bundled cards carry the bundled file's date
        found = _LegalityData(as_of, cards_repo.legality_formats(catalogue.session))
        _LEGALITY_DATA.clear()
        _LEGALITY_DATA[version] = found
    return found


def stale_days(as_of: str, today: date) -> int | None:
    """How old legality data dated ``as_of`` is on ``today``, when more than ``STALE_AFTER_DAYS``; None when
    fresh enough (or the date does not read)."""
    try:
        age = (today - date.fromisoformat(as_of)).days
    except ValueError:
        return None
    return age if age > STALE_AFTER_DAYS else None


def _copy_limit(card: Card) -> int | None:
    limits = [n for f in card.faces if (n := legality.copy_limit(f.oracle_text)) is not None]
    return max(limits) if limits else None


def legality_answer(
    fmt: str,
    cards: list[Held],
    commander_deck: bool,
    data: _LegalityData,
    warnings: list[DeckWarningOut],
    today: date | None = None,
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
    else:
        age = stale_days(data.as_of, today or datetime.now(UTC).date())
        if age is not None:
            warnings.append(
                DeckWarningOut(
                    text=f"the catalogue's legality data is dated {data.as_of}, {age} days old (more than"
                    f" {STALE_AFTER_DAYS}): bans and format changes since then are not known; refresh the"
                    " card data (manacalc update-cards, the card-refresh CronJob)"
                )
            )
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
                copy_limit=_copy_limit(h.card),
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
