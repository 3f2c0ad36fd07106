"""``POST /v1/payments/plan``: a thin router over ``app.services.payments``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response

from app.api import examples
from app.api.compute import compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import ComputeRoute
from app.schemas.payments import PaymentPlanOut, PaymentPlanRequest
from app.services import payments as service

router = APIRouter(prefix="/v1/payments", tags=["payments"], route_class=ComputeRoute)

_PROBLEMS = problem_responses(*BOARD_PROBLEMS)


@router.post(
    "/plan",
    response_model=PaymentPlanOut,
    responses=_PROBLEMS,
    summary="How to pay a cost or a spell with the board's mana",
)
@computes(router, "/plan")
async def payment_plan(
    request: Request,
    body: Annotated[PaymentPlanRequest, Body(openapi_examples=examples.PAYMENT_PLAN)],
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """How the player pays a cost with the board's mana abilities, pool and life (CR 601.2g-h), or what is
    missing. Exact: a plan whenever one exists; each permanent tapped at most once; mana before life; then
    the fewest activations that cost mana."""
    answer = await compute(
        lambda s: service.plan(request=body, session=s, settings=settings).model_dump_json(),
        session,
        size=len(body.board.permanents),
        request=request,
    )
    return Response(answer, media_type="application/json")
