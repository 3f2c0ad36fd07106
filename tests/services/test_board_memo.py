"""The board memo (``app.services.board_memo``): a board asked about again is read once, and every answer
is the one a fresh reading gives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import UnknownCard
from app.rules.casting.prepared import prepare_board
from app.rules.mana.payment import plan_payment
from app.rules.mana.payment_values import UnpayableError
from app.rules.mana.production import analyze_board
from app.rules.mana.sources import payment_inputs
from app.rules.values.costs import ManaCost
from app.schemas.board import BoardIn
from app.schemas.payments import PaymentPlanRequest
from app.schemas.spells import SpellCostRequest
from app.services import payments, spells
from app.services.board_memo import BOARDS, MAX_PERMANENTS, MAX_SEEN, BoardMemo
from app.services.boards import build_board
from app.services.catalogue import Catalogue

LANDS = ["Forest", "Island", "Plains", "Swamp", "Mountain", "Sol Ring", "Llanowar Elves", "Command Tower"]
BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "f1", "card": "Forest"},
        {"id": "f2", "card": "Forest", "tapped": True},
        {"id": "sol", "card": "Sol Ring"},
    ]
}


@pytest.fixture(autouse=True)
def _fresh_memo() -> Iterator[None]:
    BOARDS.clear()
    yield
    BOARDS.clear()


def _board(data: dict[str, Any]) -> BoardIn:
    return BoardIn.model_validate(data)


def test_a_board_asked_about_again_is_read_once(db_session: Session) -> None:
    memo = BoardMemo(keep_first_sighting=True)
    catalogue = Catalogue(db_session)
    first = memo.get(_board(BOARD), catalogue, "v1", extra_players=("you",))
    again = memo.get(_board(json.loads(json.dumps(BOARD))), catalogue, "v1", extra_players=("you",))
    assert again is first and (memo.hits, memo.misses) == (1, 1)
    assert first.analysis is first.analysis and first.prepared is first.prepared  # derived once too
    assert first.payer("you") is first.payer("you")


def test_a_board_is_kept_from_its_second_sighting(db_session: Session) -> None:
    """Issue 30: a board asked about once is not kept (its objects go with its request, never visited by
    the cyclic collector); asked again, it is read again and kept; then it is a hit."""
    memo = BoardMemo()
    catalogue = Catalogue(db_session)
    once = memo.get(_board(BOARD), catalogue, "v1", extra_players=("you",))
    assert len(memo) == 0 and memo.misses == 1
    twice = memo.get(_board(BOARD), catalogue, "v1", extra_players=("you",))
    assert twice is not once and len(memo) == 1
    assert memo.get(_board(BOARD), catalogue, "v1", extra_players=("you",)) is twice and memo.hits == 1
    other = {"permanents": [{**p, "id": "x" + p["id"]} for p in BOARD["permanents"]]}
    memo.get(_board(other), catalogue, "v1", extra_players=("you",))
    assert len(memo) == 1  # another board seen once: not kept either


def test_the_boards_seen_once_are_remembered_up_to_a_bound(db_session: Session) -> None:
    memo = BoardMemo()
    catalogue = Catalogue(db_session)
    boards = [_board({"permanents": [{"id": f"s{i}", "card": "Forest"}]}) for i in range(MAX_SEEN + 1)]
    for board in boards:
        memo.get(board, catalogue, "v")
    assert len(memo) == 0 and len(memo._seen) == MAX_SEEN
    memo.get(boards[0], catalogue, "v")  # forgotten (the oldest): a first sighting again
    assert len(memo) == 0
    memo.get(boards[-1], catalogue, "v")  # remembered: kept now
    assert len(memo) == 1


def test_the_key_is_the_board_as_validated_not_its_spelling(db_session: Session) -> None:
    memo = BoardMemo(keep_first_sighting=True)
    catalogue = Catalogue(db_session)
    reordered = {"permanents": [dict(reversed(list(p.items()))) for p in BOARD["permanents"]]}
    with_defaults = {"permanents": [{**p, "controller": "you"} for p in BOARD["permanents"]]}
    first = memo.get(_board(BOARD), catalogue, "v1")
    assert memo.get(_board(reordered), catalogue, "v1") is first
    assert memo.get(_board(with_defaults), catalogue, "v1") is first


def test_another_board_version_or_player_is_another_entry(db_session: Session) -> None:
    memo = BoardMemo(keep_first_sighting=True)
    catalogue = Catalogue(db_session)
    first = memo.get(_board(BOARD), catalogue, "v1", extra_players=("you",))
    tapped = {"permanents": [{**p, "tapped": True} for p in BOARD["permanents"]]}
    assert memo.get(_board(tapped), catalogue, "v1", extra_players=("you",)) is not first
    assert memo.get(_board(BOARD), catalogue, "v2", extra_players=("you",)) is not first  # re-imported
    assert memo.get(_board(BOARD), catalogue, "v1", extra_players=("ann",)) is not first
    assert memo.misses == 4 and len(memo) == 4


def test_it_keeps_at_most_its_size_least_recently_used_out(db_session: Session) -> None:
    memo = BoardMemo(maxsize=2, keep_first_sighting=True)
    catalogue = Catalogue(db_session)
    boards = [_board({"permanents": [{"id": f"p{i}", "card": "Forest"}]}) for i in range(3)]
    first = memo.get(boards[0], catalogue, "v")
    memo.get(boards[1], catalogue, "v")
    assert memo.get(boards[0], catalogue, "v") is first  # used again: now the most recent
    memo.get(boards[2], catalogue, "v")  # evicts boards[1]
    assert len(memo) == 2
    assert memo.get(boards[0], catalogue, "v") is first
    hits = memo.hits
    memo.get(boards[1], catalogue, "v")
    assert memo.hits == hits  # read again


def test_big_boards_and_bad_boards_are_not_kept(db_session: Session) -> None:
    memo = BoardMemo(keep_first_sighting=True)
    catalogue = Catalogue(db_session)
    big = _board({"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(MAX_PERMANENTS + 1)]})
    assert memo.get(big, catalogue, "v") is not memo.get(big, catalogue, "v")
    bad = _board({"permanents": [{"id": "x", "card": "No Such Card Anywhere"}]})
    for _ in range(2):
        with pytest.raises(UnknownCard):
            memo.get(bad, catalogue, "v")
    assert len(memo) == 0


def test_the_catalogue_reset_forgets_the_boards(db_session: Session) -> None:
    from app.services.catalogue import reset_card_cache

    for _ in range(2):  # kept from its second sighting
        BOARDS.get(_board(BOARD), Catalogue(db_session), "v")
    assert len(BOARDS) == 1
    reset_card_cache()
    assert len(BOARDS) == 0


permanents = st.lists(
    st.builds(
        lambda card, tapped: {"card": card, "tapped": tapped},
        st.sampled_from(LANDS),
        st.booleans(),
    ),
    min_size=0,
    max_size=8,
)
costs = st.sampled_from(["{G}", "{2}{G}{G}", "{W}{U}", "{3}", "{C}{C}", "{5}{G}", "{R/G}{R/G}", "{G/P}{G}"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(perms=permanents, asked=st.lists(costs, min_size=1, max_size=4))
def test_plans_through_the_memo_are_the_plans_of_a_fresh_reading(
    db_session: Session, perms: list[dict[str, Any]], asked: list[str]
) -> None:
    """The same board asked about several costs, through the service (memo warm after the first) and
    through the rules from a board read anew each time: the same plan, or the same shortfall."""
    board = {"permanents": [{**p, "id": f"p{i}"} for i, p in enumerate(perms)]}
    config = Settings()
    catalogue = Catalogue(db_session)
    for cost in asked:
        request = PaymentPlanRequest.model_validate({"board": board, "cost": cost})
        answer = payments.plan(request=request, session=db_session, settings=config)
        fresh = build_board(request.board, catalogue=catalogue, extra_players=("you",))
        inputs = payment_inputs(fresh, "you", ManaCost.parse(cost), None, analyze_board(fresh))
        try:
            found = plan_payment(ManaCost.parse(cost), inputs.sources, pool=fresh.pool_of("you"), life=20)
        except UnpayableError as exc:
            assert not answer.payable and answer.short == str(exc.short)
            continue
        assert answer.payable
        assert [(s.permanent, s.adds) for s in answer.plan] == [
            (s.permanent, "".join(f"{{{t}}}" for t in s.adds)) for s in found.steps
        ]
        assert [p.mana for p in answer.payments] == [p.mana for p in found.payments]


def test_costs_through_the_memo_are_the_costs_of_a_fresh_reading(db_session: Session) -> None:
    config = Settings()
    catalogue = Catalogue(db_session)
    for spell in ("Llanowar Elves", "Avacynian Priest", "Lightning Bolt", "Elvish Mystic"):
        request = SpellCostRequest.model_validate({"board": BOARD, "spell": {"card": spell}})
        first = spells.spell_cost(request=request, session=db_session, settings=config).model_dump()
        again = spells.spell_cost(request=request, session=db_session, settings=config).model_dump()
        fresh_board = prepare_board(build_board(request.board, catalogue=catalogue, extra_players=("you",)))
        to_cast = spells.spell_to_cast(request.spell, catalogue=catalogue)
        fresh = spells.cost_answer(
            spells.compute(fresh_board, "you", to_cast),
            rules_edition=config.rules_edition,
            data_version=catalogue.data_version,
        ).model_dump()
        assert first == again == fresh
    assert BOARDS.hits >= 6  # the board is kept from its second sighting, then every spell reads it


def test_it_keeps_at_most_so_many_permanents_in_all(db_session: Session) -> None:
    memo = BoardMemo(max_permanents=10, keep_first_sighting=True)
    catalogue = Catalogue(db_session)

    def forests(tag: str, n: int) -> BoardIn:
        return _board({"permanents": [{"id": f"{tag}{i}", "card": "Forest"} for i in range(n)]})

    first = memo.get(forests("a", 4), catalogue, "v")
    memo.get(forests("b", 4), catalogue, "v")
    assert memo.permanents == 8 and len(memo) == 2
    memo.get(forests("c", 4), catalogue, "v")  # 12 > 10: the least recently used board goes
    assert memo.permanents == 8 and len(memo) == 2
    assert memo.get(forests("a", 4), catalogue, "v") is not first  # it was the one evicted
    memo.get(forests("d", 9), catalogue, "v")
    assert memo.permanents <= 10


def test_it_keeps_at_most_so_many_characters_in_all(db_session: Session) -> None:
    """Inline cards carry long texts: the memo counts the characters of what it keeps (issue 27)."""
    catalogue = Catalogue(db_session)

    def board(tag: str) -> BoardIn:
        card = {
            "name": f"Wall {tag}",
            "type_line": "Creature — Wall",
            "oracle_text": "\n".join(["Defender. " * 60] * 5),
        }
        return _board({"permanents": [{"id": f"{tag}{i}", "card": card} for i in range(3)]})

    size = len(board("a").model_dump_json())
    memo = BoardMemo(max_chars=size * 25, keep_first_sighting=True)
    for tag in "abcdefghijklmnopqrstuvwxyz0123456789":
        memo.get(board(tag), catalogue, "v")
        assert memo.chars <= size * 25 + 25  # the tags differ in length by a character or two
    assert 20 <= len(memo) <= 26
    assert (
        BoardMemo(max_chars=size * 5, keep_first_sighting=True).get(board("x"), catalogue, "v") is not None
    )  # too big: not kept
    too_small = BoardMemo(max_chars=size * 5, keep_first_sighting=True)
    too_small.get(board("x"), catalogue, "v")
    assert len(too_small) == 0


def test_a_deadline_reached_mid_analysis_keeps_nothing_half_made(db_session: Session) -> None:
    """A request stopped at its deadline while the memo derives the board's analysis (issue 27): the
    memo holds no analysis afterwards, and the next request's is the analysis of a fresh reading."""
    import time

    from app.rules.deadline import Deadline, DeadlineExceeded, running

    board_in = _board({"permanents": [{"id": "f", "card": "Forest"}, {"id": "e", "card": "Llanowar Elves"}]})
    built = BOARDS.get(board_in, Catalogue(db_session), "v")
    with running(Deadline(time.monotonic() - 1)), pytest.raises(DeadlineExceeded):
        built.analysis  # noqa: B018 - the property computes
    assert "analysis" not in built._derived
    fresh = analyze_board(build_board(board_in, catalogue=Catalogue(db_session)))
    assert built.analysis.could_produce == fresh.could_produce


