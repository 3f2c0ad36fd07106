"""Replay issue 15's and issue 27's attacks against a running service; time, status, memory and /healthz.

    manacalc serve --port 8000 &
    python bench/hostile.py --url http://127.0.0.1:8000 [--pid SERVER_PID]
    python bench/hostile.py --serve postgresql+psycopg://... --workers 2 --port 8127   (starts, then stops it)

``--serve`` starts the wheel ``make run`` serves (``.venv-run/bin/manacalc``, ``make install-run``; another
with ``--manacalc``) and prints which rules core it runs.

Each attack is sent with a hard client bound (``--timeout``); meanwhile a thread polls ``/healthz`` and the
worst latency is reported. ``--pid`` (or ``--serve``) adds the peak resident memory (VmHWM) of the server's
processes after each attack, the largest worker's. A baseline request (an ordinary ``spells/cost``) is
measured in the same run, and each attack's time is also given as a ratio to it. Goals (issues 15 and 27):
each attack 2 s or less, ``/healthz`` 100 ms or less, no 5xx, 400 MB or less per worker, and 1,000 idle
connections held while another client's requests succeed. Below HTTP (raw sockets): heads over the cap,
whole and trickled (431), Content-Length with Transfer-Encoding (400), a trickled head (408 at the head
deadline), every refusal problem+json. ``short_form`` is what CI runs (tests/api/test_hostile_bench.py).

``--floods`` runs only issue 36's connection attacks instead (``connection_floods``): 1,000 connections
answered before their body ended, a chunked trailer stream, a pipelined flood on one connection, unread
``Connection: close`` answers, 1,000 slow bodies, ``gzip, chunked`` and one-byte chunks. For each: the
worst ``/healthz`` and the 5xx another client got meanwhile, and the largest process's peak memory.
``--serve`` starts the ``manacalc`` command beside the Python that runs this script, or ``--command``'s,
outside the source tree: ``--command .venv-run/bin/manacalc`` measures the built wheel ``make run`` serves.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

JSON = {"Content-Type": "application/json"}
ROOT = Path(__file__).resolve().parents[1]


def vorthos() -> tuple[str, str, Any]:
    card = {
        "name": "Odd Spell",
        "mana_cost": "{1}",
        "type_line": "Sorcery",
        "flavor_text": "a" + " " * 200 + "c",
    }
    chosen = {"character": "a" + "-" * 20 + "b"}
    board = {"permanents": [{"id": "v", "card": "Vorthos, Steward of Myth", "chosen": chosen}]}
    return "POST", "/v1/spells/cost", {"board": board, "spell": {"card": card}}


def reflections() -> tuple[str, str, Any]:
    permanents = [{"id": "f", "card": "Forest"}] + [
        {"id": f"m{i}", "card": "Mana Reflection"} for i in range(28)
    ]
    return "POST", "/v1/boards/analyze", {"board": {"permanents": permanents}}


def payment() -> tuple[str, str, Any]:
    board = {"permanents": [{"id": f"w{i}", "card": "Wastes"} for i in range(45)]}
    return (
        "POST",
        "/v1/payments/plan",
        {"board": board, "player": "you", "cost": "{2/W}{2/U}{2/B}{2/R}{2/G}" * 6},
    )


def oracle_text() -> tuple[str, str, Any]:
    card = {"name": "Long", "mana_cost": "{1}", "type_line": "Sorcery", "oracle_text": "{" * 4_999}
    return "POST", "/v1/spells/cost/batch", {"board": {"permanents": []}, "spells": [{"card": card}] * 150}


def surrogate() -> tuple[str, str, Any]:
    return "POST", "/v1/spells/cost", '{"board": {"permanents": []}, "spell": {"card": "\\ud800"}}'


def nan() -> tuple[str, str, Any]:
    return "POST", "/v1/spells/cost", '{"board": {"permanents": []}, "spell": {"card": "Forest", "x": NaN}}'


def unknown_names() -> tuple[str, str, Any]:
    permanents = [{"id": f"u{i}", "card": f"No Such Card {i}"} for i in range(1_000)]
    return "POST", "/v1/spells/cost", {"board": {"permanents": permanents}, "spell": {"card": "Forest"}}


def nul_byte() -> tuple[str, str, Any]:
    return "POST", "/v1/spells/cost", '{"board": {"permanents": []}, "spell": {"card": "For\\u0000est"}}'


def deep_cursor() -> tuple[str, str, Any]:
    nested = "[" * 1_500 + "]" * 1_500
    cursor = base64.urlsafe_b64encode(nested.encode()).decode().rstrip("=")
    return "GET", f"/v1/cards?mana_cost=%7BW%7D&cursor={cursor}", None


def negative_life() -> tuple[str, str, Any]:
    board = {"players": {"you": {"life": -5}}, "permanents": []}
    return "POST", "/v1/payments/plan", {"board": board, "player": "you", "cost": "{W/P}{W/P}{U}"}


def no_content_type() -> tuple[str, str, Any]:
    return "POST", "/v1/mana-costs/parse", '{"mana_cost": "{W}"}'


def raw_surrogate() -> tuple[str, str, Any]:
    """U+D800's bytes as sent, not escaped: not UTF-8 (issue 27: a 500)."""
    return "POST", "/v1/spells/cost", b'{"board": {"permanents": []}, "spell": {"card": "\xed\xa0\x80"}}'


