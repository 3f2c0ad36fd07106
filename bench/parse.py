"""Microseconds per mana cost over every cost in a card catalogue, against a baseline in the same run.

usage: python bench/parse.py [CARDS_JSON]   (default: ../shared/data/scryfall-oracle-cards.json if present,
                                             else the bundled app/data/cards.json)
Prints the median and p90 of ManaCost.parse per cost, and the ratio to a baseline that only tokenizes
the same strings with one regex (what any parser must at least do). Target: median under 10 µs.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.values.costs import ManaCost  # noqa: E402

_TOKENS = re.compile(r"\{([^{}]*)\}")


def load_costs(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    cards = data["cards"] if isinstance(data, dict) and "cards" in data else data
    costs: list[str] = []
    for card in cards:
        for f in card.get("card_faces") or [card]:
            cost = f.get("mana_cost")
            if cost:
                costs.append(cost)
    return costs


def per_item_us(fn: object, items: list[str], rounds: int = 5) -> list[float]:
    """Per-item time in µs, each item timed over a batch of repeats to rise above the clock's resolution."""
    best: list[float] = [float("inf")] * len(items)
    reps = 20
    for _ in range(rounds):
        for i, text in enumerate(items):
            t0 = time.perf_counter_ns()
            for _ in range(reps):
                fn(text)  # type: ignore[operator]
            best[i] = min(best[i], (time.perf_counter_ns() - t0) / reps / 1000)
    return best


def main() -> None:
    default = ROOT.parent / "shared" / "data" / "scryfall-oracle-cards.json"
    path = (
        Path(sys.argv[1])
        if len(sys.argv) > 1
        else (default if default.exists() else ROOT / "app/data/cards.json")
    )
    costs = load_costs(path)
    sample = costs if len(costs) <= 30_000 else costs[:30_000]
    ours = per_item_us(ManaCost.parse, sample)
    base = per_item_us(_TOKENS.findall, sample)
    med, base_med = statistics.median(ours), statistics.median(base)
    p90 = statistics.quantiles(ours, n=10)[-1]
    print(f"costs: {len(sample)} from {path.name}")
    print(f"ManaCost.parse   median {med:.2f} µs   p90 {p90:.2f} µs   max {max(ours):.2f} µs")
    print(f"regex baseline   median {base_med:.2f} µs")
    print(
        f"ratio (ours / baseline, median): {med / base_med:.1f}x   target: median under 10 µs -> "
        f"{'MET' if med < 10 else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
