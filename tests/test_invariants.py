"""The house's structural invariants, read from the sources' syntax trees (as the model codebases keep them).

- No import circle anywhere in ``app/``: every import counts, module-level, in a function, or under
  ``TYPE_CHECKING``, so that a circle cannot hide behind a deferred import.
- The rules core imports at module level only: a function-level import there is how a circle hid before.
- No private name (``_name``) is imported from another module of ``app/``: what a module shares is public.
- No ``import X as X`` re-export line: a name is imported from the module that defines it (a package's
  ``__init__`` registering its submodules is the one exception).
The layering rules (which package may import which) are ``tests/test_layering.py``.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

pytestmark = pytest.mark.db_free

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES: dict[str, Path] = {_module_name(p): p for p in sorted(APP.rglob("*.py"))}
TREES: dict[str, ast.Module] = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in MODULES.items()}


def _absolute(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if MODULES[module].name != "__init__.py":
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(module: str) -> list[tuple[ast.ImportFrom | ast.Import, str, str | None]]:
    """(node, imported module, imported name or None) for every import in ``module``, anywhere in it."""
    found: list[tuple[ast.ImportFrom | ast.Import, str, str | None]] = []
    for node in ast.walk(TREES[module]):
        if isinstance(node, ast.Import):
            found.extend((node, alias.name, None) for alias in node.names if alias.name.startswith("app"))
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, node)
            if target == "app" or target.startswith("app."):
                found.extend((node, target, alias.name) for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = defaultdict(set)
    for module in MODULES:
        for _node, target, name in _imports(module):
            sub = f"{target}.{name}" if name else target
            edges[module].add(sub if sub in MODULES else target)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, ()):
                found.append(sorted(component))

    for v in MODULES:
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_in_app() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    """The check above can fail: two modules importing each other make one circle."""
    a, b = "app.rules.values.costs", "app.rules.values.symbols"
    edges = _graph()
    edges[b] = {*edges.get(b, set()), a}
    edges[a] = {*edges.get(a, set()), b}
    assert any(a in c and b in c for c in _cycles(edges))


def test_the_rules_core_imports_at_module_level_only() -> None:
    deferred = []
    for module, tree in TREES.items():
        if not module.startswith("app.rules"):
            continue
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                deferred.append(f"{MODULES[module].relative_to(ROOT)}:{node.lineno}")
    # TYPE_CHECKING blocks are module level too, but their imports sit in an `if`: allow only those.
    allowed = {
        f"{MODULES[m].relative_to(ROOT)}:{n.lineno}"
        for m, tree in TREES.items()
        if m.startswith("app.rules")
        for block in tree.body
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for n in ast.walk(block)
        if isinstance(n, ast.Import | ast.ImportFrom)
    }
    assert sorted(set(deferred) - allowed) == []


def test_no_private_name_is_imported_across_modules() -> None:
    private = [
        f"{MODULES[module].relative_to(ROOT)}:{node.lineno} imports {name} from {target}"
        for module in MODULES
        for node, target, name in _imports(module)
        if name and name.startswith("_") and not name.startswith("__") and f"{target}.{name}" not in MODULES
    ]
    assert private == []


def test_no_reexport_lines() -> None:
    """``from M import X as X`` marks a re-export; only a package ``__init__`` naming its own submodules
    may use it (``app.db.models`` registers its tables so)."""
    found = []
    for module, path in MODULES.items():
        for node, target, name in _imports(module):
            if not isinstance(node, ast.ImportFrom) or name is None:
                continue
            alias = next(a for a in node.names if a.name == name)
            if alias.asname != name:
                continue
            submodule_of_package = path.name == "__init__.py" and f"{target}.{name}" in MODULES
            if not submodule_of_package:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert found == []


# A name a client writes is bounded by its field (app/field_limits.py), so a memo of names alone is bounded in
# bytes by its entries; every other text is bounded only by the body.
NAME_ONLY_MEMOS = {"app.rules.values.names.fold_name", "app.rules.text.characters._fold_char"}


def test_every_memo_of_client_text_is_bounded_in_characters() -> None:
    """A memo keyed by card text (oracle text, a sentence, a line) is a ``text_cache``, bounded in entries
    and in the characters it holds; ``functools.lru_cache`` bounds entries only, and 8,192 entries of
    inline texts could hold hundreds of MB in a worker."""
    unbounded = []
    for module, tree in TREES.items():
        if not module.startswith("app.rules"):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            lru = any("lru_cache" in ast.unparse(d) for d in node.decorator_list)
            text_args = [
                a.arg
                for a in node.args.args
                if a.annotation is not None and ast.unparse(a.annotation) == "str"
            ]
            if lru and text_args and f"{module}.{node.name}" not in NAME_ONLY_MEMOS:
                unbounded.append(f"{MODULES[module].relative_to(ROOT)}:{node.lineno} {node.name}{text_args}")
    assert unbounded == []
