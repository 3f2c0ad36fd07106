"""Where a payment plan's time goes on a board not seen before, stage by stage, in process (CPU time).

Per request, as ``payments/plan`` does with a board the board memo has not kept: ``analyze_board``
("board"), ``bare_payment_inputs`` ("sources"), ``PaymentSources`` (grouping, "prepare"), and its
``plan``: the time in the search (``Prepared.solve``, when ``plan`` runs it) and the rest ("render").
Boards of 7 permanents (bench/load.sh's), 25 and 80: lands, mana rocks and dorks, each a mana ability
whose only cost is {T} ("plain"); "mixed" adds a filter land, Gilded Lotus and a Signet, whose costs and
choices the search branches on. The first permanent's id changes on every request, as with
``VARIED=1 bench/load.sh``. Cards from the bundled catalogue.

The baseline, measured in the same run: validating the request body and writing an answer of a plan's
size (about what bench/bare_app.py's twin endpoint does). Printed: microseconds per request of each
stage, best of ``--rounds`` rounds (the garbage collector off while timing), and the total's ratio to the
baseline; then "reading": ``read_board`` alone on the same boards, in a pass of its own (the part of the
board stage that reads each permanent's abilities through the layers; the rest of that stage is CR
106.7's fixed point and each ability's production), not counted in the total. ``MANACALC_BENCH_CORE`` (a
directory holding another ``app/``) measures another build or commit of the core with the same script.

    .venv/bin/python bench/payment_stages.py [--requests 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, os.environ.get("MANACALC_BENCH_CORE", str(ROOT)))

from app.rules.mana.board_reading import read_board  # noqa: E402
from app.rules.mana.payment import PaymentSources  # noqa: E402
from app.rules.mana.payment_search import Prepared  # noqa: E402
from app.rules.mana.production import analyze_board  # noqa: E402
from app.rules.mana.sources import bare_payment_inputs  # noqa: E402
from app.rules.values.board import Board, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
from app.schemas.payments import PaymentPlanRequest  # noqa: E402
from bench.varied_analysis import LOAD_BOARD, _cards  # noqa: E402  (the same board and loader)

PLAIN_MIX = (
    "Forest",
    "Island",
    "Forest",
    "Swamp",
    "Breeding Pool",
    "Command Tower",
    "Sol Ring",
    "Llanowar Elves",
    "Forest",
    "Island",
    "Overgrown Tomb",
    "Birds of Paradise",
    "Mind Stone",
    "Island",
    "Forest",
    "Reflecting Pool",
    "Plains",
    "Talisman of Progress",
)
MIXED = ("Mystic Gate", "Gilded Lotus", "Dimir Signet")


def _layout(n: int, mixed: bool) -> tuple[tuple[str, str, str], ...]:
    names = [PLAIN_MIX[i % len(PLAIN_MIX)] for i in range(n)]
    if mixed:
        for k, name in enumerate(MIXED):
            names[3 + 7 * k] = name
    return (*((f"p{i}", name, "you") for i, name in enumerate(names)), ("theirs", "Island", "opponent"))


BOARDS = {
    "7 (load.sh)": (LOAD_BOARD, "{2}{G}{G}"),
    "25 plain": (_layout(25, False), "{3}{G}{G}{U}"),
    "25 mixed": (_layout(25, True), "{3}{G}{G}{U}"),
    "80 plain": (_layout(80, False), "{6}{G}{G}{U}{U}{B}"),
    "80 mixed": (_layout(80, True), "{6}{G}{G}{U}{U}{B}"),
}
STAGES = ("board", "sources", "prepare", "search", "render")


def _boards(
    layout: tuple[tuple[str, str, str], ...], cards: dict[str, Card], n: int, tag: str
) -> list[Board]:
    """``n`` boards, the first permanent's id changed on each (as ``VARIED=1 bench/load.sh``)."""
    players = (Player("you"), Player("opponent"))
    return [
        Board(
            tuple(
                Permanent(f"{tag}{k}" if j == 0 else pid, cards[name], controller)
                for j, (pid, name, controller) in enumerate(layout)
            ),
            players,
        )
        for k in range(n)
    ]


