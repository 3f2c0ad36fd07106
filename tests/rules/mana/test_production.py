"""Could produce (CR 106.7) as a least fixed point, replacements (106.12b) and triggers (106.12a)."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.mana import MANA_BOUND, Mana
from app.rules.values.types import TypeLine

DATA = Path(__file__).resolve().parents[4] / "shared" / "data" / "scryfall-oracle-cards.json"
# The bundled catalogue keeps the same Scryfall fields, so a clone without the shared data still runs these.
BUNDLED = Path(__file__).resolve().parents[3] / "app" / "data" / "cards.json.gz"


@cache
def _oracle() -> dict[str, dict[str, Any]]:
    if DATA.exists():
        cards = json.loads(DATA.read_text(encoding="utf-8"))
    else:
        with gzip.open(BUNDLED, "rt", encoding="utf-8") as f:
            cards = json.load(f)
    return {c["name"]: c for c in cards}


def real(name: str) -> Card:
    """A card of the shared Scryfall data, or of the bundled catalogue built from it."""
    c = _oracle()[name]
    raw = c.get("card_faces") if c.get("oracle_text") is None else [c]
    faces = tuple(
        Face(
            f["name"],
            ManaCost.parse(f["mana_cost"]) if f.get("mana_cost") else None,
            TypeLine.parse(f["type_line"]),
            f.get("oracle_text", ""),
            keywords=tuple(c.get("keywords", ())),
        )
        for f in raw
    )
    return Card(c["name"], faces, c.get("layout", "normal"), c.get("oracle_id"))


def inline(name: str, type_line: str, text: str = "", keywords: tuple[str, ...] = ()) -> Card:
    return Card(name, (Face(name, None, TypeLine.parse(type_line), text, keywords=keywords),))


def perm(pid: str, card: Card | str, controller: str = "you", **kw: Any) -> Permanent:
    return Permanent(pid, real(card) if isinstance(card, str) else card, controller, **kw)


def board(*perms: Permanent) -> Board:
    return Board(perms, (Player("you"), Player("opp")))


def prod(a: BoardAnalysis, key: tuple[str, int]) -> tuple[tuple[str, ...], ...] | None:
    """An ability's alternatives as sorted tuples of mana types (None: not understood)."""
    got = a.produces[key]
    return None if got is None else tuple(m.as_tuple() for m in got)


def could(b: Board) -> dict[str, tuple[str, ...]]:
    return analyze_board(b).could_produce


def test_exotic_orchard_example_of_106_7() -> None:
    # No lands for the opponent: nothing. Only Orchards: nothing. A Forest on one side: both could make G.
    assert could(board(perm("o1", "Exotic Orchard"))) == {"o1": ()}
    assert could(board(perm("o1", "Exotic Orchard"), perm("o2", "Exotic Orchard", "opp"))) == {
        "o1": (),
        "o2": (),
    }
    got = could(board(perm("f", "Forest"), perm("o1", "Exotic Orchard"), perm("o2", "Exotic Orchard", "opp")))
    assert got == {"f": ("G",), "o1": ("G",), "o2": ("G",)}


def test_two_reflecting_pools_loop_produce_nothing_until_fed() -> None:
    pools = (perm("p1", "Reflecting Pool"), perm("p2", "Reflecting Pool"))
    assert could(board(*pools)) == {"p1": (), "p2": ()}
    got = could(board(*pools, perm("w", "Wastes"), perm("s", "Savannah")))
    # colorless is a type (Pool: any type) but not a color
    assert got["p1"] == got["p2"] == ("W", "G", "C")


def test_chains_across_both_sides_and_color_filter() -> None:
    got = could(
        board(
            perm("w", "Wastes", "opp"),
            perm("i", "Island", "opp"),
            perm("pool-opp", "Reflecting Pool", "opp"),
            perm("orchard", "Exotic Orchard"),
            perm("pool", "Reflecting Pool"),
            perm("fellwar", "Fellwar Stone"),
            perm("orchard-opp", "Exotic Orchard", "opp"),
        )
    )
    assert got["pool-opp"] == ("U", "C")
    assert got["orchard"] == ("U",)  # C is not a color
    assert got["pool"] == ("U",)  # fed only through my Orchard
    assert got["fellwar"] == ("U",)  # an artifact reading the opponent's lands
    assert got["orchard-opp"] == ("U",)  # my lands: the Orchard and the Pool