def overflow() -> tuple[str, str, Any]:
    return "POST", "/v1/spells/cost", '{"board": {"permanents": []}, "spell": {"card": "Forest", "x": 1e999}}'


def big_batch() -> tuple[str, str, Any]:
    """A 9 KB batch whose answer, every spell explaining every tax, was megabytes (bounded at 4 MiB)."""
    taxes = ["Thalia, Guardian of Thraben", "Goblin Electromancer", "Sphere of Resistance"] * 12
    board = {"permanents": [{"id": f"t{i}", "card": card} for i, card in enumerate(taxes)]}
    return "POST", "/v1/spells/cost/batch", {"board": board, "spells": [{"card": "Lightning Bolt"}] * 250}


def validation_errors_compute_route() -> tuple[str, str, Any]:
    """The 340,000 errors of ``validation_errors(33)`` sent to a ``ComputeRoute`` (``app.api.routing``),
    whose own parser (``validate_json``) read a large body in one GIL-holding call (0.9 s for these
    errors) when it was the direct lane's."""
    permanent = {"id": "a", "card": {"keywords": [0] * 33}}
    body = {"board": {"permanents": [permanent] * 10_000}, "spells": [{"card": "Shock"}]}
    return "POST", "/v1/spells/cost/batch", json.dumps(body, separators=(",", ":")).encode()


def validation_errors(keywords: int) -> Callable[[], tuple[str, str, Any]]:
    """10,000 permanents whose inline card lacks a name and lists ``keywords`` numbers: 10,000 x
    (``keywords`` + 1) validation errors in under 1 MiB, on a route of FastAPI's own handler (issue 27: the
    whole list of errors was built on the event loop, 1.3 to 1.7 s for 90,000)."""

    def build() -> tuple[str, str, Any]:
        permanent = {"id": "a", "card": {"keywords": [0] * keywords}}
        body = {"board": {"permanents": [permanent] * 10_000}}
        return "POST", "/v1/boards/analyze", json.dumps(body, separators=(",", ":")).encode()

    return build


DUALS = [
    "Savannah",
    "Scrubland",
    "Badlands",
    "Taiga",
    "Tundra",
    "Underground Sea",
    "Volcanic Island",
    "Bayou",
    "Plateau",
    "Tropical Island",
    "Arcane Sanctum",
    "Crumbling Necropolis",
    "Jungle Shrine",
    "Savage Lands",
    "Seaside Citadel",
]


def costly_deck() -> str:
    """About 500 bytes: 15 kinds of dual and tri lands and five-color spells (issue 36: /healthz froze 20-31 s
    on the compiled build while such a deck's castability ran)."""
    lands = "\n".join(f"2 {name}" for name in DUALS)
    return f"{lands}\n4 Progenitus\n4 Transguild Courier\n4 Conflux\n4 Maelstrom Archangel\n20 Cloudpost"


def deck_castability() -> tuple[str, str, Any]:
    return "POST", "/v1/decks/analyze", {"decklist": costly_deck(), "format": "commander", "play": "draw"}


def deck_manabase() -> tuple[str, str, Any]:
    return "POST", "/v1/decks/manabase", {"decklist": costly_deck()}


def unpayable_plan() -> tuple[str, str, Any]:
    """Issue 36: 500 on the compiled build (the shortfall copied a compiled value)."""
    board = {"permanents": [{"id": "f", "card": "Forest"}]}
    return "POST", "/v1/payments/plan", {"board": board, "player": "you", "cost": "{2}{G}{G}"}


def inline_texts() -> tuple[str, str, Any]:
    """About 200 KB of inline card texts, each line long and mana-like (issue 36: 1.4 s on the event loop)."""
    text = "Lands you control are " + "land " * 900 + "Forests."
    cards = [
        {"name": f"Odd {i}", "mana_cost": "{1}", "type_line": "Sorcery", "oracle_text": text[:4_999]}
        for i in range(40)
    ]
    return (
        "POST",
        "/v1/spells/cost/batch",
        {"board": {"permanents": []}, "spells": [{"card": c} for c in cards]},
    )


