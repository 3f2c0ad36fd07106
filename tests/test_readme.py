"""Every ``sh`` block of README.md runs as written against a live server on a fresh database.

A block preceded by ``<!-- readme-test: skip (reason) -->`` is not run (``make run`` serving in the
foreground, Docker, a downloaded bulk file). The only change made to a block is the server's address:
``127.0.0.1:8000`` becomes the free port the test server listens on. Each block runs under
``bash -euo pipefail`` from the repository root, where ``curl`` fails on any HTTP error
(``--fail-with-body``),
so an example answering 4xx/5xx fails the test.
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
BLOCK = re.compile(r"(?P<before>(?:<!--[^\n]*-->\n)?)```sh\n(?P<code>.*?)```", re.S)
PRELUDE = 'set -euo pipefail\ncurl() { command curl --fail-with-body --max-time 60 "$@"; }\n'


def readme_blocks() -> list[tuple[int, str, bool]]:
    """(line, code, skipped) for every ``sh`` block."""
    text = README.read_text(encoding="utf-8")
    out = []
    for match in BLOCK.finditer(text):
        line = text.count("\n", 0, match.start("code"))
        out.append((line, match.group("code"), "readme-test: skip" in match.group("before")))
    return out


def test_readme_cites_nothing_outside_the_repository() -> None:
    text = README.read_text(encoding="utf-8")
    assert "../" not in text
    for target in re.findall(r"\]\(([^)#]+)\)", text):
        if not target.startswith(("http://", "https://")):
            assert (REPO / target).exists(), target


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    if not (REPO / ".venv" / "bin" / "manacalc").exists():
        pytest.fail("README examples use .venv/bin/manacalc: run `make install` first")
    with live_server(tmp_path_factory.mktemp("readme")) as live:
        yield live


@pytest.mark.parametrize(
    ("line", "code", "skipped"), readme_blocks(), ids=[f"README.md:{b[0]}" for b in readme_blocks()]
)
def test_readme_block_runs(line: int, code: str, skipped: bool, server: LiveServer, tmp_path: Path) -> None:
    if skipped:
        pytest.skip(f"README.md:{line} is marked readme-test: skip")
    assert shutil.which("curl"), "curl is needed"
    script = PRELUDE + code.replace("127.0.0.1:8000", f"127.0.0.1:{server.port}")
    # A checkout-like directory (the blocks say .venv/bin/...), so that files a block writes, such as the
    # chart, land there and not in the repository.
    for name in (".venv", "tools"):
        (tmp_path / name).symlink_to(REPO / name)
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
        f"README.md:{line} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    assert done.stdout.strip(), f"README.md:{line} printed nothing"


def test_every_runnable_block_is_found() -> None:
    blocks = readme_blocks()
    assert sum(not skipped for _, _, skipped in blocks) >= 3
    assert any("create-api-key" in code and not skipped for _, code, skipped in blocks)


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
