"""Deck legality (app.rules.decks.legality): constructed size and copies, catalogue statuses, Commander."""

from __future__ import annotations

from app.rules.decks.legality import DeckCard, Reason, any_number, check


def _card(name: str, main: int = 1, **kw: object) -> DeckCard:
    values: dict[str, object] = {
        "sideboard": 0,
        "commander": 0,
        "status": "legal",
        "basic_land": False,
        "any_number": False,
        "identity": frozenset(),
    }
    values.update(kw)
    return DeckCard(name=name, main=main, **values)  # type: ignore[arg-type]


def test_constructed_size_copies_and_sideboard() -> None:
    cards = [_card("Lightning Bolt", 4, sideboard=1), _card("Mountain", 50, basic_land=True)]
    assert check("modern", cards) == (
        Reason("deck_size", "the main deck has 54 cards; at least 60"),
        Reason(
            "too_many_copies", "5 copies; at most 4", "Lightning Bolt"
        ),  # main deck and sideboard together (CR 100.2a)
    )
    side = [
        _card(n, 0, sideboard=k)
        for n, k in (("Shock", 4), ("Fog", 4), ("Giant Growth", 4), ("Naturalize", 3))
    ]
    ok = [_card("Lightning Bolt", 4), _card("Mountain", 56, basic_land=True), *side]
    assert check("modern", ok) == ()
    assert check("modern", [*ok, _card("Fog", 0, sideboard=1)]) == (
        Reason("sideboard_size", "the sideboard has 16 cards; at most 15"),
    )


def test_any_number_cards() -> None:
    text = "A deck can have any number of cards named Rat Colony."
    assert any_number(text)
    assert check("modern", [_card("Rat Colony", 60, any_number=True)]) == ()


def test_statuses() -> None:
    cards = [
        _card("Black Lotus", 1, status="restricted"),
        _card("Sol Ring", 2, status="restricted"),
        _card("Channel", 1, status="banned"),
        _card("Gleemax", 1, status=None),
        _card("Island", 55, basic_land=True),
    ]
    assert check("vintage", cards) == (
        Reason("restricted", "restricted in vintage: 2 copies; at most 1", "Sol Ring", "100.6"),
        Reason("banned", "banned in vintage", "Channel", "100.6"),
        Reason("not_legal", "not legal in vintage", "Gleemax", "100.6"),
    )


def test_commander_rules() -> None:
    naya = frozenset("RGW")
    cards = [
        _card("Rin and Seri, Inseparable", 0, commander=1, identity=naya),
        _card("Forest", 40, basic_land=True, identity=frozenset("G")),
        _card("Llanowar Elves", 2, identity=frozenset("G")),
        _card("Counterspell", 1, identity=frozenset("U")),
        _card("Relentless Rats", 55, any_number=True, identity=frozenset("B")),
    ]
    assert check("commander", cards) == (
        Reason("deck_size", "the deck has 99 cards with its commander; exactly 100", None, "903.5a"),
        Reason("singleton", "2 copies; a singleton deck has one of each card", "Llanowar Elves", "903.5b"),
        Reason("color_identity", "color identity U is outside the commander's", "Counterspell", "903.5c"),
        Reason("color_identity", "color identity B is outside the commander's", "Relentless Rats", "903.5c"),
    )
    assert Reason("no_commander", "the deck names no commander", None, "903.3") in check(
        "commander", cards[1:]
    )
