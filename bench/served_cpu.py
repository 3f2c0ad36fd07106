"""What a served request costs the server, one build against another: CPU per request read from ``/proc``,
or instructions per request counted by callgrind over the whole served process (issue 40).

``load.sh`` gives requests per second, which move 5-10 % between two runs of one build here.
``instructions.py`` counts a request in process, with no server. This script serves each build with
``manacalc serve --workers 1`` on a SQLite file of its own (the catalogue imported by that build), sends a
row of ``bench/pipeline.py`` (a body of its own each request), and reads the server's side only:

- default: alternated runs of ``wrk -t1 -c32`` (``--rounds``, ``--seconds`` each); around each run, every
  thread's CPU (``/proc/<pid>/task/*/schedstat``), user and system time and minor page faults
  (``.../stat``). Printed per build: CPU, user, system µs and faults a request, and the CPU of the threads
  other than the event loop's (a request that falls back to a worker shows there);
- ``--callgrind``: each build served under callgrind with the event loop's 10 ms slice lifted (valgrind
  runs the code some 50 times slower: a request would overrun it and finish in a worker), ``--requests``
  requests over 8 keep-alive connections after 160 unmeasured; instructions a request on the event
  loop's thread and on all threads.

    .venv/bin/python bench/served_cpu.py --builds /tmp/lane/.venv-run/bin/manacalc .venv-run/bin/manacalc
    .venv/bin/python bench/served_cpu.py --callgrind --builds ...

Needs wrk (default) or valgrind (``--callgrind``). Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path

from _callgrind import thread_totals
from pipeline import ROOT, ROWS  # bench/pipeline.py: the same rows

MARK = 987654321
"""The varying number of a row's body (``body_of(MARK)``), where the wrk script puts its counter."""

