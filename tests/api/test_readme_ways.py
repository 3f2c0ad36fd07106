"""The README's examples of ways to cast and optional costs (kicked, flashback, convoke) run verbatim: each
curl command of that block is read from README.md and sent through the application."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "README.md"
MARKER = "# Ways to cast and optional costs"


def readme_commands() -> list[tuple[str, Any]]:
    text = README.read_text(encoding="utf-8")
    block = text[text.index(MARKER) :].split("\n\n", 1)[0]
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
    normal = {"method": "normal", "rule": "601.2f", "optional_costs": [], "total_cost": "{3}{U}", "other_costs": []}
    assert normal in kicked["ways"]
    # Deep Analysis from the graveyard: its flashback cost {1}{U} and 3 life (CR 702.34a)
    assert flashback["total_cost"] == "{1}{U}"
    assert flashback["other_costs"] == [{"text": "Pay 3 life", "life": 3}]
    # Chord of Calling, X=1: {1}{G}{G}{G}, payable with a Forest and convoke (CR 702.51a)
    assert convoke["cost"] == "{1}{G}{G}{G}"
