"""The ``manacalc`` command: ``serve``, ``migrate``, ``openapi`` (others add theirs).

Adding a subcommand is one decorated function::

    @subcommand("import-cards", help="Load a Scryfall or MTGJSON file", args=[Arg("file")])
    def import_cards(ns: argparse.Namespace) -> int:
        ...
        return 0

It receives the parsed arguments and returns the exit status. Results go to standard output, messages
to standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.config import Settings

Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Arg:
    """One ``add_argument`` call: ``Arg("--port", type=int, default=8000)``."""

    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)

    def __init__(self, *flags: str, **options: Any) -> None:
        object.__setattr__(self, "flags", flags)
        object.__setattr__(self, "options", options)


@dataclass(frozen=True, slots=True)
class Subcommand:
    name: str
    help: str
    args: tuple[Arg, ...]
    handler: Handler


SUBCOMMANDS: dict[str, Subcommand] = {}


def subcommand(name: str, *, help: str, args: Sequence[Arg] = ()) -> Callable[[Handler], Handler]:
    """Register ``manacalc NAME`` (see the module docstring)."""

    def register(handler: Handler) -> Handler:
        if name in SUBCOMMANDS:
            raise ValueError(f"subcommand {name!r} registered twice")
        SUBCOMMANDS[name] = Subcommand(name, help, tuple(args), handler)
        return handler

    return register


def fail(message: str, status: int = 1) -> int:
    """Print ``message`` to standard error and return ``status``."""
    print(f"manacalc: {message}", file=sys.stderr)
    return status


@subcommand(
    "serve",
    help="Serve the HTTP API (applies pending migrations first)",
    args=[
        Arg("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)"),
        Arg("--port", type=int, default=8000, help="port (default 8000)"),
        Arg("--workers", type=int, default=1, help="worker processes (default 1)"),
    ],
)
def serve(ns: argparse.Namespace) -> int:
    import uvicorn

    from app.config import get_settings
    from app.main import apply_process_settings

    settings = get_settings()
    apply_process_settings(settings)  # this process's; each worker's own are applied as it builds the app
    if ns.workers < 1:
        return fail("--workers must be at least 1", 2)
    if ns.workers > 1 and settings.migrate_on_start:
        # Migrate once here rather than racing in every worker; workers then only check the schema.
        status = _migrate()
        if status:
            return status
        os.environ["MANACALC_MIGRATE_ON_START"] = "false"
    # Every connection a worker may hold, plus database connections, log files and the like.
    wanted = settings.max_concurrent_connections + 256 if settings.max_concurrent_connections else 65536
    if 0 < raise_open_files_limit(wanted) < wanted:
        print(
            f"manacalc: warning: the open-files limit is below {wanted}; lower"
            " MANACALC_MAX_CONCURRENT_CONNECTIONS or raise `ulimit -n`",
            file=sys.stderr,
        )
    metrics_dir = _metrics_dir(ns.workers)
    metrics_server = None
    if settings.metrics_port is not None:
        # After _metrics_dir: in this process too, the numbers are read from the workers' files.
        from app.api.metrics import serve_metrics_port

        try:
            metrics_server = serve_metrics_port(settings.metrics_host or ns.host, settings.metrics_port)
        except OSError as exc:
            return fail(f"cannot serve metrics on port {settings.metrics_port}: {exc}")
    try:
        uvicorn.run(
            "app.main:app", host=ns.host, port=ns.port, workers=ns.workers, **server_options(settings)
        )
    finally:
        if metrics_server is not None:
            metrics_server.shutdown()
        if metrics_dir is not None:
            shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def server_options(settings: Settings) -> dict[str, Any]:
    """How ``serve`` runs uvicorn (``bench/bare_app.py`` serves its baseline the same way)."""
    return {
        "log_config": None,  # ours (app.logs), with request ids
        # Forwarded headers are not uvicorn's to trust: its default trusts them from 127.0.0.1, which
        # let any local client spoof its address past the rate limit.
        "proxy_headers": False,
        # httptools through our protocol (app.api.http_server): what no uvicorn option bounds there (head
        # and trailer caps, head and send deadlines, pipelining, fair connection and request limits,
        # problem+json for every refusal). It reads its limits from the settings (MANACALC_MAX_HEADER_BYTES,
        # MANACALC_REQUEST_HEAD_TIMEOUT_S, MANACALC_MAX_CONCURRENT_CONNECTIONS, ...) in each worker, so
        # uvicorn's own connection limit stays off: it counted idle connections against requests.
        "http": HTTP_PROTOCOL,
        "timeout_keep_alive": settings.keep_alive_timeout_s,
        "limit_concurrency": None,
        # No WebSocket route: an Upgrade header is ignored and the request served as an ordinary one.
        "ws": "none",
        # Connections the kernel queues before they are accepted (uvicorn's default, said here).
        "backlog": 2048,
    }


HTTP_PROTOCOL = "app.api.http_server:ManacalcHttpToolsProtocol"
"""uvicorn's ``http`` option: a name, not the class, so ``--workers`` processes import it themselves."""


