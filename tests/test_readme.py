"""Every ``sh`` block of README.md and of docs/*.md runs as written against a live server on a fresh
database, as a reader would run it after ``make run`` alone.

A block preceded by ``<!-- readme-test: skip (reason) -->`` is not run (``make run`` serving in the
foreground, Docker, a cluster, a downloaded bulk file, a development command). The only change made to a
block is the server's address: ``127.0.0.1:8000`` becomes the free port the test server listens on. Each
block runs under ``bash -euo pipefail`` in a directory laid out as a checkout after ``make run`` alone:
``tools/`` and ``.venv-run`` (the virtualenv ``make run`` builds; the test's own ``.venv`` stands in for it
when ``make run`` was never run here), and no ``.venv``, so a block that needs ``make test``'s install
fails. ``curl`` fails on any HTTP error (``--fail-with-body``), so an example answering 4xx/5xx fails
the test.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live_server import REPO, LiveServer, live_server

README = REPO / "README.md"
DOCS = [README, *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"(?P<before>(?:<!--[^\n]*-->\n)?)```sh\n(?P<code>.*?)```", re.S)
PRELUDE = 'set -euo pipefail\ncurl() { command curl --fail-with-body --max-time 60 "$@"; }\n'


def readme_blocks() -> list[tuple[str, int, str, bool]]:
    """(where, line, code, skipped) for every ``sh`` block of every doc."""
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        where = doc.relative_to(REPO).as_posix()
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start("code"))
            out.append((where, line, match.group("code"), "readme-test: skip" in match.group("before")))
    return out


@pytest.mark.parametrize("doc", DOCS, ids=[d.relative_to(REPO).as_posix() for d in DOCS])
def test_docs_cite_nothing_outside_the_repository(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http://", "https://")):
            path = (doc.parent / target).resolve()
            assert path.is_relative_to(REPO), target
            assert path.exists(), target


def run_venv() -> Path:
    """What stands for ``.venv-run``: the one ``make run`` built, else the test's own install."""
    built = REPO / ".venv-run"
    return built if (built / "bin" / "manacalc").exists() else REPO / ".venv"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if not (run_venv() / "bin" / "manacalc").exists():
        pytest.fail("the examples use .venv-run/bin/manacalc: run `make run` or `make install` first")
    with live_server(tmp_path_factory.mktemp("readme")) as live:
        yield live


@pytest.mark.parametrize(
    ("where", "line", "code", "skipped"), readme_blocks(), ids=[f"{b[0]}:{b[1]}" for b in readme_blocks()]
)
def test_readme_block_runs(
    where: str, line: int, code: str, skipped: bool, server: LiveServer, tmp_path: Path
) -> None:
    if skipped:
        pytest.skip(f"{where}:{line} is marked readme-test: skip")
    assert shutil.which("curl"), "curl is needed"
    script = PRELUDE + code.replace("127.0.0.1:8000", f"127.0.0.1:{server.port}")
    # A checkout after `make run` alone (the blocks say .venv-run/bin/...), so that files a block writes,
    # such as the chart, land there and not in the repository.
    (tmp_path / "tools").symlink_to(REPO / "tools")
    (tmp_path / ".venv-run").symlink_to(run_venv())
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, (
        f"{where}:{line} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    assert done.stdout.strip(), f"{where}:{line} printed nothing"


def test_every_runnable_block_is_found() -> None:
    blocks = readme_blocks()
    assert sum(not skipped for _, _, _, skipped in blocks) >= 8
    assert any(
        "create-api-key" in code and not skipped for where, _, code, skipped in blocks if where == "README.md"
    )
    for where in ("README.md", "docs/api.md", "docs/decks.md"):
        assert any(w == where and not skipped for w, _, _, skipped in blocks), where


def test_no_runnable_block_needs_the_development_install() -> None:
    """`make run` builds .venv-run only: a block that says .venv/ fails for a reader who ran just that."""
    for where, line, code, skipped in readme_blocks():
        if not skipped:
            assert not re.search(r"(?<![\w-])\.venv/", code), (
                f"{where}:{line} uses .venv/ (make run builds .venv-run)"
            )


def test_default_database_is_shared_by_cli_and_server(tmp_path: Path) -> None:
    """A key made by the CLI from another working directory is seen by the server (one database)."""
    with live_server(tmp_path / "data") as live:
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir()
        key = subprocess.run(
            [str(REPO / ".venv" / "bin" / "manacalc"), "create-api-key", "from-elsewhere"],
            cwd=elsewhere,
            env=live.env,
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout.strip()
        answer = subprocess.run(
            [
                "curl",
                "-s",
                "-o",
                "/dev/null",
                "-w",
                "%{http_code}",
                f"{live.url}/v1/scenarios",
                "-H",
                f"Authorization: Bearer {key}",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout
        assert answer == "200"
        assert (tmp_path / "data" / "manacalc" / "manacalc.db").is_file()
        assert not list(elsewhere.iterdir())
