"""``POST /v1/mana-costs/parse`` and ``GET /v1/symbols``: the mana cost language."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Request, Response

from app.api import examples
from app.api.caching import STATIC_CACHE_CONTROL, etag_of, validated
from app.api.compute import compute, computes, light
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import problem_responses
from app.api.routing import BoundedBodyRoute
from app.errors import InputError, MalformedCost, from_rules_error
from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import MAX_COST_LENGTH, ManaCost
from app.schemas.mana_costs import ParsedCostOut, ParseRequest, SymbolList, SymbolOut
from app.services import mana_costs

router = APIRouter(prefix="/v1", tags=["mana costs"], route_class=BoundedBodyRoute)


@router.post(
    "/mana-costs/parse",
    response_model=ParsedCostOut,
    summary="Parse a mana cost into canonical form",
    description=(
        "Accepts loose input as Scryfall's parse-mana does (`2WW`, lowercase, symbols out of order,"
        " `2{g}2`) and answers the canonical cost, its mana value (CR 202.3), colors and symbols."
        " A malformed cost is a `malformed-cost` problem naming the symbol and its 0-based position."
    ),
    responses=problem_responses(InputError, MalformedCost),
)
@computes(router, "/mana-costs/parse")
async def parse_mana_cost(
    request: Request,
    body: Annotated[ParseRequest, Body(openapi_examples=examples.MANA_COST_PARSE)],
    session: SessionDep,
    settings: SettingsDep,
) -> ParsedCostOut:
    parsed = await compute(
        lambda s: mana_costs.parse_cost(session=s, text=body.mana_cost), session, size=1, request=request
    )
    return ParsedCostOut.of(
        parsed.cost, rules_edition=settings.rules_edition, data_version=parsed.data_version
    )


@router.get(
    "/mana-costs/parse",
    response_model=ParsedCostOut,
    summary="Parse a mana cost given in the query (as the POST does)",
    description="`GET /v1/mana-costs/parse?mana_cost=2WW`: the same answer as the POST with that body.",
    responses=problem_responses(InputError, MalformedCost),
)
@computes(router, "/mana-costs/parse", "GET")
async def parse_mana_cost_get(
    request: Request,
    mana_cost: Annotated[
        str,
        Query(
            min_length=1, max_length=MAX_COST_LENGTH, description="Loose or brace syntax.", examples=["2WW"]
        ),
    ],
    session: SessionDep,
    settings: SettingsDep,
) -> ParsedCostOut:
    try:
        ManaCost.parse_loose(mana_cost)
    except ManaCostSyntaxError as exc:
        raise from_rules_error(exc, ("query", "mana_cost")) from exc
    parsed = await compute(
        lambda s: mana_costs.parse_cost(session=s, text=mana_cost), session, size=1, request=request
    )
    return ParsedCostOut.of(
        parsed.cost, rules_edition=settings.rules_edition, data_version=parsed.data_version
    )


@router.get(
    "/symbols",
    response_model=SymbolList,
    summary="Every mana symbol",
    description="Each symbol of CR 107.4 and the Un symbols with its kind, colors and mana value.",
)
@light(router, "/symbols", "GET", "a constant list of the symbols of CR 107.4")
def list_symbols(request: Request, response: Response) -> SymbolList | Response:
    answer = SymbolList(data=[SymbolOut.of(s) for s in mana_costs.list_symbols()])
    etag = etag_of(answer.model_dump_json().encode())  # fixed for a release: a client keeps it an hour
    return validated(request, response, etag, STATIC_CACHE_CONTROL) or answer
