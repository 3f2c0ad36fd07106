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
    error_paths()
    digest = hashlib.sha256()
    for card in sorted(golden.catalogue().values(), key=lambda c: c.name):
        for face in card.faces:
            digest.update(repr(read_cost_effects(face.name, face.oracle_text)).encode())
            digest.update(repr(read_face(face)).encode())
    print("catalogue readings", digest.hexdigest())


def _answer(work: Any, *args: Any, **kwargs: Any) -> str:
    """What ``work()`` returns, or the kind and message of the error it raises (an error path must raise
    the same typed error in both builds, never a TypeError or an AttributeError of one build alone)."""
    try:
        return repr(work(*args, **kwargs))
    except (ValueError, ArithmeticError) as error:
        # dir(), not vars(): a compiled error class keeps its attributes in slots, not in a __dict__
        names = [k for k in dir(error) if not k.startswith("_") and k != "args"]
        fields = sorted((k, repr(getattr(error, k))) for k in names if not callable(getattr(error, k)))
        return f"{type(error).__name__}: {error} {fields}"


def error_paths() -> None:
    """The payment solver's unpayable and refused costs (a plan, its shortfall, ``can``), the cost parser's
    errors, the deck models' refusals and a deadline passed: both builds raise the same errors."""
    from app.rules.deadline import Deadline, check, running
    from app.rules.decks.castability import DeckMana, cast_probability, sources_needed
    from app.rules.decks.decklist import parse_decklist
    from app.rules.decks.manabase import LandKind
    from app.rules.decks.manabase import plan as manabase_plan
    from app.rules.mana.payment import PaymentSources, can_pay, plan_payment, shortfall
    from app.rules.mana.payment_values import ManaSource
    from app.rules.values.costs import ManaCost

    def src(pid: str, *alts: str, ability: int = 0, cost: str | None = None) -> ManaSource:
        activation = ManaCost.parse(cost) if cost else None
        return ManaSource(pid, ability, tuple(tuple(a) for a in alts), activation_cost=activation)

    forest = [src("forest", "G")]
    boards = {
        "one forest": forest,
        "forest swamp": [src("forest", "G"), src("swamp", "B")],
        "filter": [src("f1", "G"), src("fl", "C"), src("fl", "GG", "GW", "WW", ability=1, cost="{G/W}")],
        "sol": [src("sol", "CC"), src("w1", "W")],
    }
    costs = [
        "{2}{G}{G}",
        "{G}",
        "{W}",
        "{1}{G}{G}{B}",
        "{X}{G}",
        "{∞}{G}",
        "{HW}{G}",
        "{W/P}{W/P}",
        "{C}{C}{C}",
    ]
    for name, sources in boards.items():
        for text in costs:
            cost = ManaCost.parse(text)
            print("payment", name, text, "plan", _answer(plan_payment, cost, sources, life=1))
            print("payment", name, text, "short", _answer(shortfall, cost, sources))
            print("payment", name, text, "can", _answer(can_pay, cost, sources))
            prepared = PaymentSources(sources, pool=ManaCost.parse("{R}"), life=0)
            print("payment", name, text, "pool", _answer(prepared.plan, cost))
    for text in ["{2}{G", "{Q}", "{G}}", "{-1}", "{2/W/U}", "{" * 40, "{H}", "{1}{X}{Y}{Z}"]:
        print("parse", repr(text), _answer(ManaCost.parse, text))
    deck = DeckMana(60, {frozenset("G"): 17, frozenset("GU"): 4})
    for pips, turn in [({"G": 2}, 2), ({"G": 1, "U": 1}, 3), ({"B": 1}, 1), ({"G": 1}, 0), ({"Q": 1}, 2)]:
        print("castability", pips, turn, _answer(cast_probability, deck, pips, turn))
    print("castability no lands", _answer(lambda: cast_probability(DeckMana(60, {}), {"G": 1}, 2)))
    from app.rules.decks.castability_tapped import cast_probability_tapped
    from tests.rules.decks.test_castability_tapped_kinds import FIVE, NAYA

    # the tapped-lands model on Commander decks of 23 and 32 kinds of land, and a spell past its bound
    for name, lands, pips, turn in [
        ("naya", NAYA, {"R": 1, "G": 1, "W": 1}, 3),
        ("five", FIVE, {"U": 1, "B": 1}, 2),
        ("five", FIVE, {"W": 1, "U": 1, "B": 1, "R": 1, "G": 1}, 5),
    ]:
        tapped = _answer(cast_probability_tapped, 99, lands, pips, turn, commander=True)
        print("castability tapped", name, pips, turn, tapped)
    print(
        "sources_needed",
        _answer(lambda: sources_needed(60, 24, 2, 2)),
        _answer(lambda: sources_needed(0, 0, 9, 9)),
    )
    lands = [LandKind("forest", frozenset("G"), 20, 0), LandKind("island", frozenset("U"), 0, 10)]
    print("manabase", _answer(lambda: manabase_plan(lands, {"U": 8, "G": 12}, max_changes=10)))
    print("manabase refused", _answer(lambda: manabase_plan(lands, {"Q": 1}, max_changes=3)))
    for deck_text in ["4 Forest\n", "Deck\n0 Forest\n", "x" * 300, "99999999999 Forest"]:
        print("decklist", repr(deck_text[:20]), _answer(parse_decklist, deck_text))
    with running(Deadline(0.0)):
        print("deadline", _answer(check))
        print("deadline plan", _answer(lambda: plan_payment(ManaCost.parse("{2}{G}{G}"), forest)))


if __name__ == "__main__":
    main()
