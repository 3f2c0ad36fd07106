"""``POST /v1/heralds-horn/reveal``: may Herald's Horn's upkeep ability put the top card into hand?"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request
from pydantic import Field

from app.api import examples
from app.api.compute import compute, computes
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import BoundedBodyRoute
from app.schemas.board import BoardIn, CardRef, PermanentId
from app.schemas.common import ComputedAnswer, StrictModel
from app.services import spells as service

router = APIRouter(prefix="/v1/heralds-horn", tags=["spells"], route_class=BoundedBodyRoute)


class RevealRequest(StrictModel):
    """Herald's Horn's upkeep reveal: the board, the Horn, the revealed top card."""

    board: BoardIn = Field(description="The board holding the Herald's Horn.")
    horn: PermanentId = Field(description="The id of the Herald's Horn on the board.")
    top_card: CardRef = Field(description="The top card of its controller's library.")


class RevealOut(ComputedAnswer):
    """Whether Herald's Horn lets its controller put the revealed card into their hand."""

    may_put_into_hand: bool = Field(description="True when the card is a creature card of the chosen type.")
    reason: str = Field(description="Why, in words.")
    rule: str = Field(description="The rule or ruling applied.")


@router.post(
    "/reveal",
    response_model=RevealOut,
    summary="May Herald's Horn put the revealed top card into hand?",
    responses=problem_responses(*BOARD_PROBLEMS),
)
@computes(router, "/reveal")
async def reveal(
    request: Request,
    body: Annotated[RevealRequest, Body(openapi_examples=examples.HERALDS_HORN_REVEAL)],
    session: SessionDep,
    settings: SettingsDep,
) -> RevealOut:
    """Whether the top card may be revealed and put into hand (ruling:heralds-horn)."""
    answer, version = await compute(
        lambda s: service.heralds_horn_reveal(
            board_in=body.board, horn=body.horn, top_card=body.top_card, session=s
        ),
        session,
        size=len(body.board.permanents),
        request=request,
    )
    return RevealOut(
        rules_edition=settings.rules_edition,
        data_version=version,
        may_put_into_hand=answer.may_put_into_hand,
        reason=answer.reason,
        rule=answer.rule,
    )
