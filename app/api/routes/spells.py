"""``POST /v1/spells/cost`` and ``POST /v1/spells/cost/batch``: thin routers over ``app.services.spells``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api import examples
from app.api.compute import compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import ComputeRoute
from app.schemas.spells import SpellCostBatchOut, SpellCostBatchRequest, SpellCostOut, SpellCostRequest
from app.services import spells as service

router = APIRouter(prefix="/v1/spells", tags=["spells"], route_class=ComputeRoute)

_PROBLEMS = problem_responses(*BOARD_PROBLEMS)


@router.post(
    "/cost", response_model=SpellCostOut, responses=_PROBLEMS, summary="The total cost of a spell on a board"
)
@computes(router, "/cost")
async def spell_cost(
    request: Request,
    body: Annotated[SpellCostRequest, Body(openapi_examples=examples.SPELL_COST)],
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """The total cost of a spell on a board (CR 601.2f), every step explained."""
    # Built and validated by the service already: serialize once instead of re-validating it.
    answer = await compute(
        lambda s: service.spell_cost(request=body, session=s, settings=settings).model_dump_json(),
        session,
        size=len(body.board.permanents),
        request=request,
    )
    return Response(answer, media_type="application/json")


@router.post(
    "/cost/batch",
    response_model=SpellCostBatchOut,
    responses=_PROBLEMS,
    summary="The total costs of up to 250 spells on one board",
)
@computes(router, "/cost/batch")
async def spell_cost_batch(
    request: Request,
    body: Annotated[SpellCostBatchRequest, Body(openapi_examples=examples.SPELL_COST_BATCH)],
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """Up to 250 spells on one board; a bad spell gets a ``problem`` entry, the others their answers."""
    answer = await compute(
        lambda s: service.spell_cost_batch(request=body, session=s, settings=settings).model_dump_json(),
        session,
        size=len(body.board.permanents) * len(body.spells),
        request=request,
    )
    return Response(answer, media_type="application/json")
