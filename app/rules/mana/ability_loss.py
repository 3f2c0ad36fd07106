"""Effects that take abilities away (CR 613.1f, layer 6) and the type changes that come with them (CR 613.1d,
layer 4): Auras and Equipment on one permanent ("Enchanted creature loses all abilities and is a blue Frog
creature with base power and toughness 1/1.", Frogify) and board-wide effects with their filters ("All
creatures lose all abilities ...", Humility; "Each noncreature artifact loses all abilities ...", Titania's
Song; "All lands lose all abilities except mana abilities.", Blood Sun).

Each sentence shape is a template of ``registry("ability-loss")``; a permanent's text is read line by line
(reminder text removed, its name as ``~``, Oracle's capitals). ``read_board`` applies what they yield:
which permanents lose what, in timestamp (board) order against grants (CR 613.7).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.text.mana_filters import ARTIFACT_TYPES, Filter, parse_filter, subtype_word
from app.rules.text.oracle_mana import strip_reminder
from app.rules.text.templates import registry
from app.rules.values.types import CARD_TYPES

LOSS = registry("ability-loss")

_COLORS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


@dataclass(frozen=True, slots=True)
class AbilityLoss:
    """What one sentence takes away: the abilities of the permanents ``filter`` names (``filter.enchanted``:
    the permanent the source is attached to), all but mana abilities when ``except_mana``; ``grants``
    the quoted abilities they have instead (CR 613.1f, the same effect: kept); ``types`` and
    ``subtypes`` the card types and subtypes they are set to (None: unchanged, CR 613.1d); ``add_types``
    card types added ("becomes an artifact creature"); ``color``: only while the permanent is that
    color ("As long as enchanted creature is red", CR 611.3a)."""

    text: str
    filter: Filter
    except_mana: bool = False
    grants: tuple[str, ...] = ()
    types: tuple[str, ...] | None = None
    subtypes: tuple[str, ...] | None = None
    add_types: tuple[str, ...] = ()
    color: str | None = None


_SUBJECT: Final = (
    r"(?P<who>(?:As long as enchanted creature is (?P<color>white|blue|black|red|green), it)"
    r"|Enchanted (?:creature|permanent|land|artifact)|Equipped creature"
    r"|(?:All |Each )?[A-Za-z ]{1,40}?)"
)
_ATTACHED_LOSES = LOSS.add(
    "attached-loses-all-abilities",
    r"^(?P<who>Enchanted (?:creature|permanent|land|artifact)|Equipped creature)"
    r"(?P<mid>[^\"]*?|[^\"]*?\"[^\"]*\"[^\"]*?)(?:,? and (?:it )?|\. It |, )"
    r"loses all (?P<other>other )?abilities(?P<rest>.*)$",
    rule="613.1f",
    examples=(
        "Enchanted creature gets -2/-0 and loses all abilities",  # Mystic Subdual
        # Lignify
        "Enchanted creature is a Treefolk with base power and toughness 0/4 and loses all abilities",
        "Enchanted creature can't attack or block. It loses all abilities and has \"{T}: Remove a task "
        'counter from ~. Then if it has no task counters on it, destroy ~."',  # Heliod's Punishment
        'Enchanted permanent is a Treasure artifact with "{T}, Sacrifice this artifact: Add one mana of any '
        'color," and it loses all other abilities',  # Minimus Containment
    ),
    yields="the attached permanent loses its abilities (and has the quoted ones, of the type it names)",
)
_LOSES = LOSS.add(
    "loses-all-abilities",
    r"^"
    + _SUBJECT
    + r" loses? all (?P<other>other )?abilities(?P<except> except mana abilities)?(?P<rest>.*)$",
    rule="613.1f",
    examples=(
        "Enchanted creature loses all abilities and is a blue Frog creature with base power and toughness "
        "1/1",  # Frogify
        "All creatures lose all abilities and have base power and toughness 1/1",  # Humility
        "Creatures lose all abilities",  # Dress Down
        "Each noncreature artifact loses all abilities and becomes an artifact creature with power and "
        "toughness each equal to its mana value. If ~ leaves the battlefield, this effect continues until "
        "end of turn",  # Titania's Song
        "All lands lose all abilities except mana abilities",  # Blood Sun
        # Poppet Factory
        "Creature tokens you control lose all abilities and have base power and toughness 3/3",
        "As long as enchanted creature is red, it loses all abilities",  # Ray of Frost
    ),
    yields="the permanents named lose their abilities (but mana abilities, when it says so)",
    shadows=("attached-loses-all-abilities",),
)

_QUOTED: Final = re.compile(r'"([^"]+)"')
_IS_A: Final = re.compile(
    r"\bis an? (?:(?:colorless|white|blue|black|red|green)(?: and (?:white|blue|black|red|green))? )?"
    r"(?P<words>[A-Z][A-Za-z' ]*?)(?= with\b| in addition\b|,|\.|$| named\b| and\b)"
)
_BECOMES: Final = re.compile(r"\bbecomes an? (?P<words>artifact creature|creature)\b")


def _set_types(text: str) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None]:
    """CR 613.1d, 205.1a: "is a blue Frog creature" sets its card types (when it names one) and its
    subtypes; "in addition to its other ... types" changes nothing here (it adds a creature type)."""
    m = _IS_A.search(text)
    if m is None or " in addition" in text[m.end() : m.end() + 13]:
        return None, None
    types: list[str] = []
    subtypes: list[str] = []
    for word in m.group("words").split():
        cap = word.capitalize()
        if cap in CARD_TYPES:
            types.append(cap)
        elif word in ARTIFACT_TYPES or subtype_word(word) is not None:
            subtypes.append(word if word in ARTIFACT_TYPES else (subtype_word(word) or word))
        else:
            return None, None  # a word not read: the types are left as they are
    if not types and not subtypes:
        return None, None
    if not types:
        return None, tuple(subtypes)  # "is a blue Fish": its creature types only (CR 205.1b)
    return tuple(types), tuple(subtypes)


def _read(line: str) -> AbilityLoss | None:
    found = LOSS.match(line)
    if found is None:
        return None
    template, m = found
    who = m.group("who")
    color = None
    if template is _LOSES and m.group("color"):
        color = _COLORS[m.group("color")]
        flt: Filter | None = Filter(types=("Creature",), enchanted=True)
    else:
        flt = parse_filter(who)
    if flt is None:
        return None
    except_mana = template is _LOSES and bool(m.group("except"))
    grants = tuple(q.rstrip(",.").strip() for q in _QUOTED.findall(line) if ":" in q)
    body = _QUOTED.sub('""', line)
    types, subtypes = _set_types(body)
    added = _BECOMES.search(body)
    add_types = tuple(w.capitalize() for w in added.group("words").split()) if added else ()
    rest = m.group("rest").strip()
    if template is _LOSES and rest and not rest.startswith(("and ", ",", ".")):
        return None
    return AbilityLoss(line, flt, except_mana, grants, types, subtypes, add_types, color)


@text_cache(entries=4096, chars=2_000_000)
def read_losses(oracle_text: str, name: str) -> tuple[AbilityLoss, ...]:
    """The ability-loss effects of a face's text (CR 613.1f)."""
    if "abilities" not in oracle_text:
        return ()
    out: list[AbilityLoss] = []
    for raw in oracle_text.splitlines():
        line = strip_reminder(raw).strip().rstrip(".")
        if "lose" not in line or "abilities" not in line:
            continue
        if name:
            line = line.replace(name, "~")
        loss = _read(line)
        if loss is not None:
            out.append(loss)
    return tuple(out)


def may_lose_abilities(board_texts: tuple[str, ...]) -> bool:
    """A cheap test: whether any of these texts could take abilities away (the full reading is
    ``board_reading.read_board``)."""
    return any("lose" in t and "abilities" in t for t in board_texts)