def baseline() -> tuple[str, str, Any]:
    board = {"permanents": [{"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}]}
    return "POST", "/v1/spells/cost", {"board": board, "spell": {"card": "Grizzly Bears"}}


ATTACKS: dict[str, Callable[[], tuple[str, str, Any]]] = {
    "baseline": baseline,
    "vorthos a--b / 200 spaces": vorthos,
    "forest + 28 mana reflections": reflections,
    "{2/X}x5 x6 from 45 wastes": payment,
    "150 x 5,000-char oracle texts": oracle_text,
    "lone surrogate": surrogate,
    "NaN": nan,
    "1,000 unknown names": unknown_names,
    "NUL in a card name": nul_byte,
    "cursor nested 1,500 deep": deep_cursor,
    "life -5, unpayable Phyrexian cost": negative_life,
    "body without Content-Type": no_content_type,
    "raw surrogate bytes": raw_surrogate,
    "1e999": overflow,
    "250 taxed spells (answer bytes)": big_batch,
    "90,000 validation errors": validation_errors(8),
    "340,000 validation errors": validation_errors(33),
    "340,000 validation errors, compute route": validation_errors_compute_route,
    "unpayable {2}{G}{G} from one Forest": unpayable_plan,
    "500-byte deck, castability": deck_castability,
    "500-byte deck, mana base": deck_manabase,
    "200 KB of inline card texts": inline_texts,
}
TWO_AT_ONCE = "2 hostile requests at once"
# Attacks whose request carries no JSON media type on purpose.
NO_MEDIA_TYPE = {"body without Content-Type"}


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def raw_attack(url: str, payload: bytes, timeout: float, *, trickle: int = 0) -> tuple[int, float, bytes]:
    """Send ``payload`` on a raw socket (in ``trickle``-byte pieces 5 ms apart when given); the status the
    server answered (0: closed without one, -1: held open past ``timeout``), the seconds, the answer."""
    started = time.perf_counter()
    with socket.create_connection(_address(url), timeout=timeout) as sock:
        answer = b""
        try:
            if trickle:
                for start in range(0, len(payload), trickle):
                    sock.sendall(payload[start : start + trickle])
                    time.sleep(0.005)
            else:
                sock.sendall(payload)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server closed the connection before reading it all: refused, as it should
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                answer += chunk
                if b"\r\n\r\n" in answer and not answer.startswith(b"HTTP/1.1 100"):
                    break
        except TimeoutError:
            if not answer:
                return -1, time.perf_counter() - started, b""
        except ConnectionResetError:
            pass
    took = time.perf_counter() - started
    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
    return status, took, answer


def head_attacks(url: str) -> list[tuple[str, bytes, int, int]]:
    """(name, payload, trickle piece, expected status) of the attacks below HTTP parsing."""
    host = urlsplit(url).netloc.encode()
    start = b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n"
    big = start + b"X-Big: " + b"a" * 60_000 + b"\r\n\r\n"
    many = start + b"".join(b"X-H%d: " % i + b"b" * 1024 + b"\r\n" for i in range(40)) + b"\r\n"
    post = b"POST /v1/mana-costs/parse HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    smuggle = post + b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    return [
        ("1 MiB header line", start + b"X-Big: " + b"a" * 1024 * 1024 + b"\r\n\r\n", 0, 431),
        ("60 KB header block, whole", big, 0, 431),
        ("60 KB header block, trickled", big, 2048, 431),
        ("40 headers of 1 KB, whole", many, 0, 431),
        ("40 headers of 1 KB, trickled", many, 1024, 431),
        ("Content-Length + Transfer-Encoding", smuggle, 0, 400),
    ]


def slow_head(url: str, timeout: float) -> tuple[int, float]:
    """A head trickled a byte every 0.2 s, for ever: answered 408 at the head deadline, then closed."""
    started = time.perf_counter()
    with socket.create_connection(_address(url), timeout=timeout) as sock:
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\n")
            while time.perf_counter() - started < timeout:
                sock.sendall(b"X")
                time.sleep(0.2)
                sock.setblocking(False)
                try:
                    answer = sock.recv(65536)
                except BlockingIOError:
                    answer = None
                finally:
                    sock.setblocking(True)
                if answer is not None:
                    status = int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0
                    return status, time.perf_counter() - started
        except (BrokenPipeError, ConnectionResetError):
            return 0, time.perf_counter() - started
    return -1, time.perf_counter() - started


def idle_connections(url: str, count: int, timeout: float) -> tuple[int, list[int], float]:
    """Hold ``count`` connections that send nothing, and meanwhile send another client's requests
    (``/healthz`` and a ``spells/cost``, each on a new connection). Returns the connections the server
    accepted, the other client's statuses, and its worst latency in seconds."""
    held: list[socket.socket] = []
    try:
        for _ in range(count):
            try:
                held.append(socket.create_connection(_address(url), timeout=timeout))
            except OSError:
                break
        time.sleep(0.2)
        method, path, body = baseline()
        statuses: list[int] = []
        worst = 0.0
        for _ in range(10):
            for call in (
                lambda: httpx.get(url + "/healthz", timeout=timeout),
                lambda: httpx.request(method, url + path, json=body, timeout=timeout),
            ):
                started = time.perf_counter()
                try:
                    statuses.append(call().status_code)
                except httpx.HTTPError:
                    statuses.append(0)
                worst = max(worst, time.perf_counter() - started)
        return len(held), statuses, worst
    finally:
        for sock in held:
            sock.close()


def short_form(url: str, *, idle: int = 1000, timeout: float = 10.0) -> list[str]:
    """The attacks of issue 27 that are the server's own (CI runs this): what missed its goal."""
    missed: list[str] = []
    for name, payload, trickle, expected in head_attacks(url):
        status, took, answer = raw_attack(url, payload, timeout, trickle=trickle)
        problem = b"application/problem+json" in answer.lower()
        if status != expected or took > 2.0 or not problem:
            missed.append(f"{name}: {status} after {took:.2f}s (problem+json: {problem})")
    for name, build in (("raw surrogate bytes", raw_surrogate), ("1e999", overflow)):
        method, path, body = build()
        content = body if isinstance(body, bytes) else body.encode()
        response = httpx.request(method, url + path, content=content, headers=JSON, timeout=timeout)
        if response.status_code not in (400, 422):
            missed.append(f"{name}: {response.status_code}")
    accepted, statuses, worst = idle_connections(url, idle, timeout)
    if any(status != 200 for status in statuses) or worst > 1.0:
        missed.append(
            f"{accepted} idle connections: other client got {sorted(set(statuses))}, worst {worst:.2f}s"
        )
    return missed


def log_line_forgery(url: str) -> str:
    """A %0A in the path must not start a line of its own in the access log: the server answers; the log
    is checked by tests/api/test_middleware.py (the bench cannot read the server's log)."""
    response = httpx.get(url + "/v1/cards/Forest%0AINFO%20forged%20line", timeout=5)
    return str(response.status_code)


def forwarded_for_bypass(url: str) -> str:
    """X-Forwarded-For from an untrusted peer must not pick the rate-limit key: the same answer with or
    without it (tests/api/test_rate_limit.py asserts the limit itself)."""
    plain = httpx.get(url + "/v1/symbols", timeout=5).status_code
    spoofed = httpx.get(url + "/v1/symbols", headers={"X-Forwarded-For": "10.9.9.9"}, timeout=5).status_code
    return f"{plain} / {spoofed}"


def host_echo(url: str) -> str:
    response = httpx.get(url + "/v1/symbols/", headers={"Host": "evil.example"}, timeout=5)
    echoed = "evil.example" in response.headers.get("location", "") + response.text
    return f"{response.status_code}{' HOST ECHOED' if echoed else ', no Host echo'}"


def two_at_once(url: str, timeout: float) -> tuple[float, float]:
    """Two hostile requests at once; meanwhile the worst latency of /healthz and of an ordinary
    spells/cost (issue 15: both within 100 ms)."""
    heavy = [payment(), oracle_text()]
    done = threading.Event()
    worst = {"healthz": 0.0, "cost": 0.0}

    def attack(request: tuple[str, str, Any]) -> None:
        method, path, body = request
        with httpx.Client(base_url=url, timeout=timeout) as c:
            c.request(method, path, content=json.dumps(body).encode(), headers=JSON)

    def probe() -> None:
        method, path, body = baseline()
        content = json.dumps(body).encode()
        with httpx.Client(base_url=url, timeout=timeout) as c:
            while not done.is_set():
                for key, call in (
                    ("healthz", lambda: c.get("/healthz")),
                    ("cost", lambda: c.request(method, path, content=content, headers=JSON)),
                ):
                    started = time.perf_counter()
                    call()
                    worst[key] = max(worst[key], time.perf_counter() - started)
                time.sleep(0.02)

    attackers = [threading.Thread(target=attack, args=(r,)) for r in heavy]
    prober = threading.Thread(target=probe)
    prober.start()
    time.sleep(0.1)
    for thread in attackers:
        thread.start()
    for thread in attackers:
        thread.join()
    done.set()
    prober.join()
    return worst["healthz"], worst["cost"]


def reload_stall(url: str, database_url: str, seconds: float = 12.0) -> list[float]:
    """The worst ``/healthz`` latency while the server reloads its catalogue (issue 27: 186 to 397 ms):
    the catalogue's ``data_version`` is changed, which every worker notices within a second and rebuilds
    its index for, then put back (a second reload); ``seconds`` of polling each."""
    sys.path.insert(0, str(ROOT))
    from app.config import Settings
    from app.db.repositories.cards import get_meta, set_meta
    from app.db.session import get_engine, get_sessionmaker
    from app.services.card_import import DATA_VERSION_KEY

    factory = get_sessionmaker(get_engine(Settings(database_url=database_url)))
    with factory() as session, session.begin():
        original = get_meta(session, DATA_VERSION_KEY) or "empty"
    worsts = []
    try:
        for version in (f"{original}-hostile-reload", original):
            with factory() as session, session.begin():
                set_meta(session, DATA_VERSION_KEY, version)
            worst = 0.0
            with httpx.Client(base_url=url, timeout=30) as probe:
                until = time.monotonic() + seconds
                while time.monotonic() < until:
                    started = time.perf_counter()
                    probe.get("/healthz")
                    worst = max(worst, time.perf_counter() - started)
                    time.sleep(0.02)
            worsts.append(worst)
    finally:
        with factory() as session, session.begin():
            set_meta(session, DATA_VERSION_KEY, original)
    return worsts


def vm_hwm_mib(pids: list[int]) -> str:
    """The largest peak resident memory of ``pids`` (the server and its workers), MiB."""
    peaks = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        peaks.append(int(line.split()[1]) / 1024)
        except OSError:
            continue
    return f"{max(peaks):.0f}" if peaks else "-"


def server_pids(pid: int | None) -> list[int]:
    """``pid`` and its children (uvicorn's workers)."""
    if pid is None:
        return []
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as children:
            return [pid, *map(int, children.read().split())]
    except OSError:
        return [pid]


SERVED = ROOT / ".venv-run" / "bin" / "manacalc"
"""What ``make run`` serves: the built wheel (its rules core compiled) in its own virtualenv."""


def served_build(manacalc: Path) -> str:
    """``mypyc`` or ``pure``: the rules core ``manacalc`` runs (asked of its own interpreter)."""
    probe = "from app.services.catalogue_snapshot import core_build; print(core_build())"
    python = manacalc.with_name("python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    done = subprocess.run([str(python), "-c", probe], env=env, cwd="/", capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


def start_server(database_url: str, workers: int, port: int, manacalc: Path) -> subprocess.Popen[bytes]:
    """``manacalc serve`` on 127.0.0.1:``port`` with ``database_url``; returns once ``/healthz`` answers.

    ``manacalc`` is the wheel's (``make install-run``), run outside the checkout, so that the bench
    measures the build that ships, never the checkout's sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    env |= {"MANACALC_DATABASE_URL": database_url, "MANACALC_RATE_LIMIT_PER_MINUTE": "0"}
    command = [str(manacalc), "serve", "--port", str(port), "--workers", str(workers)]
    print(f"serving {manacalc} ({served_build(manacalc)} rules core), {workers} worker(s)", flush=True)
    server = subprocess.Popen(command, env=env, cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit(f"manacalc serve did not start on port {port}")


def socket_attacks(ns: argparse.Namespace) -> int:
    """Below HTTP, the log and header checks, and the idle connections; the number of goals missed."""
    failures = 0
    for name, payload, trickle, expected in head_attacks(ns.url):
        status, took, answer = raw_attack(ns.url, payload, 10, trickle=trickle)
        problem = b"application/problem+json" in answer.lower()
        bad = status != expected or took > 2.0 or not problem
        failures += bad
        print(
            f"{name:34} {status:>6} {took:8.3f}  problem+json: {problem}{'  <- goal missed' if bad else ''}"
        )
    status, took = slow_head(ns.url, 15)
    failures += status != 408
    print(
        f"{'head trickled a byte / 0.2 s':34} {status:>6} {took:8.3f}  (the head deadline)"
        + ("" if status == 408 else "  <- goal missed")
    )
    host = urlsplit(ns.url).netloc
    trickle = f"POST /v1/spells/cost HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n".encode()
    status, took, _ = raw_attack(ns.url, trickle + b"Content-Length: 100\r\n\r\n{", 15)
    print(f"{'trickled body (never sent)':34} {status:>6} {took:8.3f}  (the body deadline)")
    print(f"{'%0A in the path (log forgery)':34} {log_line_forgery(ns.url)}")
    print(f"{'X-Forwarded-For, untrusted peer':34} {forwarded_for_bypass(ns.url)}")
    print(f"{'trailing slash, forged Host':34} {host_echo(ns.url)}")
    accepted, statuses, idle_worst = idle_connections(ns.url, ns.idle, ns.timeout)
    idle_ok = all(s == 200 for s in statuses) and idle_worst <= 1.0
    failures += not idle_ok
    print(
        f"{f'{ns.idle:,} idle connections':34} {accepted} held; another client: {len(statuses)} requests,"
        f" statuses {sorted(set(statuses))}, worst {idle_worst * 1000:.0f} ms"
        + ("" if idle_ok else "  <- goal missed")
    )
    return failures


# --- issue 36: connection floods ----------------------------------------------------------------------


class Prober:
    """Another client meanwhile: ``/healthz`` and an ordinary ``spells/cost`` in turn, each on a new
    connection; the worst ``/healthz`` latency and the statuses it got (0: no answer).

    In a process of its own: in the attacker's, it waited for the attacker's threads' GIL (a thousand
    sockets driven from Python), and a new ``httpx`` client per request built an SSL context each time;
    both were timed as the server's latency (150 ms with no attack at all)."""

    def __init__(self, url: str, timeout: float) -> None:
        self.url, self.timeout = url, timeout
        self.worst_healthz = 0.0
        self.statuses: list[int] = []
        context = multiprocessing.get_context("spawn")
        self._stop, self._ready = context.Event(), context.Event()
        self._results: Any = context.SimpleQueue()
        self._process = context.Process(
            target=_probe, args=(url, timeout, self._stop, self._ready, self._results), daemon=True
        )

    def __enter__(self) -> Prober:
        self._process.start()
        self._ready.wait(60)  # its imports done and its client made: the attack starts under its eyes
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.worst_healthz, self.statuses = self._results.get()
        self._process.join()


def _probe(url: str, timeout: float, stop: Any, ready: Any, results: Any) -> None:
    """The prober's process: one client, no keep-alive (a new connection per request)."""
    method, path, body = baseline()
    worst, statuses = 0.0, []
    limits = httpx.Limits(max_keepalive_connections=0)
    with httpx.Client(base_url=url, timeout=timeout, limits=limits) as client:
        ready.set()
        while not stop.is_set() or not statuses:
            for healthz in (True, False):
                started = time.perf_counter()
                try:
                    if healthz:
                        status = client.get("/healthz").status_code
                    else:
                        status = client.request(method, path, json=body).status_code
                except httpx.HTTPError:
                    status = 0
                if healthz:
                    worst = max(worst, time.perf_counter() - started)
                statuses.append(status)
            time.sleep(0.05)
    results.put((worst, statuses))


def _connect(url: str, timeout: float = 10.0, rcvbuf: int = 0) -> socket.socket | None:
    try:
        sock = socket.socket()
        if rcvbuf:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.settimeout(timeout)
        sock.connect(_address(url))
        return sock
    except OSError:
        return None


def _send(sock: socket.socket, data: bytes) -> bool:
    try:
        sock.sendall(data)
        return True
    except OSError:
        return False


def _answered_early(url: str, seconds: float) -> str:
    """1,000 connections each declaring a body over the cap (answered 413 at once), sending a little of
    it every second and reading nothing."""
    host = urlsplit(url).netloc.encode()
    head = b"POST /v1/spells/cost HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: 50000000\r\n\r\n{"
    held = [s for s in (_connect(url) for _ in range(1000)) if s is not None]
    for sock in held:
        _send(sock, head)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        open_ = [s for s in held if _send(s, b" " * 64)]
        time.sleep(1)
    for sock in held:
        sock.close()
    return f"{len(held)} sent, {len(open_)} still open after {seconds:g} s"


def _trailers(url: str, seconds: float) -> str:
    """One connection: a chunked body, then trailer bytes for as long as the server reads them."""
    host = urlsplit(url).netloc.encode()
    sock = _connect(url)
    if sock is None:
        return "not connected"
    head = b"POST /v1/spells/cost HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    sent = 0
    with sock:
        _send(sock, head + b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n0\r\nX-T: ")
        end = time.monotonic() + seconds
        # At most 64 MiB: enough to tell a bound from none without taking a shared machine's memory.
        while time.monotonic() < end and sent < 64 << 20 and _send(sock, b"a" * 65536):
            sent += 65536
    return f"{sent / 1024 / 1024:.1f} MiB of trailer sent before the server stopped reading (64 at most)"


def _pipelined(url: str, seconds: float) -> str:
    """One connection sending pipelined ``GET /healthz`` requests and reading no answer."""
    host = urlsplit(url).netloc.encode()
    sock = _connect(url)
    if sock is None:
        return "not connected"
    batch = (b"GET /healthz HTTP/1.1\r\nHost: " + host + b"\r\n\r\n") * 2000
    sent = 0
    with sock:
        sock.settimeout(1)
        end = time.monotonic() + seconds
        while time.monotonic() < end and sent < 200_000:  # enough to tell a bound from none
            try:
                sock.sendall(batch)
                sent += 2000
            except (TimeoutError, OSError):
                break
    return f"{sent:,} requests sent before the server stopped reading (200,000 at most)"


def _server_side_sockets(url: str) -> int | None:
    """Established TCP connections whose local port is the server's (``ss``; None without it)."""
    port = _address(url)[1]
    try:
        done = subprocess.run(
            ["ss", "-Htn", "state", "established", f"( sport = :{port} )"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return len(done.stdout.splitlines()) if done.returncode == 0 else None


def _unread_close(url: str, seconds: float) -> str:
    """200 connections asking ``/openapi.json`` (hundreds of KB, one write) with ``Connection: close``
    and reading nothing: the server must drop them by its send deadline, not hold them for ever."""
    host = urlsplit(url).netloc.encode()
    ask = b"GET /openapi.json HTTP/1.1\r\nHost: " + host + b"\r\nAccept-Encoding: identity\r\n"
    ask += b"Connection: close\r\n\r\n"
    held = [s for s in (_connect(url, rcvbuf=4096) for _ in range(200)) if s is not None]
    for sock in held:
        _send(sock, ask)
    time.sleep(seconds)
    still = _server_side_sockets(url)
    for sock in held:
        sock.close()
    kept = "?" if still is None else str(still)
    return f"{len(held)} asked; after {seconds:g} s the server still holds {kept} connections"


def _slow_bodies(url: str, seconds: float) -> str:
    """1,000 connections each sending a 1,000-byte body a byte a second."""
    host = urlsplit(url).netloc.encode()
    head = b"POST /v1/spells/cost HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    head += b"Content-Length: 1000\r\n\r\n{"
    held = [s for s in (_connect(url) for _ in range(1000)) if s is not None]
    for sock in held:
        _send(sock, head)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        open_ = [s for s in held if _send(s, b" ")]
        time.sleep(1)
    for sock in held:
        sock.close()
    return f"{len(held)} sent, {len(open_)} still open after {seconds:g} s"


def _coding(url: str, seconds: float) -> str:
    host = urlsplit(url).netloc.encode()
    head = b"POST /v1/spells/cost HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    status, _, _ = raw_attack(url, head + b"Transfer-Encoding: gzip, chunked\r\n\r\n1\r\n{\r\n0\r\n\r\n", 10)
    return f"answered {status}"


def _one_byte_chunks(url: str, seconds: float) -> str:
    host = urlsplit(url).netloc.encode()
    head = b"POST /v1/spells/cost HTTP/1.1\r\nHost: " + host + b"\r\nContent-Type: application/json\r\n"
    body = b"".join(b"1\r\n \r\n" for _ in range(100_000)) + b"0\r\n\r\n"
    status, took, _ = raw_attack(url, head + b"Transfer-Encoding: chunked\r\n\r\n" + body, 30)
    return f"100,000 one-byte chunks answered {status} after {took:.2f} s"


def _nothing(url: str, seconds: float) -> str:
    time.sleep(seconds)
    return "the prober alone: this machine's noise"


FLOODS: dict[str, Callable[[str, float], str]] = {
    "no attack (baseline)": _nothing,
    "1,000 answered before body end": _answered_early,
    "chunked trailer stream": _trailers,
    "pipelined flood, one connection": _pipelined,
    "200 unread Connection: close": _unread_close,
    "1,000 slow bodies": _slow_bodies,
    "Transfer-Encoding: gzip, chunked": _coding,
    "one-byte chunks": _one_byte_chunks,
}


def connection_floods(ns: argparse.Namespace, seconds: float = 12.0) -> int:
    """Issue 36's connection attacks, each for ``seconds`` while another client probes; the number of
    goals missed (/healthz 100 ms or less, no 5xx nor unanswered request, 400 MiB or less)."""
    failures = 0
    print(f"{'attack':34} {'healthz ms':>10} {'5xx':>4} {'none':>4} {'peak MiB':>8}  what happened")
    for name, flood in FLOODS.items():
        if ns.only and ns.only not in name and flood is not _nothing:
            continue
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(ns.url + "/healthz", timeout=30)  # the previous attack's connections are gone
        with Prober(ns.url, ns.timeout) as prober:
            what = flood(ns.url, seconds)
        peak = vm_hwm_mib(server_pids(ns.pid))
        errors = sum(1 for s in prober.statuses if s >= 500)
        unanswered = prober.statuses.count(0)
        bad = prober.worst_healthz > 0.1 or errors or unanswered or (peak != "-" and float(peak) > 400)
        failures += bool(bad)
        print(
            f"{name:34} {prober.worst_healthz * 1000:10.1f} {errors:4} {unanswered:4} {peak:>8}  {what}"
            + ("  <- goal missed" if bad else "")
        )
        alive = server_pids(ns.pid)
        if ns.pid is not None and len(alive) < 1 + max(ns.workers, 1) * (ns.workers > 1):
            print(f"  a worker is gone after {name!r} (processes now: {alive})")
    print(f"{failures} flood(s) missed the goals")
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--pid", type=int, default=None, help="the server process, for its memory peak")
    parser.add_argument("--serve", metavar="DATABASE_URL", help="start manacalc serve on this database first")
    parser.add_argument("--workers", type=int, default=1, help="with --serve: worker processes")
    parser.add_argument("--port", type=int, default=8127, help="with --serve: the port")
    parser.add_argument(
        "--manacalc",
        "--command",
        type=Path,
        default=SERVED,
        help="with --serve: the manacalc to start (default: .venv-run's, the wheel `make run` serves)",
    )
    parser.add_argument("--idle", type=int, default=1000, help="idle connections to hold (default 1000)")
    parser.add_argument("--timeout", type=float, default=30.0, help="hard bound per attack, seconds")
    parser.add_argument(
        "--reload",
        action="store_true",
        help="with --serve: only the worst /healthz while the catalogue reloads (twice), nothing else",
    )
    parser.add_argument(
        "--floods", action="store_true", help="only the connection attacks of issue 36 (connection_floods)"
    )
    parser.add_argument(
        "--only",
        metavar="WORDS",
        help="only the attacks whose name contains WORDS (and the baseline); no socket-level attacks",
    )
    ns = parser.parse_args()

    server = None
    # Absolute, not resolved: the server runs outside the checkout (cwd "/"), and resolving would follow
    # the virtualenv's python symlink out of the virtualenv.
    ns.manacalc = ns.manacalc.absolute()
    if ns.serve:
        if not ns.manacalc.exists():
            raise SystemExit(
                f"{ns.manacalc} is missing: `make install-run` builds the wheel `make run` serves"
            )
        server = start_server(ns.serve, ns.workers, ns.port, ns.manacalc)
        ns.url, ns.pid = f"http://127.0.0.1:{ns.port}", server.pid
    try:
        if ns.reload and ns.serve:
            worsts = reload_stall(ns.url, ns.serve)
            ok = all(w <= 0.1 for w in worsts)
            shown = ", ".join(f"{w * 1000:.1f}" for w in worsts)
            print(f"{'catalogue reload (x2)':34} worst /healthz {shown} ms{'' if ok else '  <- goal missed'}")
            return 0 if ok else 1
        if ns.floods:
            return connection_floods(ns)
        return run(ns)
    finally:
        if server is not None:
            server.terminate()
            server.wait(30)


def run(ns: argparse.Namespace) -> int:
    try:
        httpx.get(ns.url + "/healthz", timeout=2)
    except httpx.HTTPError:
        print(f"no service at {ns.url}: start one (manacalc serve) and pass --url; nothing measured")
        return 0
    worst = [0.0]
    stop = threading.Event()

    def poll() -> None:
        with httpx.Client(base_url=ns.url, timeout=ns.timeout) as probe:
            while not stop.is_set():
                started = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):  # one that never came counts as the time waited
                    probe.get("/healthz")
                worst[0] = max(worst[0], time.perf_counter() - started)
                time.sleep(0.02)

    failures = 0
    base_s = None
    peak_mib = 0.0
    print(f"{'attack':34} {'status':>6} {'time s':>8} {'x base':>8} {'healthz ms':>10} {'peak MiB':>8}")
    with httpx.Client(base_url=ns.url, timeout=ns.timeout) as client:
        for name, build in ATTACKS.items():
            if ns.only and name != "baseline" and ns.only not in name:
                continue
            method, path, body = build()
            content = (
                body
                if isinstance(body, bytes)
                else body.encode()
                if isinstance(body, str)
                else None
                if body is None
                else json.dumps(body).encode()
            )
            headers = {} if name in NO_MEDIA_TYPE else JSON
            worst[0] = 0.0
            stop.clear()
            poller = threading.Thread(target=poll, daemon=True)
            poller.start()
            started = time.perf_counter()
            size = 0
            try:
                if name == "baseline":  # warm caches first: the baseline is an ordinary, warm request
                    for _ in range(5):
                        client.request(method, path, content=content, headers=headers)
                    started = time.perf_counter()
                response = client.request(method, path, content=content, headers=headers)
                status, size = str(response.status_code), len(response.content)
            except httpx.TimeoutException:
                status = "TIMEOUT"
            elapsed = time.perf_counter() - started
            stop.set()
            poller.join()
            base_s = elapsed if name == "baseline" else base_s
            ratio = f"{elapsed / base_s:.1f}" if base_s else "-"
            peak = vm_hwm_mib(server_pids(ns.pid))
            peak_mib = max(peak_mib, float(peak)) if peak != "-" else peak_mib
            bad = status == "TIMEOUT" or status.startswith("5") or elapsed > 2.0 or worst[0] > 0.1
            bad = bad or size > 5 * 1024 * 1024
            failures += bad and name != "baseline"
            mark = "  <- goal missed" if bad and name != "baseline" else ""
            extra = f"  ({size / 1024 / 1024:.1f} MiB answered)" if size > 1024 * 1024 else ""
            line = f"{name:34} {status:>6} {elapsed:8.3f} {ratio:>8} {worst[0] * 1000:10.1f} {peak:>8}"
            print(line + extra + mark)
    if ns.only and ns.only not in TWO_AT_ONCE:
        print(f"{failures} attack(s) missed the goals")
        return 1 if failures else 0
    if not ns.only:
        failures += socket_attacks(ns)
    healthz_s, cost_s = two_at_once(ns.url, ns.timeout)
    both_ok = healthz_s <= 0.1 and cost_s <= 0.1
    failures += not both_ok
    print(
        f"{TWO_AT_ONCE:34} worst /healthz {healthz_s * 1000:.1f} ms, "
        f"worst spells/cost {cost_s * 1000:.1f} ms{'' if both_ok else '  <- goal missed'}"
    )
    if ns.pid is not None:
        memory_ok = peak_mib <= 400
        failures += not memory_ok
        print(
            f"{'peak memory, largest process':34} {peak_mib:.0f} MiB{'' if memory_ok else '  <- goal missed'}"
        )
    print(f"{failures} attack(s) missed the goals")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
