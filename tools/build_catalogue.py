"""Write ``app/data/cards.json.gz``, the whole catalogue the service ships so it works with no download.

Run from the repository root: ``.venv/bin/python tools/build_catalogue.py [--data ../shared/data]``.
It takes every card of the Scryfall oracle-cards file (tokens and art cards aside), then every card of the
MTGJSON subset and of the spoiler supplement whose name is not already there (split costs written
``"{4}{W} // {1}{W}"`` become one face each). Only the fields the service reads are kept (names, costs,
type lines, texts, flavor text, colors, color identity, power, toughness, loyalty, legalities). The output
is a gzip-compressed JSON array in the Scryfall shape ``app.services.card_formats`` reads, one card per
line, sorted by name and oracle id, with no timestamp in the gzip header, so regenerating it gives
byte-identical output. Records that cannot be read are printed. ``cards.meta.json`` beside it dates the
legality data (the service reports it as ``legalities_as_of``) and the build (``built_on``: the day the
cards last changed, kept when a rebuild gives the same bytes; the service's ``data_version`` for the
bundled catalogue is that date and a hash of the file). A card legal in no format keeps its ``not_legal``
entries (``Card.stored_legalities``), so it reads as not legal rather than as of unknown legality.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.values.cards import Card, meld_pairs, melded_value  # noqa: E402
from app.services.card_formats import (  # noqa: E402
    IGNORED_LAYOUTS,
    BadCardRecord,
    card_from_mtgjson,
    card_from_scryfall,
    card_to_record,
    normalize_name,
)

_LOST_BREAK = re.compile(r"(?<=[.)])(?=[A-Z(])")


def _load(path: Path) -> Any:
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


def _index(cards: Iterable[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Each record under its normalized card name and face names."""
    out: dict[str, list[Mapping[str, Any]]] = {}
    for c in cards:
        names = {c["name"], *(f["name"] for f in c.get("card_faces") or ())}
        for n in names:
            out.setdefault(normalize_name(n), []).append(c)
    return out


def _supplement_record(rec: Mapping[str, Any]) -> dict[str, Any]:
    """A spoiler-supplement record in the Scryfall shape; lost line breaks ('character.Each') restored."""
    text = rec.get("oracle_text") or ""
    if rec.get("oracle_text_newlines_missing"):
        text = _LOST_BREAK.sub("\n", text)
    return {
        "name": rec["name"],
        "layout": None if rec.get("layout") in (None, "double-faced") else rec["layout"],
        "mana_cost": rec.get("mana_cost") or None,
        "type_line": rec.get("type_line"),
        "oracle_text": text,
        "flavor_text": rec.get("flavor_text"),
        "colors": rec.get("colors"),
        "color_identity": rec.get("color_identity"),
        "power": rec.get("power"),
        "toughness": rec.get("toughness"),
        "loyalty": rec.get("loyalty"),
    }


def build(data: Path) -> tuple[list[Card], list[str]]:
    cards: dict[str, Card] = {}
    names: set[str] = set()
    problems: list[str] = []

    def add(card: Card) -> None:
        assert card.oracle_id is not None
        cards[card.oracle_id] = card
        names.add(normalize_name(card.name))
        names.update(normalize_name(f.name) for f in card.faces)

    for rec in _load(data / "scryfall-oracle-cards.json"):
        if rec.get("layout") in IGNORED_LAYOUTS or rec.get("lang", "en") != "en":
            continue
        try:
            add(card_from_scryfall(rec))
        except BadCardRecord as exc:
            problems.append(f"scryfall: {exc}")
    mtgjson: dict[str, list[Mapping[str, Any]]] = _load(data / "mtgjson-atomic-subset.json")["data"]
    for name, faces in mtgjson.items():
        if normalize_name(name) in names:
            continue
        try:
            add(card_from_mtgjson(name, faces))
        except BadCardRecord as exc:
            problems.append(f"mtgjson: {exc}")
    for rec in _load(data / "spoiler-supplement.json"):
        if normalize_name(rec["name"]) in names:
            continue
        try:
            add(card_from_scryfall(_supplement_record(rec)))
        except BadCardRecord as exc:
            problems.append(f"supplement: {exc}")
    problems.extend(_meld(cards))
    ordered = sorted(cards.values(), key=lambda c: (normalize_name(c.name), c.oracle_id or ""))
    return ordered, problems


def _meld(cards: dict[str, Card]) -> list[str]:
    """Each meld pair read from its fronts' text (CR 712.4a): the combined back face gets its mana value,
    its fronts' summed (CR 202.3c), and the three cards the layout ``meld``. Scryfall's ``cmc`` for a result
    must agree (a disagreement is printed); the spoiler supplement's results carry no layout and are found
    by name."""
    problems: list[str] = []
    by_name = {normalize_name(c.name): oid for oid, c in cards.items()}
    for result, pair in meld_pairs(cards.values()).items():
        oid = by_name.get(normalize_name(result))
        value = melded_value(pair)
        if oid is None or value is None:
            problems.append(f"meld: {result} (melded from {pair[0].name} and {pair[1].name}) not found")
            continue
        card = cards[oid]
        given = card.front.melded_value
        if given is not None and given != value:
            problems.append(f"meld: {result} has mana value {given}, its fronts' sum to {value} (202.3c)")
        face = replace(card.front, mana_cost=None, melded_value=value)
        cards[oid] = replace(card, faces=(face, *card.faces[1:]), layout="meld")
        for front in pair:
            assert front.oracle_id is not None
            cards[front.oracle_id] = replace(front, layout="meld")
    return problems


def write(cards: list[Card], out: Path) -> bool:
    """Write the catalogue; whether its bytes changed (False when a rebuild gives the same file)."""
    lines = [json.dumps(card_to_record(c), ensure_ascii=False, separators=(",", ":")) for c in cards]
    body = ("[\n" + ",\n".join(lines) + "\n]\n").encode("utf-8")
    packed = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=packed, mtime=0, compresslevel=9) as gz:
        gz.write(body)
    if out.is_file() and out.read_bytes() == packed.getvalue():
        return False
    out.write_bytes(packed.getvalue())
    return True


def write_meta(data: Path, out: Path, *, changed: bool, today: date | None = None) -> str:
    """``cards.meta.json`` beside the catalogue: the date of its legality data, which is MTGJSON's
    ``meta.date`` of the files the Scryfall-shaped extract took its legalities from (the subset's own),
    and ``built_on``: today when the cards ``changed``, else the date already recorded (the catalogue was
    last imported from its sources then)."""
    meta_path = out.with_name("cards.meta.json")
    old = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    built_on = old.get("built_on")
    if changed or not isinstance(built_on, str):
        built_on = (today or datetime.now(UTC).date()).isoformat()
    as_of = str(_load(data / "mtgjson-atomic-subset.json")["meta"]["date"])
    meta = {
        "built_on": built_on,
        "legalities_as_of": as_of,
        "legalities_source": "MTGJSON per-set files, meta.date",
    }
    meta_path.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return built_on


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "app" / "data" / "cards.json.gz")
    args = parser.parse_args(argv)
    cards, missing = build(args.data)
    changed = write(cards, args.out)
    write_meta(args.data, args.out, changed=changed)
    print(f"wrote {len(cards)} cards to {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")
    for problem in missing:
        print(f"skipped: {problem}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
