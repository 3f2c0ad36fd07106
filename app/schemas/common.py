"""Shapes shared by every endpoint: strict request bodies, pages, computed answers, problems."""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.rules.values.costs import ManaCost

T = TypeVar("T")


def _parses_as_cost(text: str) -> str:
    ManaCost.parse(text)  # a ManaCostSyntaxError here is a malformed-cost problem at this JSON path
    return text


CostText = Annotated[str, Field(max_length=200, examples=["{2}{W}"]), AfterValidator(_parses_as_cost)]
"""A mana cost in brace syntax in a request body, checked where it stands."""


def empty_list(**field: Any) -> Any:
    """A list field that defaults to a new empty list, documented as ``[]``.

    Pydantic deep-copies a mutable default for every model that leaves it out (1.1 us a list: half of the
    validation of a small ``spells/cost`` body went to copying its three empty lists); a factory makes
    the list instead. A factory's result is not in the JSON schema, so ``[]`` is written there by hand."""
    return Field(default_factory=list, json_schema_extra={"default": []}, **field)


class StrictModel(BaseModel):
    """Base of every request model: an unknown field is a 422 (a typo such as ``taped`` is never ignored)."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False, populate_by_name=True)


class Page(BaseModel, Generic[T]):
    """Every list answer: ``{"data": [...], "has_more": bool, "next_cursor": str | null}``.

    Pass ``next_cursor`` back as ``cursor`` for the next page.
    """

    data: list[T] = Field(description="This page's items.")
    has_more: bool = Field(False, description="Whether another page follows.")
    next_cursor: str | None = Field(
        None, description="Pass it back as `cursor` for the next page (also in the `Link` header); null last."
    )


class ComputedAnswer(BaseModel):
    """Base of every computing answer: what clients need to cache it."""

    rules_edition: str = Field(description="Date of the Comprehensive Rules followed, e.g. 2026-04-17.")
    data_version: str = Field(
        description="When the card catalogue was last imported: an import's ISO timestamp, or the bundled"
        " catalogue's build date and content hash (`2026-12-05+bundled-b2c686d76b85`). It changes with the"
        " catalogue: drop cached answers then."
    )


class ProblemItem(BaseModel):
    """One input error: where (``loc``, the path in the request), what (``msg``) and its kind (``type``)."""

    model_config = ConfigDict(extra="allow")

    loc: list[str | int] = Field(
        description="Where: `body`, `query`, `path` or `header`, then the keys and indexes to the value.",
        examples=[["body", "spell", "card"]],
    )
    msg: str = Field(description="What is wrong there.")
    type: str = Field(description="The kind of error (a problem type slug or a validation error kind).")


class Problem(BaseModel):
    """An RFC 9457 problem document (``application/problem+json``); extension members may follow."""

    model_config = ConfigDict(extra="allow")

    type: str = Field(description="A URI under /problems/ describing this kind of problem.")
    title: str = Field(description="A short summary of the problem type.")
    status: int = Field(description="The HTTP status code.", examples=[422])
    detail: str = Field(description="What went wrong this time.")
    instance: str | None = Field(default=None, description="The request path.")
    errors: list[ProblemItem] | None = Field(
        default=None, description="Input errors, each with its location (at most 100 are listed)."
    )
    error_count: int | None = Field(
        default=None,
        description="How many input errors there are in all, listed or not (present with `errors`).",
        examples=[1],
    )
