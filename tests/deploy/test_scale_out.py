"""Scale-out: two ``manacalc serve --workers 2`` processes on one PostgreSQL database, as two replicas
behind a load balancer, give the same answers and lose no scenario write.

PostgreSQL only (two servers on one SQLite file is not a supported deployment); slow (real processes).
"""

from __future__ import annotations

import subprocess
import threading
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.deploy.support import Server, child_env, free_port, manacalc_command, running

pytestmark = [pytest.mark.slow, pytest.mark.postgres_only]

WRITERS = 12
ROUNDS = 6
BOARD = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
        {"id": "forest", "card": "Forest"},
        {"id": "pool", "card": "Reflecting Pool"},
        {"id": "elves", "card": "Llanowar Elves", "controlled_since_turn_began": False},
    ]
}
COMPUTE = [
    ("/v1/spells/cost", {"board": BOARD, "spell": {"card": "Elvish Archers"}}),
    ("/v1/boards/analyze", {"board": BOARD}),
    ("/v1/mana-costs/parse", {"mana_cost": "2{g}{W/P}"}),
]


@pytest.fixture
def two_servers(fresh_postgres_url: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two servers started at the same moment on one fresh database (they migrate and seed in turn)."""
    # Rate limits are per process and not what this test measures.
    env = child_env(fresh_postgres_url, MANACALC_RATE_LIMIT_PER_MINUTE="0")
    ports = free_port(), free_port()
    argv = [[*manacalc_command(), "serve", "--port", str(p), "--workers", "2"] for p in ports]
    with (
        running(argv[0], env, ports[0], tmp_path / "a.log") as a,
        running(argv[1], env, ports[1], tmp_path / "b.log") as b,
    ):
        a.wait_ready()
        b.wait_ready()
        yield a, b


def _api_key(database_url: str) -> str:
    result = subprocess.run(
        [*manacalc_command(), "create-api-key", "scale-out"],
        env=child_env(database_url),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.strip()


def _run_together(count: int, work: Any) -> list[Any]:
    barrier = threading.Barrier(count)

    def start(i: int) -> Any:
        barrier.wait()
        return work(i)

    with ThreadPoolExecutor(max_workers=count) as pool:
        return [f.result() for f in [pool.submit(start, i) for i in range(count)]]


def test_both_servers_give_the_same_answers(two_servers: tuple[Server, Server]) -> None:
    a, b = two_servers
    for path, body in COMPUTE:
        first = httpx.post(a.base_url + path, json=body, timeout=30)
        second = httpx.post(b.base_url + path, json=body, timeout=30)
        assert first.status_code == second.status_code == 200, (path, first.text, second.text)
        assert first.json() == second.json(), path
    cost = httpx.post(a.base_url + COMPUTE[0][0], json=COMPUTE[0][1], timeout=30).json()
    assert "+bundled-" in cost["data_version"]  # the catalogue both seeded from is the same


def test_concurrent_writes_through_both_servers_lose_nothing(
    two_servers: tuple[Server, Server], fresh_postgres_url: str
) -> None:
    servers = two_servers
    headers = {"Authorization": f"Bearer {_api_key(fresh_postgres_url)}"}
    board = {"permanents": [{"id": "forest", "card": "Forest"}]}
    created = httpx.post(
        servers[0].base_url + "/v1/scenarios", json={"name": "shared", "board": board}, headers=headers
    )
    assert created.status_code == 201, created.text
    path = httpx.URL(created.headers["location"]).path

    def writer(i: int) -> Counter[int]:
        statuses: Counter[int] = Counter()
        with httpx.Client(timeout=30, headers=headers) as client:
            for round_ in range(ROUNDS):
                # Read through one server, write through the other: ETags are the database's.
                current = client.get(servers[i % 2].base_url + path)
                assert current.status_code == 200, current.text
                body = {"name": "shared", "description": f"writer {i} round {round_}", "board": board}
                response = client.put(
                    servers[(i + 1) % 2].base_url + path,
                    json=body,
                    headers={"If-Match": current.headers["etag"]},
                )
                statuses[response.status_code] += 1
        return statuses

    totals = sum(_run_together(WRITERS, writer), Counter())
    assert set(totals) <= {200, 412}, totals
    assert totals[200] >= 1
    for server in servers:
        final = httpx.get(server.base_url + path, headers=headers).json()
        assert final["version"] == 1 + totals[200]
