"""Issue 30: the per-ability memo (``production_memo``) changes nothing. On random boards of the bundled
catalogue's mana producers mixed with board-wide effects (CR 106.12 replacements and triggered mana
abilities, CR 106.7 references, 305.7 type changes, 613.1f grants, 602.5 prohibitions, counts), the
memoized analysis, the sources it gives and the plans paying a cost equal the analysis computed anew."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana import permanent_facts, production_memo
from app.rules.mana.board_reading import read_board
from app.rules.mana.face_reading import kept_face_reading
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.sources import bare_payment_inputs
from app.rules.values.board import Board, Choices, Permanent, Player
from app.rules.values.costs import ManaCost
from tests.strategies import MANA_SOURCES, card, costs, permanent_bodies, rules_board

BOARD_WIDE = (
    "Mana Reflection", "Heartbeat of Spring", "Contamination", "Blood Moon", "Urborg, Tomb of Yawgmoth",
    "Cryptolith Rite", "Chromatic Lantern", "Exotic Orchard", "Fellwar Stone", "Nykthos, Shrine to Nyx",
    "Mana Flare", "Zendikar Resurgent", "Damping Sphere", "Collector Ouphe", "Pulse of Llanowar",
    "Elvish Archdruid", "Prismatic Omen", "Star Compass", "Vorinclex, Voice of Hunger", "Nyxbloom Ancient",
    "Mirari's Wake", "Yavimaya, Cradle of Growth", "Leyline of the Guildpact", "Cabal Coffers",
    "Carpet of Flowers", "Forbidden Orchard", "Joraga Treespeaker", "Harabaz Druid", "Gemstone Mine",
    "Mana Vault", "Doubling Cube", "Phyrexian Altar", "Celestial Colonnade", "Kinnan, Bonder Prodigy",
)  # fmt: skip
"""Permanents whose mana reads the board, or that change what others produce, are or may activate."""
SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    """Up to 9 permanents: one to three board-wide effects among plain mana sources."""
    wide = [draw(permanent_bodies(f"w{i}", BOARD_WIDE)) for i in range(draw(st.integers(1, 3)))]
    plain = [draw(permanent_bodies(f"p{i}", MANA_SOURCES)) for i in range(draw(st.integers(0, 6)))]
    return {"permanents": draw(st.permutations(wide + plain))}


def _same(a: BoardAnalysis, b: BoardAnalysis) -> None:
    assert a.could_produce == b.could_produce
    assert a.produces == b.produces
    assert list(a.produces) == list(b.produces)
    assert a.warnings == b.warnings


def _plan_or_short(sources: PaymentSources, cost: ManaCost) -> object:
    try:
        return sources.plan(cost)
    except UnpayableError as e:
        return ("unpayable", str(e), e.short)


@SETTINGS
@given(boards(), costs)
def test_memoized_analysis_sources_and_plans_equal_the_full_analysis(body: dict[str, Any], text: str) -> None:
    board, cost = rules_board(body), ManaCost.parse(text)
    anew = analyze_board(board, memo=False)
    first = analyze_board(board)  # fills the memo
    again = analyze_board(board)  # reads it
    _same(first, anew)
    _same(again, anew)
    for player in ("you", "opp"):
        kept = bare_payment_inputs(board, player, again)
        fresh = bare_payment_inputs(board, player, anew)
        assert kept == fresh
        pool, life = board.pool_of(player), board.player(player).life
        planned = _plan_or_short(PaymentSources(kept.sources, pool=pool, life=life), cost)
        assert planned == _plan_or_short(PaymentSources(fresh.sources, pool=pool, life=life), cost)


def test_the_memo_is_bounded_and_cleared() -> None:
    board = rules_board({"permanents": [{"id": "f", "card": "Forest"}, {"id": "s", "card": "Sol Ring"}]})
    production_memo.clear()
    permanent_facts.clear()  # its kept lists would answer without asking the ability memo
    assert production_memo.size() == (0, 0)
    analyze_board(board)
    entries, chars = production_memo.size()
    assert 0 < entries <= production_memo.MAX_ENTRIES
    assert 0 < chars <= production_memo.MAX_CHARS
    analyze_board(board)
    assert production_memo.size() == (entries, chars)  # the same abilities: kept once
    production_memo.clear()
    assert production_memo.size() == (0, 0)


FACE_WIDE = (
    "Alpine Moon", "Pithing Needle", "Druid Class", "Sorcerer Class", "Humility", "Magus of the Moon",
    "Linvala, Keeper of Silence", "Karn, the Great Creator", "Minimus Containment", "Cursed Totem",
    "Null Rod", "Drowned Catacomb", "Deathrite Shaman", "Overwhelming Splendor", "Tectonic Break",
)  # fmt: skip
"""Faces whose own texts read differently by their state (a Class's level) or that take abilities away,
change named lands or forbid activations (what ``face_reading`` keeps per face text)."""


@st.composite
def stated_boards(draw: st.DrawFn) -> Board:
    """Up to 11 permanents, board-wide ones of both lists among plain sources, each with a random
    state: controller, tapped, a Class's level, a chosen card name, what it is attached to."""
    names = [draw(st.sampled_from(BOARD_WIDE)) for _ in range(draw(st.integers(0, 2)))]
    names += [draw(st.sampled_from(FACE_WIDE)) for _ in range(draw(st.integers(1, 3)))]
    names += [draw(st.sampled_from(MANA_SOURCES)) for _ in range(draw(st.integers(0, 6)))]
    names = draw(st.permutations(names))
    ids = [f"p{i}" for i in range(len(names))]
    perms = []
    for pid, name in zip(ids, names, strict=True):
        level = draw(st.integers(1, 3))
        chosen = draw(st.none() | st.sampled_from(names))
        perms.append(
            Permanent(
                pid,
                card(name),
                draw(st.sampled_from(("you", "opp"))),
                tapped=draw(st.booleans()),
                chosen=Choices(card_name=chosen),
                attached_to=draw(st.none() | st.sampled_from(ids)),
                class_level=level,
                given=frozenset({"class_level"}) if draw(st.booleans()) else frozenset(),
            )
        )
    return Board(tuple(perms), (Player("you"), Player("opp")))


@SETTINGS
@given(stated_boards(), costs)
def test_kept_face_readings_equal_the_board_read_anew(board: Board, text: str) -> None:
    """The board read from the kept face readings (filled, then read; other examples' entries stay) equals
    it read anew for every permanent: states, abilities, effects, prohibitions, warnings; so do the
    analysis and the plans paying a cost."""
    anew = read_board(board, memo=False)
    assert read_board(board) == anew
    assert read_board(board) == anew
    fresh = analyze_board(board, memo=False)
    _same(analyze_board(board), fresh)
    kept = bare_payment_inputs(board, "you", analyze_board(board))
    assert kept == bare_payment_inputs(board, "you", fresh)
    cost = ManaCost.parse(text)
    planned = _plan_or_short(PaymentSources(kept.sources), cost)
    assert planned == _plan_or_short(PaymentSources(bare_payment_inputs(board, "you", fresh).sources), cost)


def test_the_face_memo_is_bounded_and_keeps_one_entry_per_face_text() -> None:
    board = rules_board({"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(5)]})
    kept_face_reading.cache_clear()
    read_board(board)
    assert len(kept_face_reading) == 1  # five Forests: one face text
    assert 0 < kept_face_reading.held_chars <= kept_face_reading.chars
    assert kept_face_reading.entries <= 4096
    read_board(board, memo=False)
    assert len(kept_face_reading) == 1  # read anew: nothing kept
    kept_face_reading.cache_clear()
    assert len(kept_face_reading) == 0


def test_a_class_level_is_part_of_what_the_face_memo_keeps() -> None:
    """CR 716.2a: the same Class at level 1 then 2 reads two texts; the level 2 grant (Sorcerer Class's
    mana ability for creatures) is not the level 1 reading kept."""
    kept_face_reading.cache_clear()
    for level in (1, 2, 1):
        board = Board(
            (
                Permanent("c", card("Sorcerer Class"), class_level=level, given=frozenset({"class_level"})),
                Permanent("e", card("Llanowar Elves")),
            ),
            (Player("you"), Player("opp")),
        )
        assert read_board(board) == read_board(board, memo=False)
        elves = read_board(board).states[1]
        assert len(elves.abilities) == (2 if level == 2 else 1)


TWIN_WIDE = (
    "Spreading Seas", "Convincing Mirage", "Sea's Claim", "Alpine Moon", "Blood Moon",
    "Urborg, Tomb of Yawgmoth", "Dryad of the Ilysian Grove", "Sorcerer Class", "Druid Class",
)  # fmt: skip
"""Cards that make copies of one face stand differently: a type change on the land an Aura enchants, a
Class at its own level, named lands of one controller's opponents only."""
TWIN_COPIED = (
    "Forest", "Island", "Breeding Pool", "Mystic Gate", "Llanowar Elves", "Sorcerer Class", "Druid Class",
    "Reflecting Pool", "Exotic Orchard", "City of Brass",
)  # fmt: skip


@st.composite
def twin_boards(draw: st.DrawFn) -> Board:
    """Each drawn card on the board one to three times, every copy the same ``Card`` object (as the
    catalogue hands it to every permanent naming it) with a state of its own: controller, Class level,
    what it is attached to, a chosen card name. ``read_board`` reads identical permanents once per board:
    copies that stand differently must not share a reading."""
    names = [draw(st.sampled_from(TWIN_WIDE)) for _ in range(draw(st.integers(1, 3)))]
    names += [draw(st.sampled_from(TWIN_COPIED)) for _ in range(draw(st.integers(1, 3)))]
    cards = {name: card(name) for name in names}
    copies = [name for name in names for _ in range(draw(st.integers(1, 3)))]
    copies = draw(st.permutations(copies))
    ids = [f"p{i}" for i in range(len(copies))]
    perms = [
        Permanent(
            pid,
            cards[name],
            draw(st.sampled_from(("you", "opp"))),
            chosen=Choices(card_name=draw(st.none() | st.sampled_from(names))),
            attached_to=draw(st.none() | st.sampled_from(ids)),
            class_level=draw(st.integers(1, 3)),
            given=frozenset({"class_level"}),
        )
        for pid, name in zip(ids, copies, strict=True)
    ]
    return Board(tuple(perms), (Player("you"), Player("opp")))


@SETTINGS
@given(twin_boards(), costs)
def test_identical_permanents_read_once_equal_each_read_anew(board: Board, text: str) -> None:
    """The board read with copies of a face read once equals it read anew for every permanent, and so do
    the analysis, the sources and the plans."""
    anew = read_board(board, memo=False)
    assert read_board(board) == anew
    fresh = analyze_board(board, memo=False)
    _same(analyze_board(board), fresh)
    for player in ("you", "opp"):
        kept = bare_payment_inputs(board, player, analyze_board(board))
        assert kept == bare_payment_inputs(board, player, fresh)
        cost = ManaCost.parse(text)
        planned = _plan_or_short(PaymentSources(kept.sources), cost)
        again = _plan_or_short(PaymentSources(bare_payment_inputs(board, player, fresh).sources), cost)
        assert planned == again


def _twins(*perms: tuple[str, str, str, dict[str, Any]]) -> Board:
    """A board whose permanents of one name share one ``Card`` object: (id, name, controller, fields)."""
    cards = {name: card(name) for _pid, name, _c, _f in perms}
    return Board(
        tuple(Permanent(pid, cards[name], controller, **fields) for pid, name, controller, fields in perms),
        (Player("you"), Player("opp")),
    )


def test_one_class_at_two_levels_is_read_at_each_level() -> None:
    """CR 716.2a: two Sorcerer Classes of one player, one at level 2 ("Creatures you control have '{T}: Add
    one mana of any color'" is among its level 2 abilities), one at level 1: the Elves gain the ability
    from the level 2 one, whichever stands first (the copy read second must not take the first one's
    reading)."""
    for first, second in ((1, 2), (2, 1)):
        board = _twins(
            ("c1", "Sorcerer Class", "you", {"class_level": first, "given": frozenset({"class_level"})}),
            ("c2", "Sorcerer Class", "you", {"class_level": second, "given": frozenset({"class_level"})}),
            ("e", "Llanowar Elves", "you", {}),
        )
        assert read_board(board) == read_board(board, memo=False)
        assert len(read_board(board).states[2].abilities) == 2


def test_a_named_land_and_its_unnamed_twin_stand_apart() -> None:
    """Alpine Moon: "Lands your opponents control with the chosen name lose all land types and abilities"
    (and gain "{T}: Add one mana of any color"): the opponent's City of Brass loses its own ability, the
    controller's keeps it. Both have no subtypes, so only whether each keeps its abilities tells them
    apart."""
    for mine_first in (True, False):
        brass = [("mine", "City of Brass", "you", {}), ("theirs", "City of Brass", "opp", {})]
        board = _twins(
            ("moon", "Alpine Moon", "you", {"chosen": Choices(card_name="City of Brass")}),
            *(brass if mine_first else brass[::-1]),
        )
        assert read_board(board) == read_board(board, memo=False)
        states = {s.id: s for s in read_board(board).states}
        assert [a.origin for a in states["mine"].abilities] == ["printed"]
        assert [a.origin for a in states["theirs"].abilities] == ["granted"]


REFERRING = (
    "Reflecting Pool", "Exotic Orchard", "Fellwar Stone", "Star Compass", "Benthic Explorers",
    "Gond Gate", "Plaza of Harmony", "Squandered Resources", "Quirion Explorer", "Harvester Druid",
)  # fmt: skip
"""Mana that reads what other permanents could produce (CR 106.7), through filters of different types and
controllers: lands you control, an opponent's, any player's, basic lands, Gates."""
REFERRED = (
    "Forest", "Snow-Covered Island", "Wastes", "City of Brass", "Azorius Guildgate", "Rakdos Guildgate",
    "Badlands", "Sol Ring", "Llanowar Elves", "Mishra's Workshop",
)  # fmt: skip


@SETTINGS
@given(
    st.lists(
        st.tuples(st.sampled_from(REFERRING + REFERRED), st.sampled_from(("you", "opp"))),
        min_size=2,
        max_size=9,
    )
)
def test_grouped_references_equal_each_permanent_read_by_its_filter(perms: list[tuple[str, str]]) -> None:
    """CR 106.7's fixed point: the references grouped per filter and player (``memo``) read what each
    permanent its filter names could produce, as reading them one by one does (``memo=False``)."""
    board = _twins(*((f"p{i}", name, who, {}) for i, (name, who) in enumerate(perms)))
    _same(analyze_board(board), analyze_board(board, memo=False))
