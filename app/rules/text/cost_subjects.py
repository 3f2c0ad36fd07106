"""The spells a cost sentence names: "[each] [other] [qualities] spell(s) [modifiers]" read as a
``SpellFilter`` (caster, qualities, mana value, zone cast from, targets; CR 601.2f, 601.2c)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from app.rules.effects.cost_effects import (
    Condition,
    Quality,
    SpellFilter,
    Who,
)
from app.rules.text.cost_conditions import target_subject
from app.rules.text.cost_words import KEYWORDS_WITH, NotUnderstood, read_quality, split_alternatives

_SUBJECT_MODIFIERS: Final = (
    (re.compile(r"^you cast\b"), "caster_you"),
    (re.compile(r"^your opponents cast\b"), "caster_opponents"),
    (re.compile(r"^(?:a player casts|you control)\b"), "caster_you_or_any"),
    (
        re.compile(r"^that targets? (?:an? )?([a-z +/,'-]{1,60}?)(?= you cast\b| your opponents cast\b|$)"),
        "targets",
    ),
    (re.compile(r"^of the chosen type\b"), "chosen_type"),
    (re.compile(r"^with the chosen name\b"), "chosen_name"),
    (re.compile(r"^with mana value (\d+) or greater\b"), "min_mv"),
    (re.compile(r"^from (?:your graveyard|graveyards) or from exile\b"), "from_zones"),
    (re.compile(r"^from your graveyard\b"), "from_graveyard"),
    (re.compile(r"^from exile\b"), "from_exile"),
    (re.compile(r"^with power (\d+) or greater\b"), "min_power"),
    (re.compile(r"^that share a creature type with ~(?= |$)"), "shares_type"),
    (re.compile(r"^that share a card type with the exiled card\b"), "shares_imprinted"),
    (re.compile(r"^that's (?:an? )?([a-z]+(?:(?:,|,? or) (?:an? )?[a-z]+){0,4})$"), "that_is"),
    (re.compile(r"^from anywhere other than your hand\b"), "not_from_hand"),
    (re.compile(r"^that targets? ~(?= |$)"), "targets_source"),
    (re.compile(r"^with ([a-z ]+?)(?= you cast\b| your opponents cast\b| of the\b|$)"), "keyword"),
)


ALWAYS: Final = frozenset({"as long as ~ is in the command zone or on the battlefield"})
"""Conditions always true for a permanent on the battlefield (eminence)."""


def spell_subject(subject: str, chooses_type: bool) -> SpellFilter:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter (no "that target ..." here)."""
    spells, targets = read_subject(subject, chooses_type)
    if targets is not None:
        raise NotUnderstood("spells that target something, where no condition can say so")
    return spells


@dataclass(slots=True)
class _Modifiers:
    """What the words after "spell(s)" say about the spells (see ``_SUBJECT_MODIFIERS``)."""

    caster: Who = Who.ANY
    min_mv: int | None = None
    from_zone: str | None = None
    not_from: str | None = None
    chosen_type: bool = False
    chosen_name: bool = False
    targets_source: bool = False
    shares_type: bool = False
    shares_imprinted: bool = False
    keyword: str | None = None
    min_power: int | None = None
    from_zones: tuple[str, ...] = ()
    that_is: tuple[Quality, ...] = ()
    targets: Condition | None = None


_FLAGS: Final = {
    "chosen_name": "chosen_name",
    "targets_source": "targets_source",
    "shares_type": "shares_type",
    "shares_imprinted": "shares_imprinted",
}
_CASTERS: Final = {"caster_you": Who.YOU, "caster_opponents": Who.OPPONENTS}
_ZONES: Final = {"from_graveyard": "graveyard", "from_exile": "exile"}


