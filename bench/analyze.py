"""Board analysis timing: boards of 10 to 10,000 permanents, a fifth of them Reflecting Pool / Exotic
Orchard kinds, split between two players. Prints ms per board and the growth from size to size (a ratio of
about 10 per tenfold size is linear). Target: near-linear growth, 1,000 permanents under 20 ms.

    .venv/bin/python bench/analyze.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.rules.mana.production import analyze_board
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.types import TypeLine


def _card(name: str, type_line: str, text: str) -> Card:
    return Card(name, (Face(name, None, TypeLine.parse(type_line), text),))


BASICS = [
    _card(n, f"Basic Land — {n}", f"({{T}}: Add {{{m}}}.)")
    for n, m in (("Plains", "W"), ("Island", "U"), ("Swamp", "B"), ("Mountain", "R"), ("Forest", "G"))
]
WASTES = _card("Wastes", "Basic Land", "{T}: Add {C}.")
DEPENDENT = [
    _card("Reflecting Pool", "Land", "{T}: Add one mana of any type that a land you control could produce."),
    _card(
        "Exotic Orchard",
        "Land",
        "{T}: Add one mana of any color that a land an opponent controls could produce.",
    ),
    _card(
        "Fellwar Stone",
        "Artifact",
        "{T}: Add one mana of any color that a land an opponent controls could produce.",
    ),
]
ELF = _card("Llanowar Elves", "Creature — Elf Druid", "{T}: Add {G}.")


def make_board(n: int) -> Board:
    perms = []
    for i in range(n):
        if i % 5 == 0:
            card = DEPENDENT[(i // 5) % len(DEPENDENT)]
        elif i % 5 == 4:
            card = ELF
        else:
            card = [*BASICS, WASTES][i % 6]
        perms.append(Permanent(f"p{i}", card, "you" if i % 2 else "opp"))
    return Board(tuple(perms), (Player("you"), Player("opp")))


def measure(n: int) -> float:
    board = make_board(n)
    analyze_board(board)  # warm the text cache
    runs = max(3, 2000 // n)
    start = time.perf_counter()
    for _ in range(runs):
        analyze_board(board)
    return (time.perf_counter() - start) / runs * 1000


def main() -> None:
    previous = None
    for n in (10, 100, 1_000, 10_000):
        ms = measure(n)
        growth = "" if previous is None else f"  growth x{ms / previous:.1f}"
        print(f"{n:>6} permanents: {ms:9.3f} ms/board{growth}")
        previous = ms


if __name__ == "__main__":
    main()
