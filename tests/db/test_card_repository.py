"""The card repository on the test database (SQLite or PostgreSQL): upserts, loading, names, cost search."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.types import TypeLine
from app.services.catalogue import reset_card_cache

ONE = "aaaaaaaa-0000-4000-8000-000000000001"
TWO = "aaaaaaaa-0000-4000-8000-000000000002"
TWO_NOWHERE = "aaaaaaaa-0000-4000-8000-000000000009"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache(drop_index=True)
    yield
    reset_card_cache()


def _face(name: str, cost: str | None, type_line: str = "Instant", **kw: object) -> Face:
    return Face(name, ManaCost.parse(cost) if cost is not None else None, TypeLine.parse(type_line), **kw)  # type: ignore[arg-type]


def test_upsert_and_load_round_trip(db_session: Session) -> None:
    card = Card(
        name="Zzyx // Qqorp",
        faces=(
            _face("Zzyx", "{1}{R}", oracle_text="Burn.", keywords=("Fuse",), flavor_text="Hot."),
            _face("Qqorp", "{W/U}{G/P}", "Legendary Creature — Elf Druid", colors=()),
        ),
        layout="split",
        oracle_id=ONE,
        legalities=(("legacy", "legal"), ("modern", "not_legal"), ("vintage", "restricted")),
    )
    assert repo.upsert_cards(db_session, [card]) == (1, 0)
    loaded = repo.load_cards(db_session, [ONE, "aaaaaaaa-0000-4000-8000-00000000ffff"])
    assert list(loaded) == [ONE]
    back = loaded[ONE]
    assert back.faces == card.faces
    assert back.layout == "split"
    assert dict(back.legalities) == {"legacy": "legal", "vintage": "restricted"}  # not_legal is not stored
    nowhere = Card(
        name="Zzyx Unset", faces=(_face("Zzyx Unset", "{1}{R}"),), oracle_id=TWO_NOWHERE,
        legalities=(("legacy", "not_legal"), ("vintage", "not_legal")),
    )  # fmt: skip
    repo.upsert_cards(db_session, [nowhere])
    # legal nowhere: kept, so it reads as not legal rather than as a card without legality data
    assert repo.load_cards(db_session, [TWO_NOWHERE])[TWO_NOWHERE].legalities == nowhere.legalities


def test_names_faces_and_prefix(db_session: Session) -> None:
    repo.upsert_cards(
        db_session,
        [
            Card("Zzyx // Qqorp", (_face("Zzyx", "{R}"), _face("Qqorp", "{U}")), "split", ONE),
            Card("Zzyx Qqorp's Vault", (_face("Zzyx Qqorp's Vault", "{B}"),), "normal", TWO),
        ],
    )
    assert [h.oracle_id for h in repo.find_by_name(db_session, "zzyx // qqorp", card_names_only=True)] == [
        ONE
    ]
    assert repo.find_by_name(db_session, "qqorp", card_names_only=True) == []
    assert [h.oracle_id for h in repo.find_by_name(db_session, "qqorp", card_names_only=False)] == [ONE]
    # "zzyx" is the first word of both cards; "zzyx qqorp's" only of the vault
    assert {h.oracle_id for h in repo.find_by_word_prefix(db_session, "zzyx", limit=10)} == {ONE, TWO}
    assert [h.oracle_id for h in repo.find_by_word_prefix(db_session, "zzyx qqorp's", limit=10)] == [TWO]
    assert repo.find_by_word_prefix(db_session, "zzy", limit=10) == []  # whole words only
    assert repo.find_by_word_prefix(db_session, "zz%", limit=10) == []  # LIKE wildcards are escaped


def test_cost_keys_cover_the_card_and_each_face(db_session: Session) -> None:
    repo.upsert_cards(
        db_session, [Card("Zzyx // Qqorp", (_face("Zzyx", "{1}{R}"), _face("Qqorp", "{1}{U}")), "split", ONE)]
    )
    for cost in ("{1}{R}", "{R}{1}", "{1}{U}", "{2}{U}{R}"):
        hits = repo.search(db_session, cost_key=ManaCost.parse(cost).sort_key, fmt=None, name_contains="zzyx",
                           after=None, limit=10)  # fmt: skip
        assert [o for _, o in hits] == [ONE], cost
    none = repo.search(db_session, cost_key=ManaCost.parse("{1}{B}").sort_key, fmt=None, name_contains="zzyx",
                       after=None, limit=10)  # fmt: skip
    assert none == []


def test_meta_upsert(db_session: Session) -> None:
    assert repo.get_meta(db_session, "test.key") is None
    repo.set_meta(db_session, "test.key", "one")
    repo.set_meta(db_session, "test.key", "two")
    assert repo.get_meta(db_session, "test.key") == "two"
