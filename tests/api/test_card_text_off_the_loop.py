"""A body with card text of its own never runs on the event loop (the compute boundary): it is decided once,
from the body, before any work starts, and the work goes to a worker thread within the budget."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api import compute

ELF: dict[str, Any] = {"id": "elf", "card": "Llanowar Elves"}


def _inline_calls(client: TestClient, monkeypatch: pytest.MonkeyPatch, spell: Any) -> tuple[int, int]:
    calls: list[int] = []
    real = compute._inline

    def counting(work: Any, started: float) -> Any:
        calls.append(1)
        return real(work, started)

    monkeypatch.setattr(compute, "_inline", counting)
    answer = client.post("/v1/spells/cost", json={"board": {"permanents": [ELF]}, "spell": spell})
    return answer.status_code, len(calls)


def test_a_catalogue_spell_may_run_on_the_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: without card text, the small request is tried inline (so the test below can fail)."""
    status, calls = _inline_calls(client, monkeypatch, {"card": "Grizzly Bears"})
    assert status == 200
    assert calls == 1


def test_an_inline_card_never_runs_on_the_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    spell = {
        "card": {"name": "Example", "mana_cost": "{1}{G}", "type_line": "Creature", "oracle_text": "Trample"}
    }
    status, calls = _inline_calls(client, monkeypatch, spell)
    assert status == 200
    assert calls == 0


@pytest.mark.parametrize(
    ("body", "carries"),
    [
        (b'{"spell": {"card": "Grizzly Bears"}}', False),
        (b'{"spell": {"card": {"name": "X", "oracle_text": "Flying"}}}', True),
        (b'{"spell": {"card": {"name": "X", "card_faces": []}}}', True),
        (
            b'{"spell": {"card": {"name": "X", "oracle\\u005ftext": "Flying"}}}',
            True,
        ),  # a key spelled with escapes
        (b'{"decklist": "4 Forest\\n4 Llanowar Elves"}', True),
    ],
)
def test_which_bodies_carry_card_text(body: bytes, carries: bool) -> None:
    assert compute.carries_card_text(body) is carries
