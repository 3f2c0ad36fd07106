"""The card catalogue: ``/v1/cards/named``, ``/v1/cards/{name or oracle_id}``, ``/v1/cards``,
``/v1/creature-types``."""

from __future__ import annotations

import hashlib
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response

from app.api.caching import STATIC_CACHE_CONTROL, etag_of, next_link, validated
from app.api.compute import compute, computes, light
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import problem_responses
from app.api.routing import BoundedBodyRoute
from app.cursors import LIMIT_DEFAULT, LIMIT_MAX
from app.errors import AmbiguousCard, BadRequest, InputError, MalformedCost, UnknownCard, from_rules_error
from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import MAX_COST_LENGTH, ManaCost
from app.rules.values.creature_types import CREATURE_TYPE_LIST, RULES_EDITION
from app.schemas.cards import (
    AutocompleteAnswer,
    CardAnswer,
    CardOut,
    CardPage,
    CollectionAnswer,
    CollectionRequest,
    CreatureTypes,
)
from app.services import card_lookup
from app.services.card_formats import MAX_NAME_LENGTH
from app.services.catalogue import Catalogue

router = APIRouter(prefix="/v1", tags=["cards"], route_class=BoundedBodyRoute)

CACHE_CONTROL = "public, max-age=60, must-revalidate"
"""Catalogue answers change only with the data_version: clients revalidate with If-None-Match after a
minute and get a 304 while it is the same."""


def _etag(data_version: str, rules_edition: str) -> str:
    # Weak: the same answer gzip-encoded or not (RFC 9110 8.8.1); keyed to the catalogue's version and the
    # rules edition, since every catalogue GET answer is a function of its URL and those two.
    return 'W/"' + hashlib.sha256(f"{rules_edition}\0{data_version}".encode()).hexdigest()[:20] + '"'


def _conditional(
    request: Request, response: Response, data_version: str, rules_edition: str
) -> Response | None:
    """Set ETag and Cache-Control; a 304 answer when the client's If-None-Match holds this ETag."""
    return validated(request, response, _etag(data_version, rules_edition), CACHE_CONTROL)


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

# A look-up's unknown name is a 404 (the path or query names a resource that does not exist), with
# `suggestions`; a name several cards bear is a 422 with `candidates`.
_LOOKUP_RESPONSES = problem_responses((UnknownCard, 404), AmbiguousCard, InputError)


@router.get(
    "/cards/named",
    response_model=CardAnswer,
    summary="A card by exact name (case- and accent-insensitive) or, with fuzzy, by a close one",
    description="Give exactly one of `exact` and `fuzzy`. An unknown name is a 404 `unknown-card` with"
    " suggestions; a name several cards bear is a 422 `ambiguous-card` listing them.",
    responses=_LOOKUP_RESPONSES,
)
@computes(router, "/cards/named", "GET")
async def named_card(
    request: Request,
    response: Response,
    session: SessionDep,
    settings: SettingsDep,
    exact: ExactQuery = None,
    fuzzy: NameQuery = None,
) -> CardAnswer | Response:
    if (exact is None) == (fuzzy is None):
        raise InputError(
            "Give exactly one of exact= and fuzzy=.",
            errors=[
                {"loc": ["query", "exact"], "msg": "give exactly one of exact and fuzzy", "type": "missing"}
            ],
        )

    card, data_version = await compute(
        lambda s: card_lookup.named(s, exact=exact, fuzzy=fuzzy), session, size=1, request=request
    )
    if (not_modified := _conditional(request, response, data_version, settings.rules_edition)) is not None:
        return not_modified
    return CardAnswer(
        **CardOut.of(card).model_dump(), rules_edition=settings.rules_edition, data_version=data_version
    )


@router.get(
    "/cards/autocomplete",
    response_model=AutocompleteAnswer,
    summary="Up to 20 card names completing a partial name",
    description="Names starting with `q` first (shorter first), then names with a word starting with `q`;"
    " case, accents, Æ/Ae and ’ do not matter. No match is an empty list.",
)
@computes(router, "/cards/autocomplete", "GET")
async def autocomplete(
    q: Annotated[str, Query(min_length=1, max_length=MAX_NAME_LENGTH, examples=["llanow"])],
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
) -> AutocompleteAnswer | Response:
    names, data_version = await compute(
        lambda s: card_lookup.autocomplete(s, q), session, size=1, request=request
    )
    if (not_modified := _conditional(request, response, data_version, settings.rules_edition)) is not None:
        return not_modified
    return AutocompleteAnswer(data=names, rules_edition=settings.rules_edition, data_version=data_version)


