"""What a permanent or a lasting effect grants to the spells its controller casts, read from its text (CR
601.2b, 601.3, 118.9, 613).

Permissions to cast from a zone ("You may cast spells from the top of your library.", CR 601.3),
alternative costs ("You may pay {0} rather than pay the mana cost for ...", "without paying their mana
costs", life rather than mana: CR 118.9), granted escape (702.138a) and flashback (702.34a) with their
cost (601.2f), and keyword costs reduced ("Buyback costs cost {2} less.", 118.7a). A sentence about casting
spells that no template reads is returned as not read, so the answer can warn (nothing silent).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Final, TypeAlias

from app.rules.bounded_cache import text_cache
from app.rules.effects.other_costs import OtherCost
from app.rules.effects.permissions import (
    GrantedText,
    KeywordCostChange,
    Permission,
    PermissionKind,
    SpellKind,
)
from app.rules.text.cast_sentences import (
    Sentence,
    Unreadable,
    cost_mana,
    cost_phrase,
    original,
    sentences,
)
from app.rules.text.spell_kinds import spell_kind
from app.rules.text.templates import Template
from app.rules.text.ways_templates import (
    ALL_ZONES,
    GRANT_ESCAPE,
    GRANT_FLASHBACK,
    GRANT_FLASHBACK_TARGET,
    GRANT_FREE,
    GRANT_FROM_HAND_FREE,
    GRANT_LIFE,
    GRANT_LIFE_ALTERNATIVE,
    GRANT_OPTIONAL,
    GRANT_PAY_RATHER,
    GRANT_ZONE,
    KEYWORD_COST_IS_MANA_COST,
    KEYWORD_COST_LESS,
    MAX_SENTENCE,
    OWN_TEMPLATES,
    WAYS,
)
from app.rules.values.costs import ManaCost

# Sentences that speak of casting spells for other costs: when no template reads them, the answer says so.
_GRANTED_CASTING: Final = re.compile(
    r"rather than pay(?:ing)? (?:the|its|their) mana costs?|without paying their mana costs|"
    r"\bmay (?:play lands and )?cast [a-z ,0-9]*spells? from\b|card in your graveyard (?:has|gains) \w|"
    r"can't (?:play lands or )?cast spells from|"
    r"you cast[a-z ,0-9'-]{0,60} ha(?:s|ve) (?:replicate|conspire|casualty|offspring)\b"
)
# One-shot effects on particular objects ("cast a spell from among them", "cast the copy"): no standing
# permission for the spells a request costs; casting such a card from exile is warned about where it is cast.
_ONE_SHOT: Final = re.compile(
    r"from among|the cop(?:y|ies)|that card|those cards|the exiled card|it this turn"
)
_TRIGGER: Final = re.compile(r"^(?:when|whenever|at the beginning|at end)\b|^[^\"]{0,80}?: ")


@text_cache(entries=8192, chars=2_000_000)
def read_granted(name: str, oracle_text: str) -> GrantedText:
    """What a permanent or a lasting effect grants (see the module): each Permission, and each sentence
    about casting spells that was not read."""
    out: list[Permission] = []
    not_read: list[str] = []
    keyword_costs: list[KeywordCostChange] = []
    for s in sentences(name, oracle_text):
        if len(s.low) > MAX_SENTENCE:
            continue
        found = WAYS.match(s.low)
        if found is not None and found[0] is KEYWORD_COST_LESS:
            m = found[1]
            keyword_costs.append(KeywordCostChange(m["kw"], int(m["n"]), s.text))
            continue
        if found is None or found[0].name in OWN_TEMPLATES:
            if (
                _GRANTED_CASTING.search(s.low)
                and not _ONE_SHOT.search(s.low)
                and not _TRIGGER.match(s.low)
                and "~" not in s.low.split(" from ")[0]
            ):
                not_read.append(s.text)
            continue
        try:
            _granted(found[0], s, found[1], out)
        except Unreadable:
            not_read.append(s.text)
    return GrantedText(tuple(out), tuple(not_read), tuple(keyword_costs))


def _granted(template: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    """The permission a granting template's sentence gives, appended to ``out`` (or merged into the one
    before it: "... pay life rather than ...", "The flashback cost is equal to its mana cost")."""
    for templates, build in _GRANTS:
        if any(template is t for t in templates):
            build(template, s, m, out)
            return
    raise Unreadable(template.name)  # pragma: no cover - every granted template has its builder


def _grant_from_hand_free(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    kind = spell_kind(m["what"])
    out.append(Permission(PermissionKind.ALTERNATIVE, kind, ("hand",), "118.9", s.text, ManaCost.zero()))


def _grant_free(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    kind = spell_kind(m["what"])
    if m["n"]:
        kind = SpellKind(
            kind.types,
            kind.subtypes,
            kind.colorless,
            kind.permanent,
            kind.nonland,
            int(m["n"]),
            kind.alternatives,
        )
    out.append(
        Permission(
            PermissionKind.ALTERNATIVE,
            kind,
            ALL_ZONES,
            "118.9",
            s.text,
            ManaCost.zero(),
            any_player=m["who"] == "any player",
        )
    )


def _grant_life_alternative(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    out.append(
        Permission(
            PermissionKind.ALTERNATIVE,
            spell_kind(m["what"]),
            ALL_ZONES if "from your hand" not in s.low else ("hand",),
            "118.9",
            s.text,
            ManaCost.zero(),
            life_for_mana=True,
            once_per_turn=bool(m["once"]),
            your_turn=bool(m["once"]),  # "once during each of your turns"
        )
    )


def _grant_pay_rather(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    cost = cost_mana(original(s, m, "cost"))
    zones = ALL_ZONES if not m["hand"] else ("hand",) if "hand" in m["hand"] else ("exile",)
    once = bool(m["once"])
    kind = spell_kind(m["what"])
    out.append(Permission(PermissionKind.ALTERNATIVE, kind, zones, "118.9", s.text, cost, once_per_turn=once))


def _added_costs(s: Sentence, m: re.Match[str], group: str, to: str) -> tuple[OtherCost, ...]:
    """What a grant adds to the costs beside mana ("... and exile another card from your graveyard"); mana
    added is not read (the permission is then reported as not read)."""
    if not m[group]:
        return ()
    mana, others = cost_phrase(original(s, m, group))
    if mana != ManaCost.zero():
        raise Unreadable(f"mana added to {to} is not read")
    return others


def _grant_zone(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    zone = "graveyard" if m["zone"] == "your graveyard" else "library"
    what = m["what"]
    once = bool(m["when"] and m["when"].startswith(("once", "during"))) or what.startswith(
        ("a ", "an ", "one ")
    )
    extra = _added_costs(s, m, "extra", "the costs")
    chosen = what.endswith(" of the chosen type")  # Realmwalker: the source's chosen creature type
    out.append(
        Permission(
            PermissionKind.ZONE,
            spell_kind(what.removesuffix(" of the chosen type")),
            (zone,),
            "601.3",
            s.text,
            other_costs=extra,
            once_per_turn=once,
            # "during each of your turns" (Lurrus, Karador): only while its controller is active
            your_turn=bool(m["turn"] or (m["when"] and "each of your turns" in m["when"])),
            chosen_type=chosen,
        )
    )


def _grant_life(_t: Template, s: Sentence, _m: re.Match[str], out: list[Permission]) -> None:
    if not out or out[-1].kind is not PermissionKind.ZONE:
        raise Unreadable("pay life rather than the mana cost, with no permission before it")
    last = out.pop()
    out.append(
        Permission(
            PermissionKind.ZONE,
            last.spells,
            last.zones,
            "118.9",
            f"{last.text} {s.text}",
            ManaCost.zero(),
            life_for_mana=True,
            once_per_turn=last.once_per_turn,
            your_turn=last.your_turn,
        )
    )


def _grant_keyword(template: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    keyword = "escape" if template is GRANT_ESCAPE else "flashback"
    out.append(
        Permission(
            PermissionKind.KEYWORD,
            spell_kind(m["what"]),
            ("graveyard",),
            template.rule,
            s.text,
            keyword=keyword,
            named_card=template is GRANT_FLASHBACK_TARGET,
            your_turn=bool(m.groupdict().get("turn")),
        )
    )


# What each optional cost a permanent may grant takes (CR 702.56a replicate: the cost the grant gives;
# 702.78a conspire; 702.153a casualty N; 702.175a offspring [cost]): its rule, and the other costs.
_OPTIONAL_RULES: Final = {
    "replicate": "702.56a",
    "conspire": "702.78a",
    "casualty": "702.153a",
    "offspring": "702.175a",
}


def _grant_optional(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    """ "Each instant and sorcery spell you cast has replicate." (the cost in the next sentence), "Creature
    spells you cast have offspring {2}.", "The first instant or sorcery spell you cast each turn has
    casualty 2." (one spell each turn), "... has conspire" (tap two untapped creatures sharing a color)."""
    kw = m["kw"]
    cost: ManaCost | None = None
    others: tuple[OtherCost, ...] = ()
    raw = m["cost"]
    if kw == "casualty":
        if raw is None or not raw.isdigit():
            raise Unreadable("casualty with no number")
        others = (OtherCost(f"Sacrifice a creature with power {raw} or greater"),)
        cost = ManaCost.zero()
    elif kw == "conspire":
        others = (OtherCost("Tap two untapped creatures you control that share a color with it"),)
        cost = ManaCost.zero()
    elif raw is not None:
        if raw.isdigit():
            raise Unreadable(f"{kw} {raw}")
        cost = cost_mana(original(s, m, "cost"))
    once = bool(m["first"] and m["each"])
    out.append(
        Permission(
            PermissionKind.OPTIONAL,
            spell_kind(m["what"]),
            ALL_ZONES,
            _OPTIONAL_RULES[kw],
            s.text,
            cost,
            keyword=kw,
            other_costs=others,
            once_per_turn=once,
        )
    )


