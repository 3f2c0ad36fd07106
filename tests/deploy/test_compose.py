"""The container definition, checked by what runs without a Docker engine: the structure of ``Dockerfile``,
``.dockerignore`` and ``docker-compose.yml``, and the entry point and health checks run for real against a
local database (PostgreSQL on PostgreSQL runs)."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy.engine import make_url

from tests.deploy.support import REPO, child_env, free_port, running

ENTRYPOINT = REPO / "docker" / "entrypoint.sh"


# --- Dockerfile ------------------------------------------------------------------------------------------


def _instructions(path: Path) -> list[tuple[str, str]]:
    """(KEYWORD, arguments) per instruction: continuation lines joined, comments and directives dropped."""
    logical: list[str] = []
    pending = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        logical.append(pending + line)
        pending = ""
    assert not pending, "a continuation line ends the file"
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip()) for line in logical]


def _stages(path: Path) -> list[list[tuple[str, str]]]:
    stages: list[list[tuple[str, str]]] = []
    for keyword, args in _instructions(path):
        if keyword == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((keyword, args))
    return stages


def _exec_form(args: str) -> list[str]:
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value), args
    return value


def _healthcheck_argv(args: str) -> list[str]:
    """The exec-form command of ``HEALTHCHECK [--options] CMD [...]``."""
    match = re.search(r"\bCMD\s+(\[.*\])\s*$", args)
    assert match, f"HEALTHCHECK is not in exec form: {args}"
    return _exec_form(match.group(1))


def test_dockerfile_is_multi_stage_slim_non_root_exec_form_with_healthcheck() -> None:
    instructions = _instructions(REPO / "Dockerfile")
    args = dict(i[1].partition("=")[::2] for i in instructions if i[0] == "ARG")
    stages = _stages(REPO / "Dockerfile")
    assert len(stages) >= 2
    build, runtime = stages[0], stages[-1]
    for stage in stages:
        image = stage[0][1].split()[0].replace("${PYTHON_IMAGE}", args.get("PYTHON_IMAGE", ""))
        assert re.fullmatch(r"python:3\.11(\.\d+)?-slim(-\w+)?", image), image
    assert re.search(r"\bAS build$", build[0][1])
    assert any(k == "RUN" and "pip wheel" in a for k, a in build), "the first stage builds the wheels"
    # The runtime stage installs those wheels only (no index, no source tree).
    install = [a for k, a in runtime if k == "RUN" and "pip install" in a]
    assert install and "--no-index" in install[0] and "from=build" in install[0]
    assert not any(k == "COPY" and a.split()[0] in ("app", ".") for k, a in runtime)
    users = [a for k, a in runtime if k == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    entrypoint = _exec_form(next(a for k, a in runtime if k == "ENTRYPOINT"))
    assert entrypoint == ["manacalc-entrypoint"]
    assert any(
        k == "COPY" and a.endswith("docker/entrypoint.sh /usr/local/bin/manacalc-entrypoint")
        for k, a in runtime
    )
    assert _exec_form(next(a for k, a in runtime if k == "CMD"))[:1] == ["serve"]
    probe = _healthcheck_argv(next(a for k, a in runtime if k == "HEALTHCHECK"))
    assert probe[0] == "python" and "/healthz" in probe[-1] and "curl" not in " ".join(probe)


def _glob_regex(pattern: str) -> str:
    """A .dockerignore pattern as a regex: Go's ``filepath.Match`` (``*``, ``?`` and ``[...]`` never cross
    ``/``) plus Docker's ``**`` (any number of directories)."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        elif pattern[i] == "[":
            end = pattern.index("]", i + 1)
            body = pattern[i + 1 : end]
            out, i = out + "[" + ("^" + body[1:] if body[:1] in "!^" and body else body) + "]", end + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return out


