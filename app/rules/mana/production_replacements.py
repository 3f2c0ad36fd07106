"""Mana as type masks, production replacements in every order (CR 106.12b, 616.1), and the per-board
lookups of the replacements and triggers applying to each permanent: the pieces ``production`` builds on."""

from __future__ import annotations

from itertools import permutations
from typing import Final

from app.rules import deadline
from app.rules.mana.ability_values import BoardState, Warning
from app.rules.text.mana_static import ManaTrigger, ProductionReplacement
from app.rules.values.mana import Mana
from app.rules.values.symbols import COLORS, MANA_TYPES

Alternatives = tuple[Mana, ...]
_BIT: Final = {t: 1 << i for i, t in enumerate(MANA_TYPES)}
COLOR_MASK: Final = sum(_BIT[c] for c in COLORS)
_ALL: Final = (1 << len(MANA_TYPES)) - 1
_MASK_TYPES: Final = tuple(tuple(t for k, t in enumerate(MANA_TYPES) if m >> k & 1) for m in range(_ALL + 1))
_IDENTITY: Final = [1 << k for k in range(len(MANA_TYPES))]
MAX_SPLITS: Final = 210
"""At most this many splits of "X mana in any combination" are listed (six mana among five colors)."""
MAX_ORDERED_REPLACEMENTS: Final = 5
"""Beyond this many replacements on one ability only board (timestamp) order is tried, with a warning."""


def mask_types(mask: int) -> tuple[str, ...]:
    """The mana types of a bit mask, in W U B R G C order."""
    return _MASK_TYPES[mask & _ALL]


def mask_of(mana: Mana) -> int:
    m = 0
    for t in mana.types:
        m |= _BIT[t]
    return m


def _apply_replacement(alt: Mana, repl: ProductionReplacement) -> tuple[Mana, ...]:
    """One replacement on one production event (CR 614.1a: "instead"): its possible results ("color": the
    same amount of one color of the player's choice, Pulse of Llanowar)."""
    if alt.total < repl.min_amount:
        return (alt,)  # Damping Sphere: "two or more mana" only
    if repl.mode == "fixed":
        return (Mana.of(repl.mana),)
    if repl.mode == "type":
        return (Mana.single(repl.mana[0], alt.total),)
    if repl.mode == "color":
        return tuple(Mana.single(c, alt.total) for c in COLORS)
    if repl.mode == "one_color":
        return tuple(Mana.single(c) for c in COLORS)
    return (alt.times(repl.factor),)


def commutes(repls: tuple[ProductionReplacement, ...]) -> bool:
    """Multiplying replacements give the same result in every order (CR 616.1 then has nothing to choose)."""
    return all(r.mode == "multiply" for r in repls)


def replace_all(alt: Mana, repls: tuple[ProductionReplacement, ...]) -> set[Mana]:
    """Every result of applying ``repls`` to ``alt`` in any order (CR 106.7, 616.1); an event that
    produces no mana is not a mana production event and is not replaced."""
    if not alt or not repls:
        return {alt} if alt else set()
    few = len(repls) <= MAX_ORDERED_REPLACEMENTS and not commutes(repls)
    orders = permutations(repls) if few else iter((repls,))
    out: set[Mana] = set()
    for order in orders:
        deadline.check()  # one order of the replacements (up to MAX_ORDERED_REPLACEMENTS factorial)
        cur = {alt}
        for r in order:
            cur = {x for c in cur for x in _apply_replacement(c, r)}
        out |= cur
    return out


def prune(alts: set[Mana]) -> Alternatives:
    """Sorted alternatives without any contained (as a multiset) in a larger one."""
    if len({a.total for a in alts}) <= 1:  # equal sizes: none is contained in another
        kept = [a for a in alts if a]
    else:
        kept = [a for a in alts if a and not any(b.total > a.total and b.contains(a) for b in alts)]
    return tuple(sorted(kept, key=Mana.sort_key))


class Context:
    """Per-board lookups shared by the fixed point and the production of each ability."""

    def __init__(self, state: BoardState) -> None:
        self.state = state
        self.warnings: list[Warning] = []
        # replacements and triggers that apply to each permanent's {T} mana abilities
        self.repls: list[tuple[ProductionReplacement, ...]] = []
        self.trigs: list[tuple[tuple[int, ManaTrigger], ...]] = []
        if not state.replacements and not state.triggers:  # most boards: nothing reaches any mana
            self.repls = [()] * len(state.states)
            self.trigs = [()] * len(state.states)
        else:
            self._reach(state)
        self._single: dict[int, list[int]] = {}
        self._warned: set[tuple[str, str, str]] = set()

    def _reach(self, state: BoardState) -> None:
        """The replacements and triggers whose filters name each permanent (CR 106.12a, 106.12b)."""
        perms = state.board.permanents
        for s in state.states:
            self.repls.append(tuple(r for i, r in state.replacements if s.matches(r.filter, perms[i])))
            self.trigs.append(tuple((i, t) for i, t in state.triggers if s.matches(t.filter, perms[i])))
            if len(self.repls[-1]) > MAX_ORDERED_REPLACEMENTS and not commutes(self.repls[-1]):
                self.warnings.append(
                    Warning(
                        s.id,
                        "",
                        f"more than {MAX_ORDERED_REPLACEMENTS} replacement "
                        "effects apply to its mana; only board order was considered",
                    )
                )

    def warn(self, permanent: str, text: str, reason: str) -> None:
        """Say once what was assumed (the fixed point reads an ability more than once)."""
        if (permanent, text, reason) not in self._warned:
            self._warned.add((permanent, text, reason))
            self.warnings.append(Warning(permanent, text, reason))

    def single_map(self, i: int) -> list[int]:
        """For permanent i's {T} abilities: the mask of types one mana of each type becomes after
        replacements (CR 106.7 "in any possible order")."""
        if not self.repls[i]:
            return _IDENTITY
        got = self._single.get(i)
        if got is None:
            got = [0] * len(MANA_TYPES)
            for k, t in enumerate(MANA_TYPES):
                for alt in replace_all(Mana.single(t), self.repls[i]):
                    got[k] |= mask_of(alt)
            self._single[i] = got
        return got
