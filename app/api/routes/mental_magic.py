"""``POST /v1/mental-magic/options``: a thin router over ``app.services.mental_magic``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request

from app.api import examples
from app.api.compute import compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import BoundedBodyRoute
from app.services import mental_magic as service
from app.services.mental_magic import MentalMagicOut, MentalMagicRequest

router = APIRouter(prefix="/v1/mental-magic", tags=["mental magic"], route_class=BoundedBodyRoute)


@router.post(
    "/options",
    response_model=MentalMagicOut,
    summary="What a card may be cast as through a Richard Garfield, Ph.D.",
    responses=problem_responses(*BOARD_PROBLEMS),
)
@computes(router, "/options")
async def mental_magic_options(
    request: Request,
    body: Annotated[MentalMagicRequest, Body(openapi_examples=examples.MENTAL_MAGIC_OPTIONS)],
    session: SessionDep,
    settings: SettingsDep,
) -> MentalMagicOut:
    """The cards a revealed card may be cast as through a Richard Garfield, Ph.D.

    ruling:richard-garfield-phd: same mana cost (color included), never the same card twice per Richard.
    """
    # Each unknown name is a suggestion search (hundreds of them took seconds): bounded like every
    # computation.
    pool = len(body.pool or ()) + len(body.board.permanents)
    return await compute(
        lambda s: service.options(request=body, session=s, settings=settings),
        session,
        size=pool,
        request=request,
    )
