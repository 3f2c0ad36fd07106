"""The exception handlers that make every error of the app an RFC 9457 ``application/problem+json`` answer.

``install_error_handlers(app)`` maps the service's ``AppError`` tree, rules-core errors, pydantic's
validation errors, Starlette's bare HTTP errors and database errors to problems (``app.errors`` renders
them); an unexpected exception is a 500 without a traceback (the log has it). Apart from ``app.errors``
because it is the one part that needs the validation rendering too (``app.validation_problems``, which
itself builds on ``app.errors``): kept in one module, the three would import each other.
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.errors import (
    PROBLEM_MEDIA_TYPE,
    PROBLEM_TYPES,
    AppError,
    BadRequest,
    Conflict,
    InputError,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ProblemType,
    RateLimited,
    ServiceUnavailable,
    TooLarge,
    Unauthorized,
    UnsupportedMediaType,
    app_error_body,
    database_unavailable,
    from_rules_error,
    internal_error_response,
    problem_response,
)
from app.rules.errors import RulesError
from app.validation_problems import validation_problem

logger = logging.getLogger("manacalc.errors")


def _http_slug(status: int) -> tuple[str, str]:
    """Slug and title for a bare HTTP status (Starlette's HTTPException: unknown route, 405...)."""
    known = _STATUS_TYPES.get(status)
    if known is not None:
        return known.slug, known.title
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    return phrase.lower().replace(" ", "-"), phrase


# The generic type of each status; the specific 422 kinds are never inferred from a bare status code.
_STATUS_TYPES: dict[int, ProblemType] = {
    t.status: t
    for t in (
        *(
            PROBLEM_TYPES[c.type_slug]
            for c in (
                AppError,
                BadRequest,
                Unauthorized,
                NotFound,
                Conflict,
                PreconditionFailed,
                TooLarge,
                UnsupportedMediaType,
                InputError,
                PreconditionRequired,
                RateLimited,
                ServiceUnavailable,
            )
        ),
        PROBLEM_TYPES["method-not-allowed"],
        PROBLEM_TYPES["forbidden"],
    )
}


async def _app_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, AppError)
    if exc.status >= 500:
        logger.error("%s: %s", exc.type_slug, exc.detail)
    return JSONResponse(
        app_error_body(exc, request.url.path),
        status_code=exc.status,
        headers=exc.headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


async def _rules_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RulesError)
    return await _app_error_handler(request, from_rules_error(exc))


async def _validation_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return await _app_error_handler(request, validation_problem(exc.errors()))


async def _http_exception_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    slug, title = _http_slug(exc.status_code)
    detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail, default=str)[:500]
    if exc.status_code == 404 and detail == title:
        detail = f"Nothing at {request.url.path}."
    elif exc.status_code == 405 and detail == title:
        detail = f"{request.method} is not allowed on {request.url.path}."
    headers = dict(exc.headers or {})
    if exc.status_code == 401:
        headers.setdefault("WWW-Authenticate", "Bearer")
    return problem_response(
        status=exc.status_code,
        type_slug=slug,
        title=title,
        detail=detail,
        instance=request.url.path,
        headers=headers,
    )


async def _database_error_handler(request: Request, exc: Exception) -> JSONResponse:
    unavailable = database_unavailable(exc)
    if unavailable is None:
        logger.error("database error on %s %s", request.method, request.url.path, exc_info=exc)
        return internal_error_response(request.url.path)
    logger.warning("database unavailable on %s %s: %s", request.method, request.url.path, _first_line(exc))
    return JSONResponse(
        app_error_body(unavailable, request.url.path),
        status_code=unavailable.status,
        headers=unavailable.headers,
        media_type=PROBLEM_MEDIA_TYPE,
    )


def _first_line(exc: Exception) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return f"{exc.__class__.__name__}: {text.splitlines()[0] if text else ''}"[:300]


async def _unhandled_handler(request: Request, exc: Exception) -> JSONResponse:
    # Reached only for errors raised outside app.api.middleware.ServiceMiddleware.
    logger.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return internal_error_response(request.url.path)


def install_error_handlers(app: FastAPI) -> None:
    """Make every error of ``app`` an ``application/problem+json`` response."""
    app.add_exception_handler(AppError, _app_error_handler)
    app.add_exception_handler(RulesError, _rules_error_handler)
    app.add_exception_handler(RequestValidationError, _validation_handler)
    app.add_exception_handler(StarletteHTTPException, _http_exception_handler)
    app.add_exception_handler(sa_exc.DBAPIError, _database_error_handler)
    app.add_exception_handler(sa_exc.TimeoutError, _database_error_handler)
    app.add_exception_handler(Exception, _unhandled_handler)
