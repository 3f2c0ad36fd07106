"""payments/plan with mana whose spending restriction depends on how the spell is cast (CR 106.6): kicked
(CR 702.33d), cast from a graveyard (CR 601.2a, flashback 702.34a), your commander (CR 903.3). The spell's
``optional_costs``, ``cast_from`` and ``method`` (API 1.1) decide them: a spell cast that way is paid with
the mana, one cast otherwise is refused it. Bundled catalogue."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def pay(client: TestClient, permanents: list[str], spell: dict[str, Any], **you: Any) -> dict[str, Any]:
    board: dict[str, Any] = {"permanents": [{"id": f"p{i}", "card": c} for i, c in enumerate(permanents)]}
    if you:
        board["players"] = {"you": you}
    r = client.post("/v1/payments/plan", json={"board": board, "spell": spell})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def used(body: dict[str, Any], pid: str, ability: int) -> bool:
    return any(s.get("permanent") == pid and s.get("ability") == ability for s in body["plan"])


def test_elfhame_druid_pays_a_kicked_spell_only(client: TestClient) -> None:
    """Elfhame Druid: "{T}: Add {G}{G}. Spend this mana only to cast kicked spells." Gnarlid Colony {1}{G},
    "Kicker {2}{G}": kicked it costs {3}{G}{G}, paid by the Druid's {G}{G} and three Forests."""
    board = ["Elfhame Druid", "Forest", "Forest", "Forest"]
    kicked = pay(client, board, {"card": "Gnarlid Colony", "optional_costs": [{"keyword": "kicker"}]})
    assert kicked["cost"] == "{3}{G}{G}" and kicked["payable"] is True and used(kicked, "p0", 1)
    # not kicked: {1}{G}, and the Druid alone adds only {G} for it (its {G}{G} is for kicked spells)
    plain = pay(client, ["Elfhame Druid"], {"card": "Gnarlid Colony"})
    assert plain["payable"] is False and plain["short"] == "{1}"


def test_rootcoil_creeper_pays_a_spell_cast_from_the_graveyard_only(client: TestClient) -> None:
    """Rootcoil Creeper: "{T}: Add two mana of any one color. Spend this mana only to cast spells from your
    graveyard." Think Twice's flashback {2}{U} from the graveyard: the Creeper's {U}{U} and an Island."""
    board = ["Rootcoil Creeper", "Island"]
    back = pay(client, board, {"card": "Think Twice", "cast_from": "graveyard", "method": "flashback"})
    assert back["cost"] == "{2}{U}" and back["payable"] is True and used(back, "p0", 1)
    # from the hand ({1}{U}) the Creeper adds one mana only: with no Island, {1} short
    hand = pay(client, ["Rootcoil Creeper"], {"card": "Think Twice"})
    assert hand["payable"] is False and hand["short"] == "{1}"


def test_altar_of_the_lost_pays_flashback_from_a_graveyard_only(client: TestClient) -> None:
    """Altar of the Lost: "{T}: Add two mana in any combination of colors. Spend this mana only to cast
    spells with flashback from a graveyard." """
    back = pay(
        client,
        ["Altar of the Lost", "Island"],
        {"card": "Think Twice", "cast_from": "graveyard", "method": "flashback"},
    )
    assert back["payable"] is True and used(back, "p0", 0)
    hand = pay(client, ["Altar of the Lost", "Island"], {"card": "Think Twice"})
    assert hand["payable"] is False and hand["short"] == "{1}"


def test_jeweled_lotus_pays_the_commander_only(client: TestClient) -> None:
    """Jeweled Lotus: "{T}, Sacrifice Jeweled Lotus: Add three mana of any one color. Spend this mana only
    to cast your commander." Selvala {1}{G}{G} as the player's commander (CR 903.3)."""
    selvala = {"card": "Selvala, Heart of the Wilds"}
    mine = pay(client, ["Jeweled Lotus"], selvala, commander=["Selvala, Heart of the Wilds"])
    assert mine["payable"] is True and used(mine, "p0", 0)
    zone = pay(
        client,
        ["Jeweled Lotus"],
        {**selvala, "cast_from": "command"},
        commander=["Selvala, Heart of the Wilds"],
    )
    assert zone["payable"] is True
    other = pay(client, ["Jeweled Lotus"], selvala, commander=["Krenko, Mob Boss"])
    assert other["payable"] is False and other["short"] == "{1}{G}{G}"
    assert not any("commander" in w["message"] for w in other["warnings"])
    # no commander stated: not taken as it, and said
    unstated = pay(client, ["Jeweled Lotus"], selvala)
    assert unstated["payable"] is False
    assert any("`commander` is not stated" in w["message"] for w in unstated["warnings"])
