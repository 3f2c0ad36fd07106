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


WAYS_PARTS = {
    "app.rules.casting.ways": (
        "app.rules.casting.way_values",
        "app.rules.casting.cast_keywords",
        "app.rules.casting.keyword_lines",
        "app.rules.casting.additional_costs",
        "app.rules.casting.sacrifice_ways",
    ),
    "app.rules.text.ways_text": (
        "app.rules.text.ways_templates",
        "app.rules.text.cast_sentences",
        "app.rules.text.own_text",
        "app.rules.text.spell_kinds",
        "app.rules.text.granted_text",
    ),
}
"""Issue 29 split ways.py and ways_text.py into these modules; the old ones re-export their names."""


@pytest.mark.parametrize(
    ("old", "part"), [(old, part) for old, parts in WAYS_PARTS.items() for part in parts]
)
def test_ways_modules_give_every_public_name_of_their_parts(old: str, part: str) -> None:
    before = importlib.import_module(old)
    module = importlib.import_module(part)
    names = _defined(part)
    assert names
    for name in names:
        assert getattr(before, name) is getattr(module, name), name


def test_ways_modules_keep_their_all_and_the_names_imported_from_them() -> None:
    ways = importlib.import_module("app.rules.casting.ways")
    ways_text = importlib.import_module("app.rules.text.ways_text")
    assert ways.__all__ == [
        "ANY_NUMBER_COST",
        "CardWays",
        "NotRead",
        "OptionalCost",
        "OtherCost",
        "Way",
        "WayKind",
        "is_way_reduction",
        "keyword_rule",
        "modal_keyword",
        "optional_keywords",
        "way_keywords",
        "ways_of",
        "with_sacrifice",
    ]
    assert ways_text.__all__ == [
        "ALL_ZONES",
        "OwnText",
        "cost_phrase",
        "read_granted",
        "read_own",
        "sentences",
        "spell_kind",
    ]
    # imported from the old module outside its __all__ before the split
    assert ways.number_word is importlib.import_module("app.rules.casting.way_values").number_word


def test_ways_registry_keeps_its_order() -> None:
    """The "ways" templates are tried in the order they were registered (first match wins): the split kept
    it, every one registered in ``ways_templates``."""
    ways_text = importlib.import_module("app.rules.text.ways_text")
    assert [t.name for t in ways_text.WAYS] == [
        "own-alternative-cost",
        "own-alternative-cost-rather-first",
        "own-without-paying",
        "own-zone-using-keyword",
        "own-zone-paying",
        "own-zone-with-additional-cost",
        "own-zone",
        "grant-from-hand-without-paying",
        "grant-without-paying",
        "grant-pay-rather-than-mana-cost",
        "grant-life-alternative",
        "grant-cast-from-zone",
        "grant-life-rather-than-mana-cost",
        "grant-escape",
        "grant-flashback",
        "grant-flashback-to-target",
        "granted-optional-cost",
        "granted-keyword-cost",
        "keyword-costs-cost-less",
    ]


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


@pytest.mark.parametrize(
    "module",
    [
        f"app/rules/{name.removeprefix('app.rules.').replace('.', '/')}.py"
        for old, parts in WAYS_PARTS.items()
        for name in (old, *parts)
    ],
)
def test_ways_split_modules_are_under_500_lines(module: str) -> None:
    path = RULES.parent.parent / module
    lines = path.read_text(encoding="utf-8").count("\n")
    assert lines <= 500, f"{module}: {lines} lines (issue 29: no module over ~500)"
