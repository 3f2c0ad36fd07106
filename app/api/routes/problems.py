"""``GET /problems/{slug}``: the problem ``type`` URIs resolve to a description of each kind of error."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from app.api.compute import light
from app.api.docs import problem_responses
from app.api.routing import BoundedBodyRoute
from app.errors import PROBLEM_BASE, PROBLEM_TYPES, NotFound

router = APIRouter(tags=["problems"], route_class=BoundedBodyRoute)


class ProblemTypeDoc(BaseModel):
    """One problem type: the `type` URI of error answers, its status, title and meaning."""

    type: str = Field(description="The problem type's URI.")
    status: int = Field(description="The HTTP status it is answered with.")
    title: str = Field(description="Its title.")
    description: str = Field(description="What it means and what to do.")


def _doc(slug: str) -> ProblemTypeDoc:
    t = PROBLEM_TYPES[slug]
    return ProblemTypeDoc(
        type=PROBLEM_BASE + t.slug, status=t.status, title=t.title, description=t.description
    )


@router.get(
    "/problems",
    summary="Every problem type the service answers with",
    description="The `type` of every error answer is one of these URIs; each resolves to its description.",
)
@light(router, "/problems", "GET", "a constant list of the problem types")
def list_problem_types() -> list[ProblemTypeDoc]:
    return [_doc(slug) for slug in sorted(PROBLEM_TYPES)]


@router.get(
    "/problems/{slug}",
    summary="What a problem type means",
    description="The status, title and meaning of one problem type (the last part of an error's `type`).",
    responses=problem_responses(NotFound),
)
@light(router, "/problems/{slug}", "GET", "one dictionary look-up")
def get_problem_type(slug: Annotated[str, Path(examples=["malformed-cost"])]) -> ProblemTypeDoc:
    if slug not in PROBLEM_TYPES:
        raise NotFound(f"No problem type {slug[:100]!r}.")
    return _doc(slug)