def test_contamination_replaces_any_type_and_amount_for_lands_only() -> None:
    b = board(
        perm("s", "Savannah"),
        perm("pool", "Reflecting Pool"),
        perm("birds", "Birds of Paradise"),
        perm("c", "Contamination", "opp"),
        perm("sol", "Sol Ring"),
    )
    a = analyze_board(b)
    assert a.could_produce["s"] == ("B",)
    assert a.could_produce["pool"] == ("B",)
    assert a.could_produce["birds"] == ("W", "U", "B", "R", "G")
    assert a.could_produce["sol"] == ("C",)
    assert prod(a, ("sol", 0)) == (("C", "C"),)


def test_replacements_in_any_order_keep_the_larger_result() -> None:
    # Contamination then Reflection: {B}{B}; Reflection then Contamination: {B}. 616.1: player picks.
    a = analyze_board(board(perm("f", "Forest"), perm("c", "Contamination"), perm("mr", "Mana Reflection")))
    assert prod(a, ("f", 0)) == (("B", "B"),)
    assert a.could_produce["f"] == ("B",)


def test_blood_moon_before_urborg_and_undefined_types() -> None:
    a = analyze_board(
        board(
            perm("u", "Urborg, Tomb of Yawgmoth"),
            perm("bm", "Blood Moon", "opp"),
            perm("f", "Forest"),
            perm("pool", "Reflecting Pool"),
            perm("tower", "Command Tower"),
        )
    )
    # 613.8: Urborg depends on Blood Moon, is a Mountain and loses its ability: no Swamps anywhere
    assert a.could_produce == {"u": ("R",), "bm": (), "f": ("G",), "pool": ("R",), "tower": ("R",)}
    assert [ab.text for ab in a.state.state("f").abilities] == ["Add {G}."]


def test_urborg_alone_and_chromatic_lantern_grant() -> None:
    a = analyze_board(
        board(
            perm("u", "Urborg, Tomb of Yawgmoth"),
            perm("f", "Forest"),
            perm("lan", "Chromatic Lantern"),
            perm("tower", "Command Tower"),
        )
    )
    f = a.state.state("f")
    assert [(ab.origin, ab.text) for ab in f.abilities] == [
        ("land_type", "Add {B}."),
        ("land_type", "Add {G}."),
        ("granted", "Add one mana of any color."),
    ]
    assert a.could_produce["f"] == ("W", "U", "B", "R", "G")
    # Command Tower without a commander: its own ability adds nothing (903.4f), the granted one does
    assert prod(a, ("tower", 1)) == ()
    assert a.could_produce["tower"] == ("W", "U", "B", "R", "G")


def test_tapped_for_mana_triggers_and_doubling() -> None:
    a = analyze_board(
        board(
            perm("f", "Forest"),
            perm("sprawl", "Utopia Sprawl", chosen=Choices(color="U"), attached_to="f"),
            perm("hb", "Heartbeat of Spring", "opp"),
            perm("mr", "Mana Reflection"),
            perm("s", "Savannah", "opp"),
            perm("birds", "Birds of Paradise"),
        )
    )
    # Reflection doubles the Forest's {G}; Heartbeat adds a {G}; Utopia Sprawl an additional {U}
    assert prod(a, ("f", 0)) == (("U", "G", "G", "G"),)
    assert a.could_produce["f"] == ("G",)  # triggers are their sources' abilities (106.7)
    assert a.could_produce["sprawl"] == ("U",)
    # the opponent's Savannah: Heartbeat for any player, but Reflection is only "you"
    assert prod(a, ("s", 0)) == (("W", "W"),)
    # Birds is no land: no Heartbeat, but Reflection doubles
    assert ("G", "G") in (prod(a, ("birds", 0)) or ())


def test_mirari_wake_only_for_its_controller() -> None:
    a = analyze_board(board(perm("f", "Forest"), perm("g", "Forest", "opp"), perm("w", "Mirari's Wake")))
    assert prod(a, ("f", 0)) == (("G", "G"),)
    assert prod(a, ("g", 0)) == (("G",),)


def test_inline_cards_and_unknown_text_warns_without_guessing() -> None:
    odd = inline("Odd Land", "Land", "{T}: Add {G}. Add {U} at the beginning of your next main phase.")
    mine = inline("My Homebrew Land", "Land", "{T}: Add {C}.")
    a = analyze_board(board(perm("odd", odd), perm("h", mine), perm("pool", "Reflecting Pool")))
    assert prod(a, ("odd", 0)) is None
    assert a.could_produce["odd"] == ()
    assert a.could_produce["pool"] == ("C",)
    assert [w.permanent for w in a.warnings] == ["odd"]


