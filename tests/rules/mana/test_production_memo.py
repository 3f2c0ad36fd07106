"""Issue 30: the per-ability memo (``production_memo``) changes nothing. On random boards of the bundled
catalogue's mana producers mixed with board-wide effects (CR 106.12 replacements and triggered mana
abilities, CR 106.7 references, 305.7 type changes, 613.1f grants, 602.5 prohibitions, counts), the
memoized analysis, the sources it gives and the plans paying a cost equal the analysis computed anew."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana import production_memo
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
