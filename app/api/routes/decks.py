"""``POST /v1/decks/analyze`` (JSON), ``/v1/decks/chart`` (its SVG picture), ``/v1/decks/chart/vega-lite``
(the picture's Vega-Lite spec) and ``/v1/decks/manabase`` (the mana-base advisor): thin routers over
``app.services.decks``.

Each operation answers one media type (so generated clients type each answer exactly); the chart is drawn
inside the compute work, in the worker thread, with no plotting library.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Request
from fastapi.responses import JSONResponse, Response

from app.api import examples
from app.api.compute import INLINE_WORK_LIMIT, compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import BoundedBodyRoute
from app.errors import TooLarge
from app.schemas.decks import DeckAnalyzeAnswer, DeckAnalyzeRequest, DeckManabaseAnswer, DeckManabaseRequest
from app.services import deck_chart
from app.services import deck_manabase as manabase_service
from app.services import decks as service

router = APIRouter(prefix="/v1/decks", tags=["decks"], route_class=BoundedBodyRoute)

SVG = "image/svg+xml"
VEGA_LITE = "application/json"
_PROBLEMS = problem_responses(*BOARD_PROBLEMS, TooLarge)
CHART_SIZE = INLINE_WORK_LIMIT + 1  # exact castability is too much for the event loop


@router.post(
    "/analyze",
    response_model=DeckAnalyzeAnswer,
    responses=_PROBLEMS,
    summary="A decklist's curve, colors, sources, castability on curve (Karsten) and legality",
)
@computes(router, "/analyze")
async def analyze_deck(
    request: Request,
    body: Annotated[DeckAnalyzeRequest, Body(openapi_examples=examples.DECK_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
    accept: Annotated[str | None, Header(max_length=1000, include_in_schema=False)] = None,
) -> DeckAnalyzeAnswer | Response:
    """Counts, lands, curve, colored symbols, sources per color (CR 106.7), the exact chance of casting each
    spell on curve with the sources it needs (Karsten's 2022 model), and legality in `format`.

    The chart is `POST /v1/decks/chart` (SVG) or `/v1/decks/chart/vega-lite`. A request here asking for
    `Accept: image/svg+xml` still gets the SVG, marked `Deprecation` with a `Link` to its successor."""
    if accept is not None and SVG in accept and "application/json" not in accept.split(",")[0]:
        svg = await compute(lambda s: _svg(body, s, settings), session, size=CHART_SIZE, request=request)
        return Response(
            svg,
            media_type=SVG,
            headers={"Deprecation": "true", "Link": '</v1/decks/chart>; rel="successor-version"'},
        )
    return await compute(
        lambda s: service.analyze(request=body, session=s, settings=settings),
        session,
        size=CHART_SIZE,
        request=request,
    )


def _svg(body: DeckAnalyzeRequest, session: Any, settings: Any) -> bytes:
    return deck_chart.render_svg(service.analyze(request=body, session=session, settings=settings))


@router.post(
    "/chart",
    response_class=Response,
    responses={
        200: {
            "description": "The chart: the curve (whole copies per mana value), the deck's colors, and each"
            " spell's chance to be cast on curve in a table sorted from the least likely.",
            # SVG is text: a format on the string keeps generators from typing it as a file
            # (@hey-api/openapi-ts types a string of an image/* media type with no format as Blob | File).
            "content": {
                SVG: {"schema": {"type": "string", "format": "svg", "description": "SVG markup (UTF-8)."}}
            },
        },
        **_PROBLEMS,
    },
    summary="The deck analysis as an SVG chart",
)
@computes(router, "/chart")
async def deck_chart_svg(
    request: Request,
    body: Annotated[DeckAnalyzeRequest, Body(openapi_examples=examples.DECK_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
) -> Response:
    """The same request as `decks/analyze`, answered as a picture: bars of the main deck's nonland cards
    per mana value, the colored symbols and sources per color, and per spell its chance to be cast on the
    turn equal to its mana value (Karsten's 2022 model), least likely first."""
    svg = await compute(lambda s: _svg(body, s, settings), session, size=CHART_SIZE, request=request)
    return Response(svg, media_type=SVG)


@router.post(
    "/chart/vega-lite",
    response_class=JSONResponse,
    responses={
        200: {
            "description": "A Vega-Lite v5 specification with its data inline.",
            "content": {VEGA_LITE: {"schema": {"$ref": "#/components/schemas/VegaLiteSpec"}}},
        },
        **_PROBLEMS,
    },
    summary="The deck chart as a Vega-Lite specification, for sites that draw their own",
)
@computes(router, "/chart/vega-lite")
async def deck_chart_vega_lite(
    request: Request,
    body: Annotated[DeckAnalyzeRequest, Body(openapi_examples=examples.DECK_ANALYZE)],
    session: SessionDep,
    settings: SettingsDep,
) -> JSONResponse:
    """The chart of `decks/chart` as a Vega-Lite v5 specification (https://vega.github.io/vega-lite/),
    data inline: render it with vega-embed or any Vega-Lite renderer, restyled as the site likes."""
    spec = await compute(
        lambda s: deck_chart.vega_lite(service.analyze(request=body, session=s, settings=settings)),
        session,
        size=CHART_SIZE,
        request=request,
    )
    return JSONResponse(spec)


@router.post(
    "/manabase",
    response_model=DeckManabaseAnswer,
    responses=problem_responses(*BOARD_PROBLEMS, TooLarge),
    summary="The fewest land swaps that bring every spell to Karsten's source counts",
)
@computes(router, "/manabase")
async def deck_manabase(
    request: Request,
    body: Annotated[DeckManabaseRequest, Body(openapi_examples=examples.DECK_MANABASE)],
    session: SessionDep,
    settings: SettingsDep,
) -> DeckManabaseAnswer:
    """For a deck whose spells miss their sources (Karsten's 2022 table), the fewest swaps of a land of the
    deck for another (a basic, a land of the deck, a `candidates` land) after which every spell (or those
    `spells` names) meets it, with the exact castability before and after; `unreachable` spells no swap
    brings there; an exact search bounded by `max_changes` (`complete: false` and `warnings` at its bound)."""
    return await compute(
        lambda s: manabase_service.advise(request=body, session=s, settings=settings),
        session,
        size=INLINE_WORK_LIMIT + 1,  # exact castability, twice: too much for the event loop
        request=request,
    )
