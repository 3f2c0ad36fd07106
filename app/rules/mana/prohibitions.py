"""Prohibitions on activating abilities (CR 602.5: "A player can't begin to activate an ability that's
prohibited from being activated"): Cursed Totem, Stony Silence, Null Rod, Linvala, Karn, Pithing Needle,
Phyrexian Revoker, Sorcerous Spyglass.

Each sentence shape is a template of ``registry("prohibition")``; a permanent's text is read line by line
(reminder text removed, lower-cased, its name as ``~``). A prohibition naming "the chosen name" reads the
permanent's ``chosen.card_name``; with none chosen it forbids nothing (the least), and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from app.rules.text.oracle_mana import strip_reminder
from app.rules.text.templates import registry
from app.rules.values.names import fold_name

PROHIBITION = registry("prohibition")

_TYPES: Final = {
    "artifacts": "Artifact",
    "creatures": "Creature",
    "lands": "Land",
    "enchantments": "Enchantment",
    "planeswalkers": "Planeswalker",
}

_BY_TYPE = PROHIBITION.add(
    "abilities-of-type-cant-be-activated",
    r"activated abilities of (?P<type>artifacts|creatures|lands|enchantments|planeswalkers)"
    r"(?P<who> your opponents control)? can't be activated(?P<unless> unless they're mana abilities)?\.?$",
    rule="602.5",
    examples=(
        "activated abilities of artifacts can't be activated.",  # Stony Silence, Null Rod, Collector Ouphe
        "activated abilities of creatures can't be activated.",  # Cursed Totem
        "activated abilities of artifacts your opponents control can't be activated.",  # Karn
        "activated abilities of creatures your opponents control can't be activated.",  # Linvala
    ),
    yields="a prohibition on every activated ability of permanents of that type (mana abilities too, unless "
    "it says otherwise)",
)
_BY_NAME = PROHIBITION.add(
    "abilities-of-chosen-name-cant-be-activated",
    r"activated abilities of sources with the chosen name can't be activated"
    r"(?P<unless> unless they're mana abilities)?\.?$",
    rule="602.5",
    examples=(
        "activated abilities of sources with the chosen name can't be activated.",  # Phyrexian Revoker
        "activated abilities of sources with the chosen name can't be activated unless they're mana "
        "abilities.",  # Pithing Needle, Sorcerous Spyglass
    ),
    yields="a prohibition on the activated abilities of sources with the name chosen as it entered",
)


@dataclass(frozen=True, slots=True)
class Prohibition:
    """What a permanent forbids: abilities of permanents of ``card_type`` (or of the chosen name when
    ``by_name``), of its controller's opponents only when ``opponents``; mana abilities are spared when
    ``spares_mana``."""

    text: str
    card_type: str | None
    by_name: bool
    opponents: bool
    spares_mana: bool


@lru_cache(maxsize=4096)
def read_prohibitions(oracle_text: str, name: str) -> tuple[Prohibition, ...]:
    out: list[Prohibition] = []
    for raw in oracle_text.splitlines():
        line = strip_reminder(raw).strip()
        if "can't be activated" not in line:
            continue
        found = PROHIBITION.match(line.replace(name, "~").casefold()) if name else None
        if found is None:
            continue
        template, m = found
        if template is _BY_TYPE:
            out.append(
                Prohibition(
                    line, _TYPES[m.group("type")], False, bool(m.group("who")), bool(m.group("unless"))
                )
            )
        else:
            out.append(Prohibition(line, None, True, False, bool(m.group("unless"))))
    return tuple(out)


def forbids(
    prohibition: Prohibition,
    chosen_name: str | None,
    forbidder_controller: str,
    *,
    types: tuple[str, ...],
    names: tuple[str, ...],
    controller: str,
    is_mana_ability: bool | None,
) -> bool:
    """Whether ``prohibition`` (of a permanent controlled by ``forbidder_controller`` that chose
    ``chosen_name``) forbids an ability of a permanent with ``types`` and ``names`` (CR 602.5). An ability
    not understood (``is_mana_ability`` None) is taken as not a mana ability: forbidden, the least."""
    if prohibition.spares_mana and is_mana_ability:
        return False  # CR 605.1a: a mana ability is spared by "unless they're mana abilities"
    if prohibition.opponents and controller == forbidder_controller:
        return False
    if prohibition.by_name:
        return chosen_name is not None and fold_name(chosen_name) in {fold_name(n) for n in names}
    return prohibition.card_type in types


NAMED_LANDS = registry("named-land-change")
_ALPINE = NAMED_LANDS.add(
    "opponents-lands-with-chosen-name-lose-abilities",
    r"lands your opponents control with the chosen name lose all land types and abilities, and they gain "
    r'"(?P<ability>\{t\}: add [^"]{1,80})"\.?$',
    rule="613.1d",
    examples=(
        "lands your opponents control with the chosen name lose all land types and abilities, and they gain "
        '"{t}: add one mana of any color."',  # Alpine Moon
    ),
    yields="for the opponents' lands of the chosen name: no land types, no abilities (CR 305.7), and the "
    "quoted ability (CR 613.1f)",
)


@dataclass(frozen=True, slots=True)
class NamedLandChange:
    """Alpine Moon: lands of ``chosen.card_name`` its controller's opponents control lose their land types
    and abilities (layer 4 and 6, CR 613.1d, 613.1f) and gain ``ability`` (as printed in the quote)."""

    text: str
    ability: str


@lru_cache(maxsize=4096)
def read_named_land_changes(oracle_text: str, name: str) -> tuple[NamedLandChange, ...]:
    out = []
    for raw in oracle_text.splitlines():
        line = strip_reminder(raw).strip()
        if "with the chosen name lose" not in line:
            continue
        found = NAMED_LANDS.match(line.casefold())
        if found is not None:
            start = line.index('"') + 1
            out.append(NamedLandChange(line, line[start : line.rindex('"')]))
    return tuple(out)
