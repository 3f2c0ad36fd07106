"""An independent Monte Carlo check of ``cast_probability``: games simulated card by card (shuffle, London
mulligan with bottoming, draws), written without any of the enumeration code. Fixed seed; the exact value
must lie within 4 standard errors of the simulated frequency."""

from __future__ import annotations

import random
from itertools import combinations
from math import sqrt

import pytest

from app.rules.decks.castability import DeckMana, cast_probability

Card = frozenset[str] | None  # a land (the colors it could produce) or a nonland card


def _pays(lands: list[frozenset[str]], pips: dict[str, int]) -> bool:
    """Can these lands pay the symbols, one land per symbol? A plain augmenting-path matching."""
    symbols = [c for c, n in pips.items() for _ in range(n)]
    owner: dict[int, int] = {}  # land index -> symbol index

    def augment(s: int, seen: set[int]) -> bool:
        for i, land in enumerate(lands):
            if symbols[s] in land and i not in seen:
                seen.add(i)
                if i not in owner or augment(owner[i], seen):
                    owner[i] = s
                    return True
        return False

    return all(augment(s, set()) for s in range(len(symbols)))


def _matched(lands: list[frozenset[str]], pips: dict[str, int]) -> int:
    """How many of the symbols the lands pay at most (by trying sub-multisets of the symbols)."""
    symbols = [c for c, n in pips.items() for _ in range(n)]
    for k in range(len(symbols), 0, -1):
        for kept in combinations(range(len(symbols)), k):
            sub: dict[str, int] = {}
            for i in kept:
                sub[symbols[i]] = sub.get(symbols[i], 0) + 1
            if _pays(lands, sub):
                return k
    return 0


def _bottom_lands(lands: list[frozenset[str]], count: int, pips: dict[str, int]) -> list[frozenset[str]]:
    kept = list(lands)
    for _ in range(count):
        colors = set(pips)
        best_i = min(
            range(len(kept)),
            key=lambda i: (-_matched(kept[:i] + kept[i + 1 :], pips), len(kept[i] & colors), i),
        )
        del kept[best_i]
    return kept


def _game(
    rng: random.Random, deck: list[Card], pips: dict[str, int], turn: int, draws: int, commander: bool
) -> tuple[bool, bool]:
    """One game: (at least `turn` lands by then, and the lands pay the symbols)."""
    free = commander
    mulligans = 0
    while True:
        library = list(deck)
        rng.shuffle(library)
        hand, library = library[:7], library[7:]
        lands = [c for c in hand if c is not None]
        n = len(lands)
        if free:
            free = False
            if n in (0, 1, 2, 6, 7):
                continue
            break
        if mulligans == 0:
            if n in (0, 1, 6, 7):
                mulligans += 1
                continue
            break
        # Bottom `mulligans` cards aiming for 3 lands: spells while at most 3 lands, else lands.
        lands_to_bottom = min(mulligans, max(0, n - 3))
        kept_lands = _bottom_lands(lands, lands_to_bottom, pips)
        if mulligans == 3 or 2 <= len(kept_lands) <= 4:
            lands = kept_lands
            break
        mulligans += 1
    seen_lands = lands + [c for c in library[:draws] if c is not None]
    enough = len(seen_lands) >= turn
    return enough, enough and _pays(seen_lands, pips)


def _simulate(
    deck: DeckMana, pips: dict[str, int], turn: int, on_play: bool, commander: bool, games: int
) -> tuple[float, float]:
    cards: list[Card] = [kind for kind, n in deck.lands.items() for _ in range(n)]
    cards += [None] * (deck.deck_size - len(cards))
    draws = turn if (commander or not on_play) else turn - 1
    rng = random.Random(20221234)
    kept = wins = 0
    for _ in range(games):
        enough, ok = _game(rng, cards, pips, turn, draws, commander)
        kept += enough
        wins += ok
    p = wins / kept
    return p, sqrt(p * (1 - p) / kept)


F = frozenset


@pytest.mark.parametrize(
    ("deck", "pips", "turn", "on_play", "commander"),
    [
        pytest.param(DeckMana(60, {F("W"): 14, F(): 11}), {"W": 1}, 1, True, False, id="60-25-C-t1"),
        pytest.param(DeckMana(40, {F("U"): 12, F(): 5}), {"U": 2}, 3, False, False, id="40-17-1CC-t3-draw"),
        pytest.param(DeckMana(99, {F("G"): 19, F(): 22}), {"G": 1}, 1, True, True, id="commander-99-41-C"),
        pytest.param(
            DeckMana(60, {F("B"): 6, F("G"): 7, F("BG"): 8, F(): 3}),
            {"B": 1, "G": 2},
            3,
            True,
            False,
            id="BGG-duals",
        ),
        pytest.param(
            DeckMana(60, {F("W"): 5, F("U"): 5, F("B"): 5, F("WU"): 4, F("WUB"): 3, F(): 2}),
            {"W": 1, "U": 1, "B": 1},
            4,
            True,
            False,
            id="WUB-triome-t4",
        ),
    ],
)
def test_exact_matches_simulation(
    deck: DeckMana, pips: dict[str, int], turn: int, on_play: bool, commander: bool
) -> None:
    exact = cast_probability(deck, pips, turn, on_play=on_play, commander=commander)
    simulated, se = _simulate(deck, pips, turn, on_play, commander, games=20000)
    assert abs(exact - simulated) <= 4 * se, (exact, simulated, se)
