"""What a written-out ``__init__`` saves a frozen value of the rules core (issue 30), in the same run.

mypyc compiles the methods written in a class but leaves the ``__init__`` that the dataclasses module
generates (at import, from a string of source) interpreted. For a few values built per request, this
times building the rules core's class (its ``__init__`` written out) against a twin made by
``dataclasses.make_dataclass`` with the same fields, frozen and slotted (the generated ``__init__``), and
prints nanoseconds per value and the ratio. Run it with the build you want to read: the pure one shows
about the same time for both (both interpreted), the compiled one what mypyc gains.

    .venv/bin/python bench/native_inits.py                       # pure build (editable install)
    .venv-run/bin/python bench/native_inits.py                   # the wheel `make run` serves (compiled)
"""

from __future__ import annotations

import dataclasses
import sys
import timeit
from pathlib import Path
from typing import Any

if not any(Path(p, "app", "rules").is_dir() and "site-packages" in p for p in sys.path):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout when not installed

from app.rules.casting.spell_cost import CostStep, StepKind
from app.rules.mana.payment_graph import Paid
from app.rules.mana.payment_values import PlanStep
from app.rules.values.costs import ManaCost

G = ManaCost.parse("{G}")
CASES: list[tuple[type[Any], tuple[Any, ...]]] = [
    (Paid, ("{G}", None, "G", 0, 0)),
    (PlanStep, ("forest-1", 0, ("G",))),
    (CostStep, (StepKind.BASE, G, "601.2f")),
]


def twin(cls: type[Any]) -> type[Any]:
    """The same fields and defaults in a frozen slots dataclass whose ``__init__`` is generated."""
    fields = [
        (f.name, f.type, dataclasses.field(default=f.default))
        if f.default is not dataclasses.MISSING
        else (f.name, f.type)
        for f in dataclasses.fields(cls)
        if f.init
    ]
    return dataclasses.make_dataclass(f"Generated{cls.__name__}", fields, frozen=True, slots=True)


def per_value_ns(make: Any, args: tuple[Any, ...], number: int = 200_000) -> float:
    return min(timeit.repeat(lambda: make(*args), number=number, repeat=5)) / number * 1e9


def main() -> int:
    compiled = not hasattr(Paid.__init__, "__code__")
    where = Path(sys.modules[Paid.__module__].__file__ or "").name
    print(f"rules core: {'compiled (mypyc)' if compiled else 'pure Python'} ({where})")
    print(f"{'value':<12} {'written out':>12} {'generated':>12} {'ratio':>7}")
    for cls, args in CASES:
        ours = per_value_ns(cls, args)
        generated = per_value_ns(twin(cls), args)
        print(f"{cls.__name__:<12} {ours:>10.0f}ns {generated:>10.0f}ns {ours / generated:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
