"""The ``Catalogue``'s card cache: bounded, checked against data_version at most once per interval."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.errors import AmbiguousCard, UnknownCard
from app.rules.values.cards import Card, Face
from app.rules.values.types import TypeLine
from app.services.card_import import DATA_VERSION_KEY
from app.services.catalogue import CardCache, Catalogue, reset_card_cache


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    reset_card_cache(drop_index=True)
    yield
    reset_card_cache()


def _card(name: str, oid: str) -> Card:
    return Card(name, (Face(name, None, TypeLine.parse("Land")),), oracle_id=oid)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_version_is_read_at_most_once_per_interval_and_a_change_empties_the_cache() -> None:
    clock = Clock()
    cache = CardCache(maxsize=10, check_interval=1.0, clock=clock)
    reads: list[str] = []
    version = "v1"

    def read() -> str:
        reads.append(version)
        return version

    assert cache.version(read) == "v1"
    cache.put(_card("A", "a"), "a")
    clock.now = 0.5
    version = "v2"
    assert cache.version(read) == "v1" and len(reads) == 1  # not re-read within the interval
    assert cache.card("a") is not None
    clock.now = 1.2
    assert cache.version(read) == "v2" and len(reads) == 2
    assert cache.card("a") is None and cache.oracle_id_for("a") is None


def test_cache_is_bounded_lru() -> None:
    cache = CardCache(maxsize=2)
    cache.put(_card("A", "a"), "a")
    cache.put(_card("B", "b"), "b")
    assert cache.card("a") is not None  # a is now the most recent
    cache.put(_card("C", "c"), "c")
    assert cache.card("b") is None and cache.card("a") is not None and len(cache) == 2


def test_catalogue_sees_a_new_import_after_the_version_changes(db_session: Session) -> None:
    cache = CardCache(check_interval=0.0)
    catalogue = Catalogue(db_session, cache=cache)
    oid = "bbbbbbbb-0000-4000-8000-000000000001"
    repo.upsert_cards(db_session, [_card("Qwzx Land", oid)])
    assert catalogue.by_name("qwzx land").oracle_id == oid
    repo.upsert_cards(db_session, [_card("Renamed Qwzx", oid)])
    assert catalogue.by_name("qwzx land").name == "Qwzx Land"  # cached under the same data_version
    repo.set_meta(db_session, DATA_VERSION_KEY, "2099-01-01T00:00:00+00:00")
    with pytest.raises(UnknownCard):
        catalogue.by_name("qwzx land")  # cache emptied: that name is gone
    assert catalogue.by_oracle_id(oid.upper()).name == "Renamed Qwzx"


def test_same_name_different_oracle_ids_is_ambiguous(db_session: Session) -> None:
    a, b = "bbbbbbbb-0000-4000-8000-00000000000a", "bbbbbbbb-0000-4000-8000-00000000000b"
    repo.upsert_cards(db_session, [_card("Qwzx Twin", a), _card("Qwzx Twin", b)])
    with pytest.raises(AmbiguousCard) as info:
        Catalogue(db_session).by_name("QWZX TWIN")
    assert {c["oracle_id"] for c in info.value.extra["candidates"]} == {a, b}
    assert Catalogue(db_session).resolve({"oracle_id": a}).oracle_id == a


def test_resolve_inline_card(db_session: Session) -> None:
    card = Catalogue(db_session).resolve(
        {"name": "My Land", "type_line": "Land", "oracle_text": "{T}: Add {C}."}
    )
    assert card.name == "My Land" and card.oracle_id is None
