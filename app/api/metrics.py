"""Prometheus metrics: ``GET /metrics`` and the middleware that counts every request.

``/metrics`` is not part of the public API (it told anyone the traffic and the routes of a
deployment). By default nothing answers it. ``MANACALC_METRICS_PORT`` serves it on a port of its own,
apart from the API, from a small thread of ``manacalc serve`` (``serve_metrics_port``): the port a
NetworkPolicy or firewall opens to Prometheus alone. ``MANACALC_METRICS_TOKEN`` serves it on the API port
to ``Authorization: Bearer <token>`` alone (401 otherwise), for a platform that scrapes one port.

Labels are bounded: the route *template* (``/v1/scenarios/{scenario_id}``, never the raw path; requests
matching no route are ``unmatched``), a known HTTP method (else ``other``) and the status code.

With several worker processes each keeps its own numbers, so ``/metrics`` would answer for whichever
worker the scrape reached. When ``PROMETHEUS_MULTIPROC_DIR`` is set (``manacalc serve --workers N`` sets
it to a fresh temporary directory before the workers start), ``prometheus_client`` keeps the numbers in
files there and ``/metrics`` adds up every worker's. The variable must be set before this module is first
imported in a worker, which is why the command line sets it rather than the application.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
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
from app.config import Settings
from app.errors import Unauthorized

logger = logging.getLogger("manacalc.metrics")

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


@router.get(METRICS_PATH, include_in_schema=False, response_class=Response)
@light(router, METRICS_PATH, "GET", "the text of a fixed set of counters and histograms")
async def metrics(request: Request) -> Response:
    """Request counts, latency histograms (by route template and status) and requests in progress, in the
    Prometheus text format; summed over every worker when the service runs several. Only registered when
    ``metrics_token`` is set, and answered only to that token."""
    settings: Settings = request.app.state.settings
    token = settings.metrics_token
    sent = request.headers.get("authorization", "")
    scheme, _, credentials = sent.partition(" ")
    if (
        token is None
        or scheme.lower() != "bearer"
        or not hmac.compare_digest(credentials.strip().encode(), token.get_secret_value().encode())
    ):
        raise Unauthorized(
            "Send the metrics token (MANACALC_METRICS_TOKEN) as `Authorization: Bearer <token>`."
        )
    return Response(render_metrics(), media_type=CONTENT_TYPE_LATEST)


def install_metrics(app: FastAPI, settings: Settings) -> None:
    """Serve ``/metrics`` on the API port only behind ``metrics_token`` (``app.api.middleware
    .ServiceMiddleware`` counts every request whatever the setting)."""
    if settings.metrics_token is not None:
        app.include_router(router)


class _MetricsHandler(BaseHTTPRequestHandler):
    """``GET /metrics`` (and ``HEAD``) on the metrics port; anything else is a 404."""

    server_version = "manacalc-metrics"

    def _answer(self, body: bool) -> None:
        if self.path.split("?", 1)[0] != METRICS_PATH:
            self.send_error(404)
            return
        try:
            payload = render_metrics()
        except Exception:  # a scrape must never take the server down; Prometheus records the failure
            logger.exception("metrics: rendering failed")
            self.send_error(500)
            return
        self.send_response(200)
        self.send_header("Content-Type", CONTENT_TYPE_LATEST)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if body:
            self.wfile.write(payload)

    def do_GET(self) -> None:
        self._answer(body=True)

    def do_HEAD(self) -> None:
        self._answer(body=False)

    def log_message(self, format: str, *args: Any) -> None:  # scrapes every few seconds: not logged
        pass


def serve_metrics_port(host: str, port: int) -> ThreadingHTTPServer:
    """Answer ``/metrics`` on ``host:port`` from a daemon thread of this process (``manacalc serve``'s:
    with several workers, the supervising process, which adds up every worker's numbers from
    ``PROMETHEUS_MULTIPROC_DIR``). Raises ``OSError`` when the port cannot be bound."""
    server = ThreadingHTTPServer((host, port), _MetricsHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="manacalc-metrics", daemon=True).start()
    logger.info("metrics on http://%s:%d%s", host, server.server_address[1], METRICS_PATH)
    return server
