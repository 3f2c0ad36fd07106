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
from app.api.routing import routers_within

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
    (the server drops it), left out of the OpenAPI document, in the router of the GET's route."""
    for owner in list(routers_within(router)):
        # a list: adding the twins changes ``owner.routes``
        bare_gets = [
            r
            for r in owner.routes
            if isinstance(r, APIRoute) and "GET" in (r.methods or ()) and "HEAD" not in (r.methods or ())
        ]
        for route in bare_gets:
            owner.add_api_route(
                route.path.removeprefix(owner.prefix),
                route.endpoint,
                methods=["HEAD"],
                response_model=route.response_model,
                include_in_schema=False,
                name=f"{route.name}_head",
            )


for _router in (*FIRST, *ROUTERS):
    _allow_head(_router)