def test_instead_within_the_ability_reads_the_board() -> None:
    """CR 614.1a: "If you control a Wizard, add {U} instead" uses the other mana when the board says so."""
    odd = inline("Odd Land", "Land", "{T}: Add {G}. If you control a Wizard, add {U} instead.")
    wizard = inline("Wizard", "Creature — Human Wizard")
    a = analyze_board(board(perm("odd", odd)))
    assert (prod(a, ("odd", 0)), a.warnings) == ((("G",),), ())
    a = analyze_board(board(perm("odd", odd), perm("w", wizard)))
    assert prod(a, ("odd", 0)) == (("U",),) and a.could_produce["odd"] == ("U",)
    a = analyze_board(board(perm("odd", odd), perm("w", wizard, "opp")))
    assert prod(a, ("odd", 0)) == (("G",),)  # "you control": the opponent's Wizard does not count


def test_gaeas_cradle_counts_and_zero_is_nothing() -> None:
    a = analyze_board(
        board(perm("gc", "Gaea's Cradle"), perm("e1", "Llanowar Elves"), perm("e2", "Llanowar Elves", "opp"))
    )
    assert prod(a, ("gc", 0)) == (("G",),)
    assert could(board(perm("gc", "Gaea's Cradle"))) == {"gc": ()}


def test_payment_sources_only_activatable_understood_unrestricted() -> None:
    from app.rules.mana.sources import payment_sources

    b = board(
        perm("f", "Forest"),
        perm("hb", "Heartbeat of Spring"),
        perm("tapped", "Forest", tapped=True),
        perm("elf", "Llanowar Elves", controlled_since_turn_began=False),
        perm("conf", "Mana Confluence"),
        perm("petal", "Lotus Petal"),
        perm("pillar", "Pillar of the Paruns"),
        perm("led", "Lion's Eye Diamond"),
        perm("bluffs", "Cascade Bluffs"),
        perm("opp-forest", "Forest", "opp"),
        perm("snow", "Snow-Covered Forest"),
    )
    got = {(s.permanent, s.ability): s for s in payment_sources(b, "you")}
    # Lion's Eye Diamond: "Discard your hand, Sacrifice ~" is paid from the board (an empty hand too)
    assert set(got) == {
        ("f", 0),
        ("conf", 0),
        ("petal", 0),
        ("bluffs", 0),
        ("bluffs", 1),
        ("snow", 0),
        ("led", 0),
    }
    led = got.pop(("led", 0))
    assert not led.uses_permanent and led.tokens == {"leaves:led"}  # no {T}: it leaves, once
    assert got[("f", 0)].outputs == (("G", "G"),)  # Heartbeat of Spring
    assert got[("conf", 0)].life_cost == 1 and len(got[("conf", 0)].outputs) == 5
    assert str(got[("bluffs", 1)].activation_cost) == "{U/R}"
    assert got[("snow", 0)].snow and not got[("f", 0)].snow
    assert all(s.uses_permanent for s in got.values())


def test_mana_reflections_multiply_as_counts_not_lists() -> None:
    """Issue 15: 40 Mana Reflections on a Forest is 2^40 mana, exact, computed in six integers."""
    reflection = inline(
        "Mana Reflection",
        "Enchantment",
        "If you tap a permanent for mana, it produces twice as much of that mana instead.",
    )
    forest = inline("Forest", "Basic Land — Forest")
    a = analyze_board(board(perm("f", forest), *(perm(f"m{i}", reflection) for i in range(40))))
    assert a.amount("f", 0) == 2**40
    assert a.produces[("f", 0)] == (Mana.single("G", 2**40),)
    assert a.warnings == ()


def test_counts_saturate_far_above_any_cost() -> None:
    big = Mana.single("G", MANA_BOUND).times(3)
    assert big.total == MANA_BOUND and big.saturated
    assert Mana.of("GGW").times(2).text() == "{W}{W}{G}{G}{G}{G}"
    assert Mana.single("C", 101).text() is None


