"""Prints, one line each, what the rules core answers on the golden cases and on every card of the bundled
catalogue; run by ``tests/test_compiled_core.py`` under the compiled core and under the pure one, whose
outputs must be byte-identical. Not a test module: a script, run as ``python tests/compiled_core_dump.py``
with the core to use first on ``sys.path`` (its first line says which build answered)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def build() -> str:
    from app.services.catalogue_snapshot import core_build

    return core_build()


def main() -> None:
    print(build(), flush=True)
    # `app` is imported now, from the first entry of sys.path; the checkout joins the path only for `tests`.
    sys.path.append(str(ROOT))
    from app.rules.casting.engine import total_cost
    from app.rules.text.oracle_costs import read_cost_effects
    from app.rules.text.oracle_mana import read_face
    from tests.rules.casting import test_golden as golden

    for param in golden.CASES:
        case: dict[str, Any] = param.values[0]
        if case.get("kind", "cost") != "cost":
            continue
        try:
            r = total_cost(
                golden.board(case),
                case.get("caster", "you"),
                golden.spell(case["spell"]),
                characters=golden.characters(),
            )
            answer = (
                str(r.total_cost),
                r.mana_value,
                [repr(s) for s in r.steps],
                [repr(w) for w in r.warnings],
                [repr(o) for o in r.other_costs],
                [repr(w) for w in getattr(r, "ways", ())],
            )
        except ValueError as error:
            answer = (type(error).__name__, str(error))
        print(case["id"], answer)
    digest = hashlib.sha256()
    for card in sorted(golden.catalogue().values(), key=lambda c: c.name):
        for face in card.faces:
            digest.update(repr(read_cost_effects(face.name, face.oracle_text)).encode())
            digest.update(repr(read_face(face)).encode())
    print("catalogue readings", digest.hexdigest())


if __name__ == "__main__":
    main()
