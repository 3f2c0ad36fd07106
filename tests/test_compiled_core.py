"""The compiled rules core (mypyc, setup.py) answers exactly as the pure one.

``make compiled`` builds the wheel and unpacks it into ``build/compiled-core``; CI builds it beside the
tests (``.ci/run``, which holds ``build/ci-compiled.running`` while it does), so there this test waits for
the build and must run: it skips only on a machine without that build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.services import catalogue_snapshot as snap

pytestmark = pytest.mark.db_free  # never reaches the database under test

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled-core"
DUMP = ROOT / "tests" / "compiled_core_dump.py"
BUILDING = ROOT / "build" / "ci-compiled.running"
BUILD_WAIT_S = 1200  # CI starts the build first; it takes about five minutes beside the tests


def _wait_for_a_build_in_progress() -> None:
    deadline = time.monotonic() + BUILD_WAIT_S
    while BUILDING.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the compiled core still building after {BUILD_WAIT_S} s: build/ci-compiled.log")
        time.sleep(2)


def _dump(core: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(core)}
    done = subprocess.run(
        [sys.executable, str(DUMP)],
        cwd=core,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_compiled_and_pure_cores_answer_byte_for_byte_alike() -> None:
    _wait_for_a_build_in_progress()
    if not (COMPILED / "app" / "rules").is_dir():
        if os.environ.get("CI"):
            pytest.fail("CI builds the compiled core first (make compiled): build/compiled-core is missing")
        pytest.skip("no compiled core here: `make compiled` builds it")
    if not any(COMPILED.joinpath("app", "rules", "values").glob("costs.*.so")):
        pytest.skip("this machine built the pure core (no C compiler): nothing compiled to compare")
    compiled = _dump(COMPILED)
    pure = _dump(ROOT)
    assert compiled[0] == "mypyc" and pure[0] == "pure"
    assert len(compiled) > 100
    assert compiled[1:] == pure[1:]


def test_a_snapshot_of_one_build_is_never_loaded_by_the_other(monkeypatch: pytest.MonkeyPatch) -> None:
    this = snap.snapshot_path(Path("/x"), "db", "v1")
    other = "pure" if snap.core_build() == "mypyc" else "mypyc"  # either build may run the tests
    monkeypatch.setattr(snap, "core_build", lambda: other)
    assert snap.snapshot_path(Path("/x"), "db", "v1") != this


def test_the_checkout_runs_the_pure_core() -> None:
    assert snap.core_build() == ("mypyc" if os.environ.get("MANACALC_TEST_BUILD") == "compiled" else "pure")
