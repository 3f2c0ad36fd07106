"""Every router of the service. Add yours with one ``include_router`` line below."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.routing import APIRoute

from app.api.routes import (
    boards,
    cards,
    decks,
    health,
    heralds_horn,
    mana_costs,
    mental_magic,
    payments,
    problems,
    scenarios,
    spells,
)

api_router = APIRouter()
api_router.include_router(health.router)
api_router.include_router(problems.router)
api_router.include_router(mana_costs.router)
api_router.include_router(cards.router)
api_router.include_router(boards.router)
api_router.include_router(spells.router)
api_router.include_router(mental_magic.router)
api_router.include_router(heralds_horn.router)
api_router.include_router(scenarios.router)
api_router.include_router(payments.router)
api_router.include_router(decks.router)


def _allow_head(router: APIRouter) -> None:
    """HEAD wherever GET exists (RFC 9110 9.3.2): a twin route answering the GET's headers with no body
    (the server drops it), left out of the OpenAPI document. Walks included routers (FastAPI may include
    them lazily, as ``original_router``)."""
    twins: list[APIRoute] = []
    for route in list(router.routes):
        inner = getattr(route, "original_router", None)
        if isinstance(inner, APIRouter):
            _allow_head(inner)
        methods = route.methods or set() if isinstance(route, APIRoute) else set()
        if isinstance(route, APIRoute) and "GET" in methods and "HEAD" not in methods:
            twins.append(route)
    for route in twins:
        router.add_api_route(
            route.path.removeprefix(router.prefix),
            route.endpoint,
            methods=["HEAD"],
            response_model=route.response_model,
            include_in_schema=False,
            name=f"{route.name}_head",
        )


_allow_head(api_router)