def _ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern matching the path or one of its parent directories decides."""
    parts = path.split("/")
    candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    ignored = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        regex = _glob_regex(pattern[1:] if negated else pattern)
        if any(re.fullmatch(regex, c) for c in candidates):
            ignored = not negated
    return ignored


def test_dockerignore_sends_only_the_build_inputs() -> None:
    patterns = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    sources = [
        src
        for keyword, args in _instructions(REPO / "Dockerfile")
        if keyword == "COPY" and "--from" not in args
        for src in args.split()[:-1]
        if not src.startswith("--")
    ]
    assert "docker/entrypoint.sh" in sources
    for source in sources:
        assert not _ignored(source, patterns), f"{source} is copied by the Dockerfile but ignored"
    for kept in ("app/main.py", "app/data/cards.json.gz", "migrations/env.py", "migrations/versions/x.py"):
        assert not _ignored(kept, patterns), kept
    for dropped in (
        ".venv/bin/python",
        ".git/HEAD",
        "manacalc.db",
        "manacalc.db-wal",
        "tests/conftest.py",
        "app/__pycache__/main.cpython-311.pyc",
        "bench/load.sh",
        ".env",
    ):
        assert _ignored(dropped, patterns), dropped


# --- docker-compose.yml ----------------------------------------------------------------------------------


def _interpolate(value: str) -> str:
    """Compose's ``${NAME:-default}`` with nothing set: the default."""
    return re.sub(r"\$\{(\w+)(?::?-([^}]*))?\}", lambda m: m.group(2) or "", value)


def test_compose_runs_the_api_on_postgres_once_it_is_healthy() -> None:
    compose: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "api", "redis", "edge"}
    db, api = services["db"], services["api"]

    assert db["image"].startswith("postgres:")
    assert "pg_isready" in db["healthcheck"]["test"]
    volume, target = db["volumes"][0].split(":")[:2]
    assert target == "/var/lib/postgresql/data" and volume in compose["volumes"]
    pg = {k: _interpolate(str(v)) for k, v in db["environment"].items()}

    assert api["build"] in (".", {"context": "."})
    assert api["command"] == ["serve", "--host", "0.0.0.0", "--port", "8000", "--workers", "4"]
    assert api["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "redis": {"condition": "service_started"},  # the API answers without it (per-worker limits)
    }
    # One rate limit across the replicas and workers: the buckets live in the compose Redis.
    redis_url = make_url(api["environment"]["MANACALC_REDIS_URL"])
    assert (redis_url.drivername, redis_url.host, redis_url.port) == ("redis", "redis", 6379)
    assert services["redis"]["image"].startswith("redis:")
    assert "redis-cli" in services["redis"]["healthcheck"]["test"]
    url = make_url(_interpolate(api["environment"]["MANACALC_DATABASE_URL"]))
    assert url.drivername == "postgresql+psycopg"
    assert (url.host, url.port, url.username, url.password, url.database) == (
        "db",
        5432,
        pg["POSTGRES_USER"],
        pg["POSTGRES_PASSWORD"],
        pg["POSTGRES_DB"],
    )
    probe = api["healthcheck"]["test"]
    assert probe[0] == "CMD" and probe[1] == "python" and "/readyz" in probe[-1]
    assert "ports" not in api  # reached through the edge only


def test_compose_puts_nginx_in_front_with_timeouts_and_limits() -> None:
    """Issue 36: production has an edge. The API publishes no port; nginx does, with header, body and
    send timeouts, buffer limits and connection limits, and the API believes its X-Forwarded-For only."""
    compose: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    edge, api = compose["services"]["edge"], compose["services"]["api"]
    assert edge["image"].startswith("nginx:1.")
    assert "8000:8080" in [str(p) for p in edge["ports"]]
    assert edge["read_only"] is True
    assert "./deploy/nginx/nginx.conf:/etc/nginx/nginx.conf:ro" in edge["volumes"]
    address = edge["networks"]["default"]["ipv4_address"]
    assert api["environment"]["MANACALC_TRUSTED_PROXIES"] == address
    conf = (REPO / "deploy" / "nginx" / "nginx.conf").read_text(encoding="utf-8")
    directives: dict[str, str] = {}  # the first of each name (the http block's, before the upstream's)
    for raw in conf.splitlines():
        line = raw.split("#")[0].strip()
        if line and not line.endswith(("{", "}")):
            directives.setdefault(line.split()[0], " ".join(line.split()[1:]).rstrip(";"))
    for name, value in {
        "client_header_timeout": "5s",
        "large_client_header_buffers": "4 16k",
        "client_body_timeout": "10s",
        "client_max_body_size": "1m",
        "send_timeout": "10s",
        "keepalive_timeout": "5s",
        "reset_timedout_connection": "on",
        "proxy_request_buffering": "on",
        "limit_conn": "per_address 100",
        "proxy_next_upstream": "off",
        "proxy_set_header": "X-Forwarded-Proto $scheme",
    }.items():
        assert name in directives, name
        if name != "proxy_set_header":
            assert directives[name] == value, (name, directives[name])
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf  # a client's own header is replaced
    assert "server api:8000" in conf


