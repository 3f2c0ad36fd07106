"""The service's one error tree and the one place that renders errors as RFC 9457 problem+json.

Every error of every endpoint leaves as ``application/problem+json``: ``type`` (a URI under ``/problems/``
that resolves to a description), ``title``, ``status``, ``detail``, ``instance`` (the request path), and
for input errors ``errors: [{"loc": [...], "msg": ..., "type": ...}]``. Raise an ``AppError`` subclass
from services and routes; rules-core errors (``app.rules.errors``) are mapped here, so routes need not
catch them. An unexpected exception is a 500 whose body holds no traceback (the log does).

Pydantic's validation errors are rendered by ``app.validation_problems``, and the handlers that turn each
kind of exception into an answer live in ``app.error_handlers`` (``install_error_handlers``): both build on
this module, which needs neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc

from app.logs import current_request_id
from app.rules.deadline import DeadlineExceeded
from app.rules.errors import (
    AmbiguousError,
    IllegalError,
    InvalidChoiceError,
    ManaCostSyntaxError,
    RulesError,
)

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_BASE = "/problems/"
MAX_ECHO = 100  # never echo more than this many characters of client input
MAX_LISTED_ERRORS = 100  # a hostile body can hold 100,000 mistakes: list the first ones, count them all
TRUNCATED_ERRORS_TYPE = "errors_truncated"
"""The last validation error item of a body with more than ``MAX_LISTED_ERRORS`` errors, when only some
were built (``app.api.validation``): its ``ctx.error_count`` is the total."""


@dataclass(frozen=True, slots=True)
class ProblemType:
    """One documented problem type: what ``GET /problems/{slug}`` answers."""

    slug: str
    status: int
    title: str
    description: str


PROBLEM_TYPES: dict[str, ProblemType] = {}
"""Every problem type the service can answer, by slug (filled by the classes below and ``_extra_type``)."""


class AppError(Exception):
    """Base of the service's errors. Subclasses fix ``status``, ``type_slug``, ``title`` and ``description``.

    ``detail`` says what went wrong this time; ``errors`` lists input errors (``loc``/``msg``/``type``);
    ``headers`` are added to the response; ``extra`` holds extension members (e.g. ``candidates``).
    ``status`` may be overridden per instance (``UnknownCard(..., status=404)`` for GET look-ups).
    """

    status: int = 500
    type_slug: ClassVar[str] = "internal-error"
    title: ClassVar[str] = "Internal Server Error"
    description: ClassVar[str] = (
        "The service failed unexpectedly. The request may be retried; if it keeps failing, report it"
        " with its X-Request-ID."
    )
    default_headers: ClassVar[Mapping[str, str] | None] = None

    def __init__(
        self,
        detail: str | None = None,
        *,
        errors: list[dict[str, Any]] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
        status: int | None = None,
    ) -> None:
        self.detail = detail if detail is not None else self.title
        super().__init__(self.detail)
        self.errors = errors
        merged = dict(self.default_headers or {})
        merged.update(headers or {})
        self.headers: dict[str, str] | None = merged or None
        self.extra: dict[str, Any] = dict(extra or {})
        if status is not None:
            self.status = status

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        PROBLEM_TYPES[cls.type_slug] = ProblemType(cls.type_slug, cls.status, cls.title, cls.description)


PROBLEM_TYPES[AppError.type_slug] = ProblemType(
    AppError.type_slug, AppError.status, AppError.title, AppError.description
)


class BadRequest(AppError):
    status = 400
    type_slug = "bad-request"
    title = "Bad Request"
    description = "The request could not be read, e.g. its body is not valid JSON."


class Unauthorized(AppError):
    status = 401
    type_slug = "unauthorized"
    title = "Unauthorized"
    description = "No API key, or an unknown or revoked one. Send `Authorization: Bearer <api key>`."
    default_headers: ClassVar[Mapping[str, str] | None] = MappingProxyType({"WWW-Authenticate": "Bearer"})


class NotFound(AppError):
    status = 404
    type_slug = "not-found"
    title = "Not Found"
    description = "Nothing exists at this path (or it belongs to another API key)."


class Conflict(AppError):
    status = 409
    type_slug = "conflict"
    title = "Conflict"
    description = (
        "The request conflicts with the current state, e.g. a scenario with that name already exists."
    )


class PreconditionFailed(AppError):
    status = 412
    type_slug = "precondition-failed"
    title = "Precondition Failed"
    description = "The If-Match header names a version that is no longer current: fetch it again and retry."


class TooLarge(AppError):
    status = 413
    type_slug = "too-large"
    title = "Content Too Large"
    description = "The request body, or a list in it, is larger than the service accepts."


class HeaderTooLarge(AppError):
    """Answered by ``manacalc serve``'s protocol as the head arrives (``app.api.http_server``), and by
    ``ServiceMiddleware`` under any other server, so the cap holds whatever serves the app."""

    status = 431
    type_slug = "header-too-large"
    title = "Request Header Fields Too Large"
    description = (
        "The request line and headers together are larger than `MANACALC_MAX_HEADER_BYTES`; the connection"
        " is closed."
    )


class UnsupportedMediaType(AppError):
    status = 415
    type_slug = "unsupported-media-type"
    title = "Unsupported Media Type"
    description = "Request bodies must be JSON (`Content-Type: application/json`)."


class RequestTimeout(AppError):
    status = 408
    type_slug = "request-timeout"
    title = "Request Timeout"
    description = "The request body did not arrive in time (`MANACALC_BODY_READ_TIMEOUT_S`); send it again."


class InputError(AppError):
    status = 422
    type_slug = "validation-error"
    title = "Invalid Input"
    description = "Some values of the request are invalid; `errors` lists each one with its location."


class MalformedCost(InputError):
    type_slug = "malformed-cost"
    title = "Malformed Mana Cost"
    description = (
        "A mana cost is not a string of CR 107.4 brace symbols. `detail` and `errors` name the offending"
        " symbol and its 0-based character position."
    )


class UnknownCard(InputError):
    type_slug = "unknown-card"
    title = "Unknown Card"
    description = "No card of the catalogue bears this name or oracle id."


class AmbiguousCard(InputError):
    type_slug = "ambiguous-card"
    title = "Ambiguous Card"
    description = "Several cards match; `candidates` lists them so the request can name one exactly."


class InvalidChoice(InputError):
    type_slug = "invalid-choice"
    title = "Invalid Choice"
    description = (
        "A value chosen for a card (a creature type, a character, a color, a face...) is not a legal choice."
    )


class RulesViolation(InputError):
    type_slug = "rules-violation"
    title = "Rules Violation"
    description = (
        "What was asked breaks a rule of the game (e.g. an impossible Mental Magic choice); `rule` names it."
    )


class PreconditionRequired(AppError):
    status = 428
    type_slug = "precondition-required"
    title = "Precondition Required"
    description = "This change needs an If-Match header carrying the current ETag."


class RateLimited(AppError):
    status = 429
    type_slug = "rate-limited"
    title = "Too Many Requests"
    description = "Too many requests: wait the number of seconds in Retry-After."

    def __init__(self, detail: str | None = None, *, retry_after: int = 1, **kwargs: Any) -> None:
        super().__init__(detail, **kwargs)
        self.headers = {**(self.headers or {}), "Retry-After": str(retry_after)}


class ServiceUnavailable(AppError):
    status = 503
    type_slug = "service-unavailable"
    title = "Service Unavailable"
    description = "The service cannot answer now (e.g. its database is unreachable or not migrated)."

    def __init__(self, detail: str | None = None, **kwargs: Any) -> None:
        super().__init__(detail, **kwargs)
        # Every 503 tells the client when to retry (/readyz's 503 had none).
        self.headers = {"Retry-After": str(DB_RETRY_AFTER_SECONDS), **(self.headers or {})}


DB_RETRY_AFTER_SECONDS = 5


def database_unavailable(exc: Exception) -> ServiceUnavailable | None:
    """A database outage as a 503 with ``Retry-After`` (None for other database errors, which are bugs).

    Outages: the server refused, dropped or timed out a connection (``OperationalError``, ``InterfaceError``
    or any error that invalidated its connection) or the pool had no connection to give in
    ``db_pool_timeout`` (``sqlalchemy.exc.TimeoutError``). Lock timeouts, deadlocks and statement timeouts
    are ``OperationalError`` too: retrying later is also the right advice for them.
    """
    if isinstance(exc, sa_exc.TimeoutError):
        detail = "The database has no free connection now."
    elif isinstance(exc, sa_exc.OperationalError | sa_exc.InterfaceError) or (
        isinstance(exc, sa_exc.DBAPIError) and exc.connection_invalidated
    ):
        detail = "The database is unreachable or did not answer in time."
    else:
        return None
    return ServiceUnavailable(
        f"{detail} Retry in {DB_RETRY_AFTER_SECONDS} seconds.",
        headers={"Retry-After": str(DB_RETRY_AFTER_SECONDS)},
    )


def _extra_type(slug: str, status: int, title: str, description: str) -> None:
    PROBLEM_TYPES[slug] = ProblemType(slug, status, title, description)


_extra_type(
    "method-not-allowed", 405, "Method Not Allowed", "This path does not accept this HTTP method; see Allow."
)
_extra_type("forbidden", 403, "Forbidden", "The API key may not do this.")
_extra_type(
    "not-implemented",
    501,
    "Not Implemented",
    "The request's Transfer-Encoding names a coding the service does not apply (only `chunked` is): send"
    " the body chunked or with Content-Length. Answered by `manacalc serve`; the connection is closed.",
)


# --- rendering ---------------------------------------------------------------------------------------


def problem_body(
    *,
    status: int,
    type_slug: str,
    title: str,
    detail: str,
    instance: str | None,
    errors: Sequence[Mapping[str, Any]] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The problem+json document (RFC 9457); extension members never override the standard ones."""
    body: dict[str, Any] = dict(extra or {})
    body.update(type=PROBLEM_BASE + type_slug, title=title, status=status, detail=detail)
    if instance is not None:
        body["instance"] = instance
    if errors is not None:
        body["errors"] = [dict(e) for e in errors]
    return body


