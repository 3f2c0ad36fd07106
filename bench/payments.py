"""Payment solver timing against the brute-force reference, measured in the same run.

Boards of 10, 20, 40 and 80 mixed sources (basics, duals, any-color lands, filter lands, Sol Rings,
"could produce" lands, signets, Gilded Lotus, convoke creatures and delve cards), each with payable and
unpayable costs of 6, 12 and 24 mana.
Prints the median time of ours (``plan_payment`` when payable, ``can_pay`` proving it is not), wall clock
and CPU time of the process (on a shared, loaded machine the wall clock mostly measures waiting for a core:
a 3 ms plan preempted once reads 20 ms), the brute force's time where it finishes within its cap, and
their ratio (">" when brute force hit the cap).
Boards marked "+" also hold sources whose costs sacrifice or tap other permanents or remove counters.
Targets: 80 sources and a 24-mana cost under 10 ms; an unpayable cost proven under 10 ms; at least 100x
faster than brute force at 20 sources.

    .venv/bin/python bench/payments.py [--cap SECONDS]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# MANACALC_BENCH_CORE: another build of the core to measure (bench/compiled.py passes the compiled one)
sys.path.insert(0, os.environ.get("MANACALC_BENCH_CORE", str(ROOT)))

from app.rules.mana.payment import can_pay, plan_payment  # noqa: E402
from app.rules.mana.payment_values import Consumed, ManaSource  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
from app.rules.values.symbols import COLORS  # noqa: E402
from tests.rules.mana.payment_bruteforce import TimeUp, brute_min_life  # noqa: E402

PAIRS = [("W", "U"), ("U", "B"), ("B", "R"), ("R", "G"), ("G", "W"), ("W", "B"), ("U", "R"), ("B", "G")]


def _alts(*alts: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(a) for a in alts)


def make_board(n: int, seed: int, costs: bool = False) -> tuple[ManaSource, ...]:
    """``n`` permanents in a fixed random mix (the seed makes every run measure the same boards).
    ``costs``: one permanent in ten is instead one whose mana ability uses other resources, listed as
    ``app.rules.mana.sources`` lists them (issue 24): an Altar sacrificing any of the convoke creatures
    (no {T}: one listing per creature), a Drum tapping one of them ({T}; an alternative per creature), a
    Pentad Prism with two charge counters (two listings) and a Vivid land removing one."""
    rng = random.Random(seed)
    sources: list[ManaSource] = []
    land_types: set[str] = set()
    dependent: list[str] = []
    for i in range(n):
        pid = f"p{i}"
        roll = rng.random()
        a, b = rng.choice(PAIRS)
        if roll < 0.35:
            c = rng.choice(COLORS)
            land_types.add(c)
            sources.append(ManaSource(pid, 0, _alts(c)))
        elif roll < 0.55:
            land_types.update((a, b))
            sources.append(ManaSource(pid, 0, _alts(a, b)))
        elif roll < 0.62:
            sources.append(ManaSource(pid, 0, _alts(*COLORS)))
        elif roll < 0.72:
            land_types.add("C")
            sources.append(ManaSource(pid, 0, _alts("C")))
            cost = ManaCost.parse(f"{{{a}/{b}}}")
            sources.append(ManaSource(pid, 1, _alts(a + a, a + b, b + b), activation_cost=cost))
        elif roll < 0.78:
            sources.append(ManaSource(pid, 0, _alts("CC")))
        elif roll < 0.88:
            dependent.append(pid)  # Reflecting Pool: any type a land you control could produce (106.7)
        elif roll < 0.94:
            sources.append(ManaSource(pid, 0, _alts(a + b), activation_cost=ManaCost.parse("{1}")))
        else:
            sources.append(ManaSource(pid, 0, _alts(*(c * 3 for c in COLORS))))
    for pid in dependent:
        types = sorted(land_types, key="WUBRGC".index) or ["C"]
        sources.append(ManaSource(pid, 0, _alts(*types)))
    # Convoke and delve (app.rules.mana.sources: mana only the spell can use): a creature in eight may be
    # tapped for convoke ({1} or its color), and the graveyard holds one card in eight to delve.
    for i in range(0, n, 8):
        c = rng.choice(COLORS)
        sources.append(ManaSource(f"p{i}", -1, _alts(c, "C"), spell_only=True))
    for i in range(n // 8):
        sources.append(ManaSource(f"graveyard:{i}", -3, _alts("C"), spell_only=True))
    if costs:
        creatures = [f"p{i}" for i in range(0, n, 8)]
        for k in range(max(1, n // 10)):
            pid, kind = f"q{k}", k % 4
            if kind == 0:
                sources.extend(
                    ManaSource(pid, 0, _alts("CC"), uses_permanent=False, tokens=frozenset({"leaves:" + c}),
                               activation=j, consumes=Consumed(sacrifices=(c,)))
                    for j, c in enumerate(creatures)
                )  # fmt: skip
            elif kind == 1:
                sources.extend(
                    ManaSource(pid, 0, _alts(*COLORS), tokens=frozenset({"tap:" + c}), activation=j,
                               consumes=Consumed(taps=(c,)))
                    for j, c in enumerate(creatures)
                )  # fmt: skip
            elif kind == 2:
                sources.extend(
                    ManaSource(pid, 0, _alts(*COLORS), uses_permanent=False, activation=j,
                               consumes=Consumed(removes=(("charge", 1),)))
                    for j in range(2)
                )  # fmt: skip
            else:
                c = rng.choice(COLORS)
                sources.append(ManaSource(pid, 0, _alts(c)))
                sources.append(
                    ManaSource(pid, 1, _alts(*COLORS), consumes=Consumed(removes=(("charge", 1),)))
                )
    return tuple(sources)


def costs_for(n: int) -> list[tuple[str, ManaCost]]:
    """Payable-looking and unpayable costs of 6, 12 and 24 mana (payability is measured, not assumed)."""
    out = []
    shapes = {6: "{W}{U}{G}", 12: "{W}{U}{B}{G}{G}{W/U}", 24: "{W}{W}{U}{U}{B}{R}{G}{G}{W/U}{2/B}{G/P}"}
    for total, colored in shapes.items():
        part = ManaCost.parse(colored)
        assert part.half_value is not None
        out.append((f"{total} mana", ManaCost(generic=total - part.half_value // 2, others=part.others)))
    # Unpayable: more colorless than the board's colorless sources can make, and more than the board holds.
    out.append(("24 mana, {C}x12", ManaCost.parse("{12}" + "{C}" * 12)))
    out.append((f"{2 * n + 24} mana", ManaCost.parse(f"{{{2 * n + 20}}}{{W}}{{U}}{{B}}{{G}}")))
    return out


def borderline(sources: tuple[ManaSource, ...]) -> list[tuple[str, ManaCost]]:
    """The fewest {C}, and the fewest {U}, that the board cannot pay, with generic up to 24 mana: the
    hardest unpayable costs, where only the search (not the relaxation) can tell."""
    out = []
    for sym in ("{C}", "{U}"):
        k = next(k for k in range(1, 200) if not can_pay(ManaCost.parse(sym * k), sources))
        if k <= 24:
            out.append((f"24 mana, {sym}x{k}", ManaCost.parse(f"{{{24 - k}}}" + sym * k)))
    return out


def median_ms(fn: object, repeat: int) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of ``fn`` over ``repeat`` runs."""
    times, cpu = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()  # type: ignore[operator]
        cpu.append((time.process_time() - c0) * 1000)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cap", type=float, default=2.0, help="brute force time cap per case, seconds")
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    print(
        f"{'sources':>7} {'cost':<18} {'payable':<7} {'ours ms':>8} {'cpu ms':>7}",
        f"{'brute ms':>10} {'ratio':>9}",
    )
    worst: dict[str, float] = {"payable": 0.0, "unpayable": 0.0}
    worst_cpu: dict[str, float] = {"payable": 0.0, "unpayable": 0.0}
    ratios_20: list[tuple[bool, float]] = []
    for n, with_costs in (
        (10, False),
        (20, False),
        (40, False),
        (80, False),
        (10, True),
        (20, True),
        (80, True),
    ):
        sources = make_board(n, seed=n, costs=with_costs)
        for label, cost in costs_for(n) + borderline(sources):
            payable = can_pay(cost, sources)
            if payable:
                ours, cpu = median_ms(lambda c=cost, s=sources: plan_payment(c, s), args.repeat)
            else:
                ours, cpu = median_ms(lambda c=cost, s=sources: can_pay(c, s), args.repeat)
            kind = "payable" if payable else "unpayable"
            worst[kind] = max(worst[kind], ours)
            worst_cpu[kind] = max(worst_cpu[kind], cpu)
            brute_txt, ratio_txt = "-", "-"
            if n <= 20:
                t0 = time.perf_counter()
                try:
                    found = brute_min_life(cost, sources, deadline=t0 + args.cap)
                    brute = (time.perf_counter() - t0) * 1000
                    assert (found is not None) == payable, "solver and brute force disagree"
                    brute_txt, ratio_txt = f"{brute:.1f}", f"{brute / ours:.0f}x"
                    capped = False
                except TimeUp:
                    brute = args.cap * 1000
                    brute_txt, ratio_txt = f">{brute:.0f}", f">{brute / ours:.0f}x"
                    capped = True
                if n == 20:
                    ratios_20.append((capped, brute / ours))
            size = f"{n}{'+' if with_costs else ''}"
            print(
                f"{size:>7} {label:<18} {payable!s:<7} {ours:>8.2f} {cpu:>7.2f}",
                f"{brute_txt:>10} {ratio_txt:>9}",
            )
    print()
    print(
        f"slowest payable plan: {worst['payable']:.2f} ms, CPU {worst_cpu['payable']:.2f} ms (target < 10 ms)"
    )
    print(
        f"slowest unpayable proof: {worst['unpayable']:.2f} ms,",
        f"CPU {worst_cpu['unpayable']:.2f} ms (target < 10 ms)",
    )
    if ratios_20:
        low = min(r for _c, r in ratios_20)
        capped = any(c for c, _r in ratios_20)
        print(
            f"speed-up over brute force at 20 sources: {'at least ' if capped else ''}{low:.0f}x",
            "(target 100x)",
        )


if __name__ == "__main__":
    main()