@router.post(
    "/cards/collection",
    summary="Up to 1,000 cards at once, by exact name or oracle id",
    description="Each identifier is `{\"name\": ...}` (a card's or a face's full name, folded as everywhere)"
    ' or `{"oracle_id": ...}`. Found cards come in request order in `data`; the identifiers that found no'
    " single card are in `not_found`, as given.",
)
@computes(router, "/cards/collection")
async def card_collection(
    request: Request,
    body: Annotated[
        CollectionRequest,
        Body(
            openapi_examples={
                "names_and_ids": {
                    "summary": "Two names and an oracle id",
                    "value": {
                        "identifiers": [
                            {"name": "Llanowar Elves"},
                            {"name": "Æther Vial"},
                            {"oracle_id": "ae92942b-919c-4ea9-b693-85fcef765d5a"},
                        ]
                    },
                }
            }
        ),
    ],
    session: SessionDep,
    settings: SettingsDep,
) -> CollectionAnswer:
    idents = [i.model_dump(exclude_none=True) for i in body.identifiers]
    found, missing, data_version = await compute(
        lambda s: card_lookup.collection(s, idents), session, size=len(idents), request=request
    )
    return CollectionAnswer(
        data=[CardOut.of(c) for c in found],
        not_found=missing,
        rules_edition=settings.rules_edition,
        data_version=data_version,
    )


@router.get(
    "/cards/{ref:path}",
    response_model=CardAnswer,
    summary="A card by name (a face's name and a unique word prefix work too) or oracle id",
    description="Names are case- and accent-insensitive (`’` equals `'`); a multi-face card is found by"
    " either face's name. The answer describes every face and the card's legalities.",
    responses=_LOOKUP_RESPONSES,
)
@computes(router, "/cards/{ref:path}", "GET")
async def get_card(
    ref: Annotated[str, Path(description="A card name or oracle id.", examples=["Herald's Horn"])],
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
) -> CardAnswer | Response:
    if not ref or len(ref) > MAX_NAME_LENGTH:
        raise InputError(
            f"A card name is 1 to {MAX_NAME_LENGTH} characters.",
            errors=[{"loc": ["path", "ref"], "msg": "bad length", "type": "string_length"}],
        )

    card, data_version = await compute(lambda s: card_lookup.by_ref(s, ref), session, size=1, request=request)
    if (not_modified := _conditional(request, response, data_version, settings.rules_edition)) is not None:
        return not_modified
    return CardAnswer(
        **CardOut.of(card).model_dump(), rules_edition=settings.rules_edition, data_version=data_version
    )


@router.get(
    "/cards",
    response_model=CardPage,
    summary="Search cards by exact mana cost (color matters; {W}{1} equals {1}{W}), format and name",
    description="Cards sorted by name, a page at a time (pass `next_cursor` back as `cursor`). The mana cost"
    " matches as a multiset of symbols, as Mental Magic compares costs.",
    responses=problem_responses(BadRequest, InputError, MalformedCost),
)
@light(router, "/cards", "GET", "one indexed SQL query for a page of at most LIMIT_MAX cards")
def search_cards(
    catalogue: CatalogueDep,
    settings: SettingsDep,
    request: Request,
    response: Response,
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
    limit: Annotated[
        int, Query(ge=1, le=LIMIT_MAX, description="Cards per page (1 to 1000).", examples=[3])
    ] = LIMIT_DEFAULT,
    cursor: Annotated[
        str | None, Query(max_length=2048, description="`next_cursor` of the previous page.")
    ] = None,
) -> CardPage | Response:
    cost: ManaCost | None = None
    if mana_cost is not None:
        try:
            cost = ManaCost.parse_loose(mana_cost)
        except ManaCostSyntaxError as exc:
            raise from_rules_error(exc, ("query", "mana_cost")) from exc
    page = catalogue.search(mana_cost=cost, format=format, name=name, limit=limit, cursor=cursor)
    if (
        not_modified := _conditional(request, response, catalogue.data_version, settings.rules_edition)
    ) is not None:
        return not_modified
    next_link(request, response, page.next_cursor)
    return CardPage(
        data=[CardOut.of(c) for c in page.cards],
        has_more=page.has_more,
        next_cursor=page.next_cursor,
        rules_edition=settings.rules_edition,
        data_version=catalogue.data_version,
    )


@router.get(
    "/creature-types",
    response_model=CreatureTypes,
    summary="Every creature type of CR 205.3m (rules of 2026-04-17)",
    description="The values a `chosen.creature_type` may take, in the rule's order.",
)
@light(router, "/creature-types", "GET", "a constant list (CR 205.3m)")
def creature_types(request: Request, response: Response) -> CreatureTypes | Response:
    answer = CreatureTypes(data=list(CREATURE_TYPE_LIST), rules_edition=RULES_EDITION)
    etag = etag_of(answer.model_dump_json().encode())  # fixed for a release: a client keeps it an hour
    return validated(request, response, etag, STATIC_CACHE_CONTROL) or answer
