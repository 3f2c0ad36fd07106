"""The layers of DEVELOPERS.md, checked: imports point down only, the core is pure, routes hold no SQL."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1] / "app"
FRAMEWORKS = ("fastapi", "pydantic", "pydantic_settings", "sqlalchemy", "starlette", "alembic")


def _imports(path: Path, root: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports (absolute names; relative imports resolved against its package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            # "from app import x" imports the module app.x
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names if module == "app")
    return found


def _violations(
    directory: Path, forbidden: tuple[str, ...], allowed_app: str | None, root: Path = APP.parent
) -> list[str]:
    """``file:line imports module`` for each import of a ``forbidden`` package, or of ``app.*`` outside
    ``allowed_app`` (when given)."""
    bad: list[str] = []
    for path in sorted(directory.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        for line, module in _imports(path, root):
            in_app = module == "app" or module.startswith("app.")
            outside = allowed_app is not None and in_app and not (module + ".").startswith(allowed_app + ".")
            if module.split(".")[0] in forbidden or outside:
                bad.append(f"{where}:{line} imports {module}")
    return bad


def test_rules_core_imports_only_stdlib_and_itself() -> None:
    assert (APP / "rules").is_dir()
    assert _violations(APP / "rules", FRAMEWORKS, allowed_app="app.rules") == []


def _imports_of(directory: Path, package: str) -> list[str]:
    """``file:line imports module`` for each import of ``package`` (or a module below it) in ``directory``."""
    return [
        f"{path.relative_to(APP.parent).as_posix()}:{line} imports {module}"
        for path in sorted(directory.rglob("*.py"))
        for line, module in _imports(path, APP.parent)
        if (module + ".").startswith(package + ".")
    ]


@pytest.mark.parametrize("layer", ["services", "db", "rules", "schemas"])
def test_nothing_below_the_http_layer_imports_it(layer: str) -> None:
    assert (APP / layer).is_dir()
    assert _imports_of(APP / layer, "app.api") == []


@pytest.mark.parametrize("layer", ["db", "rules", "schemas"])
def test_nothing_below_the_services_imports_them(layer: str) -> None:
    assert _imports_of(APP / layer, "app.services") == []


def test_the_schemas_know_no_storage() -> None:
    """Limits shared by a request model and a column come from ``app.field_limits``, not the tables."""
    assert _imports_of(APP / "schemas", "app.db") == []


def test_only_the_session_dependency_reaches_storage_from_the_http_layer() -> None:
    found = _imports_of(APP / "api", "app.db")
    assert [entry for entry in found if not entry.startswith("app/api/deps.py:")] == []


def test_routes_hold_no_sql() -> None:
    assert _violations(APP / "api" / "routes", ("sqlalchemy",), allowed_app=None) == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import sqlalchemy\n", ["app/rules/x.py:1 imports sqlalchemy"]),
        ("from pydantic import BaseModel\n", ["app/rules/x.py:1 imports pydantic"]),
        ("from app.db import base\n", ["app/rules/x.py:1 imports app.db"]),
        ("from app import errors\n", ["app/rules/x.py:1 imports app", "app/rules/x.py:1 imports app.errors"]),
        ("from .. import config\n", ["app/rules/x.py:1 imports app", "app/rules/x.py:1 imports app.config"]),
        ("from app.rules.values.costs import ManaCost\nfrom . import symbols\nimport re\n", []),
    ],
)
def test_the_checker_catches_violations(tmp_path: Path, source: str, expected: list[str]) -> None:
    (tmp_path / "app" / "rules").mkdir(parents=True)
    (tmp_path / "app" / "rules" / "x.py").write_text(source, encoding="utf-8")
    assert _violations(tmp_path / "app" / "rules", FRAMEWORKS, "app.rules", root=tmp_path) == expected
