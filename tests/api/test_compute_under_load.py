"""No stretch of compute holds the interpreter or skips its deadline for long, on the build under test.

A server of the build under test (the wheel's compiled core on CI's PostgreSQL pass,
``MANACALC_TEST_BUILD=compiled``; the pure sources otherwise) is started on a SQLite file of its own with
``manacalc serve``, and the costliest requests we could build are sent at once: a five-color deck of
fifteen dual and tri land kinds for castability (Commander, on the draw) and for the mana-base advisor, a
payment from 25 permanents, and 200 KB of inline card texts. Compiled, the rules core never went back to
the interpreter's loop, so one such request froze ``/healthz`` for 20-31 s and every compute answer came
late; ``deadline.check()`` now lets other threads run every 2 ms of work, and each loop that grows with the
input checks, and the worker threads take turns at the core, so the event loop competes for the GIL with
one of them only. Meanwhile ``/healthz`` answers within 100 ms throughout, no answer is a 5xx but a 503 (every
worker busy), and each compute answer comes by its budget plus 10 %.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.live_server import free_port

pytestmark = [pytest.mark.db_free, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
BUDGET_S = 1.5
HEALTHZ_S = 0.1
"""The worst /healthz allowed while the costliest requests run (plus what the idle machine adds). Before
the workers took turns (``deadline.Turns``) the compiled build measured 112-163 ms here: with a dozen
compute jobs at once, each handed the GIL over every 2 ms, but to any waiting thread, not the event
loop's first."""
DUALS = [
    "Savannah", "Scrubland", "Badlands", "Taiga", "Tundra", "Underground Sea", "Volcanic Island", "Bayou",
    "Plateau", "Tropical Island", "Arcane Sanctum", "Crumbling Necropolis", "Jungle Shrine", "Savage Lands",
    "Seaside Citadel",
]  # fmt: skip
DECK = "\n".join(f"2 {name}" for name in DUALS) + (
    "\n4 Progenitus\n4 Transguild Courier\n4 Conflux\n4 Maelstrom Archangel\n20 Cloudpost"
)
TEXT = ("Lands you control are " + "land " * 900 + "Forests.")[:4_999]


def _requests() -> list[tuple[str, dict[str, Any]]]:
    payment_board = [{"id": f"w{i}", "card": "Wastes"} for i in range(20)] + [
        {"id": f"r{i}", "card": "Mana Reflection"} for i in range(5)
    ]
    inline = {"name": "Odd", "mana_cost": "{1}", "type_line": "Sorcery", "oracle_text": TEXT}
    return [
        ("/v1/decks/analyze", {"decklist": DECK, "format": "commander", "play": "draw"}),
        ("/v1/decks/manabase", {"decklist": DECK}),
        (
            "/v1/payments/plan",
            {
                "board": {"permanents": payment_board},
                "player": "you",
                "cost": "{2/W}{2/U}{2/B}{2/R}{2/G}" * 5,
            },
        ),
        (
            "/v1/spells/cost/batch",
            {
                "board": {"permanents": []},
                "spells": [{"card": {**inline, "name": f"Odd {i}"}} for i in range(40)],
            },
        ),
        ("/v1/decks/analyze", {"decklist": DECK.replace("Cloudpost", "Wastes"), "play": "first"}),
        (
            "/v1/payments/plan",
            {"board": {"permanents": [{"id": "f", "card": "Forest"}]}, "cost": "{2}{G}{G}"},
        ),
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MANACALC_")}
    env |= {
        "MANACALC_DATABASE_URL": f"sqlite:///{tmp_path_factory.mktemp('load') / 'load.db'}",
        "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
        "MANACALC_LOG_LEVEL": "INFO",  # the access lines give each answer's time in the server
        "MANACALC_COMPUTE_BUDGET_S": str(BUDGET_S),
    }
    cli = [sys.executable, "-m", "app.cli"]
    subprocess.run([*cli, "migrate"], env=env, cwd=ROOT, check=True, capture_output=True, timeout=300)
    port = free_port()
    log = tmp_path_factory.mktemp("load-log") / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*cli, "serve", "--port", str(port)], env=env, cwd=ROOT, stdout=out, stderr=out
        )
    url = f"http://127.0.0.1:{port}"
    try:
        until = time.monotonic() + 300  # a cold start reads the catalogue: slow on a busy machine
        while True:
            try:
                if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > until or process.poll() is not None:
                pytest.fail(f"the server did not start: {log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)
        yield url, log
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)


