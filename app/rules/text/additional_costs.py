"""The additional costs a card's text states beside its keyword lines (CR 601.2b, 118.8).

"As an additional cost to cast this spell, sacrifice a creature." is always paid (``mandatory``; "...
sacrifice a creature or pay {3}{B}" has a form for each choice); "... you may exile any number of white
cards from your hand." is an optional cost paid once per object (``ANY_NUMBER_COST``, CR 601.2b); spree
(CR 702.172a) and tiered (702.183a) modes each add a cost when chosen (700.2h), read as the forms of one
optional cost.
"""

from __future__ import annotations

from typing import Final

from app.rules.effects.other_costs import OtherCost
from app.rules.effects.ways import CardWays, NotRead, OptionalCost
from app.rules.errors import RulesError
from app.rules.text.keyword_lines import Unreadable, keyword_cost, other, strip_reminder
from app.rules.values.costs import ManaCost

_ADDITIONAL: Final = "as an additional cost to cast this spell, "
# Verbs that start a cost (CR 118): " or " before one of them separates two forms the caster chooses from
# ("sacrifice a creature or pay {3}{B}"), elsewhere it is part of one ("sacrifice an artifact or creature").
_COST_VERBS: Final = frozenset(
    {"sacrifice", "discard", "pay", "exile", "reveal", "tap", "return", "put", "remove", "behold", "collect"}
)


def _split_forms(body: str) -> list[str]:
    """ "sacrifice a creature, discard a card, or pay 3 life" -> its three forms (split before verbs only)."""
    words = body.replace(", or ", " or ").replace(", ", " , ").split(" ")
    forms: list[list[str]] = [[]]
    i = 0
    while i < len(words):
        w = words[i]
        nxt = words[i + 1].casefold() if i + 1 < len(words) else ""
        if w in ("or", ",") and nxt in _COST_VERBS and forms[-1]:
            forms.append([])
        elif w != "," or nxt not in _COST_VERBS:
            forms[-1].append(w)
        i += 1
    return [" ".join(f).replace(" , ", ", ").strip() for f in forms if f]


# "you may sacrifice any number of creatures" (CR 601.2b): paid once per object, chosen by the caster.
ANY_NUMBER_COST: Final = "additional cost"
_ANY_NUMBER_VERBS: Final = frozenset({"sacrifice", "exile", "tap", "remove"})


def _any_number(body: str) -> OptionalCost | None:
    """ "As an additional cost to cast this spell, you may exile any number of white cards from your hand."
    (CR 601.2b, 118.8): an optional additional cost the caster pays any number of times, one object each
    time; the request gives how many as ``times`` of the optional cost "additional cost"."""
    low = body.casefold()
    if not low.startswith("you may "):
        return None
    verb, _, rest = low[len("you may ") :].partition(" ")
    if verb not in _ANY_NUMBER_VERBS or not rest.startswith("any number of ") or "{" in rest:
        return None
    text = f"{verb.capitalize()} one of {rest}"
    sentence = f"As an additional cost to cast this spell, {body}."
    return OptionalCost(ANY_NUMBER_COST, "601.2b", ((ManaCost.zero(), (OtherCost(text),)),), True, sentence)


def read_mandatory(line: str) -> OptionalCost | NotRead | None:
    """ "As an additional cost to cast this spell, sacrifice a creature." (CR 601.2b, 118.8): always paid;
    "... you may ..." is an optional cost the answer cannot choose, so it is reported as not read."""
    if " — " in line[:40] and line.split(" — ", 1)[1].casefold().startswith(_ADDITIONAL):
        line = line.split(" — ", 1)[1]  # "Frenzied Metabolism — As an additional cost ...": an ability word
    if not line.casefold().startswith(_ADDITIONAL):
        return None
    body = line[len(_ADDITIONAL) :].split(". ", 1)[0].strip().rstrip(".")
    any_number = _any_number(body)
    if any_number is not None:
        return any_number
    if body.casefold().startswith("you may ") or not body:
        return NotRead(line, "an additional cost the caster may pay: its choice is not an input, not added")
    forms: list[tuple[ManaCost, tuple[OtherCost, ...]]] = []
    for form in _split_forms(body):
        words = form.split(" ")
        if words[0].casefold() == "pay" and len(words) == 2 and words[1].startswith("{"):
            try:
                forms.append((ManaCost.parse(words[1]), ()))
            except RulesError:
                return NotRead(line, f"the cost {words[1]!r} does not parse")
        elif "{" in form:
            return NotRead(line, "mana inside a cost that is not a payment: not read")
        else:
            forms.append((ManaCost.zero(), (other(form),)))
    sentence = line.split(". ", 1)[0].rstrip(".") + "."
    return OptionalCost("additional cost", "118.8", tuple(forms), False, sentence)


# CR 702.172a spree ("Choose one or more modes"; each mode's "+ [cost] —" is an additional cost paid when it
# is chosen, 700.2h) and 702.183a tiered (choose one of them): each mode is a form of the optional cost,
# chosen by ``which`` (one entry per chosen mode).
_MODAL: Final = {"spree": "702.172a", "tiered": "702.183a"}


def modal_costs(text: str) -> OptionalCost | NotRead | None:
    lines = [strip_reminder(x) for x in text.split("\n")]
    keyword = next((k for k in _MODAL if any(x.casefold() == k for x in lines)), None)
    if keyword is None:
        return None
    forms: list[tuple[ManaCost, tuple[OtherCost, ...]]] = []
    for line in lines:
        if not line.startswith("+ "):
            continue
        cost, sep, _effect = line[2:].partition(" — ")
        if not sep:
            return NotRead(line, f"a {keyword} mode whose cost is not read")
        try:
            forms.append(keyword_cost(cost))
        except Unreadable as exc:
            return NotRead(line, str(exc))
    if not forms:
        return NotRead(keyword.capitalize(), f"{keyword} with no mode read")
    sentence = f"{keyword.capitalize()}: " + "; ".join(
        str(m) + "".join(f", {o.text}" for o in others) for m, others in forms
    )
    return OptionalCost(keyword, _MODAL[keyword], tuple(forms), False, sentence)


def modal_keyword(card_ways: CardWays) -> OptionalCost | None:
    """The card's spree or tiered cost, when it has one: at least one mode must be chosen."""
    return next((o for o in card_ways.optional if o.keyword in _MODAL), None)