def test_effects_on_mana_abilities() -> None:
    """CR 106.12a-b, 605.1b, 614.1a: triggers and replacements on tapping for mana, read from real text."""
    green = Choices(color="G")
    a = analyze_board(board(perm("sun", "Caged Sun", chosen=green), perm("f", "Forest"), perm("p", "Plains")))
    assert (prod(a, ("f", 0)), prod(a, ("p", 0)), a.warnings) == ((("G", "G"),), (("W",),), ())
    a = analyze_board(
        board(
            perm("g", "Gauntlet of Power", chosen=green),
            perm("f", "Forest", "opp"),
            perm("d", "Dryad Arbor"),
        )
    )
    assert prod(a, ("f", 0)) == (("G", "G"),)  # each basic land, whoever controls it
    assert prod(a, ("d", 0)) == (("G",),)  # not basic
    a = analyze_board(board(perm("fm", "Forsaken Monument"), perm("sol", "Sol Ring"), perm("f", "Forest")))
    assert (prod(a, ("sol", 0)), prod(a, ("f", 0))) == ((("C", "C", "C"),), (("G",),))
    a = analyze_board(board(perm("ds", "Damping Sphere"), perm("t", "Ancient Tomb"), perm("f", "Forest")))
    assert (prod(a, ("t", 0)), prod(a, ("f", 0))) == ((("C",),), (("G",),))
    a = analyze_board(board(perm("ds", "Damping Sphere"), perm("mr", "Mana Reflection"), perm("f", "Forest")))
    assert prod(a, ("f", 0)) == (("C",), ("G", "G"))  # in either order (CR 616.1)
    doublers = (("Zendikar Resurgent", 2), ("Nyxbloom Ancient", 3), ("Vorinclex, Voice of Hunger", 2))
    for doubler, want in doublers:
        a = analyze_board(board(perm("x", doubler), perm("f", "Forest")))
        assert (a.amount("f", 0), a.warnings) == (want, ()), doubler
    a = analyze_board(board(perm("mf", "Mana Flare"), perm("f", "Forest", "opp")))
    assert a.amount("f", 0) == 2


def test_activation_conditions_on_the_board() -> None:
    """CR 602.5b: Temple of the False God needs five lands; Mox Opal three artifacts."""
    from app.rules.mana.activation_checks import check_activation

    def reasons(b: Board, pid: str) -> list[str]:
        a = analyze_board(b)
        s = a.state.state(pid)
        return [r.rule for r in check_activation(a.state, s, s.abilities[0])]

    assert reasons(board(perm("t", "Temple of the False God")), "t") == ["602.5b"]
    lands = [perm(f"f{i}", "Forest") for i in range(4)]
    assert reasons(board(perm("t", "Temple of the False God"), *lands), "t") == []
    assert reasons(board(perm("m", "Mox Opal"), perm("s", "Sol Ring")), "m") == ["602.5b"]
    assert reasons(board(perm("m", "Mox Opal"), perm("s", "Sol Ring"), perm("s2", "Sol Ring")), "m") == []


def test_urza_lands_and_devotion() -> None:
    tron = [perm("mine", "Urza's Mine"), perm("pp", "Urza's Power Plant"), perm("tower", "Urza's Tower")]
    a = analyze_board(board(*tron))
    assert (a.amount("mine", 0), a.amount("pp", 0), a.amount("tower", 0)) == (2, 2, 3)
    a = analyze_board(board(tron[0], tron[2]))
    assert (a.amount("mine", 0), a.amount("tower", 0)) == (1, 1)
    a = analyze_board(board(perm("n", "Nykthos, Shrine to Nyx"), perm("e", "Llanowar Elves")))
    assert a.could_produce["n"] == ("G", "C")  # CR 700.5: devotion to green is 1
    assert (a.amount("n", 1), prod(a, ("n", 1))) == (1, (("G",),))


def test_counters_stated_on_the_board_set_the_amount() -> None:
    # Everflowing Chalice: "{T}: Add {C} for each charge counter on ~" (CR 122.1): two counters, {C}{C}.
    two = analyze_board(
        board(perm("c", "Everflowing Chalice", counters=(("charge", 2),), given=frozenset({"counters"})))
    )
    assert prod(two, ("c", 0)) == (("C", "C"),) and not two.warnings
    # Counters not stated: the least (none) and a warning, never a silent guess.
    unsaid = analyze_board(board(perm("c", "Everflowing Chalice")))
    assert prod(unsaid, ("c", 0)) == () and [w.permanent for w in unsaid.warnings] == ["c"]
