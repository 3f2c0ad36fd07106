"""Reading a request's board facts (API.md 1.1 "Board state, more of the game") into rules values."""

from __future__ import annotations

from typing import Any

import pytest

from app.errors import AppError, UnknownCard
from app.rules.values.board import ThisTurn
from app.rules.values.cards import Card, Face
from app.rules.values.types import TypeLine
from app.schemas.board import BoardIn
from app.services.boards import build_board


class FakeCatalogue:
    """Knows a few names; counts look-ups so a test can see each distinct name resolved once."""

    def __init__(self, *names: str) -> None:
        self.cards = {n: Card(n, (Face(n, None, TypeLine.parse("Instant")),), oracle_id=n) for n in names}
        self.lookups: list[str] = []

    def by_name(self, name: str) -> Card:
        self.lookups.append(name)
        if name not in self.cards:
            raise UnknownCard(f"no card named {name!r}")
        return self.cards[name]

    def by_oracle_id(self, oracle_id: str) -> Card:
        return self.by_name(oracle_id)


def board(data: dict[str, Any], *names: str) -> Any:
    catalogue = FakeCatalogue("Bolt", "Opt", "Cloud Key", "Atraxa", *names)
    return build_board(BoardIn.model_validate(data), catalogue=catalogue), catalogue


def test_permanent_facts_and_what_was_stated() -> None:
    b, _ = board(
        {
            "permanents": [
                {
                    "id": "key",
                    "card": "Cloud Key",
                    "counters": {"+1/+1": 2, "charge": 3},
                    "class_level": 2,
                    "level": 4,
                    "chosen": {"card_type": "Instant", "colors": ["W", "U"], "imprinted": "Bolt"},
                },
                {"id": "plain", "card": "Cloud Key"},
            ]
        }
    )
    key, plain = b.permanents
    assert key.counter("+1/+1") == 2 and key.counter("charge") == 3 and key.counter("luck") == 0
    assert (key.class_level, key.level) == (2, 4)
    assert key.given == {"counters", "class_level", "level"}
    assert key.chosen.card_type == "Instant" and key.chosen.colors == ("W", "U")
    assert key.chosen.imprinted is not None and key.chosen.imprinted.name == "Bolt"
    # Not stated: the least (no counters, level 1 Class, level 0), and the permanent says it was not given.
    assert (plain.counters, plain.class_level, plain.level, plain.given) == ((), 1, 0, frozenset())
    assert not plain.knows("counters") and key.knows("counters")


def test_player_zones_commander_and_this_turn() -> None:
    b, catalogue = board(
        {
            "players": {
                "you": {
                    "commander": ["Atraxa"],
                    "graveyard": ["Bolt", "Bolt", {"oracle_id": "Opt"}],
                    "exile": [],
                    "hand_size": 5,
                    "this_turn": {"spells_cast": 2, "life_lost": 3},
                },
                "opponent": {"life": 12},
            }
        }
    )
    you, opp = b.player("you"), b.player("opponent")
    assert [c.name for c in you.commander] == ["Atraxa"]
    assert [c.name for c in you.graveyard] == ["Bolt", "Bolt", "Opt"]
    assert you.exile == () and you.knows("exile") and you.knows("hand")  # hand_size counts the hand
    assert you.cards_in_hand == 5 and you.given == {"commander", "graveyard", "exile", "hand_size"}
    assert you.this_turn.count("spells_cast") == 2 and you.this_turn.count("creature_spells_cast") == 0
    assert you.this_turn.given == {"spells_cast", "life_lost"}
    assert not you.this_turn.knows("creature_spells_cast")
    assert opp.life == 12 and opp.given == frozenset() and opp.this_turn == ThisTurn()
    assert opp.graveyard == () and not opp.knows("graveyard") and not opp.knows("hand")
    assert catalogue.lookups.count("Bolt") == 1  # a repeated name resolves once


def test_every_unknown_card_in_a_zone_is_reported_at_its_path() -> None:
    with pytest.raises(AppError) as info:
        board(
            {
                "permanents": [{"id": "k", "card": "Cloud Key", "chosen": {"imprinted": "Nope"}}],
                "players": {"you": {"graveyard": ["Bolt", "Nothing"], "commander": ["Nobody"]}},
            }
        )
    locs = [e["loc"] for e in info.value.errors]
    assert ["body", "board", "permanents", 0, "chosen", "imprinted"] in locs
    assert ["body", "board", "players", "you", "graveyard", 1] in locs
    assert ["body", "board", "players", "you", "commander", 0] in locs
    assert len(locs) == 3
    assert info.value.type_slug == "unknown-card"


def test_this_turn_fact_names_are_checked() -> None:
    with pytest.raises(ValueError, match="no this-turn fact"):
        ThisTurn().count("dragons_cast")
