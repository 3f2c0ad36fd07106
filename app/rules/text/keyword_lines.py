"""Keyword lines read: the way to cast or the optional cost a line of a card's text defines (CR 702).

A keyword line ("Flashback—{1}{G}, Pay 3 life.", "Kicker {1}{G} and/or {2}{U}", "Awaken 3—{4}{U}") is read
with plain string operations: reminder text cut at its parentheses (CR 207.2), the keyword matched
literally at the start of the line, the cost split at ", " and " and/or " (CR 118.1: a cost of several
parts, 119.4: a life payment). No regular expression, so no backtracking whatever the text.
A way is an alternative cost or a keyword method (CR 601.2b, 118.9), an optional cost one the caster may pay
(CR 118.8); a sentence after a way's cost may restrict X (CR 107.3) or reduce the spell cast that way (CR
601.2f, 118.7a).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from app.rules.effects.cost_effects import CostEffect, Count, CountKind, Direction, SpellFilter, Who
from app.rules.effects.keywords import KEYWORDS, OptionalDef, WayDef
from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import NotRead, OptionalCost, Way, number_word
from app.rules.errors import RulesError
from app.rules.values.costs import ManaCost


class Unreadable(Exception):
    pass


def strip_reminder(line: str) -> str:
    """The line without reminder text (CR 207.2: parenthesized, no rules meaning)."""
    out: list[str] = []
    depth = 0
    for ch in line:
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out).strip()


def other(text: str) -> OtherCost:
    """A non-mana cost part; "Pay N life" carries its amount (CR 119.4)."""
    text = text.strip().rstrip(".")
    text = text[0].upper() + text[1:] if text else text
    words = text.split(" ")
    if len(words) == 3 and words[0] == "Pay" and words[2] == "life":
        n = number_word(words[1])
        if n is not None:
            return OtherCost(text, n)
    return OtherCost(text)


def keyword_cost(text: str) -> tuple[ManaCost, tuple[OtherCost, ...]]:
    """A keyword's cost: "{1}{G}, Pay 3 life" -> ({1}{G}, [Pay 3 life]); a cost with no mana part is {0}."""
    text = text.strip().rstrip(".").strip()
    if not text:
        raise Unreadable("no cost after the keyword")
    mana = ManaCost.zero()
    others: list[OtherCost] = []
    for i, part in enumerate(p.strip() for p in text.split(", ")):
        if part.startswith("{") and part.endswith("}") and i == 0:
            try:
                mana = ManaCost.parse(part)
            except RulesError as exc:
                raise Unreadable(f"the cost {part!r} does not parse: {exc}") from exc
        elif part.startswith("{"):
            raise Unreadable(f"mana in an unexpected place: {part!r}")
        else:
            others.append(other(part))
    return mana, tuple(others)


def _after_keyword(line: str, keyword: str) -> str | None:
    """The text after ``keyword`` at the start of ``line`` when it is the keyword (not a name such as
    "Blitz of the Thunder-Raptor" or "Squad Captain"), else None."""
    if not line.casefold().startswith(keyword):
        return None
    rest = line[len(keyword) :]
    if rest == "" or rest[0] in "—{.":
        return rest
    if rest[0] == " ":
        nxt = rest[1:2]
        if nxt in ("{", "", "—") or nxt.isdigit():
            return rest
        first = rest[1:].split(" ", 1)[0].split("—", 1)[0].rstrip(".")
        if number_word(first) is not None or first.casefold() in ("a", "an", "x"):
            return rest
    return None


def read_line(line: str) -> tuple[Way | OptionalCost | NotRead | None, NotRead | None]:
    """What a keyword line defines and, when a sentence follows its cost ("Flashback {8}{G}{G}. This
    spell costs {X} less to cast this way, ..."), that sentence as not read (it is given no effect)."""
    for keyword, definition in KEYWORDS:
        rest = _after_keyword(line, keyword)
        if rest is None:
            continue
        rest, _, after = rest.partition(". ")
        nonzero = after.casefold().rstrip(".") in _X_NOT_ZERO
        extra = NotRead(after, "a sentence after the keyword's cost: given no effect") if after else None
        try:
            built = _build(definition, line, rest)
        except Unreadable as exc:
            return NotRead(line, str(exc)), None
        if nonzero:  # the restriction on X is read: the engine refuses X = 0 for this way or cost
            return replace(built, x_at_least_one=True), None
        reduction = _WAY_REDUCTIONS.get(after.casefold())
        if reduction is not None and isinstance(built, Way):
            return replace(built, reduction=replace(reduction, text=after)), None
        return built, extra
    return None, None


def _build(definition: WayDef | OptionalDef, line: str, rest: str) -> Way | OptionalCost:
    """The way (CR 601.2b, 118.9) or the optional cost (CR 118.8) a keyword line defines, ``rest`` being
    the text after the keyword."""
    rest = rest.strip().rstrip(".").strip()
    if isinstance(definition, WayDef):
        return _build_way(definition, line, rest)
    return OptionalCost(
        definition.keyword, definition.rule, _optional_forms(definition, rest), definition.repeatable, line
    )


