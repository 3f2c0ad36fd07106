"""``/v1/scenarios`` through HTTP: keys, ownership, validation, ETags, choices, Mental Magic, listing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.db.models.scenarios import (
    ScenarioChoiceRow,
    ScenarioPermanentRow,
    ScenarioPlayedCardRow,
    ScenarioRow,
)
from app.services.api_keys import create_api_key, revoke_api_key
from tests.scenario_rows import assert_rows_follow_the_board

COMPUTED = {"rules_edition", "data_version"}
"""What a creating or replacing answer adds to the stored scenario (the catalogue that validated it)."""

PROBLEM = "application/problem+json"

HORN_BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "forest", "card": "Forest"},
    ]
}
RICHARD_BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "richard-1", "card": "Richard Garfield, Ph.D."},
        {"id": "richard-2", "card": "Richard Garfield, Ph.D."},
        {"id": "forest", "card": "Forest"},
    ]
}


@pytest.fixture
def key(db_session: Session) -> str:
    return create_api_key(db_session, name="site-a")


@pytest.fixture
def auth(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def other_auth(db_session: Session) -> dict[str, str]:
    return {"Authorization": f"Bearer {create_api_key(db_session, name='site-b')}"}


def create(
    client: TestClient, auth: dict[str, str], name: str = "elves", board: Any = None, **extra: Any
) -> Any:
    body = {"name": name, "board": HORN_BOARD if board is None else board, **extra}
    return client.post("/v1/scenarios", json=body, headers=auth)


def created(
    client: TestClient, auth: dict[str, str], name: str = "elves", board: Any = None, **extra: Any
) -> Any:
    response = create(client, auth, name, board, **extra)
    assert response.status_code == 201, response.text
    return response.json()


def stored_count(db_session: Session) -> int:
    return len(db_session.scalars(select(ScenarioRow.id)).all())


# --- keys ----


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer nope"},
        {"Authorization": "Basic dXNlcjpwYXNz"},
        {"Authorization": "Bearer"},
    ],
)
def test_no_or_wrong_key_is_401_problem(client: TestClient, headers: dict[str, str]) -> None:
    for response in (
        client.get("/v1/scenarios", headers=headers),
        client.post("/v1/scenarios", json={"name": "x", "board": {}}, headers=headers),
        client.get("/v1/scenarios/whatever", headers=headers),
    ):
        assert response.status_code == 401
        assert response.headers["content-type"].startswith(PROBLEM)
        assert response.headers["www-authenticate"] == "Bearer"
        assert response.json()["type"] == "/problems/unauthorized"


def test_revoked_key_is_401(client: TestClient, db_session: Session, key: str, auth: dict[str, str]) -> None:
    assert client.get("/v1/scenarios", headers=auth).status_code == 200
    revoke_api_key(db_session, name="site-a")
    assert client.get("/v1/scenarios", headers=auth).status_code == 401


def test_another_keys_scenario_is_404_everywhere(
    client: TestClient, auth: dict[str, str], other_auth: dict[str, str]
) -> None:
    s = created(client, auth)
    url = f"/v1/scenarios/{s['id']}"
    etag = client.get(url, headers=auth).headers["etag"]
    with_match = {**other_auth, "If-Match": etag}
    assert client.get(url, headers=other_auth).status_code == 404
    assert client.put(url, json={"name": "x", "board": {}}, headers=with_match).status_code == 404
    assert (
        client.put(
            f"{url}/permanents/horn/choice", json={"creature_type": "Goblin"}, headers=other_auth
        ).status_code
        == 404
    )
    assert (
        client.post(f"{url}/spells/cost", json={"spell": {"card": "Forest"}}, headers=other_auth).status_code
        == 404
    )
    assert client.delete(url, headers=with_match).status_code == 404
    assert client.get("/v1/scenarios", headers=other_auth).json()["data"] == []
    # ...and the owner still has it, unchanged.
    assert client.get(url, headers=auth).json()["version"] == 1


# --- create and read ----


def test_create_answers_201_location_etag_and_the_scenario(client: TestClient, auth: dict[str, str]) -> None:
    response = create(client, auth, description="Herald's Horn on Elves")
    assert response.status_code == 201
    body = response.json()
    assert set(body) >= {"id", "name", "description", "owner", "board", "version", "created_at", "updated_at"}
    assert body["name"] == "elves"
    assert body["description"] == "Herald's Horn on Elves"
    assert body["owner"] is None
    assert body["version"] == 1
    assert body["created_at"] == body["updated_at"]
    assert body["created_at"].endswith(("Z", "+00:00"))
    assert response.headers["location"] == f"/v1/scenarios/{body['id']}"
    assert response.headers["etag"] == f'"{body["id"]}-v1"'
    # The board comes back normalized with every default filled in.
    horn = body["board"]["permanents"][0]
    assert horn["card"] == "Herald's Horn"
    assert horn["chosen"]["creature_type"] == "Elf"
    assert horn["controller"] == "you"
    assert horn["tapped"] is False

    # Creating computed (the board validated against the catalogue): its answer says with what; a read
    # computes nothing and answers the stored scenario alone.
    assert (body.pop("rules_edition"), body.pop("data_version")[:2]) == ("2026-04-17", "20")
    got = client.get(response.headers["location"], headers=auth)
    assert got.status_code == 200
    assert got.json() == body
    assert got.headers["etag"] == response.headers["etag"]


def test_if_none_match_answers_304(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth)
    url = f"/v1/scenarios/{s['id']}"
    etag = client.get(url, headers=auth).headers["etag"]
    assert client.get(url, headers={**auth, "If-None-Match": etag}).status_code == 304
    assert client.get(url, headers={**auth, "If-None-Match": f'"{s["id"]}-v9"'}).status_code == 200


def test_rows_are_stored_beside_the_board(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    s = created(
        client,
        auth,
        board={**HORN_BOARD, "permanents": [*HORN_BOARD["permanents"], *RICHARD_BOARD["permanents"][:1]]},
    )
    perms = db_session.scalars(
        select(ScenarioPermanentRow)
        .where(ScenarioPermanentRow.scenario_id == s["id"])
        .order_by(ScenarioPermanentRow.position)
    ).all()
    assert [(p.permanent_id, p.card_name) for p in perms] == [
        ("horn", "Herald's Horn"),
        ("forest", "Forest"),
        ("richard-1", "Richard Garfield, Ph.D."),
    ]
    assert all(p.oracle_id for p in perms)
    choices = db_session.scalars(
        select(ScenarioChoiceRow).where(ScenarioChoiceRow.scenario_id == s["id"])
    ).all()
    assert [(c.permanent_id, c.kind, c.value) for c in choices] == [("horn", "creature_type", "Elf")]


def test_same_name_same_key_and_owner_is_409(
    client: TestClient, auth: dict[str, str], other_auth: dict[str, str]
) -> None:
    created(client, auth, "deck")
    again = create(client, auth, "deck")
    assert again.status_code == 409
    assert again.headers["content-type"].startswith(PROBLEM)
    assert again.json()["type"] == "/problems/conflict"
    # Other owners and other keys have their own names; the transaction is still usable after the 409.
    assert create(client, auth, "deck", owner="user-1").status_code == 201
    assert create(client, auth, "deck", owner="user-2").status_code == 201
    assert create(client, auth, "deck", owner="user-1").status_code == 409
    assert create(client, other_auth, "deck").status_code == 201


@pytest.mark.parametrize(
    ("board", "problem_type", "loc"),
    [
        (
            {"permanents": [{"id": "a", "card": "No Such Card Anywhere"}]},
            "unknown-card",
            ["body", "board", "permanents", 0, "card"],
        ),
        (
            {
                "permanents": [
                    {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cat Warrior"}}
                ]
            },
            "invalid-choice",
            ["body", "board", "permanents", 0, "chosen", "creature_type"],
        ),
        (
            {"permanents": [{"id": "a", "card": "Forest"}, {"id": "a", "card": "Forest"}]},
            "validation-error",
            ["body", "board", "permanents", 1, "id"],
        ),
        (
            {"permanents": [{"id": "a", "card": "Forest", "taped": True}]},
            "validation-error",
            ["body", "board", "permanents", 0, "taped"],
        ),
        (
            {
                "permanents": [
                    {
                        "id": "r",
                        "card": "Richard Garfield, Ph.D.",
                        "played_as": ["Swords to Plowshares", "swords to plowshares"],
                    }
                ]
            },
            "rules-violation",
            ["body", "board", "permanents", 0, "played_as", 1],
        ),
    ],
)
def test_invalid_board_is_422_and_nothing_is_stored(
    client: TestClient,
    auth: dict[str, str],
    db_session: Session,
    board: Any,
    problem_type: str,
    loc: list[Any],
) -> None:
    response = create(client, auth, board=board)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["type"] == f"/problems/{problem_type}"
    assert loc in [e["loc"] for e in problem["errors"]]
    assert stored_count(db_session) == 0


@pytest.mark.parametrize(
    "body",
    [
        {"name": "", "board": {}},
        {"name": "   ", "board": {}},
        {"name": "x" * 201, "board": {}},
        {"name": "x", "description": "d" * 2001, "board": {}},
        {"name": "x", "owner": "o" * 201, "board": {}},
        {"name": "x"},
        {"name": "x", "board": {}, "extra": 1},
    ],
)
def test_bounds_are_422(client: TestClient, auth: dict[str, str], body: dict[str, Any]) -> None:
    assert client.post("/v1/scenarios", json=body, headers=auth).status_code == 422


# --- idempotency ----


def test_idempotent_retry_answers_the_first_result(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    headers = {**auth, "Idempotency-Key": "req-123"}
    body = {"name": "retry", "board": HORN_BOARD}
    first = client.post("/v1/scenarios", json=body, headers=headers)
    second = client.post("/v1/scenarios", json=body, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second.headers["location"] == first.headers["location"]
    assert second.headers.get("idempotent-replayed") == "true"
    assert stored_count(db_session) == 1
    # Another body with the same key is refused; another key creates.
    changed = client.post("/v1/scenarios", json={**body, "description": "other"}, headers=headers)
    assert changed.status_code == 422
    assert changed.json()["type"] == "/problems/idempotency-key-reused"
    other = client.post(
        "/v1/scenarios", json={**body, "name": "retry-2"}, headers={**auth, "Idempotency-Key": "req-124"}
    )
    assert other.status_code == 201
    assert stored_count(db_session) == 2


def test_idempotency_key_with_a_taken_name_or_another_invalid_body(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    created(client, auth, "taken")
    taken = client.post(
        "/v1/scenarios", json={"name": "taken", "board": {}}, headers={**auth, "Idempotency-Key": "k1"}
    )
    assert taken.status_code == 409
    assert taken.json()["type"] == "/problems/conflict"
    # The key was not used: it creates once the name is free.
    body = {"name": "free", "board": HORN_BOARD}
    first = client.post("/v1/scenarios", json=body, headers={**auth, "Idempotency-Key": "k1"})
    assert first.status_code == 201
    # Another body, invalid too, with a used key: a reuse of the key first (as when it was looked up first).
    bad = {"name": "free", "board": {"permanents": [{"id": "a", "card": "No Such Card Anywhere"}]}}
    reused = client.post("/v1/scenarios", json=bad, headers={**auth, "Idempotency-Key": "k1"})
    assert reused.status_code == 422
    assert reused.json()["type"] == "/problems/idempotency-key-reused"
    unused = client.post("/v1/scenarios", json=bad, headers={**auth, "Idempotency-Key": "k2"})
    assert unused.json()["type"] == "/problems/unknown-card"
    assert stored_count(db_session) == 2


def test_idempotency_keys_are_per_api_key(
    client: TestClient, auth: dict[str, str], other_auth: dict[str, str]
) -> None:
    body = {"name": "same", "board": {}}
    a = client.post("/v1/scenarios", json=body, headers={**auth, "Idempotency-Key": "k"})
    b = client.post("/v1/scenarios", json=body, headers={**other_auth, "Idempotency-Key": "k"})
    assert a.status_code == b.status_code == 201
    assert a.json()["id"] != b.json()["id"]


def test_idempotency_key_is_bounded(client: TestClient, auth: dict[str, str]) -> None:
    response = client.post(
        "/v1/scenarios", json={"name": "x", "board": {}}, headers={**auth, "Idempotency-Key": "k" * 201}
    )
    assert response.status_code == 422


# --- PUT and DELETE ----


def test_put_needs_if_match_and_checks_it(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth)
    url = f"/v1/scenarios/{s['id']}"
    new = {
        "name": "renamed",
        "description": "now with a Forest only",
        "board": {"permanents": [{"id": "f", "card": "forest"}]},
    }
    missing = client.put(url, json=new, headers=auth)
    assert missing.status_code == 428
    assert missing.json()["type"] == "/problems/precondition-required"
    stale = client.put(url, json=new, headers={**auth, "If-Match": f'"{s["id"]}-v7"'})
    assert stale.status_code == 412
    assert stale.json()["type"] == "/problems/precondition-failed"
    weak = client.put(url, json=new, headers={**auth, "If-Match": f'W/"{s["id"]}-v1"'})
    assert weak.status_code == 412

    ok = client.put(url, json=new, headers={**auth, "If-Match": f'"{s["id"]}-v1"'})
    assert ok.status_code == 200, ok.text
    assert ok.json()["version"] == 2
    assert ok.json()["name"] == "renamed"
    assert ok.json()["created_at"] == s["created_at"]
    assert ok.headers["etag"] == f'"{s["id"]}-v2"'
    # The old ETag is now stale; * matches any version.
    assert client.put(url, json=new, headers={**auth, "If-Match": f'"{s["id"]}-v1"'}).status_code == 412
    star = client.put(url, json=new, headers={**auth, "If-Match": "*"})
    assert star.json()["version"] == 3
    # One of several listed tags is enough.
    listed = client.put(url, json=new, headers={**auth, "If-Match": f'"{s["id"]}-v1", "{s["id"]}-v3"'})
    assert listed.status_code == 200
    assert client.get(url, headers=auth).json()["version"] == 4


def test_put_replaces_the_rows(client: TestClient, auth: dict[str, str], db_session: Session) -> None:
    s = created(client, auth)
    board = {"permanents": [{"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "goblin"}}]}
    response = client.put(
        f"/v1/scenarios/{s['id']}", json={"name": "g", "board": board}, headers={**auth, "If-Match": "*"}
    )
    assert response.status_code == 200
    perms = db_session.scalars(
        select(ScenarioPermanentRow.permanent_id).where(ScenarioPermanentRow.scenario_id == s["id"])
    ).all()
    assert perms == ["horn"]
    values = db_session.scalars(
        select(ScenarioChoiceRow.value).where(ScenarioChoiceRow.scenario_id == s["id"])
    ).all()
    assert values == ["Goblin"]  # rows hold the canonical creature type


def test_put_invalid_board_changes_nothing(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth)
    url = f"/v1/scenarios/{s['id']}"
    bad = {
        "name": "x",
        "board": {
            "permanents": [{"id": "h", "card": "Herald's Horn", "chosen": {"creature_type": "Artifact"}}]
        },
    }
    response = client.put(url, json=bad, headers={**auth, "If-Match": "*"})
    assert response.status_code == 422
    assert response.json()["type"] == "/problems/invalid-choice"
    assert client.get(url, headers=auth).json() == {k: v for k, v in s.items() if k not in COMPUTED}


def test_put_to_a_taken_name_is_409(client: TestClient, auth: dict[str, str]) -> None:
    created(client, auth, "a")
    b = created(client, auth, "b")
    response = client.put(
        f"/v1/scenarios/{b['id']}", json={"name": "a", "board": {}}, headers={**auth, "If-Match": "*"}
    )
    assert response.status_code == 409
    assert client.get(f"/v1/scenarios/{b['id']}", headers=auth).json()["name"] == "b"


def test_put_missing_scenario_is_404(client: TestClient, auth: dict[str, str]) -> None:
    response = client.put(
        "/v1/scenarios/nope", json={"name": "a", "board": {}}, headers={**auth, "If-Match": '"nope-v1"'}
    )
    assert response.status_code == 404


def test_delete(client: TestClient, auth: dict[str, str], db_session: Session) -> None:
    s = created(client, auth, board=RICHARD_BOARD)
    url = f"/v1/scenarios/{s['id']}"
    assert client.delete(url, headers={**auth, "If-Match": f'"{s["id"]}-v2"'}).status_code == 412
    response = client.delete(url, headers={**auth, "If-Match": f'"{s["id"]}-v1"'})
    assert response.status_code == 204
    assert response.content == b""
    assert client.get(url, headers=auth).status_code == 404
    assert client.delete(url, headers=auth).status_code == 404
    assert (
        db_session.scalars(
            select(ScenarioPermanentRow).where(ScenarioPermanentRow.scenario_id == s["id"])
        ).all()
        == []
    )
    # Deleted without If-Match too.
    t = created(client, auth, "t")
    assert client.delete(f"/v1/scenarios/{t['id']}", headers=auth).status_code == 204


def test_rows_follow_the_board_after_every_write(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    board = {
        "permanents": [
            *HORN_BOARD["permanents"],
            {"id": "richard", "card": "Richard Garfield, Ph.D.", "played_as": ["Sol Ring", "Forest"]},
        ]
    }
    s = created(client, auth, board=board)
    assert_rows_follow_the_board(db_session, s)
    url = f"/v1/scenarios/{s['id']}"
    reordered = {
        "permanents": [
            {"id": "richard", "card": "Richard Garfield, Ph.D.", "played_as": ["Island"]},
            {"id": "vorthos", "card": "Vorthos, Steward of Myth", "chosen": {"character": "Urza"}},
            {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Goblin"}},
        ]
    }
    put = client.put(url, json={"name": "elves", "board": reordered}, headers={**auth, "If-Match": "*"})
    assert put.status_code == 200, put.text
    assert_rows_follow_the_board(db_session, put.json())
    choice = client.put(f"{url}/permanents/horn/choice", json={"creature_type": "Elf"}, headers=auth)
    assert choice.status_code == 200, choice.text
    assert_rows_follow_the_board(db_session, choice.json())
    played = client.post(f"{url}/permanents/richard/played-as", json={"card": "Sol Ring"}, headers=auth)
    assert played.status_code == 200, played.text
    assert played.json()["board"]["permanents"][0]["played_as"] == ["Island", "Sol Ring"]
    assert_rows_follow_the_board(db_session, played.json())
    # A refused change leaves the rows as they were.
    again = client.post(f"{url}/permanents/richard/played-as", json={"card": "sol ring"}, headers=auth)
    assert again.status_code == 409
    assert_rows_follow_the_board(db_session, client.get(url, headers=auth).json())
    emptied = client.put(url, json={"name": "elves", "board": {}}, headers={**auth, "If-Match": "*"})
    assert emptied.status_code == 200
    assert_rows_follow_the_board(db_session, emptied.json())


# --- choice ----


def test_choice_is_validated_stored_and_bumps_the_version(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    s = created(client, auth)
    url = f"/v1/scenarios/{s['id']}/permanents/horn/choice"
    response = client.put(url, json={"creature_type": "goblin"}, headers=auth)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["version"] == 2
    assert response.headers["etag"] == f'"{s["id"]}-v2"'
    assert body["board"]["permanents"][0]["chosen"]["creature_type"] == "Goblin"
    assert client.get(f"/v1/scenarios/{s['id']}", headers=auth).json() == body
    rows = db_session.scalars(select(ScenarioChoiceRow).where(ScenarioChoiceRow.scenario_id == s["id"])).all()
    assert [(r.kind, r.value) for r in rows] == [("creature_type", "Goblin")]


@pytest.mark.parametrize(
    ("choice", "field"),
    [
        ({"creature_type": "Cat Warrior"}, "creature_type"),
        ({"creature_type": "Artifact"}, "creature_type"),
        ({"creature_type": "Notatype"}, "creature_type"),
        ({"character": "!!!"}, "character"),
    ],
)
def test_invalid_choice_is_422_and_changes_nothing(
    client: TestClient, auth: dict[str, str], choice: dict[str, str], field: str
) -> None:
    s = created(client, auth)
    response = client.put(f"/v1/scenarios/{s['id']}/permanents/horn/choice", json=choice, headers=auth)
    assert response.status_code == 422
    problem = response.json()
    assert problem["type"] == "/problems/invalid-choice"
    assert problem["errors"][0]["loc"] == ["body", field]
    assert client.get(f"/v1/scenarios/{s['id']}", headers=auth).json()["version"] == 1


def test_choice_character_and_if_match(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth, board={"permanents": [{"id": "vorthos", "card": "Vorthos, Steward of Myth"}]})
    url = f"/v1/scenarios/{s['id']}/permanents/vorthos/choice"
    assert (
        client.put(
            url, json={"character": "Urza"}, headers={**auth, "If-Match": f'"{s["id"]}-v5"'}
        ).status_code
        == 412
    )
    ok = client.put(url, json={"character": "Urza"}, headers={**auth, "If-Match": f'"{s["id"]}-v1"'})
    assert ok.status_code == 200, ok.text
    assert ok.json()["board"]["permanents"][0]["chosen"]["character"] == "Urza"


def test_choice_on_unknown_permanent_is_404(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth)
    response = client.put(
        f"/v1/scenarios/{s['id']}/permanents/nope/choice", json={"creature_type": "Elf"}, headers=auth
    )
    assert response.status_code == 404


@pytest.mark.parametrize("if_match", [False, True])
def test_a_change_that_lost_the_race_is_redone_or_412(
    client: TestClient,
    auth: dict[str, str],
    db_session: Session,
    monkeypatch: pytest.MonkeyPatch,
    if_match: bool,
) -> None:
    """Another writer changes the scenario between the read and the conditional write of a choice: the
    write changes nothing; without If-Match the choice is read again and applied after the other change
    (none lost), with If-Match (the version read) it is 412."""
    from app.db.repositories import scenarios as repo
    from app.services import scenarios as service

    s = created(client, auth)
    read = repo.get_scenario
    reads: list[int] = []

    def read_then_someone_writes(session: Session, **kwargs: Any) -> Any:
        row = read(session, **kwargs)
        reads.append(row.version)
        if len(reads) == 1:  # another writer, between this read and the write that follows it (Core:
            # the row read keeps what it read, as another session's would)
            session.execute(
                update(ScenarioRow.__table__)
                .where(ScenarioRow.__table__.c.id == row.id)
                .values(description="other", version=row.version + 1)
            )
        return row

    monkeypatch.setattr(service.repo, "get_scenario", read_then_someone_writes)
    headers = {**auth, "If-Match": f'"{s["id"]}-v1"'} if if_match else auth
    url = f"/v1/scenarios/{s['id']}"
    response = client.put(f"{url}/permanents/horn/choice", json={"creature_type": "Goblin"}, headers=headers)
    monkeypatch.undo()
    final = client.get(url, headers=auth).json()
    assert reads == [1, 2]
    if if_match:
        assert response.status_code == 412
        assert response.json()["detail"].endswith(f'(current ETag "{s["id"]}-v2"): fetch it and retry')
        assert final["board"]["permanents"][0]["chosen"]["creature_type"] == "Elf"
    else:
        assert response.status_code == 200, response.text
        assert (final["version"], final["description"]) == (3, "other")
        assert final["board"]["permanents"][0]["chosen"]["creature_type"] == "Goblin"
    assert_rows_follow_the_board(db_session, final)


# --- played-as ----------------------------------------------------------------------------------------------


def test_played_as_records_each_card_once_per_richard(
    client: TestClient, auth: dict[str, str], db_session: Session
) -> None:
    s = created(client, auth, board=RICHARD_BOARD)
    r1 = f"/v1/scenarios/{s['id']}/permanents/richard-1/played-as"
    first = client.post(r1, json={"card": "swords to plowshares"}, headers=auth)
    assert first.status_code == 200, first.text
    assert first.json()["version"] == 2
    assert first.json()["board"]["permanents"][0]["played_as"] == ["Swords to Plowshares"]
    again = client.post(r1, json={"card": "Swords To Plowshares"}, headers=auth)
    assert again.status_code == 409
    assert again.json()["type"] == "/problems/conflict"
    # Another Richard has its own list.
    r2 = f"/v1/scenarios/{s['id']}/permanents/richard-2/played-as"
    assert client.post(r2, json={"card": "Swords to Plowshares"}, headers=auth).status_code == 200
    assert client.post(r1, json={"card": "Savannah Lions"}, headers=auth).status_code == 200
    final = client.get(f"/v1/scenarios/{s['id']}", headers=auth).json()
    assert final["version"] == 4
    assert final["board"]["permanents"][0]["played_as"] == ["Swords to Plowshares", "Savannah Lions"]
    rows = db_session.scalars(
        select(ScenarioPlayedCardRow)
        .where(ScenarioPlayedCardRow.scenario_id == s["id"])
        .order_by(ScenarioPlayedCardRow.permanent_id, ScenarioPlayedCardRow.position)
    ).all()
    assert [(r.permanent_id, r.card_name) for r in rows] == [
        ("richard-1", "Swords to Plowshares"),
        ("richard-1", "Savannah Lions"),
        ("richard-2", "Swords to Plowshares"),
    ]


def test_played_as_refusals(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth, board=RICHARD_BOARD)
    base = f"/v1/scenarios/{s['id']}/permanents"
    not_richard = client.post(f"{base}/forest/played-as", json={"card": "Swords to Plowshares"}, headers=auth)
    assert not_richard.status_code == 422
    assert not_richard.json()["type"] == "/problems/rules-violation"
    unknown = client.post(f"{base}/richard-1/played-as", json={"card": "No Such Card Anywhere"}, headers=auth)
    assert unknown.status_code == 422
    assert unknown.json()["type"] == "/problems/unknown-card"
    assert unknown.json()["errors"][0]["loc"] == ["body", "card"]
    stale = client.post(
        f"{base}/richard-1/played-as",
        json={"card": "Savannah Lions"},
        headers={**auth, "If-Match": f'"{s["id"]}-v3"'},
    )
    assert stale.status_code == 412
    assert (
        client.post(f"{base}/nobody/played-as", json={"card": "Savannah Lions"}, headers=auth).status_code
        == 404
    )
    assert client.get(f"/v1/scenarios/{s['id']}", headers=auth).json()["version"] == 1


def test_played_as_already_in_the_stored_board_is_409(client: TestClient, auth: dict[str, str]) -> None:
    board = {"permanents": [{"id": "r", "card": "Richard Garfield, Ph.D.", "played_as": ["Savannah Lions"]}]}
    s = created(client, auth, board=board)
    response = client.post(
        f"/v1/scenarios/{s['id']}/permanents/r/played-as", json={"card": "savannah lions"}, headers=auth
    )
    assert response.status_code == 409


# --- listing ----


def test_list_filters_and_pages(client: TestClient, auth: dict[str, str], other_auth: dict[str, str]) -> None:
    ids = [created(client, auth, f"s{i}", board={}, owner="u1" if i % 2 else None)["id"] for i in range(7)]
    created(client, other_auth, "theirs", board={})
    seen: list[str] = []
    cursor = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": 3}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/scenarios", params=params, headers=auth).json()
        pages += 1
        seen += [s["id"] for s in page["data"]]
        assert page["has_more"] == (page["next_cursor"] is not None)
        if not page["has_more"]:
            break
        cursor = page["next_cursor"]
    assert pages == 3
    assert seen == ids  # creation order, no duplicates, nothing missed, nothing of the other key

    owned = client.get("/v1/scenarios", params={"owner": "u1"}, headers=auth).json()
    assert [s["name"] for s in owned["data"]] == ["s1", "s3", "s5"]
    assert all(s["owner"] == "u1" for s in owned["data"])
    named = client.get("/v1/scenarios", params={"name": "s4"}, headers=auth).json()
    assert [s["id"] for s in named["data"]] == [ids[4]]
    both = client.get("/v1/scenarios", params={"name": "s4", "owner": "u1"}, headers=auth).json()
    assert both["data"] == []
    # Empty filters (``?name=&owner=``) mean no filter.
    assert len(client.get("/v1/scenarios?name=&owner=", headers=auth).json()["data"]) == 7


@pytest.mark.parametrize(
    "params", [{"limit": 0}, {"limit": 1001}, {"cursor": "not-a-cursor"}, {"name": "x" * 201}]
)
def test_list_rejects_bad_parameters(
    client: TestClient, auth: dict[str, str], params: dict[str, Any]
) -> None:
    response = client.get("/v1/scenarios", params=params, headers=auth)
    assert response.status_code in (400, 422)
    assert response.headers["content-type"].startswith(PROBLEM)


# --- cost on a stored board ----


def test_spell_cost_on_the_stored_board_is_the_stateless_answer(
    client: TestClient, auth: dict[str, str]
) -> None:
    s = created(client, auth)
    spell = {"card": "Elvish Archers"}
    stored = client.post(f"/v1/scenarios/{s['id']}/spells/cost", json={"spell": spell}, headers=auth)
    assert stored.status_code == 200, stored.text
    stateless = client.post("/v1/spells/cost", json={"board": HORN_BOARD, "spell": spell})
    assert stored.json() == stateless.json()
    assert stored.json()["total_cost"] == "{G}"  # Herald's Horn with Elf chosen: {1} less
    assert any(step["kind"] == "reduction" and step["source"] == "horn" for step in stored.json()["steps"])

    # After the choice changes to Goblin, the Horn no longer reduces an Elf.
    client.put(
        f"/v1/scenarios/{s['id']}/permanents/horn/choice", json={"creature_type": "Goblin"}, headers=auth
    )
    after = client.post(f"/v1/scenarios/{s['id']}/spells/cost", json={"spell": spell}, headers=auth).json()
    assert after["total_cost"] == "{1}{G}"


def test_spell_cost_problems(client: TestClient, auth: dict[str, str]) -> None:
    s = created(client, auth)
    unknown = client.post(
        f"/v1/scenarios/{s['id']}/spells/cost",
        json={"spell": {"card": "No Such Card Anywhere"}},
        headers=auth,
    )
    assert unknown.status_code == 422
    assert unknown.json()["type"] == "/problems/unknown-card"
    assert (
        client.post(
            "/v1/scenarios/nope/spells/cost", json={"spell": {"card": "Forest"}}, headers=auth
        ).status_code
        == 404
    )


# --- OpenAPI ----


def test_openapi_declares_the_bearer_scheme(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    scheme = document["components"]["securitySchemes"]["ApiKey"]
    assert scheme == {**scheme, "type": "http", "scheme": "bearer"}
    for path, item in document["paths"].items():
        if path.startswith("/v1/scenarios"):
            for operation in item.values():
                assert {"ApiKey": []} in operation["security"], path


def test_board_facts_round_trip_as_given(client: TestClient, auth: dict[str, str]) -> None:
    """API.md 1.1 board facts are stored as stated; a fact left out stays "not stated" (null)."""
    board = {
        "permanents": [
            {
                "id": "key",
                "card": "Cloud Key",
                "counters": {"charge": 3},
                "class_level": 2,
                "chosen": {"card_type": "Instant", "colors": ["W", "U"], "imprinted": "Lightning Bolt"},
            }
        ],
        "players": {
            "you": {
                "commander": ["Animar, Soul of Elements"],
                "graveyard": ["Lightning Bolt"],
                "hand_size": 4,
                "this_turn": {"spells_cast": 2},
            }
        },
    }
    body = created(client, auth, board=board)
    key = body["board"]["permanents"][0]
    assert key["counters"] == {"charge": 3} and key["class_level"] == 2 and key["level"] is None
    assert key["chosen"]["card_type"] == "Instant" and key["chosen"]["colors"] == ["W", "U"]
    assert key["chosen"]["imprinted"] == "Lightning Bolt"
    you = body["board"]["players"]["you"]
    assert you["commander"] == ["Animar, Soul of Elements"] and you["graveyard"] == ["Lightning Bolt"]
    assert you["hand"] is None and you["exile"] is None and you["hand_size"] == 4
    assert you["this_turn"]["spells_cast"] == 2 and you["this_turn"]["life_lost"] is None
    again = client.put(
        f"/v1/scenarios/{body['id']}",
        json={"name": "elves", "board": body["board"]},
        headers={**auth, "If-Match": f'"{body["id"]}-v1"'},
    )
    assert again.status_code == 200, again.text
    assert again.json()["board"] == body["board"]
