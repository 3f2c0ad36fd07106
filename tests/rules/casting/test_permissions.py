"""Ways to cast from casting sentences and from the board (CR 118.9, 601.2b, 601.3, 613): the sentence
readers of ``app.rules.text.granted_text`` and ``own_text``, the permissions they give, and how the engine
offers them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.casting.engine import total_cost, ways_to_cast
from app.rules.casting.prepared import prepare_board
from app.rules.casting.spell_cost import SpellToCast
from app.rules.effects.other_costs import OtherCost
from app.rules.effects.permissions import PermissionKind
from app.rules.errors import IllegalError
from app.rules.text.cast_sentences import cost_phrase
from app.rules.text.face_ways import ways_of
from app.rules.text.granted_text import read_granted
from app.rules.text.own_text import read_own
from app.rules.text.spell_kinds import spell_kind
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def card(
    text: str, cost: str | None = "{3}{U}{U}", type_line: str = "Instant", name: str = "Test Spell"
) -> Card:
    face = Face(name, ManaCost.parse(cost) if cost else None, TypeLine.parse(type_line), text)
    return Card(name, (face,))


def board(*permanents: Permanent, effects: tuple[Permanent, ...] = ()) -> Board:
    return Board(tuple(permanents), (Player("you"), Player("opp")), effects=effects)


@pytest.mark.parametrize(
    ("text", "mana", "others"),
    [
        ("pay 1 life and exile a blue card from your hand", "{0}", [OtherCost("Pay 1 life", 1), OtherCost(
            "Exile a blue card from your hand")]),
        ("pay {1} and return a basic land you control to its owner's hand", "{1}", [
            OtherCost("Return a basic land you control to its owner's hand")]),
        ("paying {b}{b} and sacrificing two creatures", "{B}{B}", [OtherCost("Sacrifice two creatures")]),
        ("pay 6 life and sacrifice three black creatures", "{0}", [OtherCost("Pay 6 life", 6), OtherCost(
            "Sacrifice three black creatures")]),
    ],
)  # fmt: skip
def test_cost_phrases_split_before_each_verb(text: str, mana: str, others: list[OtherCost]) -> None:
    got_mana, got_others = cost_phrase(text)
    assert (str(got_mana), list(got_others)) == (mana, others)


def test_spell_kinds() -> None:
    assert spell_kind("creature spells with mana value 3 or less").max_mana_value == 3
    lurrus = spell_kind("one permanent spell with mana value 2 or less")
    assert lurrus.permanent and lurrus.max_mana_value == 2
    assert spell_kind("instant and sorcery spells").types == ("Instant", "Sorcery")
    assert spell_kind("zombie creature").subtypes == ("Zombie",)
    assert spell_kind("noncreature spells").not_types == ("Creature",)
    with pytest.raises(ValueError):
        spell_kind("spells with flash or flying")


def test_own_alternatives_are_numbered_and_keep_their_condition() -> None:
    own = read_own(
        "Test Spell",
        "You may pay {U} rather than pay this spell's mana cost.\n"
        "If you control an Island, you may pay 2 life rather than pay this spell's mana cost.",
    )
    assert [(w.which, str(w.cost), w.condition) for w in own.alternatives] == [
        (1, "{U}", None),
        (2, "{0}", "If you control an Island"),
    ]


def test_a_casting_sentence_not_read_is_returned_so_the_answer_warns() -> None:
    c = card("You may juggle three cards rather than pay this spell's mana cost.")
    assert ways_of(c.front).not_read
    result = total_cost(board(), "you", SpellToCast(c))
    assert any("juggle" in w.text for w in result.warnings)


def test_granted_permissions_from_real_sentences() -> None:
    citadel = read_granted(
        "Bolas's Citadel",
        "You may play lands and cast spells from the top of your library. If you cast a spell this way, pay "
        "life equal to its mana value rather than pay its mana cost.",
    )
    (p,) = citadel.permissions
    assert (p.kind, p.zones, p.life_for_mana) == (PermissionKind.ZONE, ("library",), True)
    breach = read_granted(
        "Underworld Breach",
        "Each nonland card in your graveyard has escape. The escape cost is equal to the card's mana cost "
        "plus exile three other cards from your graveyard.",
    )
    (e,) = breach.permissions
    assert e.keyword == "escape" and e.other_costs == (
        OtherCost("Exile three other cards from your graveyard"),
    )


def test_an_alternative_and_a_grant_are_each_offered_alone() -> None:
    """CR 118.9a: one alternative cost at a time; each way is listed alone."""
    omni = Permanent("omni", card("You may cast spells from your hand without paying their mana costs.",
                                  "{7}{U}{U}{U}", "Enchantment", "Omniscience"))  # fmt: skip
    c = card("You may pay {U} rather than pay this spell's mana cost.")
    ways = ways_to_cast(board(omni), "you", SpellToCast(c))
    assert [(w.method, w.which, w.granted_by, str(w.total_cost)) for w in ways] == [
        ("normal", None, None, "{3}{U}{U}"),
        ("alternative", 1, None, "{U}"),
        ("alternative", None, "omni", "{0}"),
    ]
    with pytest.raises(IllegalError, match="only one alternative"):
        total_cost(board(omni), "you", SpellToCast(c, method="alternative", alternative_cost=ManaCost.zero()))


def test_an_opponents_permission_is_not_yours_but_any_players_is() -> None:
    yawg = card(
        "You may play lands and cast spells from your graveyard.", "{3}{B}{B}", "Enchantment", "Agenda"
    )
    bolt = card("Deal 3 damage.", "{R}")
    spell = SpellToCast(bolt, cast_from="graveyard")
    with pytest.raises(IllegalError) as refused:
        total_cost(board(Permanent("agenda", yawg, controller="opp")), "you", spell)
    assert refused.value.rule == "601.3"
    assert total_cost(board(Permanent("agenda", yawg)), "you", spell).granted_by == "agenda"


def test_a_trigger_grant_needs_its_stated_target() -> None:
    snap = card(
        "When Snapcaster Mage enters, target instant or sorcery card in your graveyard gains flashback until "
        "end of turn. The flashback cost is equal to its mana cost.",
        "{1}{U}",
        "Creature — Human Wizard",
        "Snapcaster Mage",
    )
    bolt = card("Deal 3 damage.", "{R}", name="Lightning Bolt")
    spell = SpellToCast(bolt, cast_from="graveyard")
    from app.rules.values.board import Choices

    stated = Permanent("snap", snap, chosen=Choices(card_name="Lightning Bolt"))
    assert total_cost(board(effects=(stated,)), "you", spell).method == "flashback"
    with pytest.raises(IllegalError):
        total_cost(board(Permanent("snap", snap)), "you", spell)


_SYMBOLS = st.sampled_from(["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{C}", "{W/U}", "{B/P}"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_SYMBOLS, min_size=1, max_size=6), st.integers(min_value=0, max_value=20))
def test_any_printed_alternative_cost_is_offered_as_printed(symbols: list[str], life: int) -> None:
    cost = ManaCost.parse("".join(symbols))
    text = f"You may pay {''.join(symbols)} and pay {life} life rather than pay this spell's mana cost."
    c = card(text)
    ways = ways_to_cast(board(), "you", SpellToCast(c))
    (alt,) = [w for w in ways if w.method == "alternative"]
    assert alt.total_cost == cost and alt.other_costs == (OtherCost(f"Pay {life} life", life),)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="You may cast rather than pay this spell's mana cost from your graveyard{}1UR.,~\n ",
               max_size=300))  # fmt: skip
def test_any_text_is_read_without_error(text: str) -> None:
    read_own("Test Spell", text)
    read_granted("Test Spell", text)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["hand", "graveyard", "exile", "library"]))
def test_every_way_offered_costs_what_choosing_it_costs(zone: str) -> None:
    """Each way listed has the total that choosing it (method, which, granted_by) answers."""
    omni = Permanent("omni", card("You may cast spells from your hand without paying their mana costs.",
                                  "{7}{U}{U}{U}", "Enchantment", "Omniscience"))  # fmt: skip
    will_text = "Until end of turn, you may play lands and cast spells from your graveyard."
    will = Permanent("will", card(will_text, "{2}{B}", "Sorcery", "Yawgmoth's Will"))
    b = prepare_board(board(omni, effects=(will,)))
    c = card(
        "You may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost."
    )
    try:
        known = total_cost(b, "you", SpellToCast(c, cast_from=zone))
    except IllegalError:
        return
    for w in ways_to_cast(b, "you", SpellToCast(c, cast_from=zone), known=known):
        chosen = SpellToCast(c, cast_from=zone, method=w.method, which=w.which, granted_by=w.granted_by)
        assert total_cost(b, "you", chosen).total_cost == w.total_cost
