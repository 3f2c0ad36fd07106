"""Deck legality (app.rules.decks.legality): constructed size and copies, catalogue statuses, Commander."""

from __future__ import annotations

import pytest

from app.rules.decks.legality import (
    UNKNOWN,
    DeckCard,
    Reason,
    UnknownFormat,
    any_number,
    check,
    decided,
    normalize_format,
)


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


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Modern", "modern"),
        (" MODERN ", "modern"),
        ("EDH", "commander"),
        ("cEDH", "commander"),
        ("Pauper Commander", "paupercommander"),
        ("PDH", "paupercommander"),
        ("Duel Commander", "duel"),
        ("historic-brawl", "historicbrawl"),
        ("Penny Dreadful", "penny"),
        ("Old School", "oldschool"),
    ],
)
def test_format_names_fold_and_alias(name: str, key: str) -> None:
    assert normalize_format(name) == key


def test_unknown_format_lists_the_known_ones() -> None:
    with pytest.raises(UnknownFormat) as exc:
        normalize_format("modrn")
    assert "modern" in exc.value.known and "commander" in exc.value.known
    assert "modrn" in str(exc.value)


def test_unknown_legality_is_neither_legal_nor_not_legal() -> None:
    # A card without legality data gets reason "unknown" (never not_legal), and alone it leaves the deck's
    # legality undecided; a real fault still decides it.
    unknown = DeckCard("Vorthos", 0, 1, 0, UNKNOWN, False, False, frozenset())
    forest = DeckCard("Forest", 60, 0, 0, "legal", True, False, frozenset({"G"}))
    reasons = check("legacy", [forest, unknown])
    assert [(r.card, r.reason) for r in reasons] == [("Vorthos", "unknown")]
    assert decided(reasons) is None
    short = DeckCard("Forest", 59, 0, 0, "legal", True, False, frozenset({"G"}))
    assert decided(check("legacy", [short, unknown])) is False
    assert decided(check("legacy", [forest])) is True
