"""The API's tests run on the build asked for (``MANACALC_TEST_BUILD``, tests/conftest.py): the pure sources
of the checkout by default, the built wheel's compiled core (build/compiled-core) with ``compiled``, which
CI's PostgreSQL pass uses. In this directory, so that it runs in both of CI's passes; the servers and
scripts tests start run the same build."""

from __future__ import annotations

import importlib.machinery
import os
import subprocess
import sys
from pathlib import Path

import pytest

import app
from app.rules.mana import payment_search
from app.services.catalogue_snapshot import core_build
from tests.conftest import COMPILED_CORE, TEST_BUILD

pytestmark = pytest.mark.db_free

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "from app.services.catalogue_snapshot import core_build; import app; print(core_build(), app.__file__)"
)


def _expected() -> str:
    return "mypyc" if TEST_BUILD == "compiled" else "pure"


def test_this_process_imports_the_build_asked_for() -> None:
    assert core_build() == _expected()
    where = Path(app.__file__).resolve().parent
    if TEST_BUILD == "compiled":
        assert COMPILED_CORE in where.parents
        assert any(payment_search.__file__.endswith(s) for s in importlib.machinery.EXTENSION_SUFFIXES)
    else:
        assert where == ROOT / "app"


def test_a_server_started_from_the_checkout_imports_it_too() -> None:
    """``python -m`` from the checkout (how tests start servers) finds the same build."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    build, where = done.stdout.split()
    assert build == _expected()
    assert (COMPILED_CORE in Path(where).resolve().parents) == (TEST_BUILD == "compiled")
