"""The service's settings: one class, read from ``MANACALC_*`` environment variables."""

from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


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
    """Every setting of the service; see the settings table in README.md."""

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
    # Addresses of reverse proxies whose X-Forwarded-For is believed (JSON list or comma-separated;
    # "*" trusts every peer). Empty: the socket's peer is the client.
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Seconds a request body may take to arrive in full before a 408 (a trickled body holds a slot).
    body_read_timeout_s: float = Field(default=10.0, gt=0, le=600)
    rules_edition: str = "2026-04-17"
    # `manacalc update-cards`: Scryfall's bulk-data entry for the oracle-cards file (its download_uri is
    # fetched), or a direct URL of a card file.
    scryfall_bulk_url: str = "https://api.scryfall.com/bulk-data/oracle-cards"
    db_pool_timeout: float = Field(default=10.0, gt=0)
    # 0 disables it; PostgreSQL only (SQLite has no statement timeout).
    # 10 s, the README's promise: a statement the database does not finish in time is a 503.
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

    @field_validator("cors_origins", "trusted_proxies", mode="before")
    @classmethod
    def _origins_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once. ``create_app(settings)`` replaces them for one app."""
    return Settings()
