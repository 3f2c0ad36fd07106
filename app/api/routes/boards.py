"""``POST /v1/boards/analyze``: a thin router over ``app.services.analysis``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request

from app.api import examples
from app.api.compute import compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import BoundedBodyRoute
from app.schemas.analysis import AnalyzeAnswer, AnalyzeRequest
from app.services import analysis as service

router = APIRouter(prefix="/v1/boards", tags=["boards"], route_class=BoundedBodyRoute)

_PROBLEMS = problem_responses(*BOARD_PROBLEMS)


@router.post(
    "/analyze",
    response_model=AnalyzeAnswer,
    responses=_PROBLEMS,
    summary="Mana abilities, what each permanent could produce, and parties",
)
@computes(router, "/analyze")
async def analyze_board(
    request: Request,
    body: Annotated[AnalyzeRequest, Body(openapi_examples=examples.BOARD_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
) -> AnalyzeAnswer:
    """Each permanent's activated abilities (can they be activated, what they produce) and what it could
    produce (CR 106.7); each player's party (CR 700.8)."""
    return await compute(
        lambda s: service.analyze(request=body, session=s, settings=settings),
        session,
        size=len(body.board.permanents),
        request=request,
    )
