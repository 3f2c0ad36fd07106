"""One face's text, read once: the one entry point from the engine into the card-text readers.

``read_face(face)`` returns what every reader found in the face's own text, memoized per name and text
(bounded in entries and characters: inline cards are the client's text). The engine (``casting/``) asks it,
never the readers one by one, so that a cost computation reads a face once however many stages look at it,
and so that what was read of a face is found in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.bounded_cache import text_cache
from app.rules.effects.cost_effects import CardEffects
from app.rules.effects.permissions import GrantedText
from app.rules.effects.ways import CardWays
from app.rules.text.card_registry import cost_effects
from app.rules.text.face_ways import read_ways
from app.rules.text.granted_text import read_granted
from app.rules.values.cards import Face

NOTHING_GRANTED = GrantedText()


@dataclass(frozen=True, slots=True)
class FaceReading:
    """What a face's own text says for costs and casting.

    ``ways``: its ways to cast, optional and mandatory additional costs and own permissions (CR 601.2b,
    118.8, 118.9, 601.3); ``costs``: its cost effects on spells (CR 601.2f), the registry's for the cards
    that need code; ``granted``: what it grants for casting other spells (permissions, alternative costs,
    keyword costs; CR 601.3, 118.9), ``None`` when nothing."""

    ways: CardWays
    costs: CardEffects
    granted: GrantedText | None


@text_cache(entries=8192, chars=2_000_000)
def read_text(name: str, oracle_text: str) -> FaceReading:
    """What a face of this name and text says for costs and casting (memoized)."""
    granted: GrantedText | None = read_granted(name, oracle_text)
    if granted == NOTHING_GRANTED:
        granted = None
    return FaceReading(read_ways(name, oracle_text), cost_effects(name, oracle_text), granted)


def read_face(face: Face) -> FaceReading:
    """What ``face``'s own text says for costs and casting, read once per name and text."""
    return read_text(face.name, face.oracle_text)
