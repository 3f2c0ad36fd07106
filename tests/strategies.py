"""Hypothesis strategies for valid boards and spells, of real cards, in the two shapes the tests need: the
API's request bodies (``board_bodies``, ``spell_cost_bodies``, ``payment_plan_bodies``...) and the rules
core's values (``rules_board``, ``rules_spell``), one made from the other so both test the same things.

The cards come from the bundled catalogue (``app/data/cards.json.gz``, in the repository; the test
database is seeded from it), so every drawn name is one the service knows: a drawn body is valid and an
answer other than 2xx is a finding, not noise. Pools are small and chosen by kind: mana sources (lands,
mana creatures and rocks, restricted mana), cost changers (reductions, taxes, Trinisphere) and spells of
every type and color.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from app.rules.casting.spell_cost import SpellToCast
from app.rules.values.board import Board, Permanent, Player
from app.rules.values.cards import Card
from app.services.card_formats import card_from_scryfall

BUNDLED = Path(__file__).resolve().parents[1] / "app" / "data" / "cards.json.gz"

MANA_SOURCES = (
    "Forest", "Island", "Mountain", "Plains", "Swamp", "Wastes", "Snow-Covered Forest", "Tundra",
    "Llanowar Elves", "Elvish Mystic", "Birds of Paradise", "Sol Ring", "City of Brass", "Reflecting Pool",
    "Adarkar Wastes", "Mishra's Workshop", "Gaea's Cradle", "Urza's Tower", "Urza's Mine", "Lotus Petal",
    "Ancient Tomb", "Talisman of Progress", "Izzet Signet",
)  # fmt: skip
REDUCERS = (
    "Goblin Electromancer", "Helm of Awakening", "Emerald Medallion", "Ruby Medallion", "Jet Medallion",
    "Pearl Medallion", "Sapphire Medallion", "Etherium Sculptor", "Heartless Summoning",
    "Baral, Chief of Compliance", "Goblin Warchief", "Krosan Drover", "Semblance Anvil",
)  # fmt: skip
"""Permanents whose only cost effect is a reduction for their controller's spells (CR 601.2f)."""
TAXES = ("Thalia, Guardian of Thraben", "Sphere of Resistance", "Lodestone Golem", "Trinisphere")
SPELLS = (
    "Lightning Bolt", "Grizzly Bears", "Counterspell", "Frogmite", "Thoughtcast", "Savannah Lions",
    "Serra Angel", "Wrath of God", "Myr Enforcer", "Dark Ritual", "Swords to Plowshares", "Shivan Dragon",
    "Tarmogoyf", "Cryptic Command", "Thought-Knot Seer", "Giant Growth", "Sakura-Tribe Elder",
    "Lightning Helix", "Fireball", "Sol Ring", "Llanowar Elves",
)  # fmt: skip
PERMANENT_CARDS = MANA_SOURCES + REDUCERS + TAXES


@cache
def card(name: str) -> Card:
    """A card of the bundled catalogue, read as the service reads it."""
    return card_from_scryfall(_records()[name])


@cache
def _records() -> dict[str, dict[str, Any]]:
    return {r["name"]: r for r in json.loads(gzip.decompress(BUNDLED.read_bytes()))}


@st.composite
def permanent_bodies(draw: st.DrawFn, pid: str, names: tuple[str, ...] = PERMANENT_CARDS) -> dict[str, Any]:
    """One permanent of a board body: a real card, its controller, tapped or not."""
    body: dict[str, Any] = {"id": pid, "card": draw(st.sampled_from(names))}
    if draw(st.booleans()):
        body["tapped"] = True
    if draw(st.integers(0, 3)) == 0:
        body["controller"] = "opp"
    return body


@st.composite
def board_bodies(draw: st.DrawFn, most: int = 6) -> dict[str, Any]:
    """A board body of up to ``most`` permanents, ids unique (``p0``, ``p1``...), mostly mana sources."""
    n = draw(st.integers(0, most))
    permanents = [
        draw(permanent_bodies(f"p{i}", MANA_SOURCES if i % 3 else PERMANENT_CARDS)) for i in range(n)
    ]
    return {"permanents": permanents}


@st.composite
def spell_bodies(draw: st.DrawFn) -> dict[str, Any]:
    name = draw(st.sampled_from(SPELLS))
    body: dict[str, Any] = {"card": name}
    if name == "Fireball":  # X is the spell's choice (CR 107.3a), and it is asked for
        body["x"] = draw(st.integers(0, 4))
    return body


costs = st.builds(
    lambda generic, colored: "{" + str(generic) + "}" + "".join("{" + c + "}" for c in colored),
    st.integers(0, 4),
    st.lists(st.sampled_from("WUBRGC"), max_size=3),
)
"""A mana cost as the API takes it: generic then colored or colorless symbols."""


def spell_cost_bodies() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"board": board_bodies(), "spell": spell_bodies()})


def spell_cost_batch_bodies() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"board": board_bodies(), "spells": st.lists(spell_bodies(), min_size=1, max_size=4)}
    )


def payment_plan_bodies() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        st.fixed_dictionaries({"board": board_bodies(), "cost": costs}),
        st.fixed_dictionaries({"board": board_bodies(), "spell": spell_bodies()}),
    )


def scenario_cost_bodies() -> st.SearchStrategy[dict[str, Any]]:
    """A spell on a stored board (the board is the scenario's)."""
    return st.fixed_dictionaries({"spell": spell_bodies()})


def analyze_bodies() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({"board": board_bodies()})


COMPUTE_BODIES = {
    "/v1/spells/cost": spell_cost_bodies,
    "/v1/spells/cost/batch": spell_cost_batch_bodies,
    "/v1/payments/plan": payment_plan_bodies,
    "/v1/boards/analyze": analyze_bodies,
    "/v1/scenarios/{scenario_id}/spells/cost": scenario_cost_bodies,
}
"""Valid bodies for each compute endpoint (the fuzzing mixes them into schemathesis's own)."""


def rules_board(body: dict[str, Any], *more: Permanent) -> Board:
    """The rules core's board for a board body (players "you" and "opp"), with ``more`` permanents added."""
    perms = tuple(
        Permanent(p["id"], card(p["card"]), p.get("controller", "you"), tapped=p.get("tapped", False))
        for p in body["permanents"]
    )
    return Board(perms + more, (Player("you"), Player("opp")))


def rules_spell(body: dict[str, Any]) -> SpellToCast:
    return SpellToCast(card(body["card"]), x=body.get("x", 0))
