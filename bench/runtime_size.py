"""The runtime install's size (what `make run` installs: the package and its runtime dependencies, pinned
by constraints.txt), against a baseline measured in the same run: the same install plus matplotlib, which
the SVG deck chart needed until it was drawn from a template.

    .venv/bin/python bench/runtime_size.py

Builds two throw-away virtualenvs under a temporary directory (pip's cache makes the second quick) and
prints each one's size on disk and the ratio. Needs the package index (or pip's cache) like `make run`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _size(root: Path) -> int:
    total = 0
    for path, _dirs, files in os.walk(root):
        for name in files:
            file = Path(path, name)
            if not file.is_symlink():
                total += file.stat().st_size
    return total


def _venv(where: Path, *extra: str) -> int:
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    pip = [str(where / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    # Not editable: the package's own files count, as in the Docker image.
    subprocess.run([*pip, "-c", str(REPO / "constraints.txt"), str(REPO), *extra], check=True)
    return _size(where)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="manacalc-size-") as tmp:
        t0 = time.perf_counter()
        runtime = _venv(Path(tmp, "runtime"))
        baseline = _venv(Path(tmp, "with-matplotlib"), "matplotlib==3.11.2")
        took = time.perf_counter() - t0
    mb = 1024 * 1024
    print(f"runtime virtualenv:                 {runtime / mb:7.1f} MB")
    print(f"baseline (the same + matplotlib):   {baseline / mb:7.1f} MB")
    print(f"ratio runtime / baseline:           {runtime / baseline:7.2f}  ({took:.0f} s to build both)")


if __name__ == "__main__":
    main()