def raise_open_files_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files toward ``wanted`` (at most the hard limit): with
    the common default of 1,024, a thousand held connections would exhaust descriptors and stop the
    server accepting anyone. Returns the soft limit now in force (0 where there is no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def _metrics_dir(workers: int) -> str | None:
    """Workers share their Prometheus numbers through files (``app.api.metrics``): make a fresh directory
    and set ``PROMETHEUS_MULTIPROC_DIR`` before they start. None for one process, or when the operator
    set the variable (their directory, not ours to delete)."""
    if workers < 2 or os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        return None
    directory = tempfile.mkdtemp(prefix="manacalc-metrics-")
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
    return directory


def _bundled_first(session: Any) -> None:
    """Load the bundled catalogue before a card file, as the server's first start would: otherwise that
    start loaded it over the file just imported (its older cards replacing the file's, and a slow
    start)."""
    from app.services.card_import import ensure_bundled_catalogue

    ensure_bundled_catalogue(session)
    session.commit()


def _migrate() -> int:
    from app.config import get_settings
    from app.db.migrate import head_revisions, upgrade_to_head
    from app.db.session import get_engine

    settings = get_settings()
    try:
        upgrade_to_head(get_engine(settings))
    except Exception as exc:
        return fail(f"migration failed: {exc.__class__.__name__}: {exc}")
    print(f"database at revision {', '.join(sorted(head_revisions()))}", file=sys.stderr)
    return 0


@subcommand("migrate", help="Apply pending database migrations (MANACALC_DATABASE_URL)")
def migrate(ns: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level, json_lines=settings.log_json)
    return _migrate()


@subcommand(
    "openapi",
    help="Print the OpenAPI document (what openapi/openapi.json must hold)",
    args=[Arg("--output", "-o", type=Path, help="write to this file instead of standard output")],
)
def openapi(ns: argparse.Namespace) -> int:
    text = openapi_json()
    if ns.output is None:
        sys.stdout.write(text)
    else:
        ns.output.write_text(text, encoding="utf-8")
        print(f"wrote {ns.output}", file=sys.stderr)
    return 0


def openapi_json() -> str:
    """The OpenAPI document as committed in openapi/openapi.json."""
    from app.config import Settings
    from app.main import create_app

    document = create_app(Settings(migrate_on_start=False)).openapi()
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


@subcommand(
    "import-cards",
    help="Load a Scryfall bulk file or an MTGJSON AtomicCards/set file into the card catalogue",
    args=[
        Arg("file", type=Path, help="the JSON file (Scryfall oracle-cards/default-cards, MTGJSON)"),
        Arg("--batch-size", type=int, default=1000, help="cards per database batch (default 1000)"),
    ],
)
def import_cards(ns: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db.session import get_engine, get_sessionmaker
    from app.services.card_import import CardFileError
    from app.services.card_import import import_cards as run_import

    if ns.batch_size < 1:
        return fail("--batch-size must be at least 1", 2)
    status = _migrate()
    if status:
        return status
    session = get_sessionmaker(get_engine(get_settings()))()
    try:
        _bundled_first(session)
        report = run_import(
            session,
            ns.file,
            batch_size=ns.batch_size,
            progress=sys.stderr,
            on_problem=lambda message: print(message, file=sys.stderr),
        )
        session.commit()
    except CardFileError as exc:
        session.rollback()
        return fail(str(exc))
    finally:
        session.close()
    print(report.summary())
    return 0


@subcommand(
    "update-cards",
    help="Fetch Scryfall's current oracle-cards bulk file (MANACALC_SCRYFALL_BULK_URL) and import it",
    args=[
        Arg("--url", default=None, help="the bulk-data entry or card file URL (default: the setting)"),
        Arg("--force", action="store_true", help="download and import even if the file did not change"),
    ],
)
def update_cards(ns: argparse.Namespace) -> int:
    from app.config import get_settings
    from app.db.session import get_engine, get_sessionmaker
    from app.services.card_update import CardFetchError
    from app.services.card_update import update_cards as run_update

    status = _migrate()
    if status:
        return status
    settings = get_settings()
    session = get_sessionmaker(get_engine(settings))()
    try:
        _bundled_first(session)
        result = run_update(
            session, ns.url or settings.scryfall_bulk_url, progress=sys.stderr, force=ns.force
        )
        session.commit()
    except CardFetchError as exc:
        session.rollback()
        return fail(str(exc))
    finally:
        session.close()
    if result.report is None:
        print(f"{result.url}: up to date (updated_at {result.updated_at}); --force imports it again")
    else:
        print(result.report.summary())
    return 0


@subcommand(
    "create-api-key",
    help="Create an API key for the /v1/scenarios endpoints and print it (alone on one line; only its hash"
    " is stored, so keep it now)",
    args=[Arg("name", help="a name for the key (who it is for), unique; used to revoke it")],
)
def create_api_key(ns: argparse.Namespace) -> int:
    from app.services.api_keys import create_api_key as create

    key = _api_key_command(lambda session: create(session, name=ns.name))
    if key is None:
        return 1
    print(key)
    return 0


@subcommand(
    "revoke-api-key",
    help="Revoke the API key NAME (its scenarios are kept): refused from now on, except by a running server"
    " that accepted it in the last second, which keeps trusting it until then",
    args=[Arg("name", help="the key's name, as given to create-api-key")],
)
def revoke_api_key(ns: argparse.Namespace) -> int:
    from app.services.api_keys import revoke_api_key as revoke

    def action(session: Any) -> bool:
        revoke(session, name=ns.name)
        return True

    if _api_key_command(action) is None:
        return 1
    from app.services.api_keys import KEY_CACHE_TTL_S

    # Each worker trusts a key it accepted for KEY_CACHE_TTL_S without asking the database; this
    # command runs in its own process, so a running server learns of the revocation only then.
    print(
        f"revoked API key {ns.name!r}; running servers refuse it within {KEY_CACHE_TTL_S:g} s",
        file=sys.stderr,
    )
    return 0


def _api_key_command(action: Callable[[Any], Any]) -> Any:
    """Run ``action(session)`` in one committed transaction after migrating; None (reported) on failure."""
    from app.db.session import get_engine, get_sessionmaker
    from app.errors import AppError

    if _migrate():
        return None
    from app.config import get_settings

    try:
        with get_sessionmaker(get_engine(get_settings()))() as session, session.begin():
            return action(session)
    except AppError as exc:
        fail(exc.detail)
        return None


def build_parser() -> argparse.ArgumentParser:
    from app import __version__

    parser = argparse.ArgumentParser(
        prog="manacalc", description="Magic: The Gathering spell costs and mana."
    )
    parser.add_argument("--version", action="version", version=f"manacalc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for sub in SUBCOMMANDS.values():
        sub_parser = commands.add_parser(sub.name, help=sub.help, description=sub.help)
        for arg in sub.args:
            sub_parser.add_argument(*arg.flags, **arg.options)
        sub_parser.set_defaults(handler=sub.handler)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``manacalc`` console script; returns the exit status."""
    from app.config import SettingsError

    ns = build_parser().parse_args(argv)
    handler: Handler = ns.handler
    try:
        return handler(ns)
    except SettingsError as exc:  # a malformed MANACALC_* variable: say which and stop before anything runs
        return fail(str(exc), 2)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
