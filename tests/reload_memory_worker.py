"""A worker process that loads the bundled catalogue, serves requests, reloads the catalogue ``reloads`` times
as the refresher thread does after an import, and prints its resident memory and live blocks after the first
load and after each reload as JSON (``tests/services/test_catalogue_reload_memory.py`` runs it: resident
memory is the whole process's, so it is measured in a process of its own).

Between reloads the same requests run again (costs on a board, payments, deck analysis, card look-ups and
suggestions), so that every cache and memo that can hold a card of an old catalogue holds some.

    python -m tests.reload_memory_worker DATABASE_URL RELOADS
"""

from __future__ import annotations

import gc
import json
import sys
import time

from fastapi.testclient import TestClient

from app.config import Settings
from app.db.session import get_engine, get_sessionmaker
from app.main import create_app, prepare_database
from app.services.card_index import LIVE, POLL_INTERVAL_S, start_refresher

BOARD = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "forest", "card": "Forest"},
        {"id": "elves", "card": "Llanowar Elves"},
        {"id": "sol", "card": "Sol Ring"},
        {"id": "pool", "card": "Reflecting Pool"},
    ]
}
DECK = "4 Lightning Helix\n4 Goblin Guide\n4 Fire/Ice\n10 Mountain\n6 Plains\n4 Sacred Foundry\n"


def resident_mb() -> float:
    """This process's resident memory now (VmRSS), in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def serve(client: TestClient) -> None:
    answers = [
        client.post("/v1/spells/cost", json={"board": BOARD, "spell": {"card": "Elvish Archers"}}),
        client.post("/v1/payments/plan", json={"player": "you", "board": BOARD, "cost": "{2}{G}"}),
        client.post("/v1/boards/analyze", json={"board": BOARD}),
        client.post("/v1/decks/analyze", json={"decklist": DECK, "format": "modern"}),
        client.get("/v1/cards/named", params={"exact": "Lim-Dul the Necromancer"}),
        client.get("/v1/cards/autocomplete", params={"q": "llanow"}),
        client.get("/v1/cards/Lightening Bolt"),  # suggestions
    ]
    statuses = [a.status_code for a in answers]
    assert statuses == [200, 200, 200, 200, 200, 200, 404], statuses


def settle() -> tuple[float, int]:
    """Resident MB and the interpreter's live blocks (``sys.getallocatedblocks``): the blocks tell an object
    kept alive from memory the allocator holds with nothing in it."""
    gc.collect()
    return resident_mb(), sys.getallocatedblocks()


def main(url: str, reloads: int) -> None:
    settings = Settings(
        database_url=url,
        migrate_on_start=True,
        log_level="ERROR",
        rate_limit_per_minute=0,
        catalogue_snapshot_dir="off",
    )
    prepare_database(settings)  # migrated and seeded, the catalogue loaded, as a started worker has it
    client = TestClient(create_app(settings))
    assert LIVE.index is not None
    first = LIVE.index.version
    version = {"n": 0}
    # The refresher as the service runs it; its data_version changes as an import would change it.
    stop = start_refresher(
        get_sessionmaker(get_engine(settings)),
        lambda _s: first if version["n"] == 0 else f"{first}+reload-{version['n']}",
    )
    try:
        serve(client)
        time.sleep(2 * POLL_INTERVAL_S)
        sizes = [settle()]
        for n in range(1, reloads + 1):
            version["n"] = n
            deadline = time.monotonic() + 300
            while LIVE.index is None or LIVE.index.version != f"{first}+reload-{n}":
                assert time.monotonic() < deadline, f"reload {n} never came"
                time.sleep(0.1)
            serve(client)
            time.sleep(3 * POLL_INTERVAL_S)  # the replaced index is released once no request holds it
            sizes.append(settle())
    finally:
        stop.set()
    print(
        json.dumps(
            {
                "first_mb": sizes[0][0],
                "after_reload_mb": [mb for mb, _ in sizes[1:]],
                "first_blocks": sizes[0][1],
                "after_reload_blocks": [blocks for _, blocks in sizes[1:]],
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