# --- the entry point and the health checks, run for real ---------------------------------------------------


def _probe(argv: list[str], port: int) -> int:
    """Run a container health check here: this interpreter for ``python``, the test server's port."""
    command = [
        sys.executable if a == "python" else a.replace("127.0.0.1:8000", f"127.0.0.1:{port}") for a in argv
    ]
    return subprocess.run(command, capture_output=True, timeout=30).returncode


@pytest.mark.slow
def test_entrypoint_migrates_serves_and_stops_on_sigterm(fresh_database_url: str, tmp_path: Path) -> None:
    runtime = _stages(REPO / "Dockerfile")[-1]
    image_probe = _healthcheck_argv(next(a for k, a in runtime if k == "HEALTHCHECK"))
    compose = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    ready_probe = compose["services"]["api"]["healthcheck"]["test"][1:]
    port = free_port()
    argv = ["sh", str(ENTRYPOINT), "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]
    with running(argv, child_env(fresh_database_url), port, tmp_path / "entrypoint.log") as server:
        server.wait_ready()
        assert _probe(image_probe, port) == 0
        assert _probe(ready_probe, port) == 0
        started = time.monotonic()
        assert server.stop() == 0, server.output()[-3000:]
        assert time.monotonic() - started < 15
    # `exec`: the shell is gone, the server was the process that got SIGTERM and shut down gracefully.
    output = server.output()
    assert "database at revision" in output
    assert "Finished server process" in output
    assert _probe(image_probe, port) != 0


def test_entrypoint_gives_up_when_the_database_never_answers(tmp_path: Path) -> None:
    closed = free_port()
    nowhere = f"postgresql+psycopg://postgres@127.0.0.1:{closed}/nowhere"
    env = child_env(nowhere, MANACALC_DB_WAIT_SECONDS="12")
    started = time.monotonic()
    result = subprocess.run(
        ["sh", str(ENTRYPOINT), "serve", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "did not accept migrations within 12s" in result.stderr
    assert "retrying" in result.stderr
    assert time.monotonic() - started < 50


def test_entrypoint_runs_other_commands_as_they_are(tmp_path: Path) -> None:
    env = child_env(f"sqlite:///{tmp_path / 'unused.db'}")
    result = subprocess.run(
        ["sh", str(ENTRYPOINT), "--version"], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    assert result.stdout.startswith("manacalc ")
    assert not (tmp_path / "unused.db").exists()  # no migration before a command other than serve
    assert shlex.split(ENTRYPOINT.read_text(encoding="utf-8").splitlines()[0]) == ["#!/bin/sh"]


def test_the_edge_configuration_is_valid_nginx(tmp_path: Path) -> None:
    """``nginx -t`` on the edge's configuration (the upstream's compose name replaced by an address: nginx
    resolves it at start). Skipped where nginx is not installed (`apt-get install nginx-light`)."""
    import shutil

    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        pytest.skip("nginx is not installed")
    conf = (REPO / "deploy" / "nginx" / "nginx.conf").read_text(encoding="utf-8")
    conf = conf.replace("server api:8000", "server 127.0.0.1:8000").replace("/tmp/", f"{tmp_path}/")
    path = tmp_path / "nginx.conf"
    path.write_text(conf, encoding="utf-8")
    done = subprocess.run([nginx, "-t", "-c", str(path), "-p", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
