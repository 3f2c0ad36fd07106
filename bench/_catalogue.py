"""The cards of Scryfall-style JSON files, as the service reads them: what the coverage sweeps walk.

Objects that are not cards one casts or plays (tokens, emblems, art cards, planes, schemes, vanguards) and
records the reader refuses are left out."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from app.rules.values.cards import Card
from app.services.card_formats import BadCardRecord, card_from_scryfall

SKIP_LAYOUTS = frozenset(
    {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}
)


def catalogue_cards(paths: Iterable[Path]) -> Iterator[Card]:
    for path in paths:
        raw = path.read_bytes()
        # The bundled catalogue (app/data/cards.json.gz) is gzipped: the CI gate sweeps it.
        for obj in json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw):
            if obj.get("layout") in SKIP_LAYOUTS:
                continue
            try:
                yield card_from_scryfall(obj)
            except BadCardRecord:
                continue
