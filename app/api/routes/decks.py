"""``POST /v1/decks/analyze``: a thin router over ``app.services.decks`` (JSON, or an SVG chart)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from app.api import examples
from app.api.compute import INLINE_WORK_LIMIT, compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.errors import TooLarge
from app.schemas.decks import DeckAnalyzeAnswer, DeckAnalyzeRequest
from app.services import decks as service

router = APIRouter(prefix="/v1/decks", tags=["decks"])

SVG = "image/svg+xml"
_RESPONSES = problem_responses(*BOARD_PROBLEMS, TooLarge)
_RESPONSES[200] = {
    "description": "The analysis as JSON, or with `Accept: image/svg+xml` its curve chart.",
    "content": {SVG: {"schema": {"type": "string"}}},
}


@router.post(
    "/analyze",
    response_model=DeckAnalyzeAnswer,
    responses=_RESPONSES,
    summary="A decklist's curve, colors, sources, castability on curve (Karsten) and legality",
)
@computes(router, "/analyze")
async def analyze_deck(
    body: Annotated[DeckAnalyzeRequest, Body(openapi_examples=examples.DECK_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
    accept: Annotated[str | None, Header(max_length=1000)] = None,
) -> DeckAnalyzeAnswer | Response:
    """Counts, lands, curve, colored symbols, sources per color (CR 106.7), the exact chance of casting each
    spell on curve with the sources it needs (Karsten's 2022 model), and legality in `format`."""
    svg = accept is not None and SVG in accept and "application/json" not in accept.split(",")[0]
    if svg:
        await run_in_threadpool(service.load_chart)

    # Exact castability and the drawing (4 s held the event loop before) are too much for the event loop:
    # straight to a worker thread, within the budget.
    answer = await compute(
        lambda s: service.analyze_or_chart(request=body, session=s, settings=settings, chart=svg),
        session,
        size=INLINE_WORK_LIMIT + 1,
    )
    return Response(answer, media_type=SVG) if isinstance(answer, bytes) else answer
