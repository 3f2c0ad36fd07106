"""Write ``app/data/cards.json``, the catalogue the service ships so it works with no download.

Run from the repository root: ``.venv/bin/python tools/build_bundled_cards.py [--data ../shared/data]``.
It takes every card of the MTGJSON subset and the named cards below, preferring the Scryfall record (it has
legalities), falling back to MTGJSON, then to the spoiler supplement (Vorthos, Steward of Myth). The output is
a JSON array in the Scryfall shape ``app.services.card_formats`` reads, one card per line, sorted by name and
oracle id, so regenerating it gives byte-identical output and diffs stay small. Names not found are printed.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.cards import Card  # noqa: E402
from app.services.card_formats import (  # noqa: E402
    BadCardRecord,
    card_from_mtgjson,
    card_from_scryfall,
    card_to_record,
    normalize_name,
)

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
ORIGINAL_DUALS = (
    "Badlands", "Bayou", "Plateau", "Savannah", "Scrubland",
    "Taiga", "Tropical Island", "Tundra", "Underground Sea", "Volcanic Island",
)  # fmt: skip
FILTER_LANDS = (
    # Shadowmoor and Eventide
    "Mystic Gate", "Sunken Ruins", "Graven Cairns", "Fire-Lit Thicket", "Wooded Bastion",
    "Fetid Heath", "Cascade Bluffs", "Twilight Mire", "Rugged Prairie", "Flooded Grove",
    # Odyssey and Torment
    "Darkwater Catacombs", "Mossfire Valley", "Shadowblood Ridge", "Skycloud Expanse", "Sungrass Prairie",
)  # fmt: skip
SIGNETS = tuple(
    f"{guild} Signet"
    for guild in (
        "Azorius", "Dimir", "Rakdos", "Gruul", "Selesnya", "Orzhov", "Izzet", "Golgari", "Boros", "Simic",
    )
)  # fmt: skip
TALISMANS = tuple(
    f"Talisman of {w}"
    for w in (
        "Progress", "Dominance", "Indulgence", "Impulse", "Unity",
        "Hierarchy", "Conviction", "Creativity", "Curiosity", "Resilience",
    )
)  # fmt: skip
# Cards the rulings and the data README name, and those tests and the docs explorer use.
NAMED = (
    "Herald's Horn", "Vorthos, Steward of Myth", "Richard Garfield, Ph.D.", "Savannah Lions",
    "Swords to Plowshares", "Avacynian Priest", "Izzet Charm", "Teferi's Protection", "Blind Seer",
    "Tazri, Beacon of Unity", "Coveted Prize", "Deadly Alliance", "Journey to Oblivion", "Sea Gate Colossus",
    "Shatterskull Minotaur", "Spoils of Adventure", "Thwart the Grave", "Veteran Adventurer",
    "Zagras, Thief of Heartbeats", "The Raven Man", "Look at Me, I'm the DCI",
    "Wastes", "Sol Ring", "Llanowar Elves", "Birds of Paradise", "Reflecting Pool", "Exotic Orchard",
    "Fellwar Stone", "Harvester Druid", "Sylvok Lifestaff", "Contamination", "Urborg, Tomb of Yawgmoth",
    "Blood Moon", "Chromatic Lantern", "Mana Reflection", "Heartbeat of Spring", "Mirari's Wake",
    "Zendikar Resurgent", "Utopia Sprawl", "Gilded Lotus", "Trinisphere", "Thalia, Guardian of Thraben",
    "Sphere of Resistance", "Morophon, the Boundless", "Edgewalker", "Dryad Arbor", "Goblin Electromancer",
    "Etherium Sculptor", "Cloud Key", "Myr Enforcer", "Frogmite", "Thought Monitor", "Helm of Awakening",
    "Grand Arbiter Augustin IV", "Lodestone Golem", "Emerald Medallion", "Kitchen Finks", "Gitaxian Probe",
    "Command Tower", "Mana Confluence", "City of Brass", "Ancient Tomb", "Lim-Dûl the Necromancer",
    "Lim-Dûl's Vault", "Urza, Lord High Artificer", "Fire // Ice", "Bonecrusher Giant", "Beck // Call",
    "Delver of Secrets", "Valakut Awakening", "Cabal Coffers", "Nykthos, Shrine to Nyx", "Mox Diamond",
    "Dark Ritual", "Lotus Petal", "Tolarian Academy", "Boseiju, Who Shelters All", "Rimewood Falls",
    "Mishra's Workshop", "Mana Vault", "Grim Monolith", "Everflowing Chalice", "Coalition Relic",
    "Goblin Warchief", "Dragonlord's Servant", "Baral, Chief of Compliance", "Ruby Medallion",
    "Sapphire Medallion", "Jet Medallion", "Pearl Medallion", "Animar, Soul of Elements",
    "Cost of Brilliance", "Tezzeret the Seeker", "Vedalken Engineer", "Phyrexian Altar",
)  # fmt: skip
WANTED = (
    *BASICS,
    *(f"Snow-Covered {b}" for b in (*BASICS, "Wastes")),
    *ORIGINAL_DUALS,
    *FILTER_LANDS,
    *SIGNETS,
    *TALISMANS,
    *NAMED,
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
        "layout": "normal",
        "mana_cost": rec.get("mana_cost") or None,
        "type_line": rec.get("type_line"),
        "oracle_text": text,
        "flavor_text": rec.get("flavor_text"),
        "colors": rec.get("colors"),
    }


def build(data: Path) -> tuple[list[Card], list[str]]:
    scryfall = _load(data / "scryfall-oracle-cards.json")
    by_name = _index(scryfall)
    mtgjson: dict[str, list[Mapping[str, Any]]] = _load(data / "mtgjson-atomic-subset.json")["data"]
    supplement = {normalize_name(r["name"]): r for r in _load(data / "spoiler-supplement.json")}
    mtg_by_name = {normalize_name(n): n for n in mtgjson}
    for name, faces in mtgjson.items():
        for f in faces:
            if f.get("faceName"):
                mtg_by_name.setdefault(normalize_name(f["faceName"]), name)

    cards: dict[str, Card] = {}
    missing: list[str] = []

    def take(name: str) -> bool:
        key = normalize_name(name)
        if key in by_name:
            for rec in by_name[key]:
                card = card_from_scryfall(rec)
                assert card.oracle_id is not None
                cards[card.oracle_id] = card
            return True
        if key in mtg_by_name:
            card_name = mtg_by_name[key]
            card = card_from_mtgjson(card_name, mtgjson[card_name])
            assert card.oracle_id is not None
            cards.setdefault(card.oracle_id, card)
            return True
        if key in supplement:
            card = card_from_scryfall(_supplement_record(supplement[key]))
            assert card.oracle_id is not None
            cards.setdefault(card.oracle_id, card)
            return True
        return False

    for name in (*mtgjson, *WANTED):
        try:
            if not take(name):
                missing.append(name)
        except BadCardRecord as exc:
            missing.append(f"{name} ({exc})")
    ordered = sorted(cards.values(), key=lambda c: (normalize_name(c.name), c.oracle_id or ""))
    return ordered, missing


def write(cards: list[Card], out: Path) -> None:
    lines = [json.dumps(card_to_record(c), ensure_ascii=False, separators=(",", ":")) for c in cards]
    out.write_text("[\n" + ",\n".join(lines) + "\n]\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=ROOT / "app" / "data" / "cards.json")
    args = parser.parse_args(argv)
    cards, missing = build(args.data)
    write(cards, args.out)
    print(f"wrote {len(cards)} cards to {args.out}")
    for name in missing:
        print(f"not found: {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
