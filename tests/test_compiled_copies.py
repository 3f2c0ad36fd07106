"""No value of the rules core is copied (``copy``) or pickled unless its class supports it, in either build.

``copy.copy`` and ``pickle`` rebuild an object with ``cls.__new__(cls)``; in the compiled core (mypyc) that
runs the class's ``__init__``, so a class whose written-out ``__init__`` needs arguments cannot be copied
there, where the pure build copies it without a word: ``payments/plan`` answered 500 to every unpayable
cost on the compiled build only (the shortfall copied its prepared sources). So:

- a scan of ``app/`` finds every use of ``copy``, ``copyreg``, ``pickle``, ``dataclasses.replace`` and every
  reduce or copy hook: ``copy`` and the hooks are used nowhere, ``pickle`` only by the catalogue snapshot,
  and ``replace`` builds through ``__init__`` by keyword (``tests/rules/test_native_inits.py`` holds every
  written-out ``__init__`` to its fields);
- ``tests/compiled_copies_probe.py``, run on each build, walks every class of ``app.rules``, lists those
  that cannot be rebuilt, and checks that none of them is among the classes the snapshot pickles, and that
  the snapshot comes back equal.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.test_compiled_core import COMPILED, ROOT, _wait_for_a_build_in_progress

pytestmark = pytest.mark.db_free

PROBE = ROOT / "tests" / "compiled_copies_probe.py"
PICKLERS = {"app/services/catalogue_snapshot.py"}
"""The only modules that may pickle: what they pickle is checked by the probe."""
HOOKS = {"__copy__", "__deepcopy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__"}
REDUCED = {
    "app/rules/values/cards.py": {"Card", "Face"},
    "app/rules/values/costs.py": {"ManaCost"},
    "app/rules/values/symbols.py": {"ManaSymbol"},
    "app/rules/values/types.py": {"TypeLine"},
}
"""The classes the catalogue snapshot pickles, each pickled by its constructor (``__reduce__``): compiled,
mypyc's own pickling restores a frozen class field by field, which its ``__setattr__`` refuses (every
compiled start found its snapshot unreadable, deleted it and read the catalogue from the database)."""


def _uses() -> dict[str, list[str]]:
    """Per kind of use, ``path:line`` of each one in ``app/``."""
    found: dict[str, list[str]] = {"copy": [], "pickle": [], "copyreg": [], "hook": [], "replace": []}
    for path in sorted((ROOT / "app").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text("utf-8"), rel)
        reduced = {
            id(item)
            for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef) and cls.name in REDUCED.get(rel, set())
            for item in cls.body
            if isinstance(item, ast.FunctionDef) and item.name == "__reduce__"
        }
        for node in ast.walk(tree):
            if id(node) in reduced:
                continue
            where = f"{rel}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name.split(".")[0]
                    if top in ("copy", "pickle", "copyreg", "_pickle", "cPickle", "shelve", "dill"):
                        found[
                            "copyreg" if top == "copyreg" else "copy" if top == "copy" else "pickle"
                        ].append(where)
            elif isinstance(node, ast.ImportFrom) and node.module:
                top = node.module.split(".")[0]
                if top == "copy":
                    found["copy"].append(where)
                elif top in ("pickle", "_pickle", "shelve"):
                    found["pickle"].append(where)
                elif top == "copyreg":
                    found["copyreg"].append(where)
                elif top == "dataclasses" and any(a.name == "replace" for a in node.names):
                    found["replace"].append(where)
            elif (isinstance(node, ast.FunctionDef) and node.name in HOOKS) or (
                isinstance(node, ast.Attribute) and node.attr in HOOKS - {"__reduce_ex__"}
            ):
                found["hook"].append(where)
    return found


def test_nothing_in_app_copies_and_only_the_snapshot_pickles() -> None:
    uses = _uses()
    assert uses["copy"] == [], "copy rebuilds through __new__: build the copy explicitly (see Prepared.plus)"
    assert uses["copyreg"] == [] and uses["hook"] == []
    assert {where.split(":")[0] for where in uses["pickle"]} <= PICKLERS
    assert uses["replace"], "the scan reads imports (dataclasses.replace is imported by name in app/)"


def _probe(core: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, str(PROBE)],
        cwd=core,
        env={**os.environ, "PYTHONPATH": str(core)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _check(result: dict[str, Any]) -> None:
    assert result["classes"] > 100
    pickled = set(result["pickled_kinds"])
    assert {"app.rules.values.cards.Card", "app.rules.values.costs.ManaCost"} <= pickled
    assert not pickled & set(result["not_rebuildable"]), "the snapshot pickles a class that cannot be rebuilt"
    assert result["snapshot_round_trips"]


def test_the_pure_build_copies_what_it_copies() -> None:
    result = _probe(ROOT)
    assert result["build"] == "pure"
    _check(result)


def test_the_compiled_build_copies_what_it_copies() -> None:
    _wait_for_a_build_in_progress()
    if not any(COMPILED.joinpath("app", "rules", "values").glob("costs.*.so")):
        if os.environ.get("CI"):
            pytest.fail("CI builds the compiled core first (make compiled): build/compiled-core is missing")
        pytest.skip("no compiled core here: `make compiled` builds it")
    result = _probe(COMPILED)
    assert result["build"] == "mypyc"
    _check(result)
    # The probe sees the failure it guards against: a compiled class with a written-out __init__ taking
    # arguments cannot be copied, and the payment search's prepared sources are built explicitly instead.
    assert "app.rules.mana.payment_search.Prepared" in result["not_rebuildable"]
    assert result["prepared_copies"] is False
    assert result["prepared_plus"] == "{}"
