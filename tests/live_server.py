"""A real ``uvicorn`` serving the app on a free localhost port, on a fresh SQLite database of its own
(for the tests that drive the service from outside: a browser, a generated client, the README)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class LiveServer:
    url: str
    port: int
    env: dict[str, str]

    def cli(self, *args: str) -> str:
        """Run ``manacalc ARGS`` against the same database; its standard output."""
        done = subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            env=self.env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        return done.stdout


def server_env(data_home: Path) -> dict[str, str]:
    """The environment of a server whose default database lives under ``data_home`` (XDG_DATA_HOME)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
    env["XDG_DATA_HOME"] = str(data_home)
    env["MANACALC_LOG_LEVEL"] = "WARNING"
    env["MANACALC_RATE_LIMIT_PER_MINUTE"] = "0"
    return env


@contextmanager
def live_server(data_home: Path, *, env: dict[str, str] | None = None) -> Iterator[LiveServer]:
    """Migrate, start uvicorn, wait until ``/readyz`` answers 200, yield, then stop it."""
    env = env or server_env(data_home)
    port = free_port()
    server = LiveServer(url=f"http://127.0.0.1:{port}", port=port, env=env)
    server.cli("migrate")
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{server.url}/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                err = process.stderr.read().decode() if process.stderr else ""
                raise RuntimeError(f"uvicorn did not become ready: {err[-2000:]}")
            time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        if process.stderr is not None:
            process.stderr.close()
