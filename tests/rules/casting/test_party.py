"""CR 700.8 party: exact maximum matching, only creatures the player controls, deterministic members."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.casting.party import PARTY_ROLES, Party, party, party_roles, party_size
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine

TWO_PLAYERS = (Player("you"), Player("opponent"))


def card(type_line: str, *, name: str = "Test Card", keywords: tuple[str, ...] = (), text: str = "") -> Card:
    face = Face(
        name=name,
        mana_cost=ManaCost.parse("{1}"),
        type_line=TypeLine.parse(type_line),
        oracle_text=text,
        keywords=keywords,
    )
    return Card(name=name, faces=(face,))


def perm(pid: str, type_line: str, *, controller: str = "you", keywords: tuple[str, ...] = ()) -> Permanent:
    return Permanent(id=pid, card=card(type_line, keywords=keywords), controller=controller)


def board(*permanents: Permanent) -> Board:
    return Board(permanents=permanents, players=TWO_PLAYERS)


def test_empty_board_has_no_party() -> None:
    result = party(board(), "you")
    assert result == Party(0, (("Cleric", None), ("Rogue", None), ("Warrior", None), ("Wizard", None)))
    assert not result.is_full


def test_ruling_cleric_and_cleric_wizard_is_two() -> None:
    # ruling:party: "if you control a Cleric and a Cleric Wizard, the number ... is two"
    b = board(perm("p2", "Creature — Human Cleric Wizard"), perm("p1", "Creature — Human Cleric"))
    result = party(b, "you")
    assert result.size == 2
    assert result.as_dict() == {"Cleric": "p1", "Rogue": None, "Warrior": None, "Wizard": "p2"}


def test_members_are_in_role_order_and_ties_prefer_lower_board_index() -> None:
    b = board(
        perm("a", "Creature — Elf Rogue"), perm("b", "Creature — Elf Rogue"), perm("c", "Creature — Cleric")
    )
    assert party(b, "you").members == (("Cleric", "c"), ("Rogue", "a"), ("Warrior", None), ("Wizard", None))


def test_full_party_never_exceeds_four() -> None:
    b = board(*(perm(f"p{i}", "Creature — Human Cleric Rogue Warrior Wizard") for i in range(7)))
    result = party(b, "you")
    assert result.size == 4
    assert result.is_full
    assert result.as_dict() == {"Cleric": "p0", "Rogue": "p1", "Warrior": "p2", "Wizard": "p3"}


def test_one_creature_with_every_party_type_counts_once() -> None:
    assert party_size(board(perm("x", "Creature — Cleric Rogue Warrior Wizard")), "you") == 1


def test_changelings_fill_any_role() -> None:
    b = board(
        perm("cl1", "Creature — Shapeshifter", keywords=("Changeling",)),
        perm("war", "Creature — Orc Warrior"),
        perm("cl2", "Creature — Shapeshifter", keywords=("Changeling",)),
    )
    result = party(b, "you")
    assert result.size == 3
    assert result.as_dict() == {"Cleric": "cl1", "Rogue": "cl2", "Warrior": "war", "Wizard": None}


def test_every_creature_type_text_is_a_changeling() -> None:
    face = Face(
        name="Mistform Ultimus",
        mana_cost=ManaCost.parse("{3}{U}"),
        type_line=TypeLine.parse("Legendary Creature — Illusion"),
        oracle_text="Mistform Ultimus is every creature type (even if this card isn't on the battlefield).",
    )
    p = Permanent(id="m", card=Card(name=face.name, faces=(face,)))
    assert party_roles(p) == frozenset(PARTY_ROLES)


def test_matching_needs_augmenting_not_greedy() -> None:
    # Greedy by board order would put the Cleric Rogue on Cleric and leave Rogue empty.
    b = board(perm("cr", "Creature — Cleric Rogue"), perm("c", "Creature — Cleric"))
    result = party(b, "you")
    assert result.size == 2
    assert result.as_dict()["Cleric"] == "c"
    assert result.as_dict()["Rogue"] == "cr"


def test_noncreature_permanents_with_party_types_are_ignored() -> None:
    b = board(
        perm("kindred", "Kindred Artifact — Cleric Equipment"),
        perm("aura", "Enchantment — Aura Cartouche"),
        perm("kindred-ench", "Tribal Enchantment — Rogue"),
        perm("changeling-art", "Kindred Artifact — Shapeshifter", keywords=("Changeling",)),
        perm("land", "Land — Forest"),
    )
    assert party(b, "you").size == 0


def test_only_the_up_face_counts() -> None:
    front = Face("Human Side", ManaCost.parse("{1}{W}"), TypeLine.parse("Creature — Human Cleric"))
    back = Face("Werewolf Side", None, TypeLine.parse("Creature — Werewolf"))
    dfc = Card(name="Human Side // Werewolf Side", faces=(front, back), layout="transform")
    assert party_size(board(Permanent(id="d", card=dfc)), "you") == 1
    assert party_size(board(Permanent(id="d", card=dfc, face="Werewolf Side")), "you") == 0


def test_opponents_creatures_are_ignored() -> None:
    b = board(
        perm("mine", "Creature — Human Wizard"),
        perm("theirs1", "Creature — Human Cleric", controller="opponent"),
        perm("theirs2", "Creature — Human Rogue", controller="opponent"),
    )
    assert party(b, "you").as_dict() == {"Cleric": None, "Rogue": None, "Warrior": None, "Wizard": "mine"}
    assert party_size(b, "opponent") == 2


def test_many_creatures_stay_fast_and_exact() -> None:
    many = [perm(f"w{i}", "Creature — Human Warrior") for i in range(300)]
    many.append(perm("last", "Creature — Human Warrior Wizard"))
    result = party(board(*many), "you")
    assert result.size == 2
    assert result.as_dict() == {"Cleric": None, "Rogue": None, "Warrior": "w0", "Wizard": "last"}


def _brute_force(role_sets: list[frozenset[str]]) -> tuple[int, tuple[int | None, ...]]:
    """Every assignment of each creature to one role or none: the largest size, and among the largest the
    documented tie-break (per role in order, the lowest board index; empty counts as after every index)."""
    options = [(None, *sorted(rs)) for rs in role_sets]
    best: tuple[int, tuple[float, ...]] = (0, (float("inf"),) * 4)
    for assignment in itertools.product(*options):
        used = [r for r in assignment if r is not None]
        if len(used) != len(set(used)):
            continue
        key = tuple(
            float(assignment.index(role)) if role in assignment else float("inf") for role in PARTY_ROLES
        )
        if len(used) > best[0] or (len(used) == best[0] and key < best[1]):
            best = (len(used), key)
    return best[0], tuple(None if k == float("inf") else int(k) for k in best[1])


TYPE_POOL = ("Cleric", "Rogue", "Warrior", "Wizard", "Elf", "Human")

creature_spec = st.tuples(
    st.sets(st.sampled_from(TYPE_POOL), max_size=4),
    st.booleans(),  # is a creature
    st.booleans(),  # is a changeling
    st.sampled_from(("you", "opponent")),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(creature_spec, max_size=6))
def test_size_equals_brute_force_and_members_are_consistent(
    specs: list[tuple[set[str], bool, bool, str]],
) -> None:
    permanents = []
    for i, (types, is_creature, changeling, controller) in enumerate(specs):
        subtypes = " ".join(t for t in TYPE_POOL if t in types) or "Shapeshifter"
        line = f"{'Creature' if is_creature else 'Kindred Artifact'} — {subtypes}"
        keywords = ("Changeling",) if changeling else ()
        permanents.append(perm(f"p{i}", line, controller=controller, keywords=keywords))
    b = board(*permanents)
    result = party(b, "you")

    mine = [p for p in permanents if p.controller == "you"]
    expected_sets = []
    for p in mine:
        face = p.characteristics
        if not face.type_line.is_creature:
            expected_sets.append(frozenset[str]())
        elif face.is_changeling:
            expected_sets.append(frozenset(PARTY_ROLES))
        else:
            expected_sets.append(frozenset(PARTY_ROLES) & frozenset(face.type_line.subtypes))
    size, indices = _brute_force(expected_sets)
    assert result.size == size
    assert tuple(pid for _, pid in result.members) == tuple(
        None if i is None else mine[i].id for i in indices
    )

    filled = [(role, pid) for role, pid in result.members if pid is not None]
    assert len(filled) == result.size
    assert len({pid for _, pid in filled}) == result.size
    by_id = {p.id: p for p in permanents}
    for role, pid in filled:
        assert by_id[pid].controller == "you"
        assert role in party_roles(by_id[pid])
    assert [role for role, _ in result.members] == list(PARTY_ROLES)


def test_a_player_without_permanents_has_an_empty_party() -> None:
    assert party_size(board(perm("x", "Creature — Cleric")), "nobody") == 0
