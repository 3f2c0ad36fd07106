"""Service CPU time per request when every request carries a board of its own (issue 30), against the same
request with one board asked about again (read once, ``app/services/board_memo.py``), in the same run.

The bodies are bench/load.sh's (``spells/cost`` and ``payments/plan``); "varied" changes the first
permanent's id on every request, as ``VARIED=1 bench/load.sh`` does, so the board memo misses and the
board is read and analysed anew: what a per-card memo (``abilities.own_abilities``) can save shows here
without wrk, HTTP or a busy machine's other processes (CPU time of this process, best of 3 rounds). The
services run in process, validated bodies in, answers serialized out, with the bundled catalogue in a
temporary SQLite database. Printed: microseconds per request and the varied / one-board ratio. No target of
its own: issue 30's goals are bench/load.sh's, against a bare endpoint.

    .venv/bin/python bench/varied_boards.py [--requests 1000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient

from app.api.compute import OFFLINE_SESSION
from app.config import Settings
from app.main import create_app
from app.schemas.payments import PaymentPlanRequest
from app.schemas.spells import SpellCostRequest
from app.services import payments, spells

COST: dict[str, Any] = {
    "board": {
        "permanents": [
            {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}},
            {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
            {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
            {"id": "elves", "card": "Llanowar Elves"},
            *({"id": f"f{i}", "card": "Forest"} for i in range(1, 4)),
            *({"id": f"p{i}", "card": "Plains"} for i in range(1, 4)),
        ]
    },
    "spell": {"card": "Avacynian Priest"},
}
PLAN: dict[str, Any] = {
    "player": "you",
    "cost": "{2}{G}{G}",
    "board": {
        "permanents": [
            {"id": "f1", "card": "Forest"},
            {"id": "f2", "card": "Forest"},
            {"id": "pool", "card": "Reflecting Pool"},
            {"id": "sol", "card": "Sol Ring"},
            {"id": "orchard", "card": "Exotic Orchard"},
            {"id": "island", "card": "Island", "controller": "opponent"},
            {"id": "elves", "card": "Llanowar Elves"},
        ]
    },
}


def bodies(doc: dict[str, Any], n: int, varied: bool) -> list[bytes]:
    """``n`` bodies: the same one, or each with the first permanent's id changed (``v0``, ``v1``...)."""
    body = json.dumps(doc, separators=(",", ":"))
    head, tail = body.split(f'"id":"{doc["board"]["permanents"][0]["id"]}"', 1)
    return [(head + f'"id":"v{i}"' + tail if varied else body).encode() for i in range(n)]


def per_request(answer: Callable[[bytes], str], sent: list[bytes]) -> float:
    """CPU microseconds per request, best of 3 rounds (the memo keeps 256 boards: each varied one misses)."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for body in sent:
            answer(body)
        best = min(best, time.process_time() - started)
    return best / len(sent) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{tmp}/bench.db", log_level="WARNING", rate_limit_per_minute=0
        )
        app = create_app(settings)
        with TestClient(app) as client:  # migrations, the bundled catalogue, its card index
            cases: dict[str, Callable[[bytes], str]] = {
                "spells/cost": lambda b: spells.spell_cost(
                    request=SpellCostRequest.model_validate_json(b),
                    session=OFFLINE_SESSION,
                    settings=settings,
                ).model_dump_json(),
                "payments/plan": lambda b: payments.plan(
                    request=PaymentPlanRequest.model_validate_json(b),
                    session=OFFLINE_SESSION,
                    settings=settings,
                ).model_dump_json(),
            }
            for label, doc in (("spells/cost", COST), ("payments/plan", PLAN)):
                assert client.post(f"/v1/{label}", json=doc).status_code == 200
                one = per_request(cases[label], bodies(doc, args.requests, varied=False))
                varied = per_request(cases[label], bodies(doc, args.requests, varied=True))
                print(
                    f"{label:<14} one board {one:6.0f} us, varied boards {varied:6.0f} us: "
                    f"{varied / one:.2f}x"
                )


if __name__ == "__main__":
    main()