def _keyword_cost_is_mana_cost(_t: Template, s: Sentence, m: re.Match[str], out: list[Permission]) -> None:
    if (
        out
        and out[-1].kind is PermissionKind.OPTIONAL
        and out[-1].keyword == m["kw"]
        and out[-1].cost is None
    ):
        last = out.pop()  # "The replicate cost is equal to its mana cost." (Djinn Illuminatus)
        out.append(replace(last, text=f"{last.text} {s.text}", cost_is_mana_cost=True))
        return
    if not out or out[-1].kind is not PermissionKind.KEYWORD or out[-1].keyword != m["kw"]:
        raise Unreadable(f"the {m['kw']} cost, with no {m['kw']} granted before it")
    last = out.pop()
    others = _added_costs(s, m, "plus", "the mana cost")
    out.append(
        Permission(
            last.kind,
            last.spells,
            last.zones,
            last.rule,
            f"{last.text} {s.text}",
            keyword=last.keyword,
            other_costs=others,
            named_card=last.named_card,
            your_turn=last.your_turn,
        )
    )


_Builder: TypeAlias = Callable[[Template, Sentence, re.Match[str], list[Permission]], None]
_GRANTS: Final[tuple[tuple[tuple[Template, ...], _Builder], ...]] = (
    ((GRANT_FROM_HAND_FREE,), _grant_from_hand_free),
    ((GRANT_FREE,), _grant_free),
    ((GRANT_LIFE_ALTERNATIVE,), _grant_life_alternative),
    ((GRANT_PAY_RATHER,), _grant_pay_rather),
    ((GRANT_ZONE,), _grant_zone),
    ((GRANT_LIFE,), _grant_life),
    ((GRANT_ESCAPE, GRANT_FLASHBACK, GRANT_FLASHBACK_TARGET), _grant_keyword),
    ((KEYWORD_COST_IS_MANA_COST,), _keyword_cost_is_mana_cost),
    ((GRANT_OPTIONAL,), _grant_optional),
)
"""Each granting template (CR 601.2b, 601.3, 118.9, 702.34a, 702.138a) and the builder of its permission."""
