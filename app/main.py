"""The ASGI application: ``app.main:app``, built by ``create_app()``.

Start-up (lifespan): apply pending Alembic migrations (or, with ``MANACALC_MIGRATE_ON_START=false``,
check there are none) and refuse to start otherwise; then run ``STARTUP_HOOKS``. Creating the app never
touches the database.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import __version__
from app.api.docs import DESCRIPTION, TAGS, install_docs
from app.api.router import api_router
from app.config import Settings, get_settings
from app.db.migrate import current_revisions, head_revisions, upgrade_to_head
from app.db.session import get_engine, get_sessionmaker
from app.errors import (
    PROBLEM_MEDIA_TYPE,
    TooLarge,
    UnsupportedMediaType,
    app_error_body,
    install_error_handlers,
)
from app.logs import RequestLogMiddleware, configure_logging
from app.services.card_import import bundled_catalogue_hook

logger = logging.getLogger("manacalc")

StartupHook = Callable[[Session, Settings], None]

STARTUP_HOOKS: list[StartupHook] = [
    # Called in order at every start-up, after migrations, each with its own session that is committed
    # when the hook returns (rolled back if it raises, which stops the start-up). Hooks must be idempotent
    # (e.g. seed the bundled card catalogue only when it is missing or older). Add yours here.
    bundled_catalogue_hook,
]


class StartupError(RuntimeError):
    """The service must not start (unmigrated schema, failed migration or hook); the message says why."""


def run_startup_hooks(engine: Engine, settings: Settings, hooks: list[StartupHook] | None = None) -> None:
    """Run ``hooks`` (default ``STARTUP_HOOKS``), each in its own committed session."""
    factory = get_sessionmaker(engine)
    for hook in STARTUP_HOOKS if hooks is None else hooks:
        with factory() as session, session.begin():
            hook(session, settings)


def prepare_database(settings: Settings) -> None:
    """Migrate (or check the schema is at head), then run the start-up hooks; ``StartupError`` if not."""
    engine = get_engine(settings)
    if settings.migrate_on_start:
        try:
            upgrade_to_head(engine)
        except Exception as exc:
            raise StartupError(f"cannot migrate the database ({exc.__class__.__name__}: {exc})") from exc
    else:
        try:
            with engine.connect() as connection:
                current = current_revisions(connection)
        except Exception as exc:
            raise StartupError(f"cannot reach the database ({exc.__class__.__name__}: {exc})") from exc
        if current != head_revisions():
            heads = sorted(head_revisions())
            raise StartupError(
                f"the database schema is at {sorted(current) or 'no revision'}, not at {heads}"
                " and MANACALC_MIGRATE_ON_START is false: run `manacalc migrate`"
            )
    for hook in STARTUP_HOOKS:
        try:
            run_startup_hooks(engine, settings, [hook])
        except Exception as exc:
            name = getattr(hook, "__qualname__", repr(hook))
            raise StartupError(f"start-up hook {name} failed ({exc.__class__.__name__}: {exc})") from exc


class BodyGuardMiddleware:
    """Request bodies are JSON and at most ``max_body_bytes``: 415 / 413 problems before any parsing.

    The body is read here (bounded) and replayed, so an oversized chunked body is refused as well.
    """

    _METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in self._METHODS:
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        declared = headers.get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body_bytes:
            await self._refuse(scope, receive, send, self._too_large())
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await self._refuse(scope, receive, send, self._too_large())
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        content_type = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
        if (
            size
            and content_type
            and not (content_type == "application/json" or content_type.endswith("+json"))
        ):
            error = UnsupportedMediaType(f"Request bodies must be JSON, not {content_type[:100]!r}.")
            await self._refuse(scope, receive, send, error)
            return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> TooLarge:
        return TooLarge(f"The request body is larger than {self.max_body_bytes} bytes.")

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, error: TooLarge | UnsupportedMediaType
    ) -> None:
        response = JSONResponse(
            app_error_body(error, scope.get("path")), status_code=error.status, media_type=PROBLEM_MEDIA_TYPE
        )
        await response(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application. With ``settings``, they replace ``get_settings()`` for every dependency."""
    settings = settings or get_settings()
    configure_logging(settings.log_level, json_lines=settings.log_json)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            prepare_database(settings)
        except StartupError as exc:
            logger.critical("manacalc refuses to start: %s", exc)
            raise
        logger.info("manacalc %s ready (rules edition %s)", __version__, settings.rules_edition)
        yield
        get_engine(settings).dispose()

    app = FastAPI(
        title="manacalc",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,  # served by install_docs, with local assets
        redoc_url=None,
    )
    app.state.settings = settings
    # Dependencies read app.state.settings; no dependency_overrides here: FastAPI re-inspects every
    # overridden dependency on each request, which halved the compute endpoints' throughput.
    install_error_handlers(app)
    install_docs(app)
    app.include_router(api_router)
    app.add_middleware(BodyGuardMiddleware, max_body_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "PUT", "DELETE", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type", "If-Match", "Idempotency-Key", "X-Request-ID"],
            expose_headers=["ETag", "Location", "X-Request-ID", "Retry-After"],
        )
    app.add_middleware(RequestLogMiddleware)  # outermost: every answer carries X-Request-ID
    return app


app = create_app()
