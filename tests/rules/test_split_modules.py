"""Issue 29 split abilities.py, sources.py and castability.py into modules named for what they hold; the
old modules still give every public name they had (call sites did not change), as the same objects."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "app" / "rules"


def _defined(module: str) -> list[str]:
    """The public names a module defines itself (functions, classes, assigned names), not those it imports."""
    path = RULES.joinpath(*module.split(".")[2:]).with_suffix(".py")
    names: list[str] = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
    return [n for n in names if not n.startswith("_") and n != "__all__"]


@pytest.mark.parametrize(
    "part",
    [
        "app.rules.mana.ability_values",
        "app.rules.mana.board_reading",
        "app.rules.mana.ability_conditions",
        "app.rules.mana.activation_checks",
    ],
)
def test_abilities_gives_every_public_name_of_its_parts(part: str) -> None:
    facade = importlib.import_module("app.rules.mana.abilities")
    module = importlib.import_module(part)
    names = _defined(part)
    assert names
    for name in names:
        assert getattr(facade, name) is getattr(module, name), name
    assert set(names) <= set(facade.__all__)


@pytest.mark.parametrize(
    ("old", "part", "names"),
    [
        ("sources", "consuming_sources", ("NOTHING", "ALTERNATIVES_BOUND", "REPEAT_BOUND")),
        ("castability", "castability_cache", ("CACHE_LIMITS", "cache_stats", "cache_clear")),
        (
            "castability",
            "castability_exact",
            ("CastabilityError", "HAND_SIZE", "LANDS_AIMED_FOR", "HALL_MEMO_MAX"),
        ),
    ],
)
def test_old_modules_keep_the_names_that_moved(old: str, part: str, names: tuple[str, ...]) -> None:
    package = "app.rules.decks" if old == "castability" else "app.rules.mana"
    before = importlib.import_module(f"{package}.{old}")
    module = importlib.import_module(f"{package}.{part}")
    assert set(names) <= set(_defined(f"{package}.{part}"))
    for name in names:
        assert getattr(before, name) is getattr(module, name), name


@pytest.mark.parametrize(
    "module",
    ["app/rules/mana/abilities.py", "app/rules/mana/sources.py", "app/rules/decks/castability.py"],
)
def test_split_modules_are_under_500_lines(module: str) -> None:
    path = RULES.parent.parent / module
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= 500, f"{module}: {lines} lines (issue 29: no module over ~500)"


@pytest.mark.parametrize(
    ("part", "names"),
    [
        (
            "production_replacements",
            (
                "COLOR_MASK",
                "MAX_SPLITS",
                "MAX_ORDERED_REPLACEMENTS",
                "Alternatives",
                "commutes",
                "mask_types",
            ),
        ),
    ],
)
def test_production_keeps_the_names_that_moved(part: str, names: tuple[str, ...]) -> None:
    """Issue 30 split production.py: the names others import from it are still there, as the same objects."""
    before = importlib.import_module("app.rules.mana.production")
    module = importlib.import_module(f"app.rules.mana.{part}")
    assert set(names) <= set(_defined(f"app.rules.mana.{part}"))
    for name in names:
        assert getattr(before, name) is getattr(module, name), name
    assert set(names) <= set(before.__all__)


@pytest.mark.parametrize(
    "module",
    [
        "app/rules/mana/production.py",
        "app/rules/mana/production_base.py",
        "app/rules/mana/production_replacements.py",
    ],
)
def test_production_parts_are_under_500_lines(module: str) -> None:
    path = RULES.parent.parent / module
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= 500, f"{module}: {lines} lines (issue 30: no module over ~500)"
