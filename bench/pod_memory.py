"""A pod's memory, as docs/deploy.md ("Sizing") sizes the Deployment from it: ``manacalc serve --workers 2``
on a SQLite file of its own (the bundled catalogue, the snapshot directory off), each process's resident
memory (VmRSS from ``/proc/PID/status``) once ready, after 600 requests (``spells/cost`` and
``decks/analyze``), then after each of ``RELOADS`` catalogue reloads (the ``data_version`` changed as an
import changes it, every worker's refresher rebuilding its catalogue) and the same requests again.

    .venv/bin/python bench/pod_memory.py [PORT] [RELOADS]

Linux only (``/proc``). Prints one table row per process and the pod's sum, in MiB.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WORKERS = 2
REQUESTS = 600
BOARD = {"permanents": [{"id": "f", "card": "Forest"}, {"id": "e", "card": "Llanowar Elves"}]}
DECK = "4 Lightning Helix\n4 Goblin Guide\n4 Fire/Ice\n10 Mountain\n6 Plains\n4 Sacred Foundry\n"


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def descendants(pid: int) -> list[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found, todo = [], [pid]
    while todo:
        parent = todo.pop()
        children = sorted(p for p, pp in parents.items() if pp == parent)
        found.extend(children)
        todo.extend(children)
    return found


def post(base: str, path: str, body: object) -> None:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()


def load(base: str) -> None:
    for _ in range(REQUESTS // 2):
        post(base, "/v1/spells/cost", {"board": BOARD, "spell": {"card": "Elvish Archers"}})
        post(base, "/v1/decks/analyze", {"decklist": DECK, "format": "modern"})


def snapshot(supervisor: int) -> dict[str, float]:
    sizes = {"supervisor": rss_mib(supervisor)}
    for pid in descendants(supervisor):
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        sizes[f"{pid} {command[:60]}"] = rss_mib(pid)
    return sizes


def main(port: int, reloads: int) -> None:
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "pod.db"
        log = Path(tmp) / "serve.log"
        env = {
            **os.environ,
            "MANACALC_DATABASE_URL": f"sqlite:///{db}",
            "MANACALC_CATALOGUE_SNAPSHOT_DIR": "off",
            "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
            "MANACALC_LOG_LEVEL": "INFO",
        }
        command = [str(Path(sys.executable).parent / "manacalc"), "serve", "--workers", str(WORKERS)]
        with log.open("w") as out:
            server = subprocess.Popen(
                [*command, "--port", str(port)], cwd=REPO, env=env, stderr=out, stdout=out
            )
        try:
            deadline = time.monotonic() + 300
            while True:
                try:
                    with urllib.request.urlopen(base + "/readyz", timeout=5) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(1)
            time.sleep(10)  # both workers loaded (the readiness answer is one worker's)
            columns = {"ready": snapshot(server.pid)}
            load(base)
            columns[f"after {REQUESTS} requests"] = snapshot(server.pid)
            for n in range(1, reloads + 1):
                with sqlite3.connect(db) as conn:
                    conn.execute(  # what an import does: a new data_version
                        "UPDATE app_meta SET value = value || ? WHERE key = 'catalogue.data_version'",
                        (f"+{n}",),
                    )
                while log.read_text().count("card catalogue reloaded") < WORKERS * n:
                    assert time.monotonic() < deadline + 300 * n, log.read_text()[-2000:]
                    time.sleep(1)
                time.sleep(3 * WORKERS)  # the replaced catalogues released
                load(base)
                columns[f"after reload {n}"] = snapshot(server.pid)
        finally:
            server.terminate()
            server.wait(timeout=60)
    names = list(columns["ready"])
    print("| process | " + " | ".join(columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{c.get(name, 0):.0f}" for c in columns.values()) + " |")
    print("| **pod** | " + " | ".join(f"**{sum(c.values()):.0f}**" for c in columns.values()) + " |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 8391, int(sys.argv[2]) if len(sys.argv) > 2 else 2)
