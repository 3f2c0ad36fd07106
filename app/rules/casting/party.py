"""A player's party (CR 700.8): up to one each of Cleric, Rogue, Warrior and Wizard creatures they control.

The size is an exact maximum bipartite matching of the four roles against the player's creatures
(CR 700.8b: a creature with several party types fills only one role, counted "to get the highest
result"; ruling:party "a Cleric and a Cleric Wizard ... is two").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from app.rules.values.board import Board, Permanent

PARTY_ROLES: Final = ("Cleric", "Rogue", "Warrior", "Wizard")
"""CR 700.8, in the order the members are reported."""


@dataclass(frozen=True, slots=True)
class Party:
    """The number of creatures in a player's party and one assignment that reaches it.

    ``members`` pairs each role of ``PARTY_ROLES`` (in that order) with the id of the permanent counted
    for it, or None. Players never designate members (CR 700.8a, ruling:party); the assignment is only
    an explanation of the count, chosen deterministically (see ``party``).
    """

    size: int
    members: tuple[tuple[str, str | None], ...]

    @property
    def rule(self) -> str:
        """CR 700.8 defines the party (a property: mypyc makes a slots class's ClassVar read-only)."""
        return "700.8"

    def as_dict(self) -> dict[str, str | None]:
        return dict(self.members)

    @property
    def is_full(self) -> bool:
        """CR 700.8c: a full party has four creatures."""
        return self.size == len(PARTY_ROLES)


def party_roles(permanent: Permanent) -> frozenset[str]:
    """The party roles ``permanent`` can fill: as a creature (CR 700.8 "Cleric creature") with that type.

    Reads the face that is up. A changeling has every creature type (CR 702.73a) and so every role;
    a noncreature permanent with a creature type (a Kindred artifact) fills none.
    """
    face = permanent.characteristics
    if not face.type_line.is_creature:
        return frozenset()
    return frozenset(role for role in PARTY_ROLES if face.has_creature_type(role))


def party(board: Board, player: str) -> Party:
    """The party of ``player`` (CR 700.8): size 0 to 4 (700.8a) by maximum matching (700.8b, ruling:party).

    Only creatures ``player`` controls count (ruling:party "check whether you control a Cleric ...";
    each creature counts for only one check). Ties between equally large assignments are broken so the
    result is stable: roles are filled in the order Cleric, Rogue, Warrior, Wizard, each with the
    permanent of lowest board index that still allows a maximum party; a role is left empty only when
    no maximum assignment can fill it.
    """
    candidates: list[tuple[str, frozenset[str]]] = []
    per_role_set: dict[frozenset[str], int] = {}
    for permanent in board.controlled_by(player):
        roles = party_roles(permanent)
        # Creatures with the same roles are interchangeable and a party has at most four members, so
        # the first four of each kind (board order) decide both the size and the tie-break.
        if roles and per_role_set.get(roles, 0) < len(PARTY_ROLES):
            per_role_set[roles] = per_role_set.get(roles, 0) + 1
            candidates.append((permanent.id, roles))
    size = _max_matching(PARTY_ROLES, candidates)
    members: list[tuple[str, str | None]] = []
    fixed = 0
    remaining = list(candidates)
    for position, role in enumerate(PARTY_ROLES):
        later = PARTY_ROLES[position + 1 :]
        chosen: str | None = None
        for index, (pid, roles) in enumerate(remaining):
            if role not in roles:
                continue
            rest = remaining[:index] + remaining[index + 1 :]
            if fixed + 1 + _max_matching(later, rest) == size:
                chosen = pid
                del remaining[index]
                fixed += 1
                break
        members.append((role, chosen))
    return Party(size=size, members=tuple(members))


def party_size(board: Board, player: str) -> int:
    """The number of creatures in ``player``'s party (CR 700.8a): an integer from 0 to 4."""
    return party(board, player).size


def _max_matching(roles: Sequence[str], candidates: Sequence[tuple[str, frozenset[str]]]) -> int:
    """Size of a maximum matching of ``roles`` to candidates (Kuhn's augmenting paths; exact, CR 700.8b)."""
    owner: dict[int, str] = {}  # candidate index -> role it fills

    def augment(role: str, seen: set[int]) -> bool:
        for index, (_, fills) in enumerate(candidates):
            if role not in fills or index in seen:
                continue
            seen.add(index)
            if index not in owner or augment(owner[index], seen):
                owner[index] = role
                return True
        return False

    return sum(1 for role in roles if augment(role, set()))
