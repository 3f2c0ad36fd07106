"""Ways to cast and optional costs that a card's own text defines by keyword (CR 702), read from its text.

A keyword line ("Flashback—{1}{G}, Pay 3 life.", "Kicker {1}{G} and/or {2}{U}", "Awaken 3—{4}{U}") is read
with plain string operations: reminder text cut at its parentheses, the keyword matched literally at the
start of the line, the cost split at ", " and " and/or ". No regular expression, so no backtracking
whatever the text (issue 15). Which keywords exist, their rule and the zones they apply from are the
Comprehensive Rules' (a table of keywords, never of card names).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Final

from app.rules.casting.effects import CostEffect, Count, CountKind, Direction, SpellFilter, Who

if TYPE_CHECKING:
    from app.rules.casting.permissions import OwnPermission
from app.rules.errors import RulesError
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import NUMBER_WORDS


class WayKind(StrEnum):
    """How a way to cast sets the cost that 601.2f starts from."""

    ALTERNATIVE = "alternative"  # [cost] rather than the mana cost (118.9)
    WITH_MANA_COST = "with_mana_cost"  # the mana cost, plus what the keyword adds (retrace, jump-start)
    FACE_DOWN = "face_down"  # {3} rather than the mana cost, as a face-down 2/2 (702.37c, 702.168a)
    WITHOUT_MANA = "without_mana"  # without paying its mana cost (plot, 702.170d; 118.9)


@dataclass(frozen=True, slots=True)
class _WayDef:
    keyword: str
    rule: str
    kind: WayKind
    zones: tuple[str, ...]
    needs_cost: bool = True
    condition: str | None = None
    adds: str | None = None  # the non-mana part the keyword itself adds (retrace: discard a land card)


# CR 702: every keyword that is a way to cast with its own cost, the zones it applies from, and for the
# ones that hold only under a condition, that condition as the rule states it.
_WAYS: Final[tuple[_WayDef, ...]] = (
    _WayDef("flashback", "702.34a", WayKind.ALTERNATIVE, ("graveyard",)),
    _WayDef("madness", "702.35a", WayKind.ALTERNATIVE, ("exile",)),
    _WayDef("morph", "702.37c", WayKind.FACE_DOWN, ("hand",)),
    _WayDef("megamorph", "702.37b", WayKind.FACE_DOWN, ("hand",)),
    _WayDef("disguise", "702.168a", WayKind.FACE_DOWN, ("hand",)),
    _WayDef("evoke", "702.74a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef(
        "prowl",
        "702.76a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="a player was dealt combat damage this turn by a source of yours sharing a creature type",
    ),
    _WayDef("retrace", "702.81a", WayKind.WITH_MANA_COST, ("graveyard",), False, adds="Discard a land card"),
    _WayDef(
        "miracle",
        "702.94a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="it is the first card drawn this turn, revealed as it is drawn",
    ),
    _WayDef("overload", "702.96a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("bestow", "702.103a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("dash", "702.109a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("awaken", "702.113a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("surge", "702.117a", WayKind.ALTERNATIVE, ("hand",), condition="surge"),
    _WayDef("emerge", "702.119a", WayKind.ALTERNATIVE, ("hand",), adds="Sacrifice a creature"),
    _WayDef("aftermath", "702.127a", WayKind.WITH_MANA_COST, ("graveyard",), False),
    _WayDef("jump-start", "702.133a", WayKind.WITH_MANA_COST, ("graveyard",), False, adds="Discard a card"),
    _WayDef("spectacle", "702.137a", WayKind.ALTERNATIVE, ("hand",), condition="spectacle"),
    _WayDef("escape", "702.138a", WayKind.ALTERNATIVE, ("graveyard",)),
    _WayDef("mutate", "702.140a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("foretell", "702.143a", WayKind.ALTERNATIVE, ("exile",)),
    _WayDef("disturb", "702.146a", WayKind.ALTERNATIVE, ("graveyard",)),
    _WayDef("cleave", "702.148a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("blitz", "702.152a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("prototype", "702.160a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("more than meets the eye", "702.162a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef("plot", "702.170d", WayKind.WITHOUT_MANA, ("exile",)),
    # 702.62a: the last time counter removed, it is cast from exile without paying its mana cost; the cost
    # after "Suspend N—" is paid to exile it from the hand, not to cast it.
    _WayDef("suspend", "702.62a", WayKind.WITHOUT_MANA, ("exile",), needs_cost=False),
    _WayDef(
        "freerunning",
        "702.173a",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="a player was dealt combat damage this turn by an Assassin or a commander of yours",
    ),
    _WayDef("impending", "702.176a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef(
        "harmonize", "702.180a", WayKind.ALTERNATIVE, ("graveyard",), adds="Tap up to one untapped creature"
    ),
    _WayDef("warp", "702.185a", WayKind.ALTERNATIVE, ("hand",)),
    _WayDef(
        "mayhem", "702.187a", WayKind.ALTERNATIVE, ("graveyard",), condition="you discarded it this turn"
    ),
    # Sneak (Teenage Mutant Ninja Turtles, after the 2026-01-16 rules): "You may cast this spell for [cost]
    # if you also return an unblocked attacker you control to hand during the declare blockers step": an
    # alternative cost (118.9) with a condition and a return.
    _WayDef(
        "sneak",
        "118.9",
        WayKind.ALTERNATIVE,
        ("hand",),
        condition="it is the declare blockers step and you control an unblocked attacker",
        adds="Return an unblocked attacker you control to its owner's hand",
    ),
    _WayDef(
        "web-slinging",
        "702.188a",
        WayKind.ALTERNATIVE,
        ("hand",),
        adds="Return a tapped creature you control to its owner's hand",
    ),
)


@dataclass(frozen=True, slots=True)
class _OptionalDef:
    keyword: str
    rule: str
    repeatable: bool = False  # paid any number of times (multikicker, replicate, squad, escalate)
    needs_cost: bool = True
    fixed: str | None = None  # the cost a keyword without one states in the rules (conspire, bargain, ...)


_OPTIONAL: Final[tuple[_OptionalDef, ...]] = (
    _OptionalDef("buyback", "702.27a"),
    _OptionalDef("kicker", "702.33a"),
    _OptionalDef("multikicker", "702.33c", repeatable=True),
    _OptionalDef("entwine", "702.42a"),
    _OptionalDef("replicate", "702.56a", repeatable=True),
    _OptionalDef(
        "conspire",
        "702.78a",
        needs_cost=False,
        fixed="Tap two untapped creatures you control that share a color with it",
    ),
    _OptionalDef("escalate", "702.120a", repeatable=True),
    _OptionalDef("casualty", "702.153a"),
    _OptionalDef("squad", "702.157a", repeatable=True),
    _OptionalDef(
        "bargain",
        "702.166a",
        needs_cost=False,
        fixed="Sacrifice an artifact, enchantment, or token",
    ),
    _OptionalDef("gift", "702.174a"),
    _OptionalDef("offspring", "702.175a"),
)

_KEYWORDS: Final = sorted(
    [(d.keyword, d) for d in _WAYS] + [(d.keyword, d) for d in _OPTIONAL], key=lambda kv: -len(kv[0])
)


@dataclass(frozen=True, slots=True)
class OtherCost:
    """A part of a cost that is not mana (CR 118.1): its text, and ``life`` when it is a life payment."""

    text: str
    life: int | None = None


@dataclass(frozen=True, slots=True)
class Way:
    """A way to cast the card that its text offers: the keyword, its rule, the zones it applies from, the
    mana part of its cost (None: the keyword's own, e.g. {3} face down or the mana cost for retrace) and
    the rest."""

    keyword: str
    rule: str
    kind: WayKind
    zones: tuple[str, ...]
    cost: ManaCost | None
    other_costs: tuple[OtherCost, ...]
    condition: str | None
    text: str
    x_at_least_one: bool = False  # "If you cast this spell this way, X can't be 0."
    reduction: CostEffect | None = None  # "This spell costs {X} less to cast this way, where X is ..."
    which: int | None = None  # the alternative costs written in the text ("alternative"), numbered from 1
    granted_by: str | None = None  # the permanent or effect granting it (CR 601.2b, 613), None: the card
    life_for_mana: bool = False  # life equal to the spell's mana value rather than its mana cost (118.9)
    once_per_turn: bool = False  # the grant allows one such spell each turn: whether it was used, not said
    sacrifice: str | None = None  # emerge, offering: the id of the permanent sacrificed (702.119a, 702.48a)


@dataclass(frozen=True, slots=True)
class OptionalCost:
    """An optional additional cost the card offers (CR 118.8, 601.2b): ``costs`` holds each of its forms
    (kicker's two-cost form has two, chosen by ``which``), each as (mana, other costs)."""

    keyword: str
    rule: str
    costs: tuple[tuple[ManaCost, tuple[OtherCost, ...]], ...]
    repeatable: bool
    text: str
    x_at_least_one: bool = False  # "Kicker {X}. X can't be 0."


@dataclass(frozen=True, slots=True)
class NotRead:
    """A keyword line whose cost could not be read: it is left out, and the answer warns."""

    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardWays:
    """What a card's text offers: ways to cast, optional additional costs, the additional costs it always
    has ("As an additional cost to cast this spell, sacrifice a creature.", CR 601.2b, 118.8: ``mandatory``,
    each with its forms when the caster chooses one) and the lines not read."""

    ways: tuple[Way, ...] = ()
    optional: tuple[OptionalCost, ...] = ()
    not_read: tuple[NotRead, ...] = ()
    mandatory: tuple[OptionalCost, ...] = ()
    extra_zones: tuple[tuple[str, str], ...] = ()  # (keyword, zone): "cast ~ from your graveyard using its
    # mutate ability" (CR 601.3)
    permissions: tuple[OwnPermission, ...] = ()  # its own permissions to be cast from another zone

    def way(self, keyword: str, which: int | None = None) -> Way | None:
        return next(
            (w for w in self.ways if w.keyword == keyword and (which is None or w.which == which)), None
        )

    def optional_cost(self, keyword: str) -> OptionalCost | None:
        return next((o for o in self.optional if o.keyword == keyword), None)


class _Unreadable(Exception):
    pass


def number_word(word: str) -> int | None:
    """ "3" or "three" (CR 107.1: numbers in rules text are whole numbers); None for anything else."""
    if word.isdigit() and len(word) <= 7:
        return int(word)
    return NUMBER_WORDS.get(word.casefold())


def _strip_reminder(line: str) -> str:
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


def _other(text: str) -> OtherCost:
    """A non-mana cost part; "Pay N life" carries its amount (CR 119.4)."""
    text = text.strip().rstrip(".")
    text = text[0].upper() + text[1:] if text else text
    words = text.split(" ")
    if len(words) == 3 and words[0] == "Pay" and words[2] == "life":
        n = number_word(words[1])
        if n is not None:
            return OtherCost(text, n)
    return OtherCost(text)


def _cost(text: str) -> tuple[ManaCost, tuple[OtherCost, ...]]:
    """A keyword's cost: "{1}{G}, Pay 3 life" -> ({1}{G}, [Pay 3 life]); a cost with no mana part is {0}."""
    text = text.strip().rstrip(".").strip()
    if not text:
        raise _Unreadable("no cost after the keyword")
    mana = ManaCost.zero()
    others: list[OtherCost] = []
    for i, part in enumerate(p.strip() for p in text.split(", ")):
        if part.startswith("{") and part.endswith("}") and i == 0:
            try:
                mana = ManaCost.parse(part)
            except RulesError as exc:
                raise _Unreadable(f"the cost {part!r} does not parse: {exc}") from exc
        elif part.startswith("{"):
            raise _Unreadable(f"mana in an unexpected place: {part!r}")
        else:
            others.append(_other(part))
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


def _read_line(line: str) -> tuple[Way | OptionalCost | NotRead | None, NotRead | None]:
    """What a keyword line defines and, when a sentence follows its cost ("Flashback {8}{G}{G}. This
    spell costs {X} less to cast this way, ..."), that sentence as not read (it is given no effect)."""
    for keyword, definition in _KEYWORDS:
        rest = _after_keyword(line, keyword)
        if rest is None:
            continue
        rest, _, after = rest.partition(". ")
        nonzero = after.casefold().rstrip(".") in _X_NOT_ZERO
        extra = NotRead(after, "a sentence after the keyword's cost: given no effect") if after else None
        try:
            built = _build(definition, line, rest)
        except _Unreadable as exc:
            return NotRead(line, str(exc)), None
        if nonzero:  # the restriction on X is read: the engine refuses X = 0 for this way or cost
            return replace(built, x_at_least_one=True), None
        reduction = _WAY_REDUCTIONS.get(after.casefold())
        if reduction is not None and isinstance(built, Way):
            return replace(built, reduction=replace(reduction, text=after)), None
        return built, extra
    return None, None


def _build(definition: _WayDef | _OptionalDef, line: str, rest: str) -> Way | OptionalCost:
    rest = rest.strip().rstrip(".").strip()
    forms: tuple[tuple[ManaCost, tuple[OtherCost, ...]], ...]
    if isinstance(definition, _WayDef):
        if definition.keyword == "suspend":
            rest = (
                ""  # "Suspend 4—{U}": the cost to suspend it from the hand, not a cost to cast it (702.62a)
            )
        elif rest.startswith("—"):
            rest = rest[1:]
        elif definition.keyword in ("awaken", "impending") and "—" in rest:
            rest = rest.split("—", 1)[1]  # "Awaken 3—{4}{U}": the number is not part of the cost
        elif definition.keyword == "prototype" and ("—" in rest or " - " in rest):
            rest = rest.replace(" - ", "—").split("—", 1)[0].strip()  # "Prototype {1}{R} — 3/2"
        if not definition.needs_cost:
            mana: ManaCost | None = None
            others: tuple[OtherCost, ...] = ()
            if rest:
                raise _Unreadable(f"{definition.keyword} takes no cost here")
        else:
            mana, others = _cost(rest)
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
    if definition.fixed is not None:
        if rest:
            raise _Unreadable(f"{definition.keyword} takes no cost here")
        forms = ((ManaCost.zero(), (OtherCost(definition.fixed),)),)
    elif definition.keyword == "casualty":
        n = number_word(rest.split(" ", 1)[0]) if rest else None
        if n is None and rest.casefold() != "x":
            raise _Unreadable("casualty without a number")
        what = "N" if n is None else str(n)
        forms = ((ManaCost.zero(), (OtherCost(f"Sacrifice a creature with power {what} or greater"),)),)
    elif definition.keyword == "gift":
        if not rest:
            raise _Unreadable("gift without what is given")
        forms = ((ManaCost.zero(), (OtherCost(f"Promise an opponent {rest}"),)),)
    else:
        if rest.startswith("—"):
            rest = rest[1:]
        forms = tuple(_cost(part) for part in rest.split(" and/or "))
    return OptionalCost(definition.keyword, definition.rule, forms, definition.repeatable, line)


def _lines(text: str) -> list[str]:
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
    return [line for line in (_strip_reminder(x) for x in out) if line]


def _keyword_at(text: str, i: int) -> bool:
    low = text[i : i + 30].casefold()
    return any(low.startswith(k) and _after_keyword(low, k) is not None for k, _d in _KEYWORDS)


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


def _mandatory(line: str) -> OptionalCost | NotRead | None:
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
            forms.append((ManaCost.zero(), (_other(form),)))
    sentence = line.split(". ", 1)[0].rstrip(".") + "."
    return OptionalCost("additional cost", "118.8", tuple(forms), False, sentence)


@lru_cache(maxsize=8192)
def _read_text(text: str) -> CardWays:
    ways: list[Way] = []
    optional: list[OptionalCost] = []
    not_read: list[NotRead] = []
    mandatory: list[OptionalCost] = []
    for line in _lines(text):
        if not line:
            continue
        extra_cost = _mandatory(line)
        if isinstance(extra_cost, OptionalCost):
            (optional if extra_cost.repeatable else mandatory).append(extra_cost)
            continue
        if isinstance(extra_cost, NotRead):
            not_read.append(extra_cost)
            continue
        found, extra = _read_line(line)
        if extra is not None:
            not_read.append(extra)
        if isinstance(found, Way):
            ways.append(found)
        elif isinstance(found, OptionalCost):
            optional.append(found)
        elif isinstance(found, NotRead):
            not_read.append(found)
    modal = _modal_costs(text)
    if isinstance(modal, OptionalCost):
        optional.append(modal)
    elif modal is not None:
        not_read.append(modal)
    offering = _offering(text)
    if offering is not None:
        ways.append(offering)
    return CardWays(tuple(ways), tuple(optional), tuple(not_read), tuple(mandatory))


# CR 702.172a spree ("Choose one or more modes"; each mode's "+ [cost] —" is an additional cost paid when it
# is chosen, 700.2h) and 702.183a tiered (choose one of them): each mode is a form of the optional cost,
# chosen by ``which`` (one entry per chosen mode).
_MODAL: Final = {"spree": "702.172a", "tiered": "702.183a"}


def _modal_costs(text: str) -> OptionalCost | NotRead | None:
    lines = [_strip_reminder(x) for x in text.split("\n")]
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
            forms.append(_cost(cost))
        except _Unreadable as exc:
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


def _offering(text: str) -> Way | None:
    """CR 702.48a: "[Quality] offering" lets the card be cast any time an instant could be, by sacrificing a
    [quality] permanent and paying the difference in mana costs (the total is reduced by the sacrificed
    permanent's mana cost, including color)."""
    for raw in text.split("\n"):
        line = _strip_reminder(raw)
        words = line.split(" ")
        if 2 <= len(words) <= 3 and words[-1].casefold() == "offering" and line[0].isupper():
            quality = " ".join(words[:-1])
            if quality.casefold() in ("artifact", "creature", "enchantment", "land", "planeswalker"):
                quality = quality.casefold()  # a card type is written in lowercase in a cost (CR 205.2a)
            article = "an" if quality[0].casefold() in "aeiou" else "a"
            return Way(
                "offering",
                "702.48a",
                WayKind.WITH_MANA_COST,
                ("hand",),
                None,
                (OtherCost(f"Sacrifice {article} {quality}"),),
                None,
                line,
            )
    return None


# -- the permanent emerge and offering sacrifice (CR 702.119, 702.48) ----------------------------------------

_SACRIFICE_KEYWORDS: Final = frozenset({"emerge", "offering"})


def with_sacrifice(board: Board, caster: str, face: Face, way: Way) -> Way:
    """Emerge and offering on this board: the way with the permanent it sacrifices, the cheapest one, and
    its reduction, as the engine offers it (``offered_ways``); any other way unchanged.

    - CR 702.119a: emerge is cast "by paying [cost] and sacrificing a creature rather than paying its mana
      cost", and "its total cost is reduced by an amount of generic mana equal to the sacrificed creature's
      mana value": the creature of greatest mana value is sacrificed (202.3b-c: a transformed permanent's
      from its front face, a melded one's its fronts' combined).
    - CR 702.48a: "[Quality] offering" means "As an additional cost to cast this spell, you may sacrifice a
      [quality] permanent. If you chose to pay the additional cost, this spell's total cost is reduced by
      the sacrificed permanent's mana cost"; 702.48c: its colored and colorless mana reduces mana of the same
      type, any excess generic: the permanent leaving the least mana value to pay is sacrificed.

    Only a permanent the caster controls can be sacrificed (CR 701.21a). With none, the way keeps the
    condition "if you control [a quality]", which the engine refuses under the way's rule (nothing silent).
    The choice is the cheapest; ``other_costs`` and the reduction's text name the permanent. ``face``: the
    spell's face, whose mana cost offering reduces."""
    if way.keyword not in _SACRIFICE_KEYWORDS or way.sacrifice is not None or not way.other_costs:
        return way
    from app.rules.text.ways_text import spell_kind  # the sentence reader imports this module

    what = way.other_costs[-1].text.removeprefix("Sacrifice ")  # "a creature", "a Snake", "an artifact"
    try:
        kind = spell_kind(what.casefold())
    except ValueError:  # the engine warns that this condition is not checked
        return replace(way, condition=f"a permanent to sacrifice ({what}) is on the board")
    mine = [p for p in board.permanents if p.controller == caster and kind.covers(p.characteristics)]
    if not mine:
        return replace(way, condition=f"if you control {what}")
    if way.keyword == "emerge":
        best = max(mine, key=lambda p: _sacrificed_value(p.card, p.characteristics))
        amount = ManaCost.of(int(_sacrificed_value(best.card, best.characteristics)))
        rule, says = "702.119a", "its mana value"
    else:
        spell = face.mana_cost if face.mana_cost is not None else ManaCost.zero()
        best = min(mine, key=lambda p: _left_after(spell, p.characteristics.mana_cost))
        amount = (best.characteristics.mana_cost or ManaCost.zero()).with_variables()  # X is 0 (107.3)
        rule, says = "702.48c", "its mana cost"
    named = f"Sacrifice {best.characteristics.name} ({best.id})"
    text = f"{way.text}: sacrifices {best.characteristics.name} ({best.id}), the cost reduced by {says}"
    reduction = None
    if not amount.is_zero:
        reduction = CostEffect(Direction.REDUCTION, amount, SpellFilter(), rule, text, own=True)
    return replace(
        way, other_costs=(*way.other_costs[:-1], OtherCost(named)), reduction=reduction, sacrifice=best.id
    )


def _sacrificed_value(card: Card, face: Face) -> int:
    """The mana value of a permanent with ``face`` up (CR 202.3; 202.3b: a nonmodal double-faced card's back
    face has its front's; 202.3c: a melded permanent's in ``Face.mana_value``); X counts 0 (202.3e)."""
    mv = card.front.mana_value if card.layout == "transform" and face is not card.front else face.mana_value
    return int(mv) if isinstance(mv, int | float) else 0


def _left_after(spell: ManaCost, sacrificed: ManaCost | None) -> float:
    """The mana value left of ``spell`` once reduced by ``sacrificed`` (CR 702.48c: generic reduces generic,
    each colored or colorless symbol the same symbol, any excess generic): to choose the cheapest."""
    if sacrificed is None:
        return float(spell.mana_value or 0)
    generic, others = spell.generic, list(spell.others)
    excess = sacrificed.with_variables().generic
    for sym in sacrificed.others:
        if sym in others:
            others.remove(sym)
        else:
            excess += int((sym.half_value or 0) / 2)
    left = ManaCost(spell.variables, max(0, generic - excess), tuple(others))
    return float(left.mana_value or 0)


@lru_cache(maxsize=8192)
def _read_face(name: str, text: str) -> CardWays:
    """The keyword lines, then the casting sentences that are not keywords (``ways_text``): alternative
    costs written in the text (CR 118.9) and permissions to be cast from another zone (CR 601.3)."""
    from app.rules.text.ways_text import read_own  # the sentence reader builds this module's values

    keywords = _read_text(text)
    own = read_own(name, text)
    if not (own.alternatives or own.permissions or own.not_read):
        return keywords
    ways = list(keywords.ways)
    extra: list[tuple[str, str]] = []
    plain: list[OwnPermission] = []
    for p in own.permissions:
        if p.keyword is not None:
            extra.append((p.keyword, p.zone))
        elif p.cost is not None:
            ways.append(
                Way(
                    "alternative",
                    "601.3",
                    WayKind.ALTERNATIVE,
                    (p.zone,),
                    p.cost,
                    p.other_costs,
                    p.condition,
                    p.text,
                    which=sum(1 for w in ways if w.keyword == "alternative") + 1,
                )
            )
        else:
            plain.append(p)
    ways.extend(
        replace(w, which=sum(1 for x in ways if x.keyword == "alternative") + 1) for w in own.alternatives
    )
    not_read = (
        *keywords.not_read,
        *(NotRead(t, "a sentence about casting it that is not read") for t in own.not_read),
    )
    return replace(
        keywords, ways=tuple(ways), not_read=not_read, extra_zones=tuple(extra), permissions=tuple(plain)
    )


def ways_of(face: Face) -> CardWays:
    """The ways to cast and optional costs that ``face``'s own text defines (cached per text)."""
    return _read_face(face.name, face.oracle_text)


def keyword_rule(keyword: str) -> str | None:
    """The CR 702 rule of a way-to-cast or optional-cost keyword, None for a word that is neither."""
    return next((d.rule for k, d in _KEYWORDS if k == keyword), None)


def is_way_reduction(sentence: str) -> bool:
    """Whether ``sentence`` is a reduction this reader attaches to the way before it ("This spell costs {X}
    less to cast this way, where X is ..."), so the cost-effect reader leaves it alone."""
    return sentence.casefold() in _WAY_REDUCTIONS


def way_keywords() -> tuple[str, ...]:
    """Every method keyword the reader knows (for the OpenAPI description and the coverage bench)."""
    return tuple(d.keyword for d in _WAYS)


def optional_keywords() -> tuple[str, ...]:
    return tuple(d.keyword for d in _OPTIONAL)


__all__ = [
    "ANY_NUMBER_COST",
    "CardWays",
    "NotRead",
    "OptionalCost",
    "OtherCost",
    "Way",
    "WayKind",
    "is_way_reduction",
    "keyword_rule",
    "modal_keyword",
    "optional_keywords",
    "way_keywords",
    "ways_of",
    "with_sacrifice",
]