def _modify(mods: _Modifiers, tag: str, mm: re.Match[str], chooses_type: bool) -> None:
    """Apply one modifier: the caster (CR 601.2), a chosen type or name, a mana value or power (CR 202.3,
    208.1), the zone cast from, the spell's targets (CR 601.2c), a quality ("that's red") or a keyword."""
    if tag in _CASTERS:
        mods.caster = _CASTERS[tag]
    elif tag == "caster_you_or_any":
        mods.caster = Who.YOU if mm.group(0) == "you control" else Who.ANY
    elif tag in _FLAGS:
        setattr(mods, _FLAGS[tag], True)
    elif tag in _ZONES:
        mods.from_zone = _ZONES[tag]
    elif tag == "chosen_type":
        if not chooses_type:
            raise NotUnderstood("a chosen type that is not a creature type")
        mods.chosen_type = True
    elif tag == "min_mv":
        mods.min_mv = int(mm.group(1))
    elif tag == "not_from_hand":
        mods.not_from = "hand"
    elif tag == "targets":
        mods.targets = target_subject(mm.group(1))
    elif tag == "from_zones":
        mods.from_zones = ("graveyard", "exile")
    elif tag == "min_power":
        mods.min_power = int(mm.group(1))
    elif tag == "that_is":
        mods.that_is = split_alternatives(mm.group(1))
    elif tag == "keyword":
        if mm.group(1) not in KEYWORDS_WITH:
            raise NotUnderstood(f"spells with {mm.group(1)}")
        mods.keyword = mm.group(1)


def _read_modifiers(rest: str, chooses_type: bool) -> _Modifiers:
    """The modifiers after "spell(s)", each read by the first pattern of ``_SUBJECT_MODIFIERS`` matching."""
    mods = _Modifiers()
    while rest:
        for pattern, tag in _SUBJECT_MODIFIERS:
            mm = pattern.match(rest)
            if mm:
                _modify(mods, tag, mm, chooses_type)
                rest = rest[mm.end() :].strip()
                break
        else:
            raise NotUnderstood(f"spells {rest}: a condition on spells that is not read")
    return mods


def _head_qualities(head: str, mods: _Modifiers) -> list[Quality]:
    """The qualities before "spell(s)" ("red creature", "instant and sorcery"), or those of "that's ...",
    with the chosen type, keyword and power the modifiers add to each."""
    qualities: list[Quality] = []
    if head:
        head = re.sub(r"\bspells\b", "", head)
        parts = [p.strip() for p in re.split(r",? and |,? or |, ", head) if p.strip()]
        qualities = [read_quality(part, plural=False) for part in parts]
    if mods.that_is:
        if qualities:
            raise NotUnderstood('spells of a quality and "that\'s" another')
        qualities = list(mods.that_is)
    if mods.chosen_type or mods.keyword or mods.min_power is not None:
        qualities = [
            replace(
                q,
                chosen_creature_type=mods.chosen_type or q.chosen_creature_type,
                keyword=mods.keyword or q.keyword,
                min_power=mods.min_power,
            )
            for q in qualities or [Quality()]
        ]
    return qualities


def read_subject(subject: str, chooses_type: bool) -> tuple[SpellFilter, Condition | None]:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter, and the condition on the spell's
    targets that "that target a creature you control" states (CR 601.2c), if any."""
    s = subject.strip()
    if s == "your commander":  # CR 903.3: the spell is one of its caster's commanders
        return SpellFilter(Who.YOU, commander=True), None
    for prefix in ("each ", "other "):
        if s.startswith(prefix):
            s = s[len(prefix) :]
    idx = max(s.rfind("spells"), s.rfind("spell"))
    if idx < 0 or not re.search(r"\bspells?\b", s):
        raise NotUnderstood("the effect does not describe spells")
    m = list(re.finditer(r"\bspells?\b", s))[-1]
    head, rest = s[: m.start()].strip(), s[m.end() :].strip()
    mods = _read_modifiers(rest, chooses_type)
    spells = SpellFilter(
        mods.caster,
        tuple(_head_qualities(head, mods)),
        mods.min_mv,
        mods.from_zone,
        mods.not_from,
        mods.chosen_name,
        False,
        targets_source=mods.targets_source,
        from_zones=mods.from_zones,
        shares_creature_type=mods.shares_type,
        shares_card_type_with_imprinted=mods.shares_imprinted,
    )
    return spells, mods.targets
