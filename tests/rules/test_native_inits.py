"""Frozen dataclasses of the rules core whose ``__init__`` is written out (issue 30).

mypyc compiles a method written in the class, but a dataclass's generated ``__init__`` is made at import
by the dataclasses module and stays interpreted: in the compiled core, building a 3-field frozen value
took 510 ns that way against 38 ns written out, and those constructions were 8-13 % of a varied
``payments/plan`` or ``spells/cost``. A written-out ``__init__`` must do exactly what the generated one
did: the same parameters in the same order with the same defaults, every field set (the ``init=False``
ones to their defaults), nothing else. These tests hold every such class of ``app.rules`` to that, so a
field added to the class but not to its ``__init__`` fails here.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from typing import Any

import pytest

import app.rules
from app.rules.values.costs import ManaCost


def _written_out() -> list[type[Any]]:
    found: dict[str, type[Any]] = {}
    for info in pkgutil.walk_packages(app.rules.__path__, "app.rules."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and value.__module__ == info.name
                and dataclasses.is_dataclass(value)
                and "__init__" in value.__dict__
                # not the dataclass module's, compiled from a string of source it built
                and getattr(getattr(value.__init__, "__code__", None), "co_filename", "") != "<string>"
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[k] for k in sorted(found)]


WRITTEN_OUT = _written_out()
# A compiled core's methods have no Python signature: these checks read the pure build (CI runs both).
pytestmark = pytest.mark.skipif(
    not all(inspect.isfunction(cls.__dict__["__init__"]) for cls in WRITTEN_OUT) or not WRITTEN_OUT,
    reason="the rules core is compiled",
)


def test_the_hot_values_are_among_them() -> None:
    names = {cls.__qualname__ for cls in WRITTEN_OUT}
    assert {"ManaCost", "Deadline", "PermanentState", "Option", "ManaSource", "CostStep", "Paid"} <= names


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda c: c.__qualname__)
def test_parameters_are_the_init_fields_with_their_defaults(cls: type[Any]) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    init_fields = [f for f in dataclasses.fields(cls) if f.init]
    assert [p.name for p in params] == [f.name for f in init_fields]
    for p, f in zip(params, init_fields, strict=True):
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        assert f.default_factory is dataclasses.MISSING, f"{f.name}: a factory the signature cannot show"
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected, f.name


@pytest.mark.parametrize("cls", [c for c in WRITTEN_OUT if c is not ManaCost], ids=lambda c: c.__qualname__)
def test_every_field_is_set_to_its_argument_or_default(cls: type[Any]) -> None:
    fields = dataclasses.fields(cls)
    given = {f.name: object() for f in fields if f.init}
    made = cls(**given)
    for f in fields:
        value = getattr(made, f.name)  # raises when the __init__ left a slot unset
        if f.init:
            assert value is given[f.name], f.name
        elif f.default is not dataclasses.MISSING:
            assert value == f.default, f.name
    if cls.__dataclass_params__.frozen:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(made, fields[0].name, None)


def test_mana_cost_keeps_its_checks_and_its_key() -> None:
    """``ManaCost`` does in its ``__init__`` what its ``__post_init__`` did: refuse negative generic mana and
    compare by the canonical key (CR 202.1: symbols in any order are the same cost)."""
    with pytest.raises(ValueError, match="negative"):
        ManaCost(generic=-1)
    assert ManaCost.parse("{G}{1}{W}") == ManaCost.parse("{1}{W}{G}")
    assert hash(ManaCost.parse("{X}{R}")) == hash(ManaCost(("X",), 0, ManaCost.parse("{R}").others))
    assert str(dataclasses.replace(ManaCost.parse("{2}{U}"), generic=3)) == "{3}{U}"
