"""Prometheus metrics: ``GET /metrics`` and the middleware that counts every request.

Labels are bounded: the route *template* (``/v1/scenarios/{scenario_id}``, never the raw path; requests
matching no route are ``unmatched``), a known HTTP method (else ``other``) and the status code.

With several worker processes each keeps its own numbers, so ``/metrics`` would answer for whichever
worker the scrape reached. When ``PROMETHEUS_MULTIPROC_DIR`` is set (``manacalc serve --workers N`` sets
it to a fresh temporary directory before the workers start), ``prometheus_client`` keeps the numbers in
files there and ``/metrics`` adds up every worker's. The variable must be set before this module is first
imported in a worker, which is why the command line sets it rather than the application.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.routing import compile_path
from starlette.types import Scope

from app.api.compute import light

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
METRICS_PATH = "/metrics"
UNMATCHED = "unmatched"
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
# Compute endpoints answer in about a millisecond: finer buckets at the low end than the default.
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "manacalc_http_requests",
    "HTTP requests answered, by route template and status.",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "manacalc_http_request_duration_seconds",
    "Time from receiving a request to sending the last byte of its answer, in seconds.",
    ["method", "route", "status"],
    buckets=_BUCKETS,
)
IN_PROGRESS = Gauge(
    "manacalc_http_requests_in_progress",
    "HTTP requests being answered now (summed over live workers).",
    multiprocess_mode="livesum",
)


def route_template(scope: Scope) -> str:
    """The template of the route serving ``scope``: set by the router, or matched here against the
    OpenAPI paths when a middleware answered before routing (413, 429...); ``unmatched`` otherwise."""
    route = scope.get("route")
    if route is not None:
        # path_format drops converters: "/v1/cards/{ref}", and "/static/swagger-ui/{path}" for a mount.
        path = getattr(route, "path_format", None) or getattr(route, "path", None)
        return path if isinstance(path, str) else UNMATCHED
    app = scope.get("app")
    if not isinstance(app, FastAPI):
        return UNMATCHED
    templates: list[tuple[re.Pattern[str], str]] | None = getattr(app.state, "metrics_templates", None)
    if templates is None:
        templates = [(compile_path(path)[0], path) for path in app.openapi().get("paths", {})]
        app.state.metrics_templates = templates
    path = scope["path"]
    return next((template for regex, template in templates if regex.match(path)), UNMATCHED)


_PID_FILE = re.compile(r"_(\d+)\.db$")


def _forget_dead_workers(directory: str) -> None:
    """Drop the live gauges of workers that died (a crashed worker's in-progress count would stay)."""
    for path in Path(directory).glob("gauge_live*_*.db"):
        found = _PID_FILE.search(path.name)
        if found is None:
            continue
        pid = int(found.group(1))
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
        except PermissionError:  # alive, another user's
            continue


def render_metrics() -> bytes:
    """The Prometheus text exposition: every worker's numbers in multiprocess mode, else this process's
    (with the default process and platform collectors)."""
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        _forget_dead_workers(directory)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)


router = APIRouter(tags=["health"])


@router.get(
    METRICS_PATH,
    summary="Prometheus metrics",
    description=(
        "Request counts, latency histograms (by route template and status) and requests in progress,"
        " in the Prometheus text format; summed over every worker when the service runs several."
    ),
    response_class=Response,
    responses={200: {"description": "Prometheus text format 0.0.4", "content": {"text/plain": {}}}},
)
@light(router, METRICS_PATH, "GET", "the text of a fixed set of counters and histograms")
async def metrics() -> Response:
    return Response(render_metrics(), media_type=CONTENT_TYPE_LATEST)


def install_metrics(app: FastAPI) -> None:
    """Serve ``/metrics`` (``app.api.middleware.ServiceMiddleware`` counts every request)."""
    app.include_router(router)
