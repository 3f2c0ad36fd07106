"""``manacalc update-cards`` end to end, as the Kubernetes CronJob runs it beside live servers.

A local HTTP server (127.0.0.1) plays Scryfall: ``/bulk-data/oracle-cards`` answers a bulk-data entry whose
``download_uri`` is a card file on the same server. ``manacalc serve --workers 2`` runs on a fresh database
with the bundled catalogue. Then the command, in its own process: it downloads the file, imports it (the
card's legalities are replaced, not merged), and every worker of the running server answers with the new
legality and the new ``data_version`` within its refresh interval (``card_index.POLL_INTERVAL_S``), with no
restart. Run again with the same ``updated_at`` it downloads nothing; a newer entry is imported again.

The card is Llanowar Elves as the bundled catalogue has it (legal in Modern and Vintage, among others),
served with Scryfall's fields; the file then bans it in Modern and drops every format but Modern and Legacy,
as a ban announcement plus a legality correction would.
"""

from __future__ import annotations

import copy
import functools
import gzip
import json
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.services.card_import import BUNDLED_FILE
from app.services.card_index import POLL_INTERVAL_S
from tests.deploy.support import Server, child_env, free_port, manacalc_command, running

ELVES = "Llanowar Elves"
DECK = {"decklist": f"4 {ELVES}\n56 Forest", "format": "modern"}
# How long a worker may take to see an import: its poll interval, the index rebuild (the whole catalogue
# from the database, about 2 s on a busy machine), and slack for a machine shared with other test runs.
SEEN_WITHIN_S = POLL_INTERVAL_S + 20.0


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def scryfall(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A static server for ``root``: its base URL, and the directory whose files it serves."""
    root = tmp_path / "scryfall"
    (root / "bulk-data").mkdir(parents=True)
    (root / "file").mkdir()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", root
    finally:
        httpd.shutdown()
        httpd.server_close()


def bundled(name: str) -> dict[str, Any]:
    with gzip.open(BUNDLED_FILE, "rt", encoding="utf-8") as fh:
        return next(c for c in json.load(fh) if c["name"] == name)


def publish(base: str, root: Path, updated_at: str, cards: list[dict[str, Any]]) -> None:
    """What Scryfall serves: the card file, and the bulk-data entry pointing at it (its fields as on
    api.scryfall.com/bulk-data/oracle-cards)."""
    name = f"oracle-cards-{updated_at[:10].replace('-', '')}.json"
    body = json.dumps(cards).encode()
    (root / "file" / name).write_bytes(body)
    entry = {
        "object": "bulk_data",
        "id": "27bf3214-1271-490b-bdfe-c0be6c23d02e",
        "type": "oracle_cards",
        "updated_at": updated_at,
        "uri": f"{base}/bulk-data/oracle-cards",
        "name": "Oracle Cards",
        "description": "A JSON file containing one Scryfall card object for each Oracle ID on Scryfall.",
        "size": len(body),
        "download_uri": f"{base}/file/{name}",
        "content_type": "application/json",
        "content_encoding": "gzip",
    }
    (root / "bulk-data" / "oracle-cards").write_text(json.dumps(entry), encoding="utf-8")


def update_cards(env: dict[str, str], *extra: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*manacalc_command(), "update-cards", *extra], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def answers(server: Server, count: int = 8) -> list[dict[str, Any]]:
    """The deck answer from ``count`` new connections (so both workers answer some of them), plus the
    card look-up's legalities under ``"card_legalities"``."""
    out = []
    for _ in range(count):
        with httpx.Client(base_url=server.base_url, headers={"Connection": "close"}, timeout=30) as client:
            deck = client.post("/v1/decks/analyze", json=DECK)
            card = client.get("/v1/cards/named", params={"exact": ELVES})
        assert deck.status_code == 200, deck.text
        assert card.status_code == 200, card.text
        out.append(
            {
                **deck.json(),
                "card_legalities": card.json()["legalities"],
                "card_version": card.json()["data_version"],
            }
        )
    return out


def seen(server: Server, holds: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The answers once every one of them ``holds`` (each worker saw the import); fails after
    ``SEEN_WITHIN_S``."""
    started = time.monotonic()
    while True:
        now = answers(server)
        # Both answers carry the data date; a refresh may fall between the two requests of one connection.
        if all(holds(a) and a["data_version"] == a["card_version"] for a in now):
            print(f"every worker answers the new data {time.monotonic() - started:.2f} s after the import")
            return now
        assert time.monotonic() - started < SEEN_WITHIN_S, (
            f"not every worker sees the import after {SEEN_WITHIN_S}s:"
            f" {[a['data_version'] for a in now]}\n{server.output()[-3000:]}"
        )
        time.sleep(0.2)


def banned(answer: dict[str, Any]) -> bool:
    reasons = answer["legality"]["reasons"]
    return any(r.get("card") == ELVES and r["reason"] == "banned" for r in reasons)


def test_update_cards_reaches_running_workers_without_a_restart(
    tmp_path: Path, fresh_database_url: str, scryfall: tuple[str, Path]
) -> None:
    base, root = scryfall
    env = child_env(
        fresh_database_url,
        MANACALC_SCRYFALL_BULK_URL=f"{base}/bulk-data/oracle-cards",
        MANACALC_RATE_LIMIT_PER_MINUTE="0",
        MANACALC_CATALOGUE_SNAPSHOT_DIR="off",
        TMPDIR=str(tmp_path),
    )
    elves = {"object": "card", **bundled(ELVES)}
    assert elves["legalities"]["modern"] == "legal" and elves["legalities"]["vintage"] == "legal"
    updated = copy.deepcopy(elves)
    updated["legalities"] = {"modern": "banned", "legacy": "legal"}
    publish(base, root, "2026-12-01T09:04:41.118+00:00", [updated])

    port = free_port()
    argv = [*manacalc_command(), "serve", "--port", str(port), "--workers", "2"]
    with running(argv, env, port, tmp_path / "serve.log") as server:
        server.wait_ready(timeout=180)
        before = seen(server, lambda answer: answer["legality"]["legal"])
        (version,) = {a["data_version"] for a in before}
        assert "+bundled-" in version

        done = update_cards(env)
        assert "1 cards imported (0 new, 1 updated)" in done.stdout, done.stdout
        now = seen(server, banned)
        # Legalities replaced, not merged: vintage (legal before) is gone, modern is banned.
        for answer in now:
            assert answer["card_legalities"] == {"modern": "banned", "legacy": "legal"}
            assert not answer["legality"]["legal"]
        (new_version,) = {a["data_version"] for a in now}
        assert new_version != version and new_version[:4].isdigit()  # the import's time, ISO 8601

        # The same updated_at again: nothing downloaded, nothing changed.
        again = update_cards(env)
        assert "up to date" in again.stdout, again.stdout
        assert {a["data_version"] for a in answers(server, 2)} == {new_version}

        # Scryfall's next file (the ban lifted) is imported, and seen again.
        lifted = copy.deepcopy(updated)
        lifted["legalities"] = {"modern": "legal", "legacy": "legal"}
        publish(base, root, "2026-12-02T09:04:41.118+00:00", [lifted])
        update_cards(env)
        now = seen(server, lambda answer: answer["legality"]["legal"])
        assert {a["data_version"] for a in now} - {new_version, version}
        assert server.process.poll() is None  # the same server throughout


def test_update_cards_fails_clearly_when_the_entry_is_unreachable(
    tmp_path: Path, fresh_database_url: str, scryfall: tuple[str, Path]
) -> None:
    base, _ = scryfall  # nothing published: the entry is a 404
    env = child_env(fresh_database_url, MANACALC_SCRYFALL_BULK_URL=f"{base}/bulk-data/oracle-cards")
    done = subprocess.run(
        [*manacalc_command(), "update-cards"], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 1  # the CronJob's pod fails, so the Job is retried and the failure seen
    assert "bulk-data/oracle-cards" in done.stderr and "404" in done.stderr, done.stderr


# Answers that do not depend on the card catalogue: health, the problem catalogue, the static reference
# lists (symbols of CR 107.4, creature types of CR 205.3m), and stored scenarios, answered as stored.
NOT_FROM_THE_CATALOGUE = {
    "/healthz",
    "/readyz",
    "/problems",
    "/problems/{slug}",
    "/v1/symbols",
    "/v1/creature-types",
    "/v1/scenarios",
    "/v1/scenarios/{scenario_id}",
    "/v1/scenarios/{scenario_id}/permanents/{permanent_id}/choice",
    "/v1/scenarios/{scenario_id}/permanents/{permanent_id}/played-as",
}


def test_every_json_answer_from_the_catalogue_carries_its_data_version() -> None:
    """API contract: "every computing answer carries rules_edition and data_version", so a client can
    tell answers made before an update from those made after it. Read from the document the app serves:
    an operation added without them fails here."""
    from app.config import Settings
    from app.main import create_app

    document = create_app(Settings(migrate_on_start=False)).openapi()
    schemas = document["components"]["schemas"]
    checked = []
    for path, operations in document["paths"].items():
        if path in NOT_FROM_THE_CATALOGUE:
            continue
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                media = response.get("content", {}).get("application/json")
                if media is None:
                    continue  # another media type (an SVG chart): no JSON field to carry it
                ref = media["schema"].get("$ref", "")
                properties = schemas[ref.rsplit("/", 1)[-1]].get("properties", {}) if ref else {}
                # A Vega-Lite spec keeps it in Vega-Lite's own metadata member, `usermeta`.
                carried = properties.get("usermeta", {}).get("properties", {}) | properties
                assert "data_version" in carried, f"{method.upper()} {path} {status}: no data_version"
                checked.append(f"{method.upper()} {path}")
    assert {"POST /v1/decks/analyze", "GET /v1/cards/named", "POST /v1/spells/cost"} <= set(checked)
