"""Prints, as one JSON object, which classes of the rules core can be copied or pickled, and whether what
the service does pickle (the catalogue snapshot: its cards and index entries) comes back equal. Run by
``tests/test_compiled_copies.py`` under the compiled core and under the pure one, as
``python tests/compiled_copies_probe.py`` with the core to use first on ``sys.path``.

``copy.copy`` and ``pickle`` rebuild an object of a class with ``cls.__new__(cls)`` and then set its
state. A class mypyc compiled runs its ``__init__`` from ``__new__``: when that ``__init__`` is written
out and needs arguments, no copy of it can be made (a ``TypeError``), where the pure build copies it.
"""

from __future__ import annotations

import copy
import importlib
import json
import pickle
import pkgutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def classes() -> dict[str, type[Any]]:
    import app.rules

    found: dict[str, type[Any]] = {}
    for info in pkgutil.walk_packages(app.rules.__path__, "app.rules."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == info.name:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return found


def rebuildable(cls: type[Any]) -> bool:
    """Whether ``cls.__new__(cls)`` makes an object (what ``copy`` and ``pickle`` do first)."""
    if issubclass(cls, BaseException) or cls.__reduce_ex__ is not object.__reduce_ex__:
        return True  # exceptions and enums reduce to ``cls(*args)``, never to a bare ``__new__``
    try:
        cls.__new__(cls)
    except TypeError:
        return False
    return True


def _walk(value: object, seen: set[int], kinds: set[str]) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        kind = type(item)
        if kind.__module__.startswith("app."):
            kinds.add(f"{kind.__module__}.{kind.__qualname__}")
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif kind.__module__.startswith("app."):
            for name in getattr(kind, "__dataclass_fields__", {}) or ():
                stack.append(getattr(item, name, None))


def main() -> None:
    from app.services.catalogue_snapshot import core_build

    build = core_build()
    sys.path.append(str(ROOT))
    from app.rules.mana.payment_search import Prepared
    from app.services.card_index import Entry
    from tests.rules.casting import test_golden as golden

    found = classes()
    not_rebuildable = sorted(name for name, cls in found.items() if not rebuildable(cls))
    cards = dict(sorted(golden.catalogue().items())[:3000])
    snapshot = ({"forest": (Entry("oid", "Forest", True),)}, ["forest"], {"for": ("forest",)}, cards)
    back = pickle.loads(pickle.dumps(snapshot, protocol=pickle.HIGHEST_PROTOCOL))
    kinds: set[str] = set()
    _walk(snapshot, set(), kinds)
    prepared = Prepared((), None, 20)
    try:
        copy.copy(prepared)
        prepared_copies = True
    except TypeError:
        prepared_copies = False
    print(
        json.dumps(
            {
                "build": build,
                "classes": len(found),
                "not_rebuildable": not_rebuildable,
                "pickled_kinds": sorted(kinds),
                "snapshot_round_trips": back == snapshot and repr(back) == repr(snapshot),
                "prepared_copies": prepared_copies,
                "prepared_plus": repr(prepared.plus({}).base_sup),
            }
        )
    )


if __name__ == "__main__":
    main()
