"""A worker process that answers ``count`` distinct hostile deck and board requests, then prints its peak
resident memory as JSON (``tests/api/test_memory_bound.py`` runs it: the peak is the whole process's,
so it is measured in a process of its own).

Each request differs from every other, so no memo or cache is ever hit the same way twice: five-color
decks with other land counts and unknown names (suggestion searches), boards of inline cards whose oracle
texts of thousands of characters are all new (the text readers' memos, the board memo), and the spells
cast on them. The budget is short so that the run takes seconds; the memos fill the same either way.

    python -m tests.memory_worker DATABASE_URL COUNT
"""

from __future__ import annotations

import json
import resource
import sys

from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app, prepare_database

COLORS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
SPELLS = ("1996 World Champion", "Aang and Katara", "Abaddon the Despoiler", "Adun Oakenshield", "Absorb")
"""Three- to five-color costs: the castability of each is a program over the deck's land kinds."""
WORDS = ("mana", "Add", "{G}", "{T}:", "creature", "you", "control", "target", "each", "spell", "color")


def deck(i: int) -> dict[str, object]:
    lands = "\n".join(f"{4 + (i >> k) % 5} {name}" for k, name in enumerate(COLORS))
    unknown = "\n".join(f"2 Zyx Unknown Spell {i} {j}" for j in range(3))  # suggestion searches
    spells = "\n".join(f"2 {name}" for name in SPELLS)
    return {"decklist": f"{lands}\n{spells}\n{unknown}"}


def board(i: int) -> dict[str, object]:
    permanents = []
    for j in range(12):
        filler = " ".join(WORDS[(i * 7 + j * 3 + k) % len(WORDS)] for k in range(300))
        text = f"{{T}}: Add {{G}}. {filler} (reminder {i}-{j})"
        card = {"name": f"Wall {i}-{j}", "type_line": "Creature — Wall", "oracle_text": text}
        permanents.append({"id": f"p{j}", "card": card})
    permanents.append({"id": "f", "card": "Forest"})
    return {"permanents": permanents}


def peak_kb() -> int:
    """This process's peak resident memory in kB: Linux's VmHWM, which starts anew at exec. ``ru_maxrss``
    does not: it keeps the peak of the process that forked us (pytest, over 1 GB by the end of a suite)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:  # not Linux: the rusage peak, which other systems reset at exec
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(url: str, count: int) -> None:
    settings = Settings(
        database_url=url,
        migrate_on_start=True,
        log_level="ERROR",
        rate_limit_per_minute=0,
        compute_budget_s=0.1,
    )
    prepare_database(settings)  # migrated and seeded, the catalogue index built, as a started worker has it
    client = TestClient(create_app(settings))
    started_kb = peak_kb()
    statuses: dict[int, int] = {}
    for i in range(count):
        if i % 2:
            r = client.post("/v1/decks/analyze", json=deck(i))
        else:
            b = board(i)
            r = client.post("/v1/boards/analyze", json={"board": b})
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            r = client.post("/v1/spells/cost", json={"board": b, "spell": {"card": "Llanowar Elves"}})
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
    print(json.dumps({"started_mb": started_kb / 1024, "peak_mb": peak_kb() / 1024, "statuses": statuses}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
