"""No work at import time: importing ``app.main`` builds no application and changes nothing process-wide;
``app.main:app`` (the contract's ASGI application) is built by ``create_app()`` on first access, with the
process settings a served process needs, once."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_the_module_builds_nothing() -> None:
    # A fresh interpreter: this one's switch interval was set by the test session's fixtures.
    out = _run(
        """
        import sys
        before = (sys.getswitchinterval(), sys.unraisablehook)
        import app.main
        print(app.main._served is None, (sys.getswitchinterval(), sys.unraisablehook) == before)
        """
    )
    assert out == "True True"


def test_the_served_app_is_built_on_first_access_once_with_the_process_settings() -> None:
    out = _run(
        """
        import sys
        import app.main
        from app.api.compute import GIL_SWITCH_INTERVAL_S
        from fastapi import FastAPI
        served = app.main.app
        from app.main import app as again
        print(isinstance(served, FastAPI), served is again, sys.getswitchinterval() == GIL_SWITCH_INTERVAL_S)
        """
    )
    assert out == "True True True"


def test_other_names_are_still_attribute_errors() -> None:
    import app.main

    with pytest.raises(AttributeError):
        app.main.nothing_here  # noqa: B018
