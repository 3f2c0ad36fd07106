"""The text of a permanent that grants something while it is on the battlefield, as its stated state gives
it (CR 716.2a Class levels, 714.2b Saga chapters, 606.3 loyalty abilities).

- A Class has the abilities of its levels up to its level only (CR 716.2a: "As long as this Class is level
  N or greater, it has [abilities]"): the lines after "{cost}: Level N" count from level N on.
- A chapter ability of a Saga ("I, II — ...", CR 714.2b) is a triggered ability: what it says happens when
  it resolves, not while the Saga is on the battlefield.
- A loyalty ability ("+1: ...", "[−8]: ...", CR 606) is an activated ability: its effect ("Until end of
  turn, you may cast spells from your hand without paying their mana costs") exists only once it resolves,
  never as a standing permission of the planeswalker.
"""

from __future__ import annotations

import re
from typing import Final

_LEVEL: Final = re.compile(r"^\{[^}]*\}(?:\{[^}]*\})*: Level (?P<n>\d+)$")
_LOYALTY: Final = re.compile(r"^\[?[+\u2212\-]?(?:\d+|X)\]?: ")
_CHAPTER: Final = re.compile(r"^(?:[IVX]+)(?:, [IVX]+)* \u2014 ")


def standing_text(oracle_text: str, class_level: int, is_class: bool) -> str:
    """``oracle_text`` without the lines that grant nothing on the battlefield at this state: a Class's
    levels above ``class_level``, Saga chapters, loyalty abilities."""
    if not _may_drop(oracle_text, is_class):
        return oracle_text
    kept: list[str] = []
    level = 1
    for line in oracle_text.split("\n"):
        m = _LEVEL.match(line) if is_class else None
        if m is not None:
            level = int(m.group("n"))
            kept.append(line)  # the level-up ability itself is the Class's at any level
            continue
        if level > class_level or _LOYALTY.match(line) or _CHAPTER.match(line):
            continue
        kept.append(line)
    return "\n".join(kept)


def _may_drop(text: str, is_class: bool) -> bool:
    """A quick test: the text may hold a line ``standing_text`` drops."""
    return is_class or ": " in text or " \u2014 " in text
