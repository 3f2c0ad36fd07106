"""Liveness and readiness probes."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app import __version__
from app.api.compute import light
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import problem_responses
from app.api.routing import BoundedBodyRoute
from app.errors import ServiceUnavailable
from app.services.health import Readiness as ReadyState
from app.services.health import check_ready

router = APIRouter(tags=["health"], route_class=BoundedBodyRoute)

READY_CACHE_S = 1.0
"""How long one ``/readyz`` verdict (ready or not) answers for: a probe flood costs the database one query
a second per worker, whatever its rate (``/readyz`` is exempt from the rate limit)."""


class Health(BaseModel):
    """The process answers."""

    status: str = Field(description="Always `ok`.")
    version: str = Field(description="The service's version.")


class Readiness(BaseModel):
    """The service can answer: database reachable and migrated."""

    status: str = Field(description="Always `ready` (otherwise the answer is a 503 problem).")
    database: str = Field(description="The database backend (sqlite or postgresql).")
    revisions: list[str] = Field(description="The schema's migration revisions (at head).")
    rules_edition: str = Field(description="The Comprehensive Rules edition followed.")


@router.get(
    "/healthz",
    summary="The process is up (no database access)",
    description="Liveness: answers 200 as long as the process serves requests; never touches the database.",
)
@light(router, "/healthz", "GET", "a constant answer, no database")
async def healthz() -> Health:
    return Health(status="ok", version=__version__)


@router.get(
    "/readyz",
    summary="The database is reachable and its schema at the latest migration",
    description="Readiness: 200 with the schema's revisions when the service can answer, else a 503 problem"
    " (database unreachable, or not migrated).",
    responses={
        **problem_responses(ServiceUnavailable),
    },
)
@light(router, "/readyz", "GET", "one schema-revision query, bounded by the statement timeout")
def readyz(request: Request, session: SessionDep, settings: SettingsDep) -> Readiness:
    state = _ready_state(request, session)
    return Readiness(
        status="ready",
        database=state.backend,
        revisions=list(state.revisions),
        rules_edition=settings.rules_edition,
    )


def _ready_state(request: Request, session: SessionDep) -> ReadyState:
    """``check_ready``'s verdict, asked at most once per ``READY_CACHE_S`` per application."""
    now = time.monotonic()
    cached: tuple[float, ReadyState | ServiceUnavailable] | None = getattr(request.app.state, "ready", None)
    if cached is None or now - cached[0] >= READY_CACHE_S:
        verdict: ReadyState | ServiceUnavailable
        try:
            verdict = check_ready(session)
        except ServiceUnavailable as exc:
            verdict = exc
        cached = (now, verdict)
        request.app.state.ready = cached
    if isinstance(cached[1], ServiceUnavailable):  # a new one each time: a raised one keeps its traceback
        raise ServiceUnavailable(cached[1].detail, headers=cached[1].headers)
    return cached[1]
