"""Issue 30: a payment plan on a board not seen before, in process, with the per-ability memo of
``production_memo`` against the analysis computed anew (``analyze_board(..., memo=False)``), in the same run.

Per request: ``analyze_board``, ``bare_payment_inputs``, ``PaymentSources`` and one ``plan`` (what
``payments/plan`` does with a board the board memo has not kept). The boards: bench/load.sh's 7 permanents
with the first id changed on every request ("load.sh board"), and the same with Mana Reflection added (a
board-wide replacement reaching every permanent: the memo must step aside). Cards from the bundled
catalogue. Printed: microseconds per request, best of 5 alternating rounds, and the memo / anew ratio.

    .venv/bin/python bench/varied_analysis.py [--requests 500]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.mana.payment import PaymentSources
from app.rules.mana.production import analyze_board
from app.rules.mana.sources import bare_payment_inputs
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.services.card_formats import card_from_scryfall

BUNDLED = Path(__file__).resolve().parents[1] / "app" / "data" / "cards.json.gz"
LOAD_BOARD = (
    ("f1", "Forest", "you"),
    ("f2", "Forest", "you"),
    ("pool", "Reflecting Pool", "you"),
    ("sol", "Sol Ring", "you"),
    ("orchard", "Exotic Orchard", "you"),
    ("island", "Island", "opponent"),
    ("elves", "Llanowar Elves", "you"),
)
COST = ManaCost.parse("{2}{G}{G}")


def _cards(names: set[str]) -> dict[str, Card]:
    records = json.loads(gzip.decompress(BUNDLED.read_bytes()))
    return {r["name"]: card_from_scryfall(r) for r in records if r["name"] in names}


def _boards(layout: tuple[tuple[str, str, str], ...], cards: dict[str, Card], n: int) -> list[Board]:
    """``n`` boards, the first permanent's id changed on each (as ``VARIED=1 bench/load.sh``)."""
    players = (Player("you"), Player("opponent"))
    out = []
    for k in range(n):
        perms = tuple(
            Permanent(f"v{k}" if j == 0 else pid, cards[name], controller)
            for j, (pid, name, controller) in enumerate(layout)
        )
        out.append(Board(perms, players))
    return out


def _request(board: Board, memo: bool) -> None:
    analysis = analyze_board(board, memo=memo)
    inputs = bare_payment_inputs(board, "you", analysis)
    PaymentSources(inputs.sources, pool=board.pool_of("you"), life=board.player("you").life).plan(COST)


def _per_request(boards: list[Board], memo: bool) -> float:
    started = time.process_time()
    for board in boards:
        _request(board, memo)
    return (time.process_time() - started) / len(boards) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    reflected = (*LOAD_BOARD, ("mirror", "Mana Reflection", "you"))
    cards = _cards({name for _pid, name, _c in reflected})
    for label, layout in (("load.sh board", LOAD_BOARD), ("+ Mana Reflection", reflected)):
        boards = _boards(layout, cards, args.requests)
        for board in boards[:20]:  # warm both paths (the per-card memos, the memo's entries)
            _request(board, True)
            _request(board, False)
        anew, kept = float("inf"), float("inf")
        for _ in range(5):
            anew = min(anew, _per_request(boards, memo=False))
            kept = min(kept, _per_request(boards, memo=True))
        print(f"{label:<18} anew {anew:6.0f} us, memo {kept:6.0f} us: {kept / anew:.2f}x")


if __name__ == "__main__":
    main()
