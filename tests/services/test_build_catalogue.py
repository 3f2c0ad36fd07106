"""tools/build_catalogue.py dates the bundle it writes: ``built_on`` is the day its cards last changed."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from app.rules.values.cards import Card, Face
from app.rules.values.types import TypeLine
from tools.build_catalogue import write, write_meta


def _data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    subset = {"meta": {"date": "2022-04-25"}, "data": {}}
    (data / "mtgjson-atomic-subset.json").write_text(json.dumps(subset), encoding="utf-8")
    return data


def _card(name: str) -> Card:
    face = Face(name=name, mana_cost=None, type_line=TypeLine.parse("Enchantment"))
    return Card(name=name, faces=(face,), oracle_id="aaaaaaaa-0000-4000-8000-000000000001")


def test_built_on_moves_only_when_the_cards_change(tmp_path: Path) -> None:
    data, out = _data(tmp_path), tmp_path / "out" / "cards.json.gz"
    out.parent.mkdir()
    meta = out.with_name("cards.meta.json")
    first = write([_card("Test Alpha")], out)
    assert first and write_meta(data, out, changed=first, today=date(2026, 11, 30)) == "2026-11-30"
    same = write([_card("Test Alpha")], out)  # the same cards: byte-identical, the date stays
    assert not same and write_meta(data, out, changed=same, today=date(2026, 12, 5)) == "2026-11-30"
    changed = write([_card("Test Beta")], out)
    assert changed and write_meta(data, out, changed=changed, today=date(2026, 12, 5)) == "2026-12-05"
    assert json.loads(meta.read_text(encoding="utf-8")) == {
        "built_on": "2026-12-05",
        "legalities_as_of": "2022-04-25",
        "legalities_source": "MTGJSON per-set files, meta.date",
    }
