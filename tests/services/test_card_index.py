"""The in-memory read model of the catalogue (issue 14) and cheap unknown names (issue 15)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, NoReturn, cast

import pytest
from sqlalchemy.orm import Session

from app.db.repositories import cards as repo
from app.errors import AmbiguousCard, UnknownCard
from app.services.card_import import DATA_VERSION_KEY, data_version
from app.services.card_index import LIVE, CardIndex, load_at_startup, start_refresher
from app.services.catalogue import Catalogue, reset_card_cache


class _NoDatabase:
    """A session any use of which fails the test: the look-up must be answered from memory."""

    def __getattr__(self, name: str) -> NoReturn:
        raise AssertionError(f"the database was used ({name})")


OFFLINE = cast(Session, _NoDatabase())


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    reset_card_cache()
    yield
    LIVE.polled = False
    reset_card_cache()


@pytest.fixture
def loaded(db_session: Session) -> Iterator[CardIndex]:
    """The index as the service has it: whole catalogue preloaded, the version kept by the refresher."""
    index = load_at_startup(db_session, data_version(db_session))
    LIVE.polled = True
    yield index


def test_whole_catalogue_in_memory(loaded: CardIndex, db_session: Session) -> None:
    assert len(loaded.cards) == repo.count_cards(db_session)


def test_look_ups_need_no_database_once_loaded(loaded: CardIndex) -> None:
    catalogue = Catalogue(OFFLINE)
    assert catalogue.by_name("llanowar elves").name == "Llanowar Elves"
    assert catalogue.exact("Ice").name == "Fire // Ice"
    assert catalogue.by_name("Lim-Dul").name == "Lim-Dûl the Necromancer"  # word prefix
    assert catalogue.by_oracle_id("ae92942b-919c-4ea9-b693-85fcef765d5a").name == "Fire // Ice"
    with pytest.raises(AmbiguousCard):
        catalogue.by_name("Fire")  # Fire // Ice and Start // Fire
    with pytest.raises(UnknownCard) as unknown:
        catalogue.by_name("Llanowar Elfs")
    assert "Llanowar Elves" in [s["name"] for s in unknown.value.extra["suggestions"]]
    assert catalogue.data_version == loaded.version
    assert "Llanowar Elves" in catalogue.autocomplete("llanowar")


def test_unknown_names_cost_well_under_a_millisecond(loaded: CardIndex) -> None:
    catalogue = Catalogue(OFFLINE)
    names = [f"Llanowar Elfs {i}" for i in range(200)] + [f"Qqzx Unknown {i}" for i in range(200)]
    started = time.perf_counter()
    for name in names:
        with pytest.raises(UnknownCard):
            catalogue.by_name(name)
    per_name = (time.perf_counter() - started) / len(names)
    assert per_name < 0.003, f"{per_name * 1000:.2f} ms per unknown name"  # measured ~0.2-0.8 ms


def test_a_board_of_unknown_names_lists_100_and_counts_all(client: Any) -> None:
    permanents = [{"id": f"p{i}", "card": f"No Such Card {i}"} for i in range(300)]
    body = {"board": {"permanents": permanents}, "spell": {"card": "Lightning Bolt"}}
    started = time.perf_counter()
    response = client.post("/v1/spells/cost", json=body)
    elapsed = time.perf_counter() - started
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"].endswith("/problems/unknown-card")
    assert problem["error_count"] == 300
    assert len(problem["errors"]) == 100
    assert elapsed < 2.0


def test_a_new_data_version_builds_a_new_index(db_session: Session) -> None:
    catalogue = Catalogue(db_session)
    first = catalogue.index
    repo.set_meta(db_session, DATA_VERSION_KEY, "2099-01-01T00:00:00+00:00")
    reset_card_cache()  # forget the version read (the cache reads it at most once a second)
    second = Catalogue(db_session).index
    assert second is not first and second.version == "2099-01-01T00:00:00+00:00"


def test_refresher_publishes_a_new_version(db_session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    from contextlib import nullcontext

    monkeypatch.setattr("app.services.card_index.POLL_INTERVAL_S", 0.01)
    # names only: a fast test
    monkeypatch.setattr(CardIndex, "preload", lambda self, session, previous=None: None)
    versions = iter(["v-one", "v-two"] + ["v-two"] * 1000)
    stop = start_refresher(lambda: cast(Session, nullcontext(db_session)), lambda _s: next(versions))
    try:
        deadline = time.monotonic() + 60
        while (LIVE.index is None or LIVE.index.version != "v-two") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert LIVE.index is not None and LIVE.index.version == "v-two"
        assert Catalogue(OFFLINE).data_version == "v-two"
    finally:
        stop.set()


def test_a_reload_shares_what_did_not_change(db_session: Session) -> None:
    """A reload's index is made of the replaced index's objects wherever they are equal (names, entries,
    cards, their faces and id strings), so freeing the replaced one gives its memory back."""
    version = data_version(db_session)
    first = CardIndex.build(db_session, version, preload=True)
    second = CardIndex.build(db_session, version + "+reloaded", preload=True, previous=first)
    assert second.cards.keys() == first.cards.keys() and second.entries.keys() == first.entries.keys()
    assert all(second.cards[oid] is card for oid, card in first.cards.items())
    assert all(second.entries[name] is found for name, found in first.entries.items())
    ids = {id(oid) for oid in first.cards}
    assert all(id(oid) in ids for oid in second.cards)
