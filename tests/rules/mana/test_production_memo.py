"""Issue 30: the per-ability memo (``production_memo``) changes nothing. On random boards of the bundled
catalogue's mana producers mixed with board-wide effects (CR 106.12 replacements and triggered mana
abilities, CR 106.7 references, 305.7 type changes, 613.1f grants, 602.5 prohibitions, counts), the
memoized analysis, the sources it gives and the plans paying a cost equal the analysis computed anew."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.mana import production_memo
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import BoardAnalysis, analyze_board
from app.rules.mana.sources import bare_payment_inputs
from app.rules.values.costs import ManaCost
from tests.strategies import MANA_SOURCES, costs, permanent_bodies, rules_board

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
