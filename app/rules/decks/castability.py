"""Castability by Frank Karsten's model ("How Many Sources Do You Need to Consistently Cast Your Spells?
A 2022 Update"), computed exactly by enumerating the multivariate hypergeometric over land kinds.

The model (the contract of ``POST /v1/decks/analyze``, ``castability``):

* A spell of mana value ``turn`` is tested on that turn. Its ``probability`` is
  P(the lands seen by then can pay its colored symbols together | at least ``turn`` lands seen by then).
  "Can pay together" is a bipartite matching between lands and colored symbols, each land covering one
  symbol of a color it could produce (CR 106.7, CR 601.2g-h: one land, one mana); it is decided by Hall's
  condition in its deficiency form (the largest matching is the symbol count minus the largest deficiency
  ``pips(S) - lands touching S`` over the sets ``S`` of the spell's colors).
* Opening hands follow the London mulligan (CR 103.5): a 7-card hand is mulliganed with 0, 1, 6 or 7
  lands; after ``n`` mulligans the player draws 7 and puts ``n`` on the bottom, aiming for 3 lands (spells
  go to the bottom while the hand has 3 lands or fewer, otherwise lands, the ones least useful to the spell
  first: off-color lands before on-color ones), and keeps with 2 to 4 lands after bottoming; a 4-card hand
  is always kept. The cards on the bottom are never drawn in the turns the model looks at.
* On the play there is no draw on turn 1 (CR 103.8a); on the draw there is.
* Commander (CR 103.5c, 903): a 99-card library; the first mulligan is free: the opening 7 is mulliganed
  with 0, 1, 2, 6 or 7 lands, the 7 that replaces it with 0, 1, 6 or 7, then as above; a card is drawn on
  turn 1 (multiplayer, CR 103.8c).

How it is computed: land kinds are projected on the spell's colors (a kind matters only through the colors
it shares with the spell), so a one-color spell sees two kinds whatever the mana base. Lands are tracked
through a Hall state: for each set S of the spell's colors, the lands touching S capped at the symbols of
S (enough to decide the matching, and few distinct values). Hands where no land goes to the bottom are
summed, by a dynamic program over the kinds, over the lands among the first ``7 + draws`` cards, weighted
by the chance that the hand part of them (a uniform 7-subset) was kept; hands that bottom lands are
enumerated, each followed by a dynamic program over its draws. Results are cached per projected deck,
symbols, turn and mode, and the draws per kept hand and library.

The caches are bounded in entries and in bytes (``CACHE_LIMITS``; ``cache_stats``): a five-color spell's
states are 31-tuples and its weights big integers, and unbounded caches grew a worker from 218 MB to 1.1 GB
over 90 requests. An entry's bytes are estimated from its key and value (``estimated_size``); the least
recently used entries go first. A Hall state's own memo is bounded the same way (``HALL_MEMO_MAX``).

The computation is in ``castability_exact`` and the caches in ``castability_cache``; this module keeps the
model's public face (``cast_probability``, ``sources_needed``, ``threshold``) and re-exports their names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.rules.decks.castability_exact import (
    HAND_SIZE,
    CastabilityError,
    probabilities,
)

Colors = frozenset[str]
"""The colors (a subset of ``"WUBRG"``) one land could produce; ``frozenset()`` is a colorless-only land."""

COLOR_ORDER = "WUBRG"
MAX_DECK_SIZE = 1000
MAX_TURN = 30


@dataclass(frozen=True, slots=True)
class DeckMana:
    """A main deck as the model sees it: its size and its lands by kind (the rest are nonland cards).

    ``deck_size`` is the library of the model (60, 40, 80; Commander: 99, the commander itself aside).
    """

    deck_size: int
    lands: Mapping[Colors, int]

    @property
    def land_count(self) -> int:
        return sum(self.lands.values())


def threshold(turn: int) -> float:
    """Karsten's consistency target: 90% on turn 1, one point more per turn, 96% from turn 7 on."""
    if turn < 1:
        raise CastabilityError(f"turn must be at least 1, got {turn}")
    return (89 + min(turn, 7)) / 100


