"""``CostResult.with_ways``: what ``dataclasses.replace`` makes, every other field kept (issue 30 built it
directly because replace stays interpreted in the compiled core)."""

from __future__ import annotations

import dataclasses
from typing import Any

from app.rules.casting.spell_cost import CostResult, CostWarning


def test_with_ways_keeps_every_other_field_and_adds_the_refused_warnings() -> None:
    given: dict[str, Any] = {f.name: object() for f in dataclasses.fields(CostResult)}
    given["warnings"] = (CostWarning(None, "Bears", "text", "kept"),)
    result = CostResult(**given)
    refused = (CostWarning("p1", "Forest", "t", "refused"),)
    ways: tuple[Any, ...] = (object(),)
    made = result.with_ways(ways, refused)
    assert made == dataclasses.replace(result, ways=ways, warnings=(*result.warnings, *refused))
    for f in dataclasses.fields(CostResult):
        if f.name not in ("ways", "warnings"):
            assert getattr(made, f.name) is given[f.name], f.name
