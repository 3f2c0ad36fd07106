"""The ASGI application: ``app.main:app``, built by ``create_app()``.

Importing this module builds nothing: ``app.main:app`` is made on first access (PEP 562 module
``__getattr__``), by the ASGI server that serves it, together with the process-wide settings a served
process needs (``apply_process_settings``: logging and the GIL switch interval), which
``manacalc serve`` applies too. Tests and tools call ``create_app()``, which changes nothing process-wide.

Start-up (lifespan): apply pending Alembic migrations (or, with ``MANACALC_MIGRATE_ON_START=false``,
check there are none) and refuse to start otherwise; then run ``STARTUP_HOOKS``. Creating the app never
touches the database.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import ExitStack, asynccontextmanager
from typing import Any

from fastapi import FastAPI
from sqlalchemy import Engine
from sqlalchemy.orm import Session
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.types import ASGIApp

from app import __version__
from app.api.compression import gzip_factory
from app.api.compute import GIL_SWITCH_INTERVAL_S, cancel_all
from app.api.cors import cors_factory
from app.api.docs import DESCRIPTION, TAGS, install_docs
from app.api.metrics import install_metrics
from app.api.middleware import ServiceMiddleware
from app.api.operation_ids import operation_id
from app.api.rate_limit import RateLimiter, RedisTokenBucketLimiter, TokenBucketLimiter
from app.api.router import FIRST, ROUTERS
from app.api.routing import add_first
from app.config import Settings, get_settings
from app.db.migrate import current_revisions, head_revisions, migration_lock, upgrade_to_head
from app.db.session import get_engine, get_sessionmaker
from app.error_handlers import install_error_handlers
from app.logs import configure_logging
from app.services.card_import import bundled_catalogue_hook
from app.services.card_import import data_version as read_data_version
from app.services.card_index import card_index_hook, start_refresher

logger = logging.getLogger("manacalc")

StartupHook = Callable[[Session, Settings], None]

STARTUP_HOOKS: list[StartupHook] = [
    # Called in order at every start-up, after migrations, each with its own session that is committed
    # when the hook returns (rolled back if it raises, which stops the start-up). Hooks must be idempotent
    # (e.g. seed the bundled card catalogue only when it is missing or older). Add yours here.
    bundled_catalogue_hook,
    card_index_hook,  # the whole catalogue in memory: compute requests need no database
]


class ManacalcAPI(FastAPI):
    """FastAPI with ``ServiceMiddleware`` outermost, in the place of Starlette's ``ServerErrorMiddleware``.

    ``ServiceMiddleware`` answers an exception no handler took with a 500 problem, logged once, before
    the server-error layer could see one; the layer's frame and ``send`` wrapper per request were then
    pure cost (a measurable share of a served ``spells/cost``'s event loop). ``build_middleware_stack`` is
    the method Starlette builds the stack with; ``tests/test_private_api.py`` fails if it goes.
    """

    service_options: dict[str, Any]

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        inner = stack.app if isinstance(stack, ServerErrorMiddleware) else stack
        return ServiceMiddleware(inner, **self.service_options)


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

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            prepare_database(settings)
        except StartupError as exc:
            logger.critical("manacalc refuses to start: %s", exc)
            raise
        stop_refresh = start_refresher(get_sessionmaker(get_engine(settings)), read_data_version)
        # Built now, not on the first request that needs it: the OpenAPI document (which the metrics
        # read for answers given before routing) and FastAPI's per-route contexts, built lazily, held the
        # event loop on the first such answer (a /healthz stall).
        _app.openapi()
        _app.state.encode_openapi()  # and its served bytes, compressed
        logger.info("manacalc %s ready (rules edition %s)", __version__, settings.rules_edition)
        yield
        stop_refresh.set()
        cancelled = cancel_all()  # work still running would delay the exit by up to its budget
        if cancelled:
            logger.info("shutdown: cancelled %d compute jobs", cancelled)
        if isinstance(_app.state.rate_limiter, RedisTokenBucketLimiter):
            await _app.state.rate_limiter.aclose()
        get_engine(settings).dispose()

    app = ManacalcAPI(
        title="manacalc",
        version=__version__,
        description=DESCRIPTION,
        openapi_tags=TAGS,
        lifespan=lifespan,
        docs_url=None,  # served by install_docs, with local assets
        redoc_url=None,
        # No trailing-slash redirects: Starlette's echo the Host header into Location.
        redirect_slashes=False,
        generate_unique_id_function=operation_id,
        # FastAPI's own switch (its "telemetry" parameter), off unless the settings turn it on.
        telemetry={"tracing": settings.telemetry, "metrics": settings.telemetry, "logs": settings.telemetry},
    )
    app.state.settings = settings
    # Dependencies read app.state.settings; no dependency_overrides here: FastAPI re-inspects every
    # overridden dependency on each request, which halved the compute endpoints' throughput.
    install_error_handlers(app)
    # The compute routes first in the app's own table, then the other routers, each flat (app.api.router).
    for router in FIRST:
        add_first(app, router)
    for router in ROUTERS:
        app.include_router(router)
    install_docs(app)
    install_metrics(app, settings)
    # One middleware: request id, access log, metrics, rate limit (before the body is read),
    # body guard (size, media type, JSON depth, before any parsing), unhandled errors; CORS inside it.
    buckets: TokenBucketLimiter | RedisTokenBucketLimiter | None = None
    if settings.rate_limit_per_minute:
        if settings.redis_url:
            buckets = RedisTokenBucketLimiter(
                settings.redis_url, settings.rate_limit_per_minute, settings.rate_limit_burst
            )
        else:
            buckets = TokenBucketLimiter(settings.rate_limit_per_minute, settings.rate_limit_burst)
    app.state.rate_limiter = buckets
    app.service_options = dict(
        max_body_bytes=settings.max_body_bytes,
        max_json_depth=settings.max_json_depth,
        body_read_timeout_s=settings.body_read_timeout_s,
        max_header_bytes=settings.max_header_bytes,
        limiter=RateLimiter(buckets, settings.trusted_proxies) if buckets is not None else None,
        cors=cors_factory(settings),
        gzip=gzip_factory(),
    )
    return app


def apply_process_settings(settings: Settings) -> None:
    """What a served process sets once for all its apps: logging (``app.logs``) and the GIL switch interval
    (``/healthz`` answered promptly while workers compute). Idempotent."""
    configure_logging(settings.log_level, json_lines=settings.log_json)
    sys.setswitchinterval(GIL_SWITCH_INTERVAL_S)


_served: FastAPI | None = None


def __getattr__(name: str) -> Any:
    """PEP 562: ``app.main:app``, the served application, built on first access (the ASGI server's import
    of it, in each worker process) with the process settings; never at import time."""
    global _served
    if name != "app":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    if _served is None:
        settings = get_settings()
        apply_process_settings(settings)
        _served = create_app(settings)
    return _served
