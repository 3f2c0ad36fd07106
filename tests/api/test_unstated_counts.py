"""Issue 25, nothing silent: a "for each" count of a fact the request did not state (the opponents, the
spell's targets) is taken as none and the answer says so in ``warnings``; stated, no such warning. Totals
are worked out from the card texts (the bundled catalogue's) and the rules quoted."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def cost(client: TestClient, body: dict[str, Any]) -> Any:
    r = client.post("/v1/spells/cost", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def messages(answer: Any) -> str:
    return " ".join(f"{w['text']} {w['message']}" for w in answer["warnings"])


def test_undaunted_without_opponents_warns(client: TestClient) -> None:
    # Seeds of Renewal {6}{G}: "Undaunted"; CR 702.125a: "This spell costs {1} less to cast for each opponent
    # you have." A board naming no other player: a game has two or more players (CR 100.1), so the
    # opponents were not stated: taken as none, {6}{G}, with a warning.
    alone = cost(client, {"spell": {"card": "Seeds of Renewal"}})
    assert alone["total_cost"] == "{6}{G}"
    assert "no opponent of you was given" in messages(alone), alone["warnings"]
    # Three opponents: {3} less, {3}{G}, and no warning about opponents.
    players = {"you": {}, "a": {}, "b": {}, "c": {}}
    three = cost(client, {"board": {"players": players}, "spell": {"card": "Seeds of Renewal"}})
    assert three["total_cost"] == "{3}{G}"
    assert "no opponent" not in messages(three), three["warnings"]


def test_strive_without_targets_warns(client: TestClient) -> None:
    # Ajani's Presence {W}: "Strive — This spell costs {2}{W} more to cast for each target beyond the first."
    # The targets are chosen before the total is determined (CR 601.2c, 601.2f). Not given: none, {W}, warned.
    unstated = cost(client, {"spell": {"card": "Ajani's Presence"}})
    assert unstated["total_cost"] == "{W}"
    assert "targets were not given" in messages(unstated), unstated["warnings"]
    # "Any number of target creatures": zero targets stated is a legal choice, {W}, no warning.
    zero = cost(client, {"spell": {"card": "Ajani's Presence", "targets": []}})
    assert zero["total_cost"] == "{W}"
    assert "targets were not given" not in messages(zero), zero["warnings"]
    # Two target creatures: one beyond the first, {2}{W} more: {2}{W}{W}.
    bears = [{"id": "b1", "card": "Grizzly Bears"}, {"id": "b2", "card": "Grizzly Bears"}]
    body = {"board": {"permanents": bears}, "spell": {"card": "Ajani's Presence", "targets": ["b1", "b2"]}}
    two = cost(client, body)
    assert two["total_cost"] == "{2}{W}{W}"
    assert "targets were not given" not in messages(two), two["warnings"]
