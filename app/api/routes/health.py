"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from app import __version__
from app.api.deps import SessionDep, SettingsDep
from app.api.docs import problem_responses
from app.errors import ServiceUnavailable
from app.services.health import check_ready

router = APIRouter(tags=["health"])


class Health(BaseModel):
    status: str
    version: str


class Readiness(BaseModel):
    status: str
    database: str
    revisions: list[str]
    rules_edition: str


@router.get(
    "/healthz",
    summary="The process is up (no database access)",
    description="Liveness: answers 200 as long as the process serves requests; never touches the database.",
)
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
def readyz(session: SessionDep, settings: SettingsDep) -> Readiness:
    state = check_ready(session)
    return Readiness(
        status="ready",
        database=state.backend,
        revisions=list(state.revisions),
        rules_edition=settings.rules_edition,
    )
