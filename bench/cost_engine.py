"""Rules computation alone: the total cost of a spell on a 200-permanent board (target < 300 µs).

Cards come from the bundled catalogue (app/data/cards.json). Each measured call is the whole engine:
reading every permanent's cost effects (from the per-text cache), party, counts, reductions, totals.

    .venv/bin/python bench/cost_engine.py
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# MANACALC_BENCH_CORE: another build of the core to measure (bench/compiled.py passes the compiled one)
sys.path.insert(0, os.environ.get("MANACALC_BENCH_CORE", str(ROOT)))

from app.rules.casting.engine import SpellToCast, total_cost  # noqa: E402
from app.rules.text.characters import CharacterIndex  # noqa: E402
from app.rules.values.board import Board, Choices, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card  # noqa: E402
from app.rules.values.names import fold_name  # noqa: E402
from app.services.card_formats import card_from_scryfall  # noqa: E402

TARGET_US = 300.0


def load() -> dict[str, Card]:
    cards = {}
    raw = gzip.decompress((ROOT / "app" / "data" / "cards.json.gz").read_bytes())  # the bundled catalogue
    for obj in json.loads(raw):
        c = card_from_scryfall(obj)
        cards[fold_name(c.name)] = c
    return cards


def board(cards: dict[str, Card]) -> Board:
    def c(name: str) -> Card:
        return cards[fold_name(name)]

    special = [
        Permanent("horn", c("Herald's Horn"), chosen=Choices(creature_type="Cleric")),
        Permanent("vorthos", c("Vorthos, Steward of Myth"), chosen=Choices(character="Avacyn")),
        Permanent("tri", c("Trinisphere")),
        Permanent("thalia", c("Thalia, Guardian of Thraben"), controller="opp"),
        Permanent("sphere", c("Sphere of Resistance"), controller="opp"),
        Permanent("electro", c("Goblin Electromancer")),
        Permanent("edge", c("Edgewalker")),
        Permanent("richard", c("Richard Garfield, Ph.D.")),
    ]
    # Everything else: a varied real board (lands, creatures of every party type, artifacts, texts).
    filler_names = [n for n in cards if "cost" not in (cards[n].front.oracle_text or "")][:400]
    filler = []
    for i in range(200 - len(special)):
        card = cards[filler_names[(i * 7) % len(filler_names)]]
        filler.append(Permanent(f"p{i}", card, controller="you" if i % 3 else "opp", tapped=bool(i % 5 == 0)))
    return Board(tuple(special + filler), (Player("you"), Player("opp")))


def main() -> None:
    cards = load()
    b = board(cards)
    assert len(b.permanents) == 200
    index = CharacterIndex.from_mapping(
        json.loads((ROOT / "app" / "data" / "characters.json").read_text("utf-8"))
    )
    spells = [
        SpellToCast(cards[fold_name(n)])
        for n in ("Avacynian Priest", "Sea Gate Colossus", "Frogmite", "Izzet Charm", "Swords to Plowshares")
    ]
    for s in spells:  # warm the per-text caches, as a running service has
        total_cost(b, "you", s, characters=index)
    samples: list[float] = []
    rounds = 300
    for _ in range(rounds):
        for s in spells:
            t0 = time.perf_counter()
            total_cost(b, "you", s, characters=index)
            samples.append((time.perf_counter() - t0) * 1e6)
    median = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[18]
    print(f"200-permanent board, {len(samples)} computations: median {median:.0f} µs, p95 {p95:.0f} µs")
    print(
        f"target < {TARGET_US:.0f} µs: ratio median/target = {median / TARGET_US:.2f} "
        f"({'OK' if median < TARGET_US else 'OVER'})"
    )


if __name__ == "__main__":
    main()
