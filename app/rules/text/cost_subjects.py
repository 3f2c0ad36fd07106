"""The spells a cost sentence names: "[each] [other] [qualities] spell(s) [modifiers]" read as a
``SpellFilter`` (caster, qualities, mana value, zone cast from, targets; CR 601.2f, 601.2c)."""

import re
from dataclasses import replace
from typing import Final

from app.rules.casting.effects import (
    Condition,
    Quality,
    SpellFilter,
    Who,
)
from app.rules.text.cost_conditions import _target_subject
from app.rules.text.cost_words import _KEYWORDS_WITH, _alternatives, _NotUnderstood, _quality

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


_ALWAYS: Final = frozenset({"as long as ~ is in the command zone or on the battlefield"})
"""Conditions always true for a permanent on the battlefield (eminence)."""


def _spell_subject(subject: str, chooses_type: bool) -> SpellFilter:
    """ "[each] [other] [qualities] spell(s) [modifiers]" → a SpellFilter (no "that target ..." here)."""
    spells, targets = _subject(subject, chooses_type)
    if targets is not None:
        raise _NotUnderstood("spells that target something, where no condition can say so")
    return spells


def _subject(subject: str, chooses_type: bool) -> tuple[SpellFilter, Condition | None]:
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
        raise _NotUnderstood("the effect does not describe spells")
    m = list(re.finditer(r"\bspells?\b", s))[-1]
    head, rest = s[: m.start()].strip(), s[m.end() :].strip()
    caster = Who.ANY
    min_mv: int | None = None
    from_zone: str | None = None
    not_from: str | None = None
    chosen_type = chosen_name = targets_source = shares_type = shares_imprinted = False
    keyword: str | None = None
    min_power: int | None = None
    from_zones: tuple[str, ...] = ()
    that_is: tuple[Quality, ...] = ()
    targets: Condition | None = None
    while rest:
        for pattern, tag in _SUBJECT_MODIFIERS:
            mm = pattern.match(rest)
            if not mm:
                continue
            if tag == "caster_you":
                caster = Who.YOU
            elif tag == "caster_opponents":
                caster = Who.OPPONENTS
            elif tag == "chosen_type":
                if not chooses_type:
                    raise _NotUnderstood("a chosen type that is not a creature type")
                chosen_type = True
            elif tag == "chosen_name":
                chosen_name = True
            elif tag == "min_mv":
                min_mv = int(mm.group(1))
            elif tag == "from_graveyard":
                from_zone = "graveyard"
            elif tag == "from_exile":
                from_zone = "exile"
            elif tag == "not_from_hand":
                not_from = "hand"
            elif tag == "targets_source":
                targets_source = True
            elif tag == "caster_you_or_any":
                caster = Who.YOU if mm.group(0) == "you control" else Who.ANY
            elif tag == "targets":
                targets = _target_subject(mm.group(1))
            elif tag == "from_zones":
                from_zones = ("graveyard", "exile")
            elif tag == "min_power":
                min_power = int(mm.group(1))
            elif tag == "shares_type":
                shares_type = True
            elif tag == "shares_imprinted":
                shares_imprinted = True
            elif tag == "that_is":
                that_is = _alternatives(mm.group(1))
            elif tag == "keyword":
                if mm.group(1) not in _KEYWORDS_WITH:
                    raise _NotUnderstood(f"spells with {mm.group(1)}")
                keyword = mm.group(1)
            rest = rest[mm.end() :].strip()
            break
        else:
            raise _NotUnderstood(f"spells {rest}: a condition on spells that is not read")
    qualities: list[Quality] = []
    if head:
        head = re.sub(r"\bspells\b", "", head)
        parts = [p.strip() for p in re.split(r",? and |,? or |, ", head) if p.strip()]
        for part in parts:
            qualities.append(_quality(part, plural=False))
    if that_is:
        if qualities:
            raise _NotUnderstood('spells of a quality and "that\'s" another')
        qualities = list(that_is)
    if chosen_type or keyword or min_power is not None:
        base = qualities or [Quality()]
        qualities = [
            replace(
                q,
                chosen_creature_type=chosen_type or q.chosen_creature_type,
                keyword=keyword or q.keyword,
                min_power=min_power,
            )
            for q in base
        ]
    spells = SpellFilter(
        caster,
        tuple(qualities),
        min_mv,
        from_zone,
        not_from,
        chosen_name,
        False,
        targets_source=targets_source,
        from_zones=from_zones,
        shares_creature_type=shares_type,
        shares_card_type_with_imprinted=shares_imprinted,
    )
    return spells, targets
