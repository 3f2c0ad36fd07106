"""Build hook: the rules core (``app/rules``) compiled to C with mypyc where a C compiler exists.

The core is ``mypy --strict`` already, and mypyc turns it into extension modules that run the cost engine
and the payment search two to five times faster (``bench/cost_engine.py`` and ``bench/payments.py`` print
both builds side by side). The ``.py`` sources ship beside the extension modules, so the pure core stays
importable, and a build without a compiler (or with ``MANACALC_COMPILE=0``) is the pure core.

Editable installs (``pip install -e .``, what ``make test`` uses) are never compiled: an extension module
left in the checkout would shadow every later edit of its source (and ``serve --workers 2`` hung on one).
``make run``, the Docker image and CI's compiled tests install a built wheel instead.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def _wants_compiled() -> bool:
    if os.environ.get("MANACALC_COMPILE", "1").strip().lower() in {"0", "false", "no", "off"}:
        return False
    if any(
        command in sys.argv for command in ("editable_wheel", "develop", "dist_info", "egg_info", "sdist")
    ):
        return False
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        print(f"manacalc: no C compiler ({compiler}): building the pure rules core", file=sys.stderr)
        return False
    return True


def _ext_modules() -> list[object]:
    if not _wants_compiled():
        return []
    from mypyc.build import mypycify

    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "app" / "rules").rglob("*.py"))
    # Our own mypy configuration: pyproject's names the pydantic plugin, which the build environment lacks
    # and the rules core (pure Python by the layering test) never needs.
    return mypycify(["--config-file", str(ROOT / "tools" / "mypyc.ini"), *sources], opt_level="3")


setup(ext_modules=_ext_modules())
