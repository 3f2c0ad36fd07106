"""The ASGI application: ``app.main:app``, built by ``create_app()``.

Start-up (lifespan): apply pending Alembic migrations (or, with ``MANACALC_MIGRATE_ON_START=false``,
check there are none) and refuse to start otherwise; then run ``STARTUP_HOOKS``. Creating the app never
touches the database.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack, asynccontextmanager

from fastapi import FastAPI
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app import __version__
from app.api.compute import GIL_SWITCH_INTERVAL_S, cancel_all
from app.api.cors import install_cors
from app.api.docs import DESCRIPTION, TAGS, install_docs
from app.api.limits import BodyGuardMiddleware
from app.api.metrics import install_metrics
from app.api.operation_ids import operation_id
from app.api.rate_limit import RateLimitMiddleware, TokenBucketLimiter
from app.api.router import api_router
from app.config import Settings, get_settings
from app.db.migrate import current_revisions, head_revisions, migration_lock, upgrade_to_head
from app.db.session import get_engine, get_sessionmaker
from app.errors import install_error_handlers
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
    """Migrate (or check the schema is at head), then run the start-up hooks; ``StartupError`` if not.

    All under ``migration_lock``: workers and replicas starting together take turns, so one migrates and
    seeds while the others wait, then find it done (concurrent seeding failed on SQLite's write lock).
    """
    engine = get_engine(settings)
    with ExitStack() as stack:
        try:
            stack.enter_context(migration_lock(engine))
        except Exception as exc:
            raise StartupError(f"cannot reach the database ({exc.__class__.__name__}: {exc})") from exc
        _prepare_locked(engine, settings)


def _prepare_locked(engine: Engine, settings: Settings) -> None:
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


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application. With ``settings``, they replace ``get_settings()`` for every dependency."""
    settings = settings or get_settings()
    configure_logging(settings.log_level, json_lines=settings.log_json)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)  # /healthz within 100 ms while workers compute

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            prepare_database(settings)
        except StartupError as exc:
            logger.critical("manacalc refuses to start: %s", exc)
            raise
        logger.info("manacalc %s ready (rules edition %s)", __version__, settings.rules_edition)
        yield
        cancelled = cancel_all()  # work still running would delay the exit by up to its budget
        if cancelled:
            logger.info("shutdown: interrupted %d compute jobs", cancelled)
        get_engine(settings).dispose()

    app = FastAPI(
        title="manacalc",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,  # served by install_docs, with local assets
        redoc_url=None,
        generate_unique_id_function=operation_id,
    )
    app.state.settings = settings
    # Dependencies read app.state.settings; no dependency_overrides here: FastAPI re-inspects every
    # overridden dependency on each request, which halved the compute endpoints' throughput.
    install_error_handlers(app)
    install_docs(app)
    app.include_router(api_router)
    # Middleware added later wraps what was added before. From the outside in: request log (every answer
    # carries X-Request-ID), metrics (counts every answer), CORS (429s readable by browsers too), rate
    # limit (before the body is read), body guard (size, media type, JSON depth, before any parsing).
    app.add_middleware(
        BodyGuardMiddleware, max_body_bytes=settings.max_body_bytes, max_json_depth=settings.max_json_depth
    )
    app.state.rate_limiter = None
    if settings.rate_limit_per_minute:
        limiter = TokenBucketLimiter(settings.rate_limit_per_minute, settings.rate_limit_burst)
        app.state.rate_limiter = limiter
        app.add_middleware(RateLimitMiddleware, limiter=limiter)
    install_cors(app, settings)
    install_metrics(app)
    app.add_middleware(RequestLogMiddleware)  # outermost: every answer carries X-Request-ID
    return app


app = create_app()
