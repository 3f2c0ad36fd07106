"""Name folding and number words shared by card look-ups, face choices and the oracle readers.

Players type names loosely: case, accents (Lim-Dûl / Lim-Dul) and the typographic apostrophe (’) do not
matter, and runs of spaces count as one.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Final

NUMBER_WORDS: Final = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
"""Numbers as oracle text spells them ("three mana of any one color")."""


@lru_cache(maxsize=65536)
def fold_name(text: str) -> str:
    """Fold a name for comparison: NFKD without combining marks, casefolded, ``Æ`` → ``ae``, ``’`` → ``'``,
    spaces merged."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'"))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    # Æ has no decomposition: "Æther Vial" is written "Aether Vial" in today's Oracle text.
    return " ".join(stripped.casefold().replace("æ", "ae").replace("œ", "oe").split())
