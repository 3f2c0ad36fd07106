"""Prohibitions on activating abilities (CR 602.5: "A player can't begin to activate an ability that's
prohibited from being activated"): Cursed Totem, Stony Silence, Null Rod, Linvala, Karn, Pithing Needle,
Phyrexian Revoker, Sorcerous Spyglass.

Each sentence shape is a template of ``registry("prohibition")``; a permanent's text is read line by line
(reminder text removed, lower-cased, its name as ``~``). A prohibition naming "the chosen name" reads the
permanent's ``chosen.card_name``; with none chosen it forbids nothing (the least), and says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.bounded_cache import text_cache
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

_TYPE_WORDS: Final = r"artifacts|creatures|lands|enchantments|planeswalkers"
_BY_TYPE = PROHIBITION.add(
    "abilities-of-type-cant-be-activated",
    rf"activated abilities of (?P<non>noncreature |nontoken )?(?P<type>{_TYPE_WORDS})"
    rf"(?: and (?P<type2>{_TYPE_WORDS}))?(?: with (?P<kw>flying))?"
    r"(?P<who> your opponents control)? can't be activated(?P<unless> unless they're mana abilities)?\.?$",
    rule="602.5",
    examples=(
        "activated abilities of artifacts can't be activated.",  # Stony Silence, Null Rod, Collector Ouphe
        "activated abilities of creatures can't be activated.",  # Cursed Totem
        "activated abilities of artifacts your opponents control can't be activated.",  # Karn
        "activated abilities of creatures your opponents control can't be activated.",  # Linvala
        "activated abilities of artifacts and creatures can't be activated unless they're mana abilities.",
    ),
    yields="a prohibition on every activated ability of permanents of that type (mana abilities too, unless "
    "it says otherwise)",
)
_ATTACHED = PROHIBITION.add(
    "attached-abilities-cant-be-activated",
    r"(?:enchanted|equipped) (?P<noun>creature|permanent|artifact|land|planeswalker)"
    r"(?:'s| [^.\"]*?(?:,? and|\.) its) activated abilities can't be activated"
    r"(?P<unless> unless they're mana abilities)?\.?"
    r"(?P<escape> (?:its|that creature's) controller may [^.]{1,120} to ignore this effect"
    r" until end of turn\.)?$",
    rule="602.5",
    examples=(
        "enchanted creature can't attack or block, and its activated abilities can't be activated.",  # Arrest
        "enchanted creature's activated abilities can't be activated.",  # Detainment Spell
        "enchanted permanent can't attack or block, and its activated abilities can't be activated unless "
        "they're mana abilities.",  # Faith's Fetters
        "enchanted permanent can't attack, block, or crew vehicles. its activated abilities can't be "
        "activated unless they're mana abilities.",  # Intercessor's Arrest
        "enchanted creature can't attack or block, and its activated abilities can't be activated. that "
        "creature's controller may sacrifice a permanent for that player to ignore this effect until end of "
        "turn.",  # Volrath's Curse
    ),
    yields="a prohibition on the activated abilities of the permanent it is attached to (`attached_to`)",
)
_THEIR = PROHIBITION.add(
    "their-abilities-cant-be-activated",
    rf"^(?P<type>{_TYPE_WORDS})(?: with (?P<kw>flying))? [^.\"]*?(?:,? and|\.) their activated abilities"
    r"(?P<tap> with \{t\} in their costs)? can't be activated(?P<unless> unless they're mana abilities)?\.?$",
    rule="602.5",
    examples=(
        "creatures with flying can't attack or block, and their activated abilities with {t} in their costs "
        "can't be activated.",  # Katabatic Winds
    ),
    yields="a prohibition on the activated abilities (those with {T} in their costs, when it says so) of the "
    "permanents it names",
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
    attached: bool = False
    """The permanent the forbidding Aura or Equipment is attached to only ("enchanted creature")."""
    more_types: tuple[str, ...] = ()
    """Other card types it reaches too ("artifacts and creatures", Damping Matrix)."""
    keyword: str | None = None
    """Only permanents with this keyword ("creatures with flying", CR 702)."""
    tap_only: bool = False
    """Only abilities with {T} in their costs (Katabatic Winds, CR 107.5)."""
    not_type: str | None = None
    """ "noncreature artifacts": permanents without this card type."""
    token: bool | None = None
    """ "nontoken": False; None: tokens and cards alike (CR 111.1)."""
    escape: str | None = None
    """ "Its controller may ... to ignore this effect until end of turn" (CR 116.2d, a special action):
    taken as not done, and said."""


@text_cache(entries=4096, chars=2_000_000)
def read_prohibitions(oracle_text: str, name: str) -> tuple[Prohibition, ...]:
    out: list[Prohibition] = []
    for raw in oracle_text.splitlines():
        line = strip_reminder(raw).strip()
        if "can't be activated" not in line:
            continue
        found = PROHIBITION.match((line.replace(name, "~") if name else line).casefold())
        if found is None:
            continue
        template, m = found
        unless = bool(m.group("unless"))
        if template is _BY_TYPE:
            non = (m.group("non") or "").strip()
            out.append(
                Prohibition(
                    line,
                    _TYPES[m.group("type")],
                    False,
                    bool(m.group("who")),
                    unless,
                    more_types=(_TYPES[m.group("type2")],) if m.group("type2") else (),
                    keyword=m.group("kw").capitalize() if m.group("kw") else None,
                    not_type="Creature" if non == "noncreature" else None,
                    token=False if non == "nontoken" else None,
                )
            )
        elif template is _ATTACHED:
            noun = m.group("noun")
            kind = None if noun == "permanent" else noun.capitalize()
            escape = m.group("escape")
            out.append(
                Prohibition(
                    line,
                    kind,
                    False,
                    False,
                    unless,
                    attached=True,
                    escape=line[-len(escape) :].strip() if escape else None,
                )
            )
        elif template is _THEIR:
            out.append(
                Prohibition(
                    line,
                    _TYPES[m.group("type")],
                    False,
                    False,
                    unless,
                    keyword=m.group("kw").capitalize() if m.group("kw") else None,
                    tap_only=bool(m.group("tap")),
                )
            )
        else:
            out.append(Prohibition(line, None, True, False, unless))
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
    attached_here: bool = False,
    keywords: frozenset[str] = frozenset(),
    has_tap: bool = False,
    token: bool = False,
) -> bool:
    """Whether ``prohibition`` (of a permanent controlled by ``forbidder_controller`` that chose
    ``chosen_name``) forbids an ability of a permanent with ``types`` and ``names`` (CR 602.5). An ability
    not understood (``is_mana_ability`` None) is taken as not a mana ability: forbidden, the least.
    ``attached_here``: the forbidding permanent is attached to this one; ``keywords`` the permanent's
    keyword abilities; ``has_tap``: the ability has {T} in its cost; ``token``: the permanent is a token."""
    if prohibition.spares_mana and is_mana_ability:
        return False  # CR 605.1a: a mana ability is spared by "unless they're mana abilities"
    if prohibition.opponents and controller == forbidder_controller:
        return False
    if prohibition.by_name:
        return chosen_name is not None and fold_name(chosen_name) in {fold_name(n) for n in names}
    if prohibition.attached and not attached_here:
        return False  # CR 303.4, 301.5: "enchanted", "equipped": the permanent it is attached to
    if prohibition.tap_only and not has_tap:
        return False
    if prohibition.keyword is not None and prohibition.keyword not in keywords:
        return False
    if prohibition.not_type is not None and prohibition.not_type in types:
        return False
    if prohibition.token is not None and prohibition.token != token:
        return False
    if prohibition.card_type is None:
        return True  # "enchanted permanent"
    return prohibition.card_type in types or any(t in types for t in prohibition.more_types)


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


@text_cache(entries=4096, chars=2_000_000)
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