def test_reading_a_board_and_its_cost_effects_stops_at_the_deadline(db_session: Session) -> None:
    """Up to 2,000 permanents of inline cards are read on the event loop's slice: a safe point per
    permanent, in the board reader and in the cost-effect reader (issue 27)."""
    import time

    from app.rules.deadline import Deadline, DeadlineExceeded, running

    board_in = _board({"permanents": [{"id": f"f{i}", "card": "Forest"} for i in range(3)]})
    with running(Deadline(time.monotonic() - 1)), pytest.raises(DeadlineExceeded):
        build_board(board_in, catalogue=Catalogue(db_session))
    board = build_board(board_in, catalogue=Catalogue(db_session))
    with running(Deadline(time.monotonic() - 1)), pytest.raises(DeadlineExceeded):
        prepare_board(board)
    assert prepare_board(board) is not None


def test_clearing_the_memo_clears_the_rules_memos_of_the_boards_mana(db_session: Session) -> None:
    """The per-ability and per-ability-list memos (``production_memo``, ``permanent_facts``) hold what the
    kept boards' mana read; ``clear`` (a catalogue change under one data version) empties them too."""
    from app.rules.mana import permanent_facts, production_memo

    built = BOARDS.get(_board(BOARD), Catalogue(db_session), "v1", extra_players=("you",))
    assert built.analysis.produces
    assert permanent_facts.size()[0] > 0 and production_memo.size()[0] > 0
    BOARDS.clear()
    assert permanent_facts.size() == (0, 0) and production_memo.size() == (0, 0)