def cast_probability(
    deck: DeckMana,
    pips: Mapping[str, int],
    turn: int,
    *,
    on_play: bool = True,
    commander: bool = False,
) -> float:
    """P(by ``turn`` the lands drawn can pay ``pips`` together | at least ``turn`` lands drawn).

    ``pips`` maps colors to the number of colored symbols of the cost (generic mana is not given: the
    condition "at least ``turn`` lands" stands for it). Exact, by enumeration; see the module docstring
    for the model. Raises :class:`CastabilityError` on bad input, and when no game reaches ``turn`` lands
    (the conditional probability is then undefined).
    """
    _check_deck(deck)
    _check_turn(turn)
    wanted = _check_pips(pips)
    if not wanted:
        return 1.0
    colors = "".join(c for c, _ in wanted)
    projected: dict[str, int] = {}
    for kind, copies in deck.lands.items():
        if copies:
            key = "".join(c for c in colors if c in kind)
            projected[key] = projected.get(key, 0) + copies
    classes = tuple(sorted(projected.items()))
    draws = turn if (commander or not on_play) else turn - 1
    success, condition = probabilities(
        classes, deck.deck_size - deck.land_count, wanted, turn, draws, commander
    )
    if condition <= 0.0:
        raise CastabilityError(
            f"no game reaches {turn} lands with {deck.land_count} lands in {deck.deck_size} cards"
        )
    return min(1.0, success / condition)


def sources_needed(
    deck_size: int,
    land_count: int,
    color_pips: int,
    turn: int,
    *,
    on_play: bool = True,
    commander: bool = False,
) -> int | None:
    """Karsten's table cell: the fewest lands of one color (the other lands off-color) for which a spell of
    ``color_pips`` symbols of that color is cast on ``turn`` with at least :func:`threshold` probability;
    ``None`` when even all lands of that color are not enough."""
    _check_turn(turn)
    if color_pips < 1:
        raise CastabilityError(f"color_pips must be at least 1, got {color_pips}")
    target = threshold(turn)

    def reaches(sources: int) -> bool:
        deck = DeckMana(deck_size, {frozenset("W"): sources, frozenset(): land_count - sources})
        return cast_probability(deck, {"W": color_pips}, turn, on_play=on_play, commander=commander) >= target

    _check_deck(DeckMana(deck_size, {frozenset(): land_count}))
    if not reaches(land_count):
        return None
    low, high = color_pips - 1, land_count  # reaches(high) holds; fewer sources than symbols never does
    while high - low > 1:
        mid = (low + high) // 2
        if reaches(mid):
            high = mid
        else:
            low = mid
    return high


# --- input checks -------------------------------------------------------------------------------------


def _check_turn(turn: int) -> None:
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1 or turn > MAX_TURN:
        raise CastabilityError(f"turn must be an integer from 1 to {MAX_TURN}, got {turn!r}")


def _check_deck(deck: DeckMana) -> None:
    if deck.deck_size < HAND_SIZE or deck.deck_size > MAX_DECK_SIZE:
        raise CastabilityError(f"deck_size must be from {HAND_SIZE} to {MAX_DECK_SIZE}, got {deck.deck_size}")
    for kind, copies in deck.lands.items():
        if not kind <= frozenset(COLOR_ORDER):
            raise CastabilityError(f"a land kind has colors outside WUBRG: {sorted(kind)}")
        if copies < 0:
            raise CastabilityError(f"a land kind has a negative count: {copies}")
    if deck.land_count > deck.deck_size:
        raise CastabilityError(f"{deck.land_count} lands do not fit in a deck of {deck.deck_size} cards")


def _check_pips(pips: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    for color, count in pips.items():
        if color not in COLOR_ORDER or len(color) != 1:
            raise CastabilityError(f"pips has a key that is not a color of WUBRG: {color!r}")
        if count < 0:
            raise CastabilityError(f"pips has a negative count for {color}: {count}")
    return tuple((c, pips[c]) for c in COLOR_ORDER if pips.get(c, 0) > 0)
