"""What a permanent's abilities settle alone, kept per ability list across boards (issue 41).

Most permanents of a board are lands, mana rocks and dorks whose every mana ability adds fixed mana and
costs {T} (or nothing, or mana): what they produce (CR 106.1) and whether each ability is a payment source
depend on the abilities and on three facts of the permanent's own state, never on the rest of the board,
unless a board-wide effect reaches it. So they are worked out once per ability list and then combined
per board with what the board does settle:

- **the abilities**: the tuple ``board_reading`` hands every permanent of one face and types (kept by the
  ability memo, so twenty Forests and the next request's Forest stand with the same object). The entry is
  keyed by its identity and keeps it alive, so that identity is never reused while the entry lives;
- **the state** (per board, cheap): tapped (CR 107.5, 107.6), and whether it is a creature that has not
  been under its controller's control since the turn began and has no haste (CR 302.6);
- **the board** (per board): a replacement or triggered mana ability reaching the permanent (CR 106.12a,
  106.12b) sends it through the full analysis; a prohibition anywhere (CR 602.5), every source of the board
  through the full checks.

``plain``: every ability's production reads nothing but the ability (``production_memo``): its mask and
productions are the kept ones. ``simple``: the mana abilities, when every one of them is a source whose
activation only its state can forbid: no spending restriction (CR 106.6), no cost beyond {T}, {Q} and mana
(no life, CR 119.4; nothing sacrificed, tapped or removed, CR 118.3), no "Activate only" (CR 602.5b) and
no threshold it exists past (CR 721.2a, 702.178a). ``production.analyze_board(memo=False)`` and
``sources.payment_inputs(memo=False)`` never use these: the property tests compare the two.

Bounded in entries and characters, as ``production_memo``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.mana.ability_values import Ability
from app.rules.mana.activation_checks import existence_gate
from app.rules.mana.production_memo import facts_of
from app.rules.mana.production_replacements import Alternatives
from app.rules.values.cards import Face

MAX_ENTRIES: Final = 4096
"""Ability lists kept (one per face and types on the boards seen; the catalogue's mana producers number
about 2,000)."""
MAX_CHARS: Final = 2_000_000
"""Characters of the kept abilities' texts, all together (the texts are the client's)."""


@dataclass(frozen=True, slots=True)
class PermanentFacts:
    """One ability list's facts (see the module doc). ``produces``: per ability, in order, what it
    produces when nothing on the board reaches it (None: not understood; ``()``: not a mana ability), set
    only when ``plain``; ``mask``: the mana types those productions hold (CR 106.7, before references)."""

    abilities: tuple[Ability, ...]
    plain: bool
    mask: int
    produces: tuple[Alternatives | None, ...]
    simple: tuple[Ability, ...] | None
    quiet: bool
    """No warning of ``board_reading._need_warnings`` can be about these abilities, whatever the state:
    no "Activate only" (CR 602.5b), and no mana ability with a choice the request may not make (CR 106.5),
    a threshold (CR 721.2a, 702.178a) or a cost beyond {T}, {Q} and mana."""

    def __init__(
        self,
        abilities: tuple[Ability, ...],
        plain: bool,
        mask: int,
        produces: tuple[Alternatives | None, ...],
        simple: tuple[Ability, ...] | None,
        quiet: bool,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "abilities", abilities)
        object.__setattr__(self, "plain", plain)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "produces", produces)
        object.__setattr__(self, "simple", simple)
        object.__setattr__(self, "quiet", quiet)


_kept: dict[int, PermanentFacts] = {}
_chars = [0]


def _production(ability: Ability) -> tuple[bool, int, Alternatives | None]:
    """(whether it reads nothing but itself, its mask, what it produces), as ``analyze_board`` decides an
    ability no replacement or trigger reaches."""
    if ability.problem is not None or (ability.mana is None and ability.is_mana_ability is None):
        return True, 0, None
    if ability.mana is None:
        return True, 0, ()
    facts = facts_of(ability, ability.mana)
    if facts.plain is None:
        return False, 0, None
    return True, facts.mask, facts.pruned


def _is_simple(face: Face, ability: Ability) -> bool:
    """Whether only the permanent's state can keep this mana ability from being a source (module doc).
    ``needs`` holds every part of its cost beyond {T}, {Q} and mana, life included."""
    assert ability.mana is not None
    return (
        ability.mana.restriction is None
        and not ability.needs
        and not ability.conditions
        and existence_gate(face, ability) is None
    )


def _compute(face: Face, abilities: tuple[Ability, ...]) -> PermanentFacts:
    plain = True
    mask = 0
    produces: list[Alternatives | None] = []
    for ability in abilities:
        reads_itself, ability_mask, made = _production(ability)
        plain = plain and reads_itself
        mask |= ability_mask
        produces.append(made)
    sourced = tuple(a for a in abilities if a.is_mana_ability and a.mana is not None)
    simple = sourced if all(_is_simple(face, a) for a in sourced) else None
    quiet = all(not a.conditions for a in abilities) and all(
        _is_quiet(face, a) for a in abilities if a.is_mana_ability
    )
    return PermanentFacts(
        abilities, plain, mask if plain else 0, tuple(produces) if plain else (), simple, quiet
    )


def _is_quiet(face: Face, ability: Ability) -> bool:
    """A mana ability ``_need_warnings`` has nothing to say of, whatever the permanent's state."""
    effect = ability.mana
    effects = [] if effect is None else [effect] + ([effect.instead[1]] if effect.instead is not None else [])
    restriction = ability.restriction
    return (
        not any(o.chosen for e in effects for o in e.options)
        and (restriction is None or "chosen type" not in restriction)
        and not ability.needs
        and existence_gate(face, ability) is None
    )


def permanent_facts(face: Face, abilities: tuple[Ability, ...]) -> PermanentFacts:
    """The kept facts of ``abilities``, the ability list of a permanent of ``face``, computed on first use.

    One list stands with one face text: ``own_abilities`` keys its lists by the text, and a list with
    granted abilities is made per permanent and board. So ``face`` (read for a threshold, CR 721.2a) is
    the same text for every permanent that hands the same list."""
    got = _kept.get(id(abilities))
    if got is not None and got.abilities is abilities:
        return got
    made = _compute(face, abilities)
    chars = sum(len(a.text) for a in abilities)
    if len(_kept) >= MAX_ENTRIES or _chars[0] + chars > MAX_CHARS:
        clear()
    _kept[id(abilities)] = made
    _chars[0] += chars
    return made


def clear() -> None:
    """Forget every kept list (nothing kept is wrong after a catalogue change; this bounds memory)."""
    _kept.clear()
    _chars[0] = 0


def size() -> tuple[int, int]:
    """Entries and characters kept."""
    return len(_kept), _chars[0]
