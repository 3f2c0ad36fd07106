"""``POST /v1/decks/analyze`` (JSON, or an SVG chart) and ``POST /v1/decks/manabase``: thin routers over
``app.services.decks``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header
from fastapi.responses import Response

from app.api import examples
from app.api.compute import INLINE_WORK_LIMIT, compute
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.errors import TooLarge
from app.schemas.decks import DeckAnalyzeAnswer, DeckAnalyzeRequest, DeckManabaseAnswer, DeckManabaseRequest
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
async def analyze_deck(
    body: Annotated[DeckAnalyzeRequest, Body(openapi_examples=examples.DECK_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
    accept: Annotated[str | None, Header(max_length=1000)] = None,
) -> DeckAnalyzeAnswer | Response:
    """Counts, lands, curve, colored symbols, sources per color (CR 106.7), the exact chance of casting each
    spell on curve with the sources it needs (Karsten's 2022 model), and legality in `format`."""
    answer = await compute(
        lambda s: service.analyze(request=body, session=s, settings=settings),
        session,
        size=INLINE_WORK_LIMIT + 1,  # exact castability is too much for the event loop
    )
    if accept is not None and SVG in accept and "application/json" not in accept.split(",")[0]:
        from app.services import deck_chart  # matplotlib loads on the first chart, not at start-up

        return Response(deck_chart.render_svg(answer), media_type=SVG)
    return answer


@router.post(
    "/manabase",
    response_model=DeckManabaseAnswer,
    responses=problem_responses(*BOARD_PROBLEMS, TooLarge),
    summary="The fewest land swaps that bring every spell to Karsten's source counts",
)
async def deck_manabase(
    body: Annotated[DeckManabaseRequest, Body(openapi_examples=examples.DECK_MANABASE)],
    session: SessionDep,
    settings: SettingsDep,
) -> DeckManabaseAnswer:
    """For a deck whose spells miss their sources (Karsten's 2022 table), the fewest swaps of a land of the
    deck for another (a basic, a land of the deck, a `candidates` land) after which every spell (or those
    `spells` names) meets it, with the exact castability before and after; `unreachable` spells no swap
    brings there; an exact search bounded by `max_changes` (`complete: false` and `warnings` at its bound)."""
    return await compute(
        lambda s: service.advise(request=body, session=s, settings=settings),
        session,
        size=INLINE_WORK_LIMIT + 1,  # exact castability, twice: too much for the event loop
    )
