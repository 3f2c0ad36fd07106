"""Instructions per request of the hot routes in process, counted by valgrind's callgrind: one build
against another with no noise (issue 40: one request pipeline, speed kept within 5%).

The CPU time that ``bench/pipeline.py`` and ``bench/load.sh`` measure moves by 5-10 % between two runs of
the same build on these shared machines, as much as the changes they are meant to resolve. An instruction
count does not: the same build, body and catalogue give the same count within 1 %,
whatever else the machine is doing. It does not see what the count cannot (cache misses, the kernel, the
server's socket work), so it says what the code asks of the processor, not what a request costs in
seconds: ``load.sh`` still says that.

For each build (an interpreter whose ``app`` is the build: ``.venv/bin/python``, ``.venv-run/bin/python``,
another checkout's) and each row of ``bench/pipeline.py``, a child process builds the app on a temporary
SQLite database, starts its lifespan, sends ``--warm`` requests, then stops. Only then does callgrind
count (``--instr-atstart=no``, turned on with ``callgrind_control``): ``--requests`` requests of the row,
each body its own (the varied rows), and the child exits. Only the event loop's thread is counted, where
every request of these rows runs (the card index's poller thread queries the database every second).
Each row prints the instructions per request of each build and their ratio to the first.

    .venv/bin/python bench/instructions.py --builds BASE/.venv-run/bin/python .venv-run/bin/python
    .venv/bin/python bench/instructions.py --stub    # the path around the services alone

Needs valgrind (``apt-get install -y valgrind``). A child takes 20-60 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _asgi import http_scope, request, start_lifespan  # bench/_asgi.py: why a bare name
from _callgrind import lift_inline_slice, thread_totals
from pipeline import ROOT, ROWS, _stub_services  # bench/pipeline.py: the same rows and stub


async def _child(row: str, requests: int, warm: int, stub: bool) -> None:
    """Serve ``row`` in process: warm, say ``ready`` and wait for a line on stdin, then count."""
    import app.api.compute as compute
    from app.main import create_app

    if stub:
        _stub_services()
    # Every row here runs on the event loop at full speed; a request that still reaches a worker fails
    # the row rather than be counted in part.
    lift_inline_slice()

    async def never_in_worker(*args: object, **kwargs: object) -> object:
        raise SystemExit(f"{row}: a request ran in a worker thread, where it is not counted")

    compute._in_worker = never_in_worker  # type: ignore[assignment]
    app = create_app()
    await start_lifespan(app)  # never shut down: the child ends by os._exit, outside the count
    path, body_of = ROWS[row]
    for i in range(warm):
        body = body_of(-1 - i)
        await request(app, http_scope(path, body), body)
    bodies = [body_of(i) for i in range(requests)]
    print("ready", flush=True)
    sys.stdin.readline()  # blocked in read(2): no instruction is counted while the parent turns it on
    for body in bodies:
        status = await request(app, http_scope(path, body), body)
        if status != 200:
            raise SystemExit(f"{row}: answered {status}")
    sys.stdout.flush()
    os._exit(0)  # no shutdown, no interpreter teardown in the count


def _count(python: str, row: str, requests: int, warm: int, stub: bool) -> float:
    """Instructions per request of ``row`` in ``python``'s build."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "MANACALC_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
            "MANACALC_CATALOGUE_SNAPSHOT_DIR": tmp,
            "MANACALC_RATE_LIMIT_PER_MINUTE": "0",
            "MANACALC_LOG_LEVEL": "WARNING",
        }
        manacalc = Path(python).absolute().with_name("manacalc")  # run from the temporary directory
        subprocess.run([str(manacalc), "migrate"], check=True, capture_output=True, env=env, cwd=tmp)

        def child(requests: int, warm: int) -> list[str]:
            return [
                str(Path(python).absolute()),
                str(Path(__file__).resolve()),
                "--child",
                row,
                str(requests),
                str(warm),
                str(int(stub)),
            ]

        # A first start without valgrind writes the catalogue's snapshot, so the counted one loads it fast.
        snapshot = subprocess.Popen(
            child(0, 1),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=tmp,
        )
        snapshot.communicate(b"\n", timeout=600)
        out = Path(tmp) / "callgrind.out"
        counted = subprocess.Popen(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                "--separate-threads=yes",  # the card index's poller thread is not the requests' work
                f"--callgrind-out-file={out}",
                *child(requests, warm),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=tmp,  # the interpreter's own app, not a checkout's by the working directory
            text=True,
        )
        assert counted.stdin is not None and counted.stdout is not None
        if counted.stdout.readline().strip() != "ready":
            raise SystemExit(f"{python} {row}: the child did not start")
        subprocess.run(["callgrind_control", "-i", "on", str(counted.pid)], check=True, capture_output=True)
        counted.stdin.write("go\n")
        counted.stdin.flush()
        if counted.wait(timeout=1800) != 0:
            raise SystemExit(f"{python} {row}: the child failed")
        loop = thread_totals(Path(tmp).glob("callgrind.out*"))[1]  # where every request runs (inline)
        if loop:
            return loop / requests
    raise SystemExit(f"{python} {row}: no count of the main thread in callgrind's output")


def main() -> None:
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        asyncio.run(_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--builds", nargs="+", default=[str(ROOT / ".venv" / "bin" / "python")])
    parser.add_argument("--rows", nargs="+", default=list(ROWS), choices=list(ROWS))
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--warm", type=int, default=200)
    parser.add_argument("--stub", action="store_true", help="stub the services: the path alone")
    ns = parser.parse_args()
    what = "services stubbed" if ns.stub else "whole requests"
    print(f"== instructions per request in process ({what}, {ns.requests} requests after {ns.warm})")
    for row in ns.rows:
        counts = [_count(build, row, ns.requests, ns.warm, ns.stub) for build in ns.builds]
        cells = [f"{counts[0]:11,.0f}"] + [f"{c:11,.0f} x{c / counts[0]:.3f}" for c in counts[1:]]
        print(f"   {row:24} " + " | ".join(cells), flush=True)
    for i, build in enumerate(ns.builds):
        print(f"   [{i}] {build}")


if __name__ == "__main__":
    main()
