"""What a mana ability reading nothing but itself adds (mana analysis per card, not per request).

Most mana abilities on a board are plain: "{T}: Add {G}", "{T}: Add {C}{C}", a basic land's ability
(CR 305.6), "Add one mana of any color". What they add before replacements depends on the ability alone
(CR 106.1), not on any other permanent, so it is computed once per ability and kept here: the ability
objects come from ``board_reading.own_abilities``' per-card memo (or a grant's), so the same card on the
next request hands the same object again.

What is kept never depends on the board: the board-wide effects that reach a permanent (CR 106.12
replacements and triggered mana abilities, CR 106.7 references to what others could produce, counts,
"instead" conditions, the commander's identity, a chosen color) are left to ``production``, which uses the
kept values only for a permanent no replacement or trigger reaches, and computes everything else from the
whole board as before. Bounded in entries and characters like ``own_abilities``; keyed by the ability's
identity, with the ability kept in the entry so its id is not reused while the entry lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.mana.ability_values import Ability
from app.rules.mana.production_replacements import Alternatives, mask_of, prune
from app.rules.text.mana_amounts import ManaEffect
from app.rules.text.mana_filters import Filter
from app.rules.values.mana import Mana

MAX_ENTRIES: Final = 4096
"""Abilities kept (a card has a few; the catalogue's mana producers number about 2,000)."""
MAX_CHARS: Final = 2_000_000
"""Characters of the kept abilities' texts, all together (the texts are the client's)."""


@dataclass(frozen=True, slots=True)
class AbilityFacts:
    """One mana ability's facts that depend on it alone.

    ``references``: per option, the filter of "a type a land you control could produce" (CR 106.7), or
    None; ``plain``: what it adds before replacements when that reads nothing but the ability (None when
    it reads the board or the permanent: counts, conditions, chosen colors, references...); ``mask``
    and ``pruned``: ``plain``'s mana types and its alternatives without contained ones."""

    ability: Ability
    references: tuple[Filter | None, ...]
    plain: frozenset[Mana] | None
    mask: int
    pruned: Alternatives


_facts: dict[int, AbilityFacts] = {}
_chars = [0]


def _is_plain(effect: ManaEffect) -> bool:
    """CR 106.1: fixed mana only, nothing read on the board nor on the permanent."""
    return (
        effect.undefined is None
        and effect.instead is None
        and not effect.commander
        and effect.cost_of is None
        and effect.colors_of is None
        and not effect.split
        and effect.count is None
        and all(o.reference is None and not o.chosen for o in effect.options)
    )


def unread_facts(ability: Ability, effect: ManaEffect) -> AbilityFacts:
    """``ability``'s references only, as if it were not plain: ``production`` then computes all it adds
    from the board, as it did before this memo (the property tests compare the two)."""
    references = tuple(o.reference.filter if o.reference is not None else None for o in effect.options)
    return AbilityFacts(ability, references, None, 0, ())


def _compute(ability: Ability, effect: ManaEffect) -> AbilityFacts:
    unread = unread_facts(ability, effect)
    if not _is_plain(effect):
        return unread
    references = unread.references
    # production_base._counted with no count: each option's fixed mana, once, when it adds any
    alts = frozenset(m for m in (Mana.of(o.fixed) for o in effect.options) if m)
    mask = 0
    for alt in alts:
        mask |= mask_of(alt)
    return AbilityFacts(ability, references, alts, mask, prune(set(alts)))


def facts_of(ability: Ability, effect: ManaEffect) -> AbilityFacts:
    """The kept facts of ``ability`` (whose ``mana`` is ``effect``), computed on first use."""
    got = _facts.get(id(ability))
    if got is not None and got.ability is ability:
        return got
    made = _compute(ability, effect)
    if len(_facts) >= MAX_ENTRIES or _chars[0] + len(ability.text) > MAX_CHARS:
        clear()
    _facts[id(ability)] = made
    _chars[0] += len(ability.text)
    return made


def clear() -> None:
    """Forget every kept ability (nothing here is wrong after a catalogue change: the kept values depend on
    the ability object alone; this bounds memory)."""
    _facts.clear()
    _chars[0] = 0


def size() -> tuple[int, int]:
    """Entries and characters kept."""
    return len(_facts), _chars[0]
