"""The service's settings: one class, read from ``MANACALC_*`` environment variables."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SecretsSettingsSource,
    SettingsConfigDict,
)

SECRETS_DIR_ENV = "MANACALC_SECRETS_DIR"


def data_dir() -> Path:
    """The per-user data directory: ``$XDG_DATA_HOME/manacalc``, else ``~/.local/share/manacalc``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser().resolve() / "manacalc"


def default_database_url() -> str:
    """SQLite in the per-user data directory: the CLI and the server resolve the same file whatever the
    working directory (a relative ``./manacalc.db`` silently forked into one database per directory)."""
    directory = data_dir()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'manacalc.db'}"


class Settings(BaseSettings):
    """Every setting of the service; see the settings table in docs/deploy.md."""

    model_config = SettingsConfigDict(env_prefix="MANACALC_", extra="ignore", frozen=True)

    database_url: str = Field(default_factory=default_database_url)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_json: bool = False
    migrate_on_start: bool = True
    # A JSON list or comma-separated: MANACALC_CORS_ORIGINS='["https://example.org"]' or 'https://a,https://b'.
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    max_json_depth: int = Field(default=32, ge=8, le=256)
    # Per API key (or client address); per worker process unless redis_url is set; 0 disables the limit.
    rate_limit_per_minute: int = Field(default=600, ge=0)
    rate_limit_burst: int = Field(default=120, ge=1)
    # redis://host:port/db: one rate limit for every worker and replica (unset: each worker counts alone).
    redis_url: str | None = None
    # Addresses (or ranges, 10.0.0.0/8) of reverse proxies whose X-Forwarded-For is believed (JSON list or
    # comma-separated; "*" trusts every peer). Empty: the socket's peer is the client.
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Seconds a request body may take to arrive in full before a 408 (a trickled body holds a slot).
    body_read_timeout_s: float = Field(default=10.0, gt=0, le=600)
    rules_edition: str = "2026-04-17"
    # `manacalc update-cards`: Scryfall's bulk-data entry for the oracle-cards file (its download_uri is
    # fetched), or a direct URL of a card file.
    scryfall_bulk_url: str = "https://api.scryfall.com/bulk-data/oracle-cards"
    db_pool_timeout: float = Field(default=10.0, gt=0)
    # 0 disables it; PostgreSQL only (SQLite has no statement timeout).
    # 10 s, the documented default (docs/deploy.md): a statement the database does not finish in time
    # is a 503.
    statement_timeout_ms: int = Field(default=10_000, ge=0)
    # ``manacalc serve`` (app.api.http_server): largest request head (request line + headers) in bytes,
    # seconds an idle keep-alive connection is held open, and most connections open and most requests in
    # flight per worker, each (0: no limit; past the connection limit the longest-waiting idle connection
    # is closed to make room).
    max_header_bytes: int = Field(default=16 * 1024, ge=1024, le=1024 * 1024)
    keep_alive_timeout_s: int = Field(default=5, ge=1, le=300)
    # Seconds a connection may take to send a whole request head once it is ready for one (accepted, or
    # its last answer sent); trickling bytes does not extend it. Past it: closed (408 if a head began).
    request_head_timeout_s: float = Field(default=5.0, gt=0, le=300)
    max_concurrent_connections: int = Field(default=1000, ge=0)
    # Seconds of work a compute request may use (queueing included) before it is a 422 too-large.
    compute_budget_s: float = Field(default=1.5, gt=0, le=60)
    # Where the in-memory catalogue is snapshotted for faster starts (app.services.catalogue_snapshot):
    # unset, a per-user directory under the system's temporary directory; "off": no snapshot.
    catalogue_snapshot_dir: str | None = None
    # /metrics is off the public API by default. With metrics_port, `manacalc serve` answers it on that port
    # (every worker's numbers), apart from the API; with metrics_token, the API port answers it to
    # `Authorization: Bearer <token>` alone. Neither: no /metrics at all.
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    metrics_host: str | None = None  # the metrics port's interface; unset: serve's --host
    metrics_token: SecretStr | None = Field(default=None, min_length=16)
    # FastAPI's native OpenTelemetry (request spans, metrics, logs) through the providers the process
    # configures (e.g. under opentelemetry-instrument). Off, FastAPI does not ask per request whether a
    # provider exists (4.5 us of a 200 us request).
    telemetry: bool = False

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """With ``MANACALC_SECRETS_DIR``, one file per setting there (``manacalc_database_url`` holds
        ``MANACALC_DATABASE_URL``) comes first, then the environment: how Kubernetes mounts a Secret, so the
        database password never sits in a process's environment. The files win because the image's own
        environment names a SQLite file (``Dockerfile``) that a mounted Secret must replace."""
        directory = os.environ.get(SECRETS_DIR_ENV)
        if directory:
            if not Path(directory).is_dir():
                raise ValueError(f"{SECRETS_DIR_ENV}={directory}: no such directory")
            files = SecretsSettingsSource(settings_cls, secrets_dir=directory)
            return init_settings, files, env_settings, dotenv_settings
        return init_settings, env_settings, dotenv_settings, file_secret_settings

    @field_validator("cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _origins_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator("cors_origins")
    @classmethod
    def _valid_origins(cls, origins: list[str]) -> list[str]:
        for origin in origins:
            check_origin(origin)
        return origins


def check_origin(origin: str) -> None:
    """A CORS origin as browsers send it in ``Origin`` (RFC 6454: scheme, host, port if not the default),
    else a ``ValueError`` saying what is wrong and what to write. The middleware compares the header with
    each configured string as it is, so an origin written any other way never matches and CORS is silently
    off for that site: a trailing slash, a path, no scheme, capitals, a default port. Refused at start-up."""
    if origin == "*":
        return
    where = f"MANACALC_CORS_ORIGINS: {origin!r} is not an origin"
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc or "://" not in origin:
        raise ValueError(f"{where}: an origin is scheme://host[:port], e.g. 'https://decks.example'")
    canonical = f"{parts.scheme}://{parts.netloc}"
    try:
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from exc
    if parts.path or parts.query or parts.fragment or "?" in origin or "#" in origin:
        raise ValueError(f"{where}: an origin has no path, not even '/': write {canonical!r}")
    if parts.username is not None or parts.password is not None:
        raise ValueError(f"{where}: an origin has no user name or password")
    if canonical != canonical.lower():
        raise ValueError(f"{where}: browsers send it in lower case: write {canonical.lower()!r}")
    if port == {"http": 80, "https": 443}[parts.scheme] or origin.endswith(":"):
        bare = f"{parts.scheme}://{parts.hostname}"
        raise ValueError(f"{where}: browsers omit the scheme's default port: write {bare!r}")


class SettingsError(ValueError):
    """A setting is malformed: the service must not start. The message names each variable and the fix."""


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once. ``create_app(settings)`` replaces them for one app.

    A malformed setting raises ``SettingsError`` with one line per problem (``manacalc`` prints it and
    exits with status 2; under another ASGI server it ends the start-up's traceback)."""
    try:
        return Settings()
    except ValidationError as exc:
        lines = []
        for error in exc.errors(include_url=False):
            name = "MANACALC_" + "_".join(str(part) for part in error["loc"][:1]).upper()
            message = str(error["msg"]).removeprefix("Value error, ")
            lines.append(message if message.startswith(name) else f"{name}: {message}")
        raise SettingsError("invalid settings: " + "; ".join(lines)) from None
    except ValueError as exc:  # MANACALC_SECRETS_DIR
        raise SettingsError(f"invalid settings: {exc}") from None
