"""The card catalogue: ``/v1/cards/named``, ``/v1/cards/{name or oracle_id}``, ``/v1/cards``,
``/v1/creature-types``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query

from app.api.deps import SessionDep
from app.cursors import LIMIT_DEFAULT, LIMIT_MAX
from app.errors import PROBLEM_MEDIA_TYPE, InputError, from_rules_error
from app.rules.costs import MAX_COST_LENGTH, ManaCost
from app.rules.creature_types import CREATURE_TYPE_LIST, RULES_EDITION
from app.rules.errors import ManaCostSyntaxError
from app.schemas.cards import CardAnswer, CardOut, CardPage, CreatureTypes
from app.schemas.common import Problem
from app.services.card_formats import MAX_NAME_LENGTH
from app.services.catalogue import Catalogue

router = APIRouter(prefix="/v1", tags=["cards"])


def get_catalogue(session: SessionDep) -> Catalogue:
    return Catalogue(session)


CatalogueDep = Annotated[Catalogue, Depends(get_catalogue)]
NameQuery = Annotated[str | None, Query(min_length=1, max_length=MAX_NAME_LENGTH)]
ExactQuery = Annotated[
    str | None,
    Query(
        min_length=1, max_length=MAX_NAME_LENGTH, description="The exact name.", examples=["Llanowar Elves"]
    ),
]

_PROBLEM = {"model": Problem, "content": {PROBLEM_MEDIA_TYPE: {}}}
_LOOKUP_RESPONSES: dict[int | str, dict[str, object]] = {
    404: {"description": "No card bears this name (unknown-card, with suggestions)", **_PROBLEM},
    422: {"description": "Several cards bear this name (ambiguous-card, with candidates)", **_PROBLEM},
}


@router.get(
    "/cards/named",
    summary="A card by exact name (case- and accent-insensitive) or, with fuzzy, by a close one",
    description="Give exactly one of `exact` and `fuzzy`. An unknown name is a 404 `unknown-card` with"
    " suggestions; a name several cards bear is a 422 `ambiguous-card` listing them.",
    responses=_LOOKUP_RESPONSES,
)
def named_card(catalogue: CatalogueDep, exact: ExactQuery = None, fuzzy: NameQuery = None) -> CardAnswer:
    if (exact is None) == (fuzzy is None):
        raise InputError(
            "Give exactly one of exact= and fuzzy=.",
            errors=[
                {"loc": ["query", "exact"], "msg": "give exactly one of exact and fuzzy", "type": "missing"}
            ],
        )
    card = (
        catalogue.exact(exact, unknown_status=404)
        if exact is not None
        else catalogue.fuzzy(fuzzy or "", unknown_status=404)
    )
    return CardAnswer(**CardOut.of(card).model_dump(), data_version=catalogue.data_version)


@router.get(
    "/cards/{ref:path}",
    summary="A card by name (a face's name and a unique word prefix work too) or oracle id",
    description="Names are case- and accent-insensitive (`’` equals `'`); a multi-face card is found by"
    " either face's name. The answer describes every face and the card's legalities.",
    responses=_LOOKUP_RESPONSES,
)
def get_card(
    ref: Annotated[str, Path(description="A card name or oracle id.", examples=["Herald's Horn"])],
    catalogue: CatalogueDep,
) -> CardAnswer:
    if not ref or len(ref) > MAX_NAME_LENGTH:
        raise InputError(
            f"A card name is 1 to {MAX_NAME_LENGTH} characters.",
            errors=[{"loc": ["path", "ref"], "msg": "bad length", "type": "string_length"}],
        )
    card = catalogue.lookup(ref, unknown_status=404)
    return CardAnswer(**CardOut.of(card).model_dump(), data_version=catalogue.data_version)


@router.get(
    "/cards",
    summary="Search cards by exact mana cost (color matters; {W}{1} equals {1}{W}), format and name",
    description="Cards sorted by name, a page at a time (pass `next_cursor` back as `cursor`). The mana cost"
    " matches as a multiset of symbols, as Mental Magic compares costs.",
    responses={422: {"description": "Malformed mana cost or parameter", **_PROBLEM}},
)
def search_cards(
    catalogue: CatalogueDep,
    mana_cost: Annotated[
        str | None,
        Query(max_length=MAX_COST_LENGTH, description="Brace or loose syntax: {1}{W}, 1W.", examples=["{W}"]),
    ] = None,
    format: Annotated[
        str | None,
        Query(
            max_length=32,
            pattern=r"^[a-z0-9_]{1,32}$",
            description="Keep cards legal or restricted in this format.",
            examples=["legacy"],
        ),
    ] = None,
    name: Annotated[str | None, Query(max_length=MAX_NAME_LENGTH, description="Name contains.")] = None,
    limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
    cursor: Annotated[str | None, Query(max_length=2048)] = None,
) -> CardPage:
    cost: ManaCost | None = None
    if mana_cost is not None:
        try:
            cost = ManaCost.parse_loose(mana_cost)
        except ManaCostSyntaxError as exc:
            raise from_rules_error(exc, ("query", "mana_cost")) from exc
    page = catalogue.search(mana_cost=cost, format=format, name=name, limit=limit, cursor=cursor)
    return CardPage(
        data=[CardOut.of(c) for c in page.cards],
        has_more=page.has_more,
        next_cursor=page.next_cursor,
        data_version=catalogue.data_version,
    )


@router.get(
    "/creature-types",
    summary="Every creature type of CR 205.3m (rules of 2026-04-17)",
    description="The values a `chosen.creature_type` may take, in the rule's order.",
)
def creature_types() -> CreatureTypes:
    return CreatureTypes(data=list(CREATURE_TYPE_LIST), rules_edition=RULES_EDITION)