class _SearchClock:
    """CPU seconds spent in ``Prepared.solve`` (the search), read off around the class's method: the rest
    of ``PaymentSources.plan`` is the plan's rendering. A compiled core's native class cannot be wrapped:
    the search is then not told apart (``wrapped`` False)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.wrapped = False
        inner = Prepared.solve

        def timed(prepared: Prepared, cost: ManaCost, *, best_life: bool) -> object:
            t0 = time.process_time()
            try:
                return inner(prepared, cost, best_life=best_life)
            finally:
                self.spent += time.process_time() - t0

        if inspect.isfunction(inner):  # compiled, ``plan`` calls the native method, never the attribute
            Prepared.solve = timed  # type: ignore[method-assign,assignment]
            self.wrapped = True


def _round(boards: list[Board], cost: ManaCost, search: _SearchClock) -> list[float]:
    """CPU seconds of each stage over ``boards``."""
    spent = [0.0] * len(STAGES)
    clock = time.process_time
    search.spent = 0.0
    plan = 0.0
    for board in boards:
        t0 = clock()
        analysis = analyze_board(board)
        t1 = clock()
        inputs = bare_payment_inputs(board, "you", analysis)
        t2 = clock()
        payer = PaymentSources(inputs.sources, pool=board.pool_of("you"), life=board.player("you").life)
        t3 = clock()
        payer.plan(cost)
        t4 = clock()
        for i, (a, b) in enumerate(((t0, t1), (t1, t2), (t2, t3))):
            spent[i] += b - a
        plan += t4 - t3
    spent[3] = search.spent
    spent[4] = plan - search.spent
    return spent


def _reading(boards: list[Board]) -> float:
    """CPU seconds of ``read_board`` over ``boards``, the collector off (as the stages are timed)."""
    gc.collect()
    gc.disable()
    try:
        started = time.process_time()
        for board in boards:
            read_board(board)
        return time.process_time() - started
    finally:
        gc.enable()


def _bare(body: bytes, n: int) -> float:
    """CPU seconds of the baseline: validate the body, write an answer of a plan's size."""
    answer = {"payable": True, "plan": [{"permanent": f"p{i}", "adds": "{G}"} for i in range(6)]}
    started = time.process_time()
    for _ in range(n):
        PaymentPlanRequest.model_validate_json(body)
        json.dumps(answer)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    search = _SearchClock()
    names = {name for layout, _c in BOARDS.values() for _p, name, _c2 in layout}
    cards = _cards(names)
    print(
        f"{'board':<12}"
        + "".join(f"{s:>9}" for s in STAGES)
        + f"{'total':>9}{'bare':>7}{'ratio':>7}{'reading':>9}"
    )
    print(f"{'':<12}" + "".join(f"{'us':>9}" for _ in (*STAGES, "total")) + f"{'us':>7}{'x':>7}{'us':>9}")
    for label, (layout, cost_text) in BOARDS.items():
        cost = ManaCost.parse(cost_text)
        doc = {
            "player": "you",
            "cost": cost_text,
            "board": {"permanents": [{"id": p, "card": n, "controller": c} for p, n, c in layout]},
        }
        body = json.dumps(doc).encode()
        n = args.requests
        _round(_boards(layout, cards, 20, "warm"), cost, search)
        best = [float("inf")] * len(STAGES)
        bare = reading = float("inf")
        for r in range(args.rounds):
            boards = _boards(layout, cards, n, f"r{r}v")
            # The collector off while timing (and run between rounds): its pauses otherwise land in
            # whichever stage allocates past its threshold, and move between stages with any change.
            gc.collect()
            gc.disable()
            try:
                spent = _round(boards, cost, search)
            finally:
                gc.enable()
            best = [min(b, s / n * 1e6) for b, s in zip(best, spent, strict=True)]
            bare = min(bare, _bare(body, n) / n * 1e6)
            reading = min(reading, _reading(boards) / n * 1e6)
        total = sum(best)
        cells = "".join(
            f"{'-':>9}" if i == 3 and not search.wrapped else f"{b:9.0f}" for i, b in enumerate(best)
        )
        print(f"{label:<12}{cells}{total:9.0f}{bare:7.0f}{total / bare:7.2f}{reading:9.0f}")


if __name__ == "__main__":
    main()
