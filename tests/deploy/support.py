"""Helpers of the deployment tests: real ``manacalc`` processes on fresh databases (a temporary PostgreSQL
database beside ``MANACALC_TEST_DATABASE_URL``, or a SQLite file), started and stopped by the test."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

REPO = Path(__file__).resolve().parents[2]
TEST_URL = os.environ.get("MANACALC_TEST_DATABASE_URL")


def is_postgres(url: str | None) -> bool:
    return bool(url) and make_url(url).get_backend_name() == "postgresql"  # type: ignore[arg-type]


def manacalc_command() -> list[str]:
    """The ``manacalc`` console script of this interpreter's environment (``python -m app.cli`` if absent)."""
    script = Path(sys.executable).parent / "manacalc"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "app.cli"]


def child_env(database_url: str, **extra: str) -> dict[str, str]:
    """The environment of a child process: ours, its database, quiet logs, the venv's bin first on PATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
    env.update(
        MANACALC_DATABASE_URL=database_url,
        MANACALC_LOG_LEVEL="INFO",
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    env.update(extra)
    return env


@contextmanager
def temporary_postgres_database(prefix: str = "manacalc_deploy") -> Iterator[str]:
    """A new empty database beside the test database (same server and user), dropped afterwards."""
    assert TEST_URL is not None and is_postgres(TEST_URL)
    base = make_url(TEST_URL)
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres_only)])
def fresh_database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database of each kind: a SQLite file, and (PostgreSQL runs) a temporary database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'fresh.db'}"
        return
    with temporary_postgres_database() as url:
        yield url


@pytest.fixture
def fresh_postgres_url() -> Iterator[str]:
    """A temporary empty PostgreSQL database (tests using it are marked ``postgres_only``)."""
    with temporary_postgres_database() as url:
        yield url


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """One server process (``manacalc serve`` or the container entry point), in its own process group."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], port: int, log: Path) -> None:
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.log = log
        self._log_file = log.open("wb")
        self.process = subprocess.Popen(
            list(argv),
            cwd=REPO,
            env=env,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_ready(self, timeout: float = 90.0) -> None:
        """Until ``/readyz`` answers 200; fails with the log's tail if the process dies or time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"server exited with {self.process.returncode}:\n{self.output()[-3000:]}")
            try:
                if httpx.get(self.base_url + "/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        pytest.fail(f"server not ready after {timeout}s:\n{self.output()[-3000:]}")

    def output(self) -> str:
        if not self._log_file.closed:
            self._log_file.flush()
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM (a graceful shutdown), SIGKILL to the whole group if it does not end in ``timeout``."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)
        if not self._log_file.closed:
            self._log_file.close()
        return self.process.returncode


@contextmanager
def running(argv: Sequence[str], env: dict[str, str], port: int, log: Path) -> Iterator[Server]:
    server = Server(argv, env, port, log)
    try:
        yield server
    finally:
        server.stop()
