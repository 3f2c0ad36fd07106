"""The compiled rules core (mypyc) against the pure one, in the same run: ``bench/cost_engine.py`` and
``bench/payments.py`` run once on each build, and their medians are printed side by side with the ratio.

    make compiled && .venv/bin/python bench/compiled.py
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled-core"
# What each bench prints, and the figure to compare: (script, arguments, pattern of one measured line).
BENCHES = (
    ("cost_engine.py", [], re.compile(r"(?P<label>200-permanent board).*?median (?P<us>[\d.]+) µs")),
    # "<sources> <cost>  <payable>  <ours, ms>  ...": the solver's median in ms, as a µs figure
    ("payments.py", ["--cap", "0.05"], re.compile(r"^\s*(?P<label>\d+ .+?(?:True|False))\s+(?P<ms>[\d.]+)")),
)


def run(script: str, args: list[str], core: Path | None) -> str:
    env = dict(os.environ)
    if core is not None:
        env["MANACALC_BENCH_CORE"] = str(core)
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _us(found: re.Match[str]) -> float:
    groups = found.groupdict()
    return float(groups["us"]) if groups.get("us") else float(groups["ms"]) * 1000


def main() -> None:
    if not any((COMPILED / "app" / "rules" / "values").glob("costs.*.so")):
        sys.exit("no compiled core in build/compiled-core: run `make compiled` first (it needs a C compiler)")
    for script, args, pattern in BENCHES:
        pure, compiled = run(script, args, None), run(script, args, COMPILED)
        rows = zip(
            (m for line in pure.splitlines() if (m := pattern.search(line))),
            (m for line in compiled.splitlines() if (m := pattern.search(line))),
            strict=False,
        )
        print(f"== {script}: median µs, pure vs compiled (same run)")
        for p, c in rows:
            pure_us, compiled_us = _us(p), _us(c)
            ratio = pure_us / compiled_us
            print(f"  {p['label'][:48]:48} pure {pure_us:9.1f}  compiled {compiled_us:9.1f}  x{ratio:.2f}")


if __name__ == "__main__":
    main()
