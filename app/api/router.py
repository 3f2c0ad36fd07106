"""Every router of the service, in the order the app matches them. Add yours to ``ROUTERS``.

FastAPI matches a request against the app's routes in order, and an included router that includes others
re-reads its whole tree of routers for each request and matches its candidates again at each level:
through one router including eleven, a ``spells/cost`` spent about as much CPU being matched as computing
its answer. So ``create_app`` adds the routes of ``FIRST`` to its own table (``app.api.routing.add_first``),
first, and includes each router of ``ROUTERS`` after them, flat."""

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

FIRST: tuple[APIRouter, ...] = (spells.router, payments.router)
"""The compute routes, matched before any other."""

ROUTERS: tuple[APIRouter, ...] = (
    scenarios.router,  # a scenario read is the hottest GET (bench/load.sh)
    health.router,
    problems.router,
    mana_costs.router,
    cards.router,
    boards.router,
    mental_magic.router,
    heralds_horn.router,
    decks.router,
)


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


for _router in (*FIRST, *ROUTERS):
    _allow_head(_router)
