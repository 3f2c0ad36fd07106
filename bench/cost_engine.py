"""Rules computation alone: the total cost of a spell on a 200-permanent board (target < 300 µs), then the
whole ``spells/cost`` computation with the ways to cast that permanents grant.

Cards come from the bundled catalogue (app/data/cards.json.gz). Each measured call is the whole engine:
reading every permanent's cost effects and grants (from the per-card cache), party, counts, reductions,
totals. The second figure adds what the answer's ``ways`` need: every way offered from the zone (the
card's own, Omniscience's, Underworld Breach's escape, Lurrus's permission, Past in Flames's flashback,
Bolas's Citadel's life payment), each costed on the same board.

Baseline, measured in the same run: parsing the same spells' mana costs (``ManaCost.parse``), the least
work any cost answer does. Ratios are printed against it and against the 300 µs target.

    .venv/bin/python bench/cost_engine.py [--rounds N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# MANACALC_BENCH_CORE: another build of the core to measure (bench/compiled.py passes the compiled one)
sys.path.insert(0, os.environ.get("MANACALC_BENCH_CORE", str(ROOT)))

from app.rules.casting.engine import total_cost, ways_to_cast  # noqa: E402
from app.rules.casting.prepared import prepare_board  # noqa: E402
from app.rules.casting.spell_cost import SpellToCast  # noqa: E402
from app.rules.text.characters import CharacterIndex  # noqa: E402
from app.rules.values.board import Board, Choices, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
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


def board(cards: dict[str, Card], *, granting: bool = False) -> Board:
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
    effects: tuple[Permanent, ...] = ()
    if granting:  # permanents and an effect that grant ways to cast (CR 601.2b, 601.3, 118.9, 613)
        special += [
            Permanent("omni", c("Omniscience")),
            Permanent("breach", c("Underworld Breach")),
            Permanent("lurrus", c("Lurrus of the Dream-Den")),
            Permanent("leyline", c("Leyline of Mutation")),
            Permanent("citadel", c("Bolas's Citadel")),
            Permanent("kess", c("Kess, Dissident Mage")),
        ]
        effects = (Permanent("pif", c("Past in Flames")),)
    # Everything else: a varied real board (lands, creatures of every party type, artifacts, texts).
    filler_names = [n for n in cards if "cost" not in (cards[n].front.oracle_text or "")][:400]
    filler = []
    for i in range(200 - len(special)):
        card = cards[filler_names[(i * 7) % len(filler_names)]]
        filler.append(Permanent(f"p{i}", card, controller="you" if i % 3 else "opp", tapped=bool(i % 5 == 0)))
    return Board(tuple(special + filler), (Player("you"), Player("opp")), effects=effects)


def measure(work: Callable[[], object], rounds: int) -> list[float]:
    work()  # warm the per-text caches, as a running service has
    samples = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        work()
        samples.append((time.perf_counter() - t0) * 1e6)
    return samples


def report(label: str, samples: list[float], baseline: float) -> float:
    median = statistics.median(samples)
    p95 = statistics.quantiles(samples, n=20)[18]
    verdict = "OK" if median < TARGET_US else "OVER"
    print(
        f"{label}: median {median:.0f} µs, p95 {p95:.0f} µs; {median / baseline:.0f}x the baseline; "
        f"median/target = {median / TARGET_US:.2f} ({verdict})"
    )
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    cards = load()
    plain, granting = board(cards), board(cards, granting=True)
    assert len(plain.permanents) == len(granting.permanents) == 200
    index = CharacterIndex.from_mapping(
        json.loads((ROOT / "app" / "data" / "characters.json").read_text("utf-8"))
    )
    names = ("Avacynian Priest", "Sea Gate Colossus", "Frogmite", "Izzet Charm", "Swords to Plowshares")
    spells = [SpellToCast(cards[fold_name(n)]) for n in names]
    texts = [str(s.card.front.mana_cost) for s in spells]
    # from the hand (Omniscience, Leyline), the graveyard (escape, Lurrus, Kess, flashback), the library
    # (Citadel): each answer lists every way offered there
    granted = [
        SpellToCast(cards[fold_name("Force of Will")]),
        SpellToCast(cards[fold_name("Lightning Bolt")], cast_from="graveyard"),
        SpellToCast(cards[fold_name("Tarmogoyf")], cast_from="graveyard"),
        SpellToCast(cards[fold_name("Emrakul, the Aeons Torn")], cast_from="library"),
        SpellToCast(cards[fold_name("Swords to Plowshares")]),
    ]

    def parse_all() -> None:
        for t in texts:
            ManaCost.parse(t)

    def costs(b: Board) -> Callable[[], None]:
        def run() -> None:
            for s in spells:
                total_cost(b, "you", s, characters=index)

        return run

    def answers() -> None:  # spells/cost: the board prepared, the total, then every way offered
        prepared = prepare_board(granting)
        for s in granted:
            known = total_cost(prepared, "you", s, characters=index)
            ways_to_cast(prepared, "you", s, characters=index, known=known)

    n = len(spells)
    baseline = statistics.median(measure(parse_all, args.rounds * 5)) / n
    print(f"baseline: parse of the same {n} mana costs, {baseline:.1f} µs each (median)")
    per_spell = [t / n for t in measure(costs(plain), args.rounds)]
    report(f"200-permanent board, total_cost, {len(per_spell)} x {n} spells", per_spell, baseline)
    per_spell = [t / n for t in measure(costs(granting), args.rounds)]
    report("the same with 6 granting permanents and an effect, total_cost", per_spell, baseline)
    per_answer = [t / len(granted) for t in measure(answers, args.rounds)]
    report("spells/cost with every granted way costed (prepare + total + ways)", per_answer, baseline)


if __name__ == "__main__":
    main()