def problem_response(
    *,
    status: int,
    type_slug: str,
    title: str,
    detail: str,
    instance: str | None,
    errors: Sequence[Mapping[str, Any]] | None = None,
    extra: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = problem_body(
        status=status,
        type_slug=type_slug,
        title=title,
        detail=detail,
        instance=instance,
        errors=errors,
        extra=extra,
    )
    return JSONResponse(body, status_code=status, headers=dict(headers or {}), media_type=PROBLEM_MEDIA_TYPE)


def app_error_body(exc: AppError, instance: str | None = None) -> dict[str, Any]:
    """The problem document for ``exc`` (also used for per-item problems, e.g. in batch answers)."""
    extra = exc.extra
    errors = exc.errors
    if errors is not None:
        # API.md 1.1: at most 100 errors listed, their total in error_count.
        extra = {"error_count": len(errors), **extra}
        errors = errors[:MAX_LISTED_ERRORS]
    return problem_body(
        status=exc.status,
        type_slug=exc.type_slug,
        title=exc.title,
        detail=exc.detail,
        instance=instance,
        errors=errors,
        extra=extra,
    )


def from_rules_error(exc: RulesError, loc: Sequence[str | int] = ()) -> AppError:
    """The service error for a rules-core error; ``loc`` places it in the request when known."""
    if isinstance(exc, DeadlineExceeded):  # a check in the rules core's loops: the budget is spent
        return TooLarge(
            "The request needs more than its time budget; ask for less (fewer permanents, spells, names"
            " or symbols).",
            status=422,
        )
    if isinstance(exc, ManaCostSyntaxError):
        symbol = exc.symbol[:MAX_ECHO]
        message = str(exc)[:300]
        where = f"position {exc.position}"
        if not (symbol in message and where in message):
            message = f"{message} (symbol {symbol!r} at {where})"
        return MalformedCost(
            message,
            errors=[cost_error_item(exc, loc)],
            extra={"symbol": symbol, "position": exc.position},
        )
    if isinstance(exc, InvalidChoiceError):
        item_loc = list(loc) if loc else [exc.field]
        return InvalidChoice(str(exc), errors=[{"loc": item_loc, "msg": str(exc), "type": "invalid_choice"}])
    if isinstance(exc, IllegalError):
        return RulesViolation(
            str(exc),
            errors=[{"loc": list(loc), "msg": str(exc), "type": "rules_violation"}],
            extra={"rule": exc.rule},
        )
    if isinstance(exc, AmbiguousError):
        return AmbiguousCard(
            str(exc),
            errors=[{"loc": list(loc), "msg": str(exc), "type": "ambiguous"}],
            extra={"candidates": list(exc.candidates)},
        )
    return InputError(str(exc), errors=[{"loc": list(loc), "msg": str(exc), "type": "value_error"}])


def cost_error_item(exc: ManaCostSyntaxError, loc: Sequence[str | int]) -> dict[str, Any]:
    """A malformed cost's ``errors`` item, whether the rules core or a request model found it."""
    return {
        "loc": list(loc),
        "msg": str(exc),
        "type": "malformed_cost",
        "symbol": exc.symbol[:MAX_ECHO],
        "position": exc.position,
    }


def internal_error_response(instance: str | None) -> JSONResponse:
    rid = current_request_id()
    suffix = f" (request id {rid})" if rid else ""
    return problem_response(
        status=500,
        type_slug=AppError.type_slug,
        title=AppError.title,
        detail=f"The service failed unexpectedly{suffix}.",
        instance=instance,
    )
