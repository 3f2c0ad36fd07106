"""What our connection layer (app/api/http_server.py) costs per request, against uvicorn's own httptools
protocol measured in the same run, in alternating rounds.

    .venv/bin/python bench/protocol.py [--requests 5000] [--rounds 4]

Each server runs in a thread in front of the same tiny ASGI app; one connection sends ``--requests``
pipelined GETs in one write and reads every answer, so the time is the server's parsing, bookkeeping and
writing, per request. The ratio is uvicorn's time over ours (1.0: free; below: what ours costs); on a
busy machine the ratio of the fastest rounds is the steadier figure.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.api.http_server import ManacalcHttpToolsProtocol, ServerLimits

REQUEST = b"GET /healthz HTTP/1.1\r\nHost: bench\r\nUser-Agent: bench\r\nAccept: */*\r\n\r\n"
ANSWER = b'{"status":"ok"}'


async def tiny_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(ANSWER))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": ANSWER})


def per_request_us(protocol: type[Any], requests: int) -> float:
    """Microseconds per request of ``requests`` pipelined GETs through a server running ``protocol``."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(tiny_app, http=protocol, log_config=None, lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        with socket.create_connection(listener.getsockname()) as client:
            started = time.perf_counter()
            client.sendall(REQUEST * requests)
            received = b""
            while received.count(b"HTTP/1.1 200") < requests:
                received += client.recv(1 << 20)
            return (time.perf_counter() - started) / requests * 1e6
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=6)
    ns = parser.parse_args()
    # The pipelining bound lifted (the one connection sends every request in one write), every other
    # bound as served.
    limits = ServerLimits(max_pipelined=ns.requests)
    ours = type("Ours", (ManacalcHttpToolsProtocol,), {"limits": limits})
    bases: list[float] = []
    mines: list[float] = []
    for round_ in range(1, ns.rounds + 1):
        bases.append(per_request_us(HttpToolsProtocol, ns.requests))
        mines.append(per_request_us(ours, ns.requests))
        print(f"round {round_}: uvicorn httptools {bases[-1]:6.1f} us/request, ours {mines[-1]:6.1f}")
    ratios = [base / mine for base, mine in zip(bases, mines, strict=True)]
    # The fastest round of each is the least disturbed by other work on the machine.
    print(
        f"ratio of the fastest rounds {min(bases) / min(mines):.2f}; of paired rounds: median"
        f" {statistics.median(ratios):.2f} (lowest {min(ratios):.2f}, highest {max(ratios):.2f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
