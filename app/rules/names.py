"""Name folding shared by card look-ups, face choices and text matching.

Players type names loosely: case, accents (Lim-Dûl / Lim-Dul) and the typographic apostrophe (’) do not
matter, and runs of spaces count as one.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


@lru_cache(maxsize=65536)
def fold_name(text: str) -> str:
    """Fold a name for comparison: NFKD without combining marks, casefolded, ``’`` → ``'``, spaces merged."""
    decomposed = unicodedata.normalize("NFKD", text.replace("’", "'").replace("‘", "'"))
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.casefold().split())
