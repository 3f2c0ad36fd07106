"""The service's settings: one class, read from ``MANACALC_*`` environment variables."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every setting of the service; see the settings table in README.md."""

    model_config = SettingsConfigDict(env_prefix="MANACALC_", extra="ignore", frozen=True)

    database_url: str = "sqlite:///./manacalc.db"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    log_json: bool = False
    migrate_on_start: bool = True
    # A JSON list in the environment: MANACALC_CORS_ORIGINS='["https://example.org"]'.
    cors_origins: list[str] = Field(default_factory=list)
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024)
    rules_edition: str = "2026-04-17"
    db_pool_timeout: float = Field(default=10.0, gt=0)
    # 0 disables it; PostgreSQL only (SQLite has no statement timeout).
    statement_timeout_ms: int = Field(default=30_000, ge=0)


@lru_cache
def get_settings() -> Settings:
    """The process's settings, read once. ``create_app(settings)`` replaces them for one app."""
    return Settings()