def _way_cost_text(keyword: str, rest: str) -> str:
    """The part of ``rest`` that is the cost of the way ``keyword`` names."""
    if keyword == "suspend":
        return ""  # "Suspend 4—{U}": the cost to suspend it from the hand, not a cost to cast it (702.62a)
    if rest.startswith("—"):
        return rest[1:]
    if keyword in ("awaken", "impending") and "—" in rest:
        return rest.split("—", 1)[1]  # "Awaken 3—{4}{U}": the number is not part of the cost
    if keyword == "prototype" and ("—" in rest or " - " in rest):
        return rest.replace(" - ", "—").split("—", 1)[0].strip()  # "Prototype {1}{R} — 3/2"
    return rest


def _build_way(definition: WayDef, line: str, rest: str) -> Way:
    """A way to cast with the keyword's cost (CR 601.2b, 118.9); none for a keyword that takes none
    (retrace, jump-start, aftermath: the mana cost, 601.2f; suspend: without paying it, 702.62a), plus the
    part the keyword itself adds."""
    rest = _way_cost_text(definition.keyword, rest)
    if not definition.needs_cost:
        mana: ManaCost | None = None
        others: tuple[OtherCost, ...] = ()
        if rest:
            raise Unreadable(f"{definition.keyword} takes no cost here")
    else:
        mana, others = keyword_cost(rest)
    if definition.adds is not None:
        others = (*others, OtherCost(definition.adds))
    return Way(
        definition.keyword,
        definition.rule,
        definition.kind,
        definition.zones,
        mana,
        others,
        definition.condition,
        line,
    )


def _optional_forms(definition: OptionalDef, rest: str) -> tuple[tuple[ManaCost, tuple[OtherCost, ...]], ...]:
    """The forms of an optional cost (CR 118.8): the cost the rules fix (conspire 702.78a, bargain
    702.166a), casualty's sacrifice (702.153a), gift's promise (702.174a), else each cost after the keyword
    ("Kicker {1}{G} and/or {2}{U}", 702.33a)."""
    if definition.fixed is not None:
        if rest:
            raise Unreadable(f"{definition.keyword} takes no cost here")
        return ((ManaCost.zero(), (OtherCost(definition.fixed),)),)
    if definition.keyword == "casualty":
        n = number_word(rest.split(" ", 1)[0]) if rest else None
        if n is None and rest.casefold() != "x":
            raise Unreadable("casualty without a number")
        what = "N" if n is None else str(n)
        return ((ManaCost.zero(), (OtherCost(f"Sacrifice a creature with power {what} or greater"),)),)
    if definition.keyword == "gift":
        if not rest:
            raise Unreadable("gift without what is given")
        return ((ManaCost.zero(), (OtherCost(f"Promise an opponent {rest}"),)),)
    if rest.startswith("—"):
        rest = rest[1:]
    return tuple(keyword_cost(part) for part in rest.split(" and/or "))


def lines(text: str) -> list[str]:
    """The text's lines, reminder text removed, with the line breaks a spoiler text lost restored.

    Spoiler texts can lose their line breaks ("Kicker {W} (reminder)Destroy target ..."): a reminder
    closing directly onto a capital letter or a mana symbol ends its keyword line (CR 207.2: reminder
    text closes the keyword it explains), so does a mana symbol or a number stuck to a capital letter
    ("Blitz {B}{R}{G}Whenever", "Prototype {2}{B} — 3/2At": oracle text always has a space there),
    and a capitalized way or optional-cost keyword stuck to the end of
    a lowercase word ("Flying, vigilanceMiracle {1}{W}") starts a line. Plain character scans, no regex.
    """
    out: list[str] = []
    for raw in text.split("\n"):
        start = 0
        for i in range(1, len(raw)):
            prev, ch = raw[i - 1], raw[i]
            if (((prev in ")}" or prev.isdigit()) and ch.isupper()) or (prev == ")" and ch == "{")) or (
                prev.islower() and ch.isupper() and _keyword_at(raw, i)
            ):
                out.append(raw[start:i])
                start = i
        out.append(raw[start:])
    return [line for line in (strip_reminder(x) for x in out) if line]


def _keyword_at(text: str, i: int) -> bool:
    low = text[i : i + 30].casefold()
    return any(low.startswith(k) and _after_keyword(low, k) is not None for k, _d in KEYWORDS)


# A sentence after a way's cost that reduces the spell cast that way (CR 601.2f, 118.7a): Visions of Glory's
# "where X is the greatest mana value of a commander you own on the battlefield or in the command zone".
_COMMANDER_MV: Final = (
    "the greatest mana value of a commander you own on the battlefield or in the command zone"
)
_WAY_REDUCTIONS: Final = {
    f"this spell costs {{x}} less to cast this way, where x is {_COMMANDER_MV}.": CostEffect(
        Direction.REDUCTION,
        ManaCost.of(1),
        SpellFilter(),
        "118.7a",
        "",
        Count(CountKind.COMMANDER_MANA_VALUE, _COMMANDER_MV, None, Who.YOU),
        own=True,
    )
}
_X_NOT_ZERO: Final = frozenset({"x can't be 0", "if you cast this spell this way, x can't be 0"})


def is_way_reduction(sentence: str) -> bool:
    """Whether ``sentence`` is a reduction this reader attaches to the way before it ("This spell costs {X}
    less to cast this way, where X is ..."), so the cost-effect reader leaves it alone."""
    return sentence.casefold() in _WAY_REDUCTIONS
