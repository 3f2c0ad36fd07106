"""Mental Magic options (ruling:richard-garfield-phd): which cards a revealed card may be played as.

By default the cards legal in the format played; Draft and Sealed name any card of the ``pool``;
``unsanctioned`` is any card of the catalogue. What the Richard already chose is excluded, each Richard
keeping its own list.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from app.config import Settings
from app.cursors import decode_cursor, encode_cursor
from app.errors import AppError, BadRequest, InvalidChoice, RulesViolation, UnknownCard, from_rules_error
from app.rules import deadline
from app.rules.casting import mental_magic
from app.rules.errors import RulesError
from app.rules.text.card_registry import is_richard
from app.rules.values.cards import Card
from app.rules.values.names import fold_name
from app.schemas.board import BoardIn, CardName, CardRef, PermanentId
from app.schemas.common import ComputedAnswer, StrictModel
from app.services.boards import build_board, resolve_card
from app.services.catalogue import LIMIT_DEFAULT, LIMIT_MAX, Catalogue

FORMATS: Final = frozenset(
    {
        "alchemy",
        "brawl",
        "commander",
        "duel",
        "explorer",
        "future",
        "gladiator",
        "historic",
        "historicbrawl",
        "legacy",
        "modern",
        "oldschool",
        "pauper",
        "paupercommander",
        "penny",
        "pioneer",
        "premodern",
        "standard",
        "vintage",
        "timeless",
        "standardbrawl",
        "oathbreaker",
        "predh",
    }
)
MAX_POOL: Final = 1000


class MentalMagicRequest(StrictModel):
    """A revealed card, the Richard Garfield, Ph.D. it is cast through, and where to look for cards."""

    card: CardRef = Field(description="The revealed card being cast.")
    via: PermanentId = Field(description="The id of the Richard Garfield, Ph.D. it is played through.")
    board: BoardIn = Field(BoardIn(), description="The board holding the Richard Garfield, Ph.D.")
    format: Annotated[str, Field(min_length=1, max_length=32, examples=["legacy"])] = Field(
        description='A format of the catalogue\'s legalities, "unsanctioned", or "pool" (Draft, Sealed).'
    )
    pool: Annotated[list[CardName], Field(max_length=MAX_POOL)] | None = Field(
        None, description="With `format: pool`: the names of the cards of the pool (Draft, Sealed)."
    )
    limit: Annotated[int, Field(ge=1, le=LIMIT_MAX)] = Field(LIMIT_DEFAULT, description="Cards per page.")
    cursor: Annotated[str, Field(max_length=2048)] | None = Field(
        None, description="`next_cursor` of the previous page."
    )


class OptionOut(BaseModel):
    """A card the revealed one may be cast as."""

    name: str = Field(description="The card's name.")
    oracle_id: str | None = Field(description="Its Oracle id.")
    mana_cost: str | None = Field(
        description="Its mana cost, the same as the revealed card's (color included)."
    )


class ExcludedOut(BaseModel):
    """A card with the same mana cost that may not be chosen, and why."""

    name: str = Field(description="The card's name.")
    reason: str = Field(description="Why it is excluded (e.g. already chosen through this Richard).")


class MentalMagicOut(ComputedAnswer):
    """The cards a revealed card may be cast as through a Richard Garfield, Ph.D., a page at a time."""

    data: list[OptionOut] = Field(description="The cards it may be cast as, this page.")
    has_more: bool = Field(description="Whether another page follows.")
    next_cursor: str | None = Field(
        description="Pass it back as `cursor` for the next page; null on the last."
    )
    excluded: list[ExcludedOut] = Field(
        description="Cards with the same cost that may not be chosen, with the reason."
    )
    rule: Literal["ruling:richard-garfield-phd"] = Field(
        "ruling:richard-garfield-phd", description="The ruling applied."
    )


def _resolve(ref: object, catalogue: Catalogue, loc: list[str | int]) -> Card:
    try:
        return resolve_card(ref, catalogue=catalogue)  # type: ignore[arg-type]
    except AppError as exc:
        exc.errors = [{"loc": loc, "msg": exc.detail, "type": exc.type_slug}]
        raise
    except RulesError as exc:
        raise from_rules_error(exc, loc) from exc


def options(*, request: MentalMagicRequest, session: Session, settings: Settings) -> MentalMagicOut:
    """``POST /v1/mental-magic/options``."""
    catalogue = Catalogue(session)
    board = build_board(request.board, catalogue=catalogue)
    try:
        richard = board.get(request.via)
    except RulesError as exc:
        raise InvalidChoice(
            str(exc), errors=[{"loc": ["body", "via"], "msg": str(exc), "type": "invalid_choice"}]
        ) from exc
    if not is_richard(richard.characteristics):
        msg = f"{request.via} is {richard.characteristics.name}, not Richard Garfield, Ph.D."
        raise RulesViolation(
            msg,
            errors=[{"loc": ["body", "via"], "msg": msg, "type": "rules_violation"}],
            extra={"rule": mental_magic.RULE},
        )
    card = _resolve(request.card, catalogue, ["body", "card"])
    fmt = request.format.strip().lower()
    if fmt not in FORMATS and fmt not in ("unsanctioned", "pool"):
        msg = f"unknown format {request.format!r}: one of {', '.join(sorted(FORMATS))}, unsanctioned or pool"
        raise InvalidChoice(msg, errors=[{"loc": ["body", "format"], "msg": msg, "type": "invalid_choice"}])
    if fmt == "pool" and request.pool is None:
        msg = 'format "pool" needs the "pool" list of card names (Draft, Sealed)'
        raise InvalidChoice(msg, errors=[{"loc": ["body", "pool"], "msg": msg, "type": "invalid_choice"}])

    candidates: list[Card] = []
    next_cursor: str | None = None
    if card.mana_cost is not None:
        if fmt == "pool":
            candidates, next_cursor = _pool_page(request, catalogue, card)
        else:
            page = catalogue.search(
                mana_cost=card.mana_cost,
                format=None if fmt == "unsanctioned" else fmt,
                limit=request.limit,
                cursor=request.cursor,
            )
            candidates, next_cursor = list(page.cards), page.next_cursor
    found = mental_magic.options(richard, card, candidates)
    excluded = [ExcludedOut(name=c.name, reason=r) for c, r in found.excluded]
    shown = {fold_name(e.name) for e in excluded}
    for name in richard.played_as:  # chosen earlier, even when not on this page
        try:
            chosen = catalogue.exact(name)
        except (UnknownCard, AppError):
            continue
        if chosen.mana_cost == card.mana_cost and fold_name(chosen.name) not in shown:
            excluded.append(ExcludedOut(name=chosen.name, reason=f"already chosen through {richard.id}"))
            shown.add(fold_name(chosen.name))
    return MentalMagicOut(
        rules_edition=settings.rules_edition,
        data_version=catalogue.data_version,
        data=[
            OptionOut(
                name=c.name,
                oracle_id=c.oracle_id,
                mana_cost=str(c.mana_cost) if c.mana_cost is not None else None,
            )
            for c in found.allowed
        ],
        has_more=next_cursor is not None,
        next_cursor=next_cursor,
        excluded=excluded,
    )


def _pool_page(
    request: MentalMagicRequest, catalogue: Catalogue, card: Card
) -> tuple[list[Card], str | None]:
    """Draft and Sealed: the cards of the pool with the same mana cost, by name, paginated by offset."""
    seen: dict[str, Card] = {}
    for i, name in enumerate(request.pool or []):
        deadline.check()  # up to 1,000 names, each resolved: a safe point between two
        c = _resolve(name, catalogue, ["body", "pool", i])
        if c.mana_cost == card.mana_cost:
            seen.setdefault(fold_name(c.name), c)
    ordered = [seen[k] for k in sorted(seen)]
    start = 0
    if request.cursor:
        offset = decode_cursor(request.cursor).get("offset")
        if not isinstance(offset, int) or offset < 0:
            raise BadRequest("Invalid cursor: pass back next_cursor from the previous page unchanged.")
        start = offset
    end = start + request.limit
    more = end < len(ordered)
    return ordered[start:end], encode_cursor({"offset": end}) if more else None
