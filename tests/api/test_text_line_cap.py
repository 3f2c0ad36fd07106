"""A line of a card's text given inline holds at most 1,000 characters: the card-text readers read a line at
a time, and the longest line of any real card holds 645 ("State-based actions don't apply to you or other
permanents you control. (You don't lose ..."). Longer: a 422 naming the field and the line."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.schemas.board import MAX_TEXT_LINE


def _cost(client: TestClient, oracle_text: str) -> tuple[int, dict[str, object]]:
    card = {"name": "Long Line", "mana_cost": "{1}{G}", "type_line": "Sorcery", "oracle_text": oracle_text}
    answer = client.post("/v1/spells/cost", json={"board": {"permanents": []}, "spell": {"card": card}})
    return answer.status_code, answer.json()


def test_a_line_at_the_cap_is_read(client: TestClient) -> None:
    status, body = _cost(client, "Draw a card.\n" + "a" * MAX_TEXT_LINE)
    assert status == 200, body
    assert body["total_cost"] == "{1}{G}"


def test_a_longer_line_is_a_422_naming_the_field_and_the_line(client: TestClient) -> None:
    status, body = _cost(client, "Draw a card.\n" + "land " * 400)
    assert status == 422, body
    (error,) = body["errors"]  # type: ignore[misc]
    assert error["loc"][-1] == "oracle_text"
    assert "line 2 has 2000 characters" in error["msg"]
    assert str(MAX_TEXT_LINE) in error["msg"]
