"""POST /v1/heralds-horn/reveal over HTTP (ruling:heralds-horn)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def reveal(
    client: TestClient, chosen: dict[str, str] | None, top: Any, horn_card: str = "Herald's Horn"
) -> Any:
    perm: dict[str, Any] = {"id": "horn", "card": horn_card}
    if chosen is not None:
        perm["chosen"] = chosen
    return client.post(
        "/v1/heralds-horn/reveal", json={"board": {"permanents": [perm]}, "horn": "horn", "top_card": top}
    )


def test_creature_of_the_chosen_type_may_go_to_hand(client: TestClient) -> None:
    r = reveal(client, {"creature_type": "Elf"}, "Llanowar Elves")
    assert r.status_code == 200, r.text
    assert r.json()["may_put_into_hand"] is True and r.json()["reason"]
    assert reveal(client, {"creature_type": "Elf"}, "Savannah Lions").json()["may_put_into_hand"] is False


def test_no_chosen_type_never(client: TestClient) -> None:
    typeless = {"name": "Typeless Golem", "mana_cost": "{3}", "type_line": "Artifact Creature"}
    body = reveal(client, None, typeless).json()
    assert body["may_put_into_hand"] is False and "no chosen creature type" in body["reason"]


def test_changeling_and_errors(client: TestClient) -> None:
    shifter = {
        "name": "Shifter",
        "mana_cost": "{B}",
        "type_line": "Creature — Shapeshifter",
        "oracle_text": "Changeling",
        "keywords": ["Changeling"],
    }
    assert reveal(client, {"creature_type": "Elf"}, shifter).json()["may_put_into_hand"] is True
    not_horn = reveal(client, None, "Llanowar Elves", horn_card="Trinisphere")
    assert not_horn.status_code == 422 and not_horn.json()["type"].endswith("/rules-violation")
    bad_type = reveal(client, {"creature_type": "artifact"}, "Llanowar Elves")
    assert bad_type.status_code == 422 and bad_type.json()["type"].endswith("/invalid-choice")
    unknown = reveal(client, {"creature_type": "Elf"}, "No Such Card Anywhere")
    assert unknown.status_code == 422 and unknown.json()["type"].endswith("/unknown-card")
