"""What the golden cases share: their cards, read from the bundled catalogue (``app/data/cards.json.gz``, the
one the service ships, so no golden case needs anything outside the repository), and the one check of their
quotes.

A golden case's ``quote`` maps each card that decides it to the sentences of that card that decide it, each
exactly as printed: a sentence of its rules text or its type line (reminder text may be left out, CR 207.2).
What the case's author adds in their own words (why a sentence decides the case, the rule that applies) goes
in the case's ``note``, never in a quote.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from app.rules.values.cards import Card
from app.services.card_formats import card_from_scryfall

BUNDLED = Path(__file__).resolve().parents[1] / "app" / "data" / "cards.json.gz"
NOT_CARDS = {"token", "double_faced_token", "emblem", "art_series"}
REMINDER = re.compile(r"\s*\([^()]*\)")


@cache
def _catalogue() -> dict[str, dict[str, Any]]:
    with gzip.open(BUNDLED, "rt", encoding="utf-8") as fh:
        records: list[dict[str, Any]] = json.load(fh)
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        if record.get("layout") not in NOT_CARDS:
            out.setdefault(record["name"], record)
    return out


@cache
def card(name: str) -> Card:
    """The card of the bundled catalogue with this exact name (a KeyError names a card it lacks)."""
    return card_from_scryfall(_catalogue()[name])


def printed(name: str) -> tuple[str, str]:
    """A card's printed words, each face's type line and rules text: as printed, and without reminder text."""
    text = "\n".join(f"{face.type_line}\n{face.oracle_text}" for face in card(name).faces)
    return text, REMINDER.sub("", text)


def check_quote(quote: Mapping[str, Sequence[str]], case_cards: Iterable[str]) -> None:
    """Every card a quote names is one of the case's, and each quoted sentence is in that card's text,
    verbatim (with or without its reminder text)."""
    assert isinstance(quote, Mapping) and quote, (
        "a golden case quotes, per card, the sentences that decide it"
    )
    named = set(case_cards)
    assert set(quote) <= named, f"the quote names cards that are not in the case: {set(quote) - named}"
    for name, sentences in quote.items():
        assert sentences and not isinstance(sentences, str), f"{name}: a list of sentences"
        text, bare = printed(name)
        for sentence in sentences:
            assert sentence in text or REMINDER.sub("", sentence) in bare, (
                f"{sentence!r} is not in {name}'s text:\n{text}"
            )
