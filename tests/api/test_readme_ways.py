"""docs/api.md's examples of ways to cast and optional costs (kicked, flashback, convoke; the card's own
alternative cost, ways granted by a permanent and by an effect) run verbatim: each curl command of those
blocks is read from docs/api.md and sent through the application."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "docs" / "api.md"
MARKER = "# Ways to cast and optional costs"
GRANTED_MARKER = "# Ways from the card's text and the board"


def readme_commands(marker: str = MARKER) -> list[tuple[str, Any]]:
    text = README.read_text(encoding="utf-8")
    block = text[text.index(marker) :].split("\n\n", 1)[0].split("```", 1)[0]
    out = []
    for command in block.split("curl -s $B")[1:]:
        path = command.split(" ", 1)[0]
        body = command.split("-d '", 1)[1].rsplit("'", 1)[0]
        out.append((path, json.loads(body)))
    return out


def test_readme_ways_examples(client: TestClient) -> None:
    commands = readme_commands()
    assert [p for p, _b in commands] == ["/v1/spells/cost", "/v1/spells/cost", "/v1/payments/plan"]
    answers = []
    for path, body in commands:
        r = client.post(path, json=body)
        assert r.status_code == 200, (path, r.text)
        answers.append(r.json())
    kicked, flashback, convoke = answers
    # Academy Drake {2}{U}, kicked ({4}, CR 702.33a), under Sphere of Resistance ({1} more): {7}{U}
    assert kicked["total_cost"] == "{7}{U}"
    normal = {
        "method": "normal",
        "rule": "601.2f",
        "optional_costs": [],
        "total_cost": "{3}{U}",
        "other_costs": [],
        "available": True,  # API 1.3
    }
    assert normal in kicked["ways"]
    # Deep Analysis from the graveyard: its flashback cost {1}{U} and 3 life (CR 702.34a)
    assert flashback["total_cost"] == "{1}{U}"
    assert flashback["other_costs"] == [{"text": "Pay 3 life", "life": 3}]
    # Chord of Calling, X=1: {1}{G}{G}{G}, payable with a Forest and convoke (CR 702.51a)
    assert convoke["cost"] == "{1}{G}{G}{G}"


def test_readme_granted_ways_examples(client: TestClient) -> None:
    commands = readme_commands(GRANTED_MARKER)
    assert [p for p, _b in commands] == ["/v1/spells/cost"] * 4
    answers = []
    for path, body in commands:
        r = client.post(path, json=body)
        assert r.status_code == 200, (path, r.text)
        answers.append(r.json())
    force, omniscience, breach, snapcaster = answers
    # "You may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost."
    assert (force["total_cost"], force["method"], force["which"]) == ("{0}", "alternative", 1)
    assert force["other_costs"] == [
        {"text": "Pay 1 life", "life": 1},
        {"text": "Exile a blue card from your hand"},
    ]
    # Omniscience: "You may cast spells from your hand without paying their mana costs." (CR 118.9)
    assert (omniscience["total_cost"], omniscience["granted_by"]) == ("{0}", "omni")
    # Underworld Breach: escape = the mana cost {U} plus exiling three other cards (CR 702.138a)
    assert (breach["total_cost"], breach["method"], breach["granted_by"]) == ("{U}", "escape", "breach")
    # Snapcaster Mage's trigger: "The flashback cost is equal to its mana cost." (CR 702.34a)
    assert (snapcaster["total_cost"], snapcaster["method"]) == ("{R}", "flashback")
