"""Real lands the bundled catalogue lacks (fetch lands, shock lands, a triome, Evolving Wilds, Tarmogoyf),
as Scryfall records with their printed oracle text, for deck tests and bench/decks.py."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.db.repositories.cards import upsert_cards
from app.services.card_formats import card_from_scryfall
from app.services.catalogue import reset_card_cache

_FETCH = (
    "{{T}}, Pay 1 life, Sacrifice {n}: Search your library for a {a} or {b} card,"
    " put it onto the battlefield, then shuffle."
)
_SHOCK = (
    "({{T}}: Add {{{x}}} or {{{y}}}.)\nAs {n} enters the battlefield, you may pay 2 life."
    " If you don't, it enters the battlefield tapped."
)
_FETCH_LEGAL = {
    "modern": "legal",
    "legacy": "legal",
    "vintage": "legal",
    "commander": "legal",
    "pioneer": "banned",
}
_LEGAL = {"modern": "legal", "legacy": "legal", "vintage": "legal", "commander": "legal", "pioneer": "legal"}


def _fetch(name: str, oid: str, a: str, b: str) -> dict[str, Any]:
    text = _FETCH.format(n=name, a=a, b=b)
    return {
        "name": name,
        "oracle_id": oid,
        "type_line": "Land",
        "oracle_text": text,
        "mana_cost": "",
        "legalities": _FETCH_LEGAL,
    }


def _shock(name: str, oid: str, types: str, x: str, y: str) -> dict[str, Any]:
    text = _SHOCK.format(n=name, x=x, y=y)
    return {
        "name": name,
        "oracle_id": oid,
        "type_line": f"Land — {types}",
        "oracle_text": text,
        "mana_cost": "",
        "legalities": _LEGAL,
    }


EXTRA_CARDS: list[dict[str, Any]] = [
    _fetch("Wooded Foothills", "6587a463-a108-4854-b6d1-944e89b8c8a4", "Mountain", "Forest"),
    _fetch("Windswept Heath", "29737a60-3ebd-40d9-b935-c4f54b90d45d", "Forest", "Plains"),
    _fetch("Arid Mesa", "c5acf2a5-40f4-433d-a74d-1cb56c521464", "Mountain", "Plains"),
    _shock("Stomping Ground", "16052b52-ade1-406f-a06b-ce7ea607fb63", "Mountain Forest", "R", "G"),
    _shock("Sacred Foundry", "45181cb8-2090-4471-ba90-e5a8f04d525f", "Mountain Plains", "R", "W"),
    _shock("Temple Garden", "f413a83d-a40d-434c-b20a-4c707c0527fa", "Forest Plains", "G", "W"),
    {
        "name": "Jetmir's Garden",
        "oracle_id": "f5896356-5744-4f7e-a4e5-1cc36dde5958",
        "type_line": "Land — Mountain Forest Plains",
        "oracle_text": "({T}: Add {R}, {G}, or {W}.)\nJetmir's Garden enters the battlefield tapped.\n"
        "Cycling {3} ({3}, Discard this card: Draw a card.)",
        "mana_cost": "",
        "legalities": _LEGAL,
    },
    {
        "name": "Evolving Wilds",
        "oracle_id": "a75445d3-1303-4bb5-89ad-26ea93fecd48",
        "type_line": "Land",
        "oracle_text": "{T}, Sacrifice Evolving Wilds: Search your library for a basic land card, put it"
        " onto the battlefield tapped, then shuffle.",
        "mana_cost": "",
        "legalities": _LEGAL,
    },
    {
        "name": "Tarmogoyf",
        "oracle_id": "45900b2f-f6a9-4c42-9642-008f3c1cf6dd",
        "type_line": "Creature — Lhurgoyf",
        "oracle_text": "Tarmogoyf's power is equal to the number of card types among cards in all graveyards"
        " and its toughness is equal to that number plus 1.",
        "mana_cost": "{1}{G}",
        "legalities": {"modern": "legal", "legacy": "legal", "vintage": "legal", "commander": "legal"},
    },
]


def add_extra_cards(session: Session) -> None:
    """Put ``EXTRA_CARDS`` in the catalogue of ``session`` (and forget cached look-ups)."""
    upsert_cards(session, [card_from_scryfall(r) for r in EXTRA_CARDS])
    session.flush()
    reset_card_cache()
