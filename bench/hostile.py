"""Replay issue 15's attacks against a running service; time, status, memory and /healthz latency.

    manacalc serve --port 8000 &
    python bench/hostile.py --url http://127.0.0.1:8000 [--pid SERVER_PID]

Each attack is sent with a hard client bound (``--timeout``); meanwhile a thread polls ``/healthz`` and the
worst latency is reported. ``--pid`` adds the server's resident-memory peak (VmHWM) after each attack. A
baseline request (an ordinary ``spells/cost``) is measured in the same run, and each attack's time is also
given as a ratio to it. Goals (issue 15): each attack 2 s or less, ``/healthz`` 100 ms or less, no 5xx.
"""

from __future__ import annotations

import argparse
import base64
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx

JSON = {"Content-Type": "application/json"}


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
}
# Attacks whose request carries no JSON media type on purpose.
NO_MEDIA_TYPE = {"body without Content-Type"}


def raw_attack(url: str, name: str, payload: bytes, timeout: float) -> str:
    """Attacks below HTTP parsing: a 1 MiB header line, a trickled body. Returns what the server did."""
    parts = urlsplit(url)
    started = time.perf_counter()
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=timeout) as sock:
        try:
            sock.sendall(payload)
            answer = sock.recv(64)
        except TimeoutError:
            return f"held open > {timeout:.0f}s"
        except (BrokenPipeError, ConnectionResetError):
            answer = b""  # the server closed the connection before reading it all: refused, as it should
    took = time.perf_counter() - started
    first_line = answer.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"
    return f"{first_line} after {took:.2f}s"


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


def vm_hwm_mib(pid: int | None) -> str:
    if pid is None:
        return "-"
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return f"{int(line.split()[1]) / 1024:.0f}"
    return "?"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--pid", type=int, default=None, help="the server process, for its memory peak")
    parser.add_argument("--timeout", type=float, default=30.0, help="hard bound per attack, seconds")
    ns = parser.parse_args()

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
                probe.get("/healthz")
                worst[0] = max(worst[0], time.perf_counter() - started)
                time.sleep(0.02)

    failures = 0
    base_s = None
    print(f"{'attack':34} {'status':>6} {'time s':>8} {'x base':>8} {'healthz ms':>10} {'peak MiB':>8}")
    with httpx.Client(base_url=ns.url, timeout=ns.timeout) as client:
        for name, build in ATTACKS.items():
            method, path, body = build()
            content = (
                body.encode()
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
            try:
                if name == "baseline":  # warm caches first: the baseline is an ordinary, warm request
                    for _ in range(5):
                        client.request(method, path, content=content, headers=headers)
                    started = time.perf_counter()
                status = str(client.request(method, path, content=content, headers=headers).status_code)
            except httpx.TimeoutException:
                status = "TIMEOUT"
            elapsed = time.perf_counter() - started
            stop.set()
            poller.join()
            base_s = elapsed if name == "baseline" else base_s
            ratio = f"{elapsed / base_s:.1f}" if base_s else "-"
            bad = status == "TIMEOUT" or status.startswith("5") or elapsed > 2.0 or worst[0] > 0.1
            failures += bad and name != "baseline"
            peak = vm_hwm_mib(ns.pid)
            mark = "  <- goal missed" if bad and name != "baseline" else ""
            line = f"{name:34} {status:>6} {elapsed:8.3f} {ratio:>8} {worst[0] * 1000:10.1f} {peak:>8}"
            print(line + mark)
    host = urlsplit(ns.url).netloc
    big_header = f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Big: {'a' * 1024 * 1024}\r\n\r\n".encode()
    print(f"{'1 MiB header':34} {raw_attack(ns.url, 'header', big_header, 10)}")
    trickle = f"POST /v1/spells/cost HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n".encode()
    trickled = raw_attack(ns.url, "trickle", trickle + b"Content-Length: 100\r\n\r\n{", 15)
    print(f"{'trickled body (never sent)':34} {trickled}")
    print(f"{'%0A in the path (log forgery)':34} {log_line_forgery(ns.url)}")
    print(f"{'X-Forwarded-For, untrusted peer':34} {forwarded_for_bypass(ns.url)}")
    print(f"{'trailing slash, forged Host':34} {host_echo(ns.url)}")
    healthz_s, cost_s = two_at_once(ns.url, ns.timeout)
    both_ok = healthz_s <= 0.1 and cost_s <= 0.1
    failures += not both_ok
    print(
        f"{'2 hostile requests at once':34} worst /healthz {healthz_s * 1000:.1f} ms, "
        f"worst spells/cost {cost_s * 1000:.1f} ms{'' if both_ok else '  <- goal missed'}"
    )
    print(f"{failures} attack(s) missed the goals")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