def _worst_healthz(server: str, stop: threading.Event, worst: list[float]) -> None:
    with httpx.Client(base_url=server, timeout=30) as probe:
        while not stop.is_set():
            started = time.perf_counter()
            assert probe.get("/healthz").status_code == 200
            worst[0] = max(worst[0], time.perf_counter() - started)
            time.sleep(0.01)


def _served_ms(log: Path, paths: set[str]) -> list[tuple[str, float]]:
    """(path, milliseconds) of each access line of a POST to one of ``paths``."""
    found = []
    for line in log.read_text(errors="replace").splitlines():
        match = re.search(r"POST (\S+) (\d{3}) ([\d.]+)ms", line)
        if match and match[1] in paths:
            found.append((match[1], float(match[3])))
    return found


def test_healthz_answers_while_the_costliest_requests_run_at_once(server: tuple[str, Path]) -> None:
    url, log = server
    requests = _requests()
    with httpx.Client(base_url=url, timeout=30) as warm:  # the catalogue's cards, read once
        for path, body in requests:
            warm.post(path, json=body)
    # A /healthz pause can come from the machine rather than the server (CI builds the compiled core beside
    # the tests, at the lowest priority): the goal must hold in one of three rounds; every other bound
    # holds in each.
    rounds = []
    for _ in range(3):
        worst, bound, answers = _round(url, log, requests)
        rounds.append(f"/healthz took {worst * 1000:.0f} ms (bound {bound * 1000:.0f}); {answers}")
        if worst <= bound:
            return
    raise AssertionError("\n".join(rounds))


def _round(url: str, log: Path, requests: list[tuple[str, dict[str, Any]]]) -> tuple[float, float, list[Any]]:
    """One round: the idle poll, then the costliest requests twice at once beside the poll; (worst /healthz,
    its bound, the answers)."""
    # The same poll with nothing else running: what this machine adds to any request (CI's is quiet; a
    # shared one is not), allowed on top of the goal.
    idle, stop = [0.0], threading.Event()
    poller = threading.Thread(target=_worst_healthz, args=(url, stop, idle))
    poller.start()
    time.sleep(1.0)
    stop.set()
    poller.join()
    already = len(_served_ms(log, {p for p, _ in requests}))

    answers: list[tuple[str, int, float]] = []
    worst, stop = [0.0], threading.Event()

    def send(path: str, body: dict[str, Any]) -> None:
        with httpx.Client(base_url=url, timeout=30) as client:
            started = time.perf_counter()
            status = client.post(path, json=body).status_code
            answers.append((path, status, time.perf_counter() - started))

    poller = threading.Thread(target=_worst_healthz, args=(url, stop, worst))
    poller.start()
    time.sleep(0.2)
    senders = [threading.Thread(target=send, args=request) for request in requests * 2]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join()
    time.sleep(0.2)
    stop.set()
    poller.join()
    assert len(answers) == len(senders)
    assert not [(p, s) for p, s, _ in answers if s >= 500 and s != 503], answers
    assert {s for p, s, _ in answers if p.startswith("/v1/decks")} <= {200, 422, 503}, answers
    # In the server (its access lines): by the budget plus 10 % (plus what this machine adds to any
    # request, measured above); at the client, never a second budget.
    served = _served_ms(log, {p for p, _ in requests})[already:]
    assert len(served) == len(senders), served
    assert max(ms for _, ms in served) <= (BUDGET_S * 1.1 + idle[0]) * 1000, (served, idle)
    assert max(t for _, _, t in answers) < BUDGET_S * 2, answers
    bound = HEALTHZ_S + idle[0]
    return worst[0], bound, answers
