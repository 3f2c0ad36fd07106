"""Issue 41: a permanent's facts kept per ability list (``permanent_facts``) and combined per board with
its state change no answer. On random boards of the catalogue's mana producers, with the state a kept
entry must not ignore (tapped, controlled since the turn began, haste, the controller a player or not,
charge counters) and the board-wide effects that must send a permanent through the full analysis
(replacements, triggered mana abilities, prohibitions, grants, type changes), the analysis, the sources
with and without a spell and the plans equal those computed with nothing kept (``memo=False``)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana import permanent_facts
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.sources import PaymentInputs, bare_payment_inputs, payment_inputs
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.costs import ManaCost
from tests.strategies import MANA_SOURCES, card, costs

KEPT_OR_NOT = (
    "Forest", "Snow-Covered Forest", "Sol Ring", "Llanowar Elves", "Birds of Paradise", "City of Brass",
    "Izzet Signet", "Mystic Gate", "Gilded Lotus", "Mana Vault", "Cormela, Glamour Thief",
    "Mana Confluence", "Tainted Field", "Gemstone Mine", "Lotus Petal", "Mishra's Workshop",
    "Amonkhet Raceway", "Evendo, Waking Haven", "Deathrite Shaman", "Reflecting Pool", "Thriving Bluff",
    "Unclaimed Territory", "Abzan Devotee", "Barbarian Ring",
)  # fmt: skip
"""Kept (every mana ability only its state can forbid: lands, rocks, dorks, a creature with haste) and
not (a life cost, an "Activate only", counters removed, a sacrifice, a restriction, a threshold), some
with a warning the request's state may call for (a color or creature type not chosen, CR 106.5; an
activation this turn or a graveyard not stated, CR 602.5b; counters not stated, CR 721.2a)."""
REACHING = (
    "Contamination", "Mana Reflection", "Heartbeat of Spring", "Mana Flare", "Pithing Needle",
    "Cursed Totem", "Null Rod", "Damping Sphere", "Concordant Crossroads", "Cryptolith Rite",
    "Blood Moon", "Humility", "Pulse of Llanowar", "Elvish Archdruid",
)  # fmt: skip
"""Board-wide effects: what they reach must not be read from a kept entry (CR 106.12, 602.5, 613.1)."""
SPELLS = ("Grizzly Bears", "Frogmite", "Lightning Bolt", "Cryptic Command", "Sol Ring")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Up to 12 permanents, copies of one card the same ``Card`` object, each with a state of its own."""
    names = [draw(st.sampled_from(KEPT_OR_NOT + MANA_SOURCES)) for _ in range(draw(st.integers(1, 8)))]
    names += [draw(st.sampled_from(REACHING)) for _ in range(draw(st.integers(0, 3)))]
    copies = draw(st.permutations([n for n in names for _ in range(draw(st.integers(1, 2)))]))
    perms = []
    for i, name in enumerate(copies[:12]):
        counters = draw(st.none() | st.integers(0, 12))
        perms.append(
            Permanent(
                f"p{i}",
                card(name),
                draw(st.sampled_from(("you", "you", "opp"))),
                tapped=draw(st.booleans()),
                controlled_since_turn_began=draw(st.booleans()),
                counters=() if counters is None else (("charge", counters),),
                given=frozenset() if counters is None else frozenset({"counters"}),
                chosen=Choices(card_name=draw(st.none() | st.sampled_from(copies))),  # Pithing Needle
            )
        )
    lives = st.sampled_from((20, 2, 1, 0))  # Mana Confluence's "Pay 1 life" (CR 119.4)
    return Board(tuple(perms), (Player("you", draw(lives)), Player("opp", draw(lives))))


def _same(a: BoardAnalysis, b: BoardAnalysis) -> None:
    assert a.could_produce == b.could_produce
    assert a.produces == b.produces
    assert list(a.produces) == list(b.produces)
    assert a.warnings == b.warnings


def _plan_or_short(inputs: PaymentInputs, board: Board, player: str, cost: ManaCost) -> object:
    try:
        return PaymentSources(inputs.sources, life=board.player(player).life).plan(cost)
    except UnpayableError as exc:
        return ("unpayable", str(exc), exc.short)


@SETTINGS
@given(boards(), costs, st.sampled_from(SPELLS))
def test_kept_permanent_facts_give_the_analysis_sources_and_plans_computed_anew(
    board: Board, text: str, spell: str
) -> None:
    anew = analyze_board(board, memo=False)
    _same(analyze_board(board), anew)
    kept = analyze_board(board)  # the entries are now there
    _same(kept, anew)
    cost = ManaCost.parse(text)
    face = card(spell).front
    for player in ("you", "opp"):
        bare = bare_payment_inputs(board, player, kept)
        fresh = bare_payment_inputs(board, player, anew, memo=False)
        assert bare == fresh
        assert _plan_or_short(bare, board, player, cost) == _plan_or_short(fresh, board, player, cost)
        for_spell = payment_inputs(board, player, cost, face, kept)
        assert for_spell == payment_inputs(board, player, cost, face, anew, memo=False)


