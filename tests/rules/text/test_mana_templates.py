"""Mana templates read since issue 11, on made-up cards where a real one would hide the rule."""

from __future__ import annotations

from app.rules.mana.production import analyze_board
from app.rules.mana.production_replacements import MAX_SPLITS
from app.rules.text.mana_amounts import parse_amount, parse_condition
from app.rules.text.mana_filters import parse_filter
from app.rules.values.board import Board, Permanent, Player, ThisTurn
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine


def _card(
    name: str, text: str, cost: str | None = None, types: str = "Artifact", power: str | None = None
) -> Card:
    mana = ManaCost.parse(cost) if cost is not None else None
    return Card(name, (Face(name, mana, TypeLine.parse(types), text, power=power),))


def _alts(board: Board, pid: str, index: int = 0) -> list[str | None]:
    got = analyze_board(board).produces[(pid, index)]
    assert got is not None
    return sorted(m.text() or "" for m in got)


def test_filter_qualities_after_the_nouns() -> None:
    flt = parse_filter("creature with power 4 or greater you control")
    assert flt is not None and flt.min_power == 4 and flt.controller == "you"
    named = parse_filter("artifact you control named ~")
    assert named is not None and named.named == "~" and named.types == ("Artifact",)
    counter = parse_filter("Each creature you control with a +1/+1 counter on it")
    assert counter is not None and counter.counter == "+1/+1"
    anyc = parse_filter("creature you control with a counter on it")
    assert anyc is not None and anyc.counter == ""
    ally = parse_filter("Allies you control")  # "ies" plural
    assert ally is not None and ally.subtypes == ("Ally",)
    shrine = parse_filter("Shrines you control")  # CR 205.3h enchantment type
    assert shrine is not None and shrine.subtypes == ("Shrine",)


def test_amounts_and_conditions_read_here() -> None:
    power = parse_amount("~'s power")
    assert power is not None and power.power == "self"
    plus = parse_amount("the number of charge counters on ~ plus one")
    assert plus is not None and plus.counter == "charge" and plus.offset == 1
    value = parse_amount("1 plus the exiled creature's mana value")
    assert value is not None and value.cost_value and value.offset == 1
    assert parse_condition("if creatures you control have total power 8 or greater").kind == "total_power"
    assert parse_condition("If ~ has a +1/+1 counter on it").kind == "counter"


def test_activation_conditions_of_board_facts() -> None:
    """CR 602.5b conditions the board states: a subtype list with articles (the Verges), a timing tail
    (602.5d, no board fact), a two-word creature type, zone counts (402.1, 404.1), counters on it (122.1),
    whose turn (505.1), a color (105.2)."""
    verge = parse_condition("if you control a Forest or an Island")
    assert verge.kind == "control" and verge.needs[0][0].subtypes == ("Forest", "Island")
    temple = parse_condition("if you control ten or more permanents and only as a sorcery")
    assert temple.kind == "control" and temple.needs[0][1] == 10 and temple.text.endswith("as a sorcery")
    assert parse_condition("if you control a Time Lord").needs[0][0].subtypes == ("Time Lord",)
    ring = parse_condition("if seven or more cards are in your graveyard")
    assert (ring.kind, ring.zone, ring.at_least, ring.at_most) == ("cards", "graveyard", 7, None)
    library = parse_condition("if you have exactly seven cards in hand")
    assert (library.zone, library.at_least, library.at_most) == ("hand", 7, 7)
    assert parse_condition("if you have no cards in hand").at_most == 0
    pyramid = parse_condition("if there are three or more brick counters on ~")
    assert (pyramid.kind, pyramid.counter, pyramid.at_least) == ("counters", "brick", 3)
    assert parse_condition("if it has no time counters on it").at_most == 0
    assert parse_condition("if it's not your turn").kind == "not_your_turn"
    swamp = parse_condition("if you control two or more black permanents")
    assert swamp.needs[0][0].color == "B" and swamp.needs[0][1] == 2
    # still not read, so warned: another player's hand, this turn's events
    assert parse_condition("if a player has one or fewer cards in hand").kind == "unknown"
    assert parse_condition("if a creature died this turn").kind == "unknown"


def test_power_counts_counters_and_a_star_is_not_guessed() -> None:
    text = "{T}: Add an amount of {G} equal to ~'s power."
    bear = _card("Bear", text, "{1}{G}", "Creature — Bear", power="2")
    board = Board(
        (Permanent("b", bear, counters=(("+1/+1", 2), ("-1/-1", 1)), given=frozenset({"counters"})),)
    )
    assert _alts(board, "b") == ["{G}{G}{G}"]
    star = _card("Star", text, "{1}{G}", "Creature — Bear", power="*")
    analysis = analyze_board(Board((Permanent("s", star),)))
    assert analysis.produces[("s", 0)] == ()
    assert any("taken as 0" in w.reason for w in analysis.warnings)


def test_splits_are_listed_up_to_the_bound_then_one_type_with_a_warning() -> None:
    text = "{T}: Add X mana in any combination of colors, where X is your life total."
    card = _card("Fountain", text)
    few = Board((Permanent("f", card),), (Player("you", life=2),))
    assert len(_alts(few, "f")) == 15  # every multiset of two mana over five colors
    many = Board((Permanent("f", card),), (Player("you", life=40),))
    analysis = analyze_board(many)
    assert MAX_SPLITS < 135751  # 40 mana over five colors: far too many to list
    assert sorted(m.text(1000) or "" for m in analysis.produces[("f", 0)]) == sorted(
        ("{" + c + "}") * 40 for c in "WUBRG"
    )
    assert any("only one-type splits" in w.reason for w in analysis.warnings)


def test_mana_equal_to_the_enchanted_permanents_mana_cost() -> None:
    aura = _card("Resonance", "{T}: Add mana equal to enchanted permanent's mana cost.", "{2}", "Artifact")
    target = _card("Target", "", "{X}{2}{W/U}{B}", "Creature — Bear", power="1")
    board = Board((Permanent("t", target), Permanent("a", aura, attached_to="t")))
    # X is 0, generic is colorless, a hybrid symbol one of its colors (CR 107.3, 107.4)
    assert _alts(board, "a") == sorted(["{W}{B}{C}{C}", "{U}{B}{C}{C}"])
    alone = Board((Permanent("a", aura),))
    assert analyze_board(alone).produces[("a", 0)] == ()


def test_opponents_life_lost_is_read_only_when_stated() -> None:
    text = "{T}: Add {R} for each 1 life your opponents have lost this turn."
    card = _card("Neheb-like", text)
    told = Player("opp", this_turn=ThisTurn(life_lost=3, given=frozenset({"life_lost"})))
    assert _alts(Board((Permanent("n", card),), (Player("you"), told)), "n") == ["{R}{R}{R}"]
    analysis = analyze_board(Board((Permanent("n", card),), (Player("you"), Player("opp"))))
    assert analysis.produces[("n", 0)] == () and analysis.warnings