BENCH = Path(__file__).resolve().parent
LIFT_SLICE = f"""\
import sys
sys.path.append({str(BENCH)!r})  # appended: nothing of the served build is shadowed
import _callgrind
_callgrind.lift_inline_slice()
"""
"""The served process's ``sitecustomize`` under callgrind (``_callgrind.lift_inline_slice``: why)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database(manacalc: str, tmp: Path, catalogue: Path | None) -> str:
    """A SQLite file migrated, and the catalogue imported, by ``manacalc`` itself."""
    url = f"sqlite:///{tmp}/served.db"
    env = {**os.environ, "MANACALC_DATABASE_URL": url}
    command = [manacalc, "import-cards", str(catalogue)] if catalogue else [manacalc, "migrate"]
    subprocess.run(command, check=True, capture_output=True, env=env, cwd=tmp)
    return url


class Server:
    """``manacalc serve`` on a free port, optionally under callgrind."""

    def __init__(self, manacalc: str, url: str, tmp: Path, callgrind: Path | None = None) -> None:
        self.port = _free_port()
        env = {
            **os.environ,
            "MANACALC_DATABASE_URL": url,
            "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
            "MANACALC_LOG_LEVEL": "WARNING",
        }
        command = [manacalc, "serve", "--port", str(self.port), "--workers", "1"]
        if callgrind is not None:
            (tmp / "sitecustomize.py").write_text(LIFT_SLICE)
            env["PYTHONPATH"] = str(tmp)
            command = [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--separate-threads=yes",
                f"--callgrind-out-file={callgrind}",
                *command,
            ]
        self.process = subprocess.Popen(
            command, env=env, cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{manacalc} serve exited with {self.process.returncode}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/readyz", timeout=5)
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"{manacalc} serve was not ready in 600 s")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=120)


def _threads(pid: int) -> Counter[str]:
    """CPU ns of the event loop's thread and of the others, user and system ticks, minor faults."""
    out: Counter[str] = Counter()
    for tid in os.listdir(f"/proc/{pid}/task"):
        base = f"/proc/{pid}/task/{tid}"
        try:
            ns = int(Path(f"{base}/schedstat").read_text().split()[0])
            fields = Path(f"{base}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:  # a thread that ended between the listing and the read
            continue
        out["loop_ns" if int(tid) == pid else "other_ns"] += ns
        out["minflt"] += int(fields[7])
        out["utime"] += int(fields[11])
        out["stime"] += int(fields[12])
    return out


def _wrk_script(row: str, path: Path) -> None:
    """A wrk script sending ``row``'s body, its varying number a counter."""
    head, tail = ROWS[row][1](MARK).decode().split(str(MARK))
    lua = (
        'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\ncounter = 0\n'
        "request = function()\n  counter = counter + 1\n"
        f"  return wrk.format(nil, nil, nil, {_lua_string(head)} .. counter .. {_lua_string(tail)})\nend\n"
    )
    path.write_text(lua)


def _lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _cpu(builds: list[str], row: str, rounds: int, seconds: int, catalogue: Path | None) -> None:
    ticks = os.sysconf("SC_CLK_TCK")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        script = tmp / "row.lua"
        _wrk_script(row, script)
        servers = []
        for i, build in enumerate(builds):
            own = tmp / str(i)
            own.mkdir()
            servers.append(Server(build, _database(build, own, catalogue), own))
        totals = [Counter[str]() for _ in builds]
        requests = [0 for _ in builds]
        try:
            url = ROWS[row][0]
            for server in servers:  # warm: caches, the catalogue's first reads
                subprocess.run(
                    ["wrk", "-t1", "-c32", "-d3s", "-s", script, _at(server, url)], capture_output=True
                )
            for round_ in range(rounds):
                for i, server in enumerate(servers):
                    before = _threads(server.process.pid)
                    run = subprocess.run(
                        ["wrk", "-t1", "-c32", f"-d{seconds}s", "-s", script, _at(server, url)],
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    after = _threads(server.process.pid)
                    match = re.search(r"(\d+) requests in", run.stdout)
                    if match is None or "Non-2xx" in run.stdout:
                        raise SystemExit(f"{builds[i]}: wrk did not report only 2xx answers:\n{run.stdout}")
                    requests[i] += int(match.group(1))
                    totals[i].update({k: after[k] - before[k] for k in after})
                    print(f"   round {round_ + 1} [{i}] {match.group(1)} requests", flush=True)
        finally:
            for server in servers:
                server.stop()
    print(f"== served CPU per request, {row} ({rounds} x {seconds} s of wrk -t1 -c32 each)")
    base = None
    for i, build in enumerate(builds):
        n, t = requests[i], totals[i]
        cpu = (t["loop_ns"] + t["other_ns"]) / n / 1000
        base = base or cpu
        user, system = t["utime"] * 1e6 / ticks / n, t["stime"] * 1e6 / ticks / n
        print(
            f"   [{i}] {cpu:6.1f} us CPU (x{cpu / base:.3f}), user {user:5.1f} us, system {system:5.1f} us,"
            f" other threads {t['other_ns'] / n / 1000:4.1f} us, {t['minflt'] / n:.2f} faults  {build}"
        )


def _at(server: Server, path: str) -> str:
    return f"http://127.0.0.1:{server.port}{path}"


def _send(port: int, path: str, row: str, count: int, connections: int, offset: int) -> int:
    """``count`` requests of ``row`` over ``connections`` keep-alive connections; how many answered 200."""
    answered = [0] * connections

    def one(k: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        for i in range(count // connections):
            body = ROWS[row][1](offset + k * count + i)
            connection.request("POST", path, body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            answered[k] += response.status == 200
        connection.close()

    threads = [threading.Thread(target=one, args=(k,)) for k in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(answered)


def _callgrind(builds: list[str], row: str, requests: int, catalogue: Path | None) -> None:
    print(f"== served instructions per request, {row} ({requests} requests over 8 connections)")
    base = None
    for i, build in enumerate(builds):
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            out = tmp / "callgrind.out"
            server = Server(build, _database(build, tmp, catalogue), tmp, callgrind=out)
            path = ROWS[row][0]
            try:
                _send(server.port, path, row, 160, 8, -100_000)
                pid = str(server.process.pid)
                subprocess.run(["callgrind_control", "-i", "on", pid], check=True, capture_output=True)
                answered = _send(server.port, path, row, requests, 8, 0)
                subprocess.run(["callgrind_control", "-i", "off", pid], check=True, capture_output=True)
            finally:
                server.stop()
            if answered != requests:
                raise SystemExit(f"{build}: {answered} of {requests} answered 200")
            per_thread = thread_totals(tmp.glob("callgrind.out*"))
            loop = per_thread[1] / requests
            base = base or loop
            print(
                f"   [{i}] {loop:11,.0f} on the event loop's thread (x{loop / base:.3f}),"
                f" {sum(per_thread.values()) / requests:11,.0f} on all  {build}",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--builds", nargs="+", default=[str(ROOT / ".venv-run" / "bin" / "manacalc")])
    parser.add_argument("--row", default="spells/cost, load.sh's board varied", choices=list(ROWS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--callgrind", action="store_true", help="count instructions instead of CPU time")
    parser.add_argument("--requests", type=int, default=400)
    full = ROOT.parent / "shared" / "data" / "scryfall-oracle-cards.json"
    parser.add_argument("--catalogue", type=Path, default=full if full.exists() else None)
    ns = parser.parse_args()
    builds = [str(Path(b).absolute()) for b in ns.builds]
    tool = "valgrind" if ns.callgrind else "wrk"
    if shutil.which(tool) is None:
        raise SystemExit(f"{tool} is not installed: apt-get install -y {tool}")
    if ns.callgrind:
        _callgrind(builds, ns.row, ns.requests, ns.catalogue)
    else:
        _cpu(builds, ns.row, ns.rounds, ns.seconds, ns.catalogue)
    print(f"   machine: {os.cpu_count()} CPUs, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