def _board(*perms: Permanent) -> Board:
    return Board(perms, (Player("you"), Player("opp")))


def test_copies_stand_apart_by_their_state() -> None:
    """Two Llanowar Elves share one kept entry (the same ability list); one tapped, one new this turn
    (CR 302.6) and one ready: only the last is a source (CR 107.5, 302.6: "{T}: Add {G}")."""
    elves = card("Llanowar Elves")
    board = _board(
        Permanent("tapped", elves, "you", tapped=True),
        Permanent("new", elves, "you", controlled_since_turn_began=False),
        Permanent("ready", elves, "you"),
    )
    sources = bare_payment_inputs(board, "you").sources
    assert [s.permanent for s in sources] == ["ready"]
    assert sources == bare_payment_inputs(board, "you", analyze_board(board, memo=False), memo=False).sources


def test_haste_from_the_board_lets_a_new_creature_tap() -> None:
    """Concordant Crossroads: "All creatures have haste." (CR 702.10c): Llanowar Elves new this turn is a
    source; without the Crossroads it is not (CR 302.6)."""
    elves = Permanent("elves", card("Llanowar Elves"), "you", controlled_since_turn_began=False)
    hasty = _board(elves, Permanent("roads", card("Concordant Crossroads"), "opp"))
    assert [s.permanent for s in bare_payment_inputs(hasty, "you").sources] == ["elves"]
    assert bare_payment_inputs(_board(elves), "you").sources == ()


def test_a_threshold_keeps_an_ability_out_until_it_is_reached() -> None:
    """Evendo, Waking Haven: "STATION 12+ / {G}, {T}: Add {G} for each creature you control." (CR 721.2a):
    with 11 charge counters only its "{T}: Add {G}." is a source; with 12, both."""
    for counters, abilities in ((11, [0]), (12, [0, 1])):
        evendo = Permanent(
            "evendo",
            card("Evendo, Waking Haven"),
            "you",
            counters=(("charge", counters),),
            given=frozenset({"counters"}),
        )
        board = _board(evendo, Permanent("elves", card("Llanowar Elves"), "you"))
        found = [s.ability for s in bare_payment_inputs(board, "you").sources if s.permanent == "evendo"]
        assert found == abilities


def test_a_life_cost_needs_the_life() -> None:
    """Mana Confluence: "{T}, Pay 1 life: Add one mana of any color." (CR 119.4: a player can pay life only
    if their life total is at least the payment): a source at 1 life, not at 0."""
    confluence = Permanent("mc", card("Mana Confluence"), "you")
    for life, listed in ((1, ["mc"]), (0, [])):
        board = Board((confluence,), (Player("you", life),))
        assert [s.permanent for s in bare_payment_inputs(board, "you").sources] == listed


def test_an_activation_condition_is_read_on_the_board() -> None:
    """Tainted Field: "{T}: Add {W} or {B}. Activate only if you control an Island or a Swamp."
    (CR 602.5b): without a Swamp only its "{T}: Add {C}." is a source; with one, both."""
    field = Permanent("field", card("Tainted Field"), "you")
    for others, abilities in (((), [0]), ((Permanent("swamp", card("Swamp"), "you", tapped=True),), [0, 1])):
        board = _board(field, *others)
        found = [s.ability for s in bare_payment_inputs(board, "you").sources if s.permanent == "field"]
        assert found == abilities


def test_a_prohibition_reaches_a_kept_permanent() -> None:
    """Cursed Totem: "Activated abilities of creatures can't be activated." (CR 602.5): the Elves' kept
    entry says it is a plain source, and the board says it is not."""
    board = _board(
        Permanent("elves", card("Llanowar Elves"), "you"), Permanent("totem", card("Cursed Totem"), "opp")
    )
    assert bare_payment_inputs(board, "you").sources == ()


def test_a_replacement_reaches_a_kept_permanent() -> None:
    """Contamination: "If a land is tapped for mana, it produces {B} instead of any other type." (CR
    106.12b): a Forest's kept production is {G}; on this board its tapping gives {B}."""
    board = _board(Permanent("f", card("Forest"), "you"), Permanent("c", card("Contamination"), "opp"))
    assert analyze_board(board).could_produce["f"] == ("B",)
    assert [s.outputs for s in bare_payment_inputs(board, "you").sources] == [(("B",),)]


def test_the_memo_is_bounded_and_cleared() -> None:
    board = _board(Permanent("f", card("Forest"), "you"), Permanent("s", card("Sol Ring"), "you"))
    permanent_facts.clear()
    assert permanent_facts.size() == (0, 0)
    analyze_board(board)
    entries, chars = permanent_facts.size()
    assert entries == 2 and 0 < chars <= permanent_facts.MAX_CHARS
    analyze_board(board)
    bare_payment_inputs(board, "you")
    assert permanent_facts.size() == (entries, chars)  # the same lists: kept once
    permanent_facts.clear()
    assert permanent_facts.size() == (0, 0)
