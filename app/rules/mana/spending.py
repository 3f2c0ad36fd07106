"""How mana may be spent on a cost: the spell's own spending rules (CR 106.6, 601.2h) and "as though"
effects (CR 609.4b), applied to the cost the payment solver is given.

The solver matches units of mana onto the cost's symbols by the mana each symbol accepts. Both kinds of
text change only which mana a symbol accepts, never the cost (CR 609.4b: "It doesn't change that cost"), so
both are applied by rewriting each symbol into one that accepts exactly the mana that may now pay it. The
rewritten symbol keeps the printed symbol's text, so a plan still names the symbol of the cost it paid.

- **The spell's own rules.** "Spend only black mana on X" (Consume Spirit), "Spend only black and/or red mana
  on X" (Soul Burn), "Spend only colored mana on X" (Emblazoned Golem): the generic mana that X stands for
  accepts only those colors. Should a reduction have taken generic mana off the total, the X part is taken
  as what is left of it, at most (the strict reading: a plan paying it is legal on any reading).
  "Spend only mana produced by basic lands to cast this spell" (Imperiosaur), "... by creatures" (Myr
  Superion), "... by Treasures to cast it this way" (Security Rhox, its alternative cost only): only
  sources that are such permanents pay; mana already in the pool is of unknown origin and is not used.
- **"As though".** "You may spend mana as though it were mana of any color" (Chromatic Orrery), "Players may
  ..." (Mycosynth Lattice: every player), "... of any type" (also {C}), "You may spend white mana as though
  it were mana of any color" with "You may spend other mana only as though it were colorless mana"
  (Celestial Dawn), "You may spend white mana as though it were red mana" (Sunglasses of Urza), and each of
  those limited "to cast creature spells" and the like (Vizier of the Menagerie, Oath of Nissa), read as a
  spending restriction of the spell (``restrictions.spell_meets``). Each type of mana may be spent as a
  set of types (its own, or what the effects add; only colorless under "only as though"); a symbol then
  accepts every type one of whose "as" types it accepts. Generic mana accepts any type anyway; {S} still
  needs mana from a snow source (CR 107.4h); a Phyrexian symbol keeps its 2 life; {2/X} keeps its own
  rule (the stricter reading).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.mana.ability_values import PermanentState, Warning
from app.rules.mana.payment_values import ManaSource
from app.rules.mana.restrictions import Casting, spell_meets
from app.rules.values.board import Choices
from app.rules.values.cards import Face
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import COLORS, MANA_TYPES, ManaSymbol, SymbolKind

_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "C"}
_ORDER: Final = {t: i for i, t in enumerate(MANA_TYPES)}

# -- the spell's own spending rules ----------------------------------------------------------------------

_ON_X: Final = re.compile(
    r"(?:^|(?<=\. ))Spend only (?P<what>(?:white|blue|black|red|green|colored)"
    r"(?: and/or (?:white|blue|black|red|green))*) mana on X\.",
    re.MULTILINE,
)
_PRODUCED_BY: Final = re.compile(
    r"(?:^|(?<=\. ))Spend only mana produced by (?P<kind>[A-Za-z ]+?) to cast "
    r"(?P<what>this spell|it this way)\.",
    re.MULTILINE,
)
_ANY_SPEND_ONLY: Final = re.compile(r"(?:^|(?<=\. ))Spend only [^.\n]*\.", re.MULTILINE)
_EACH_COLOR_ONCE: Final = "No more than one mana of each color may be spent this way."
"""Emblazoned Golem: each mana spent on X of another color; not a symbol's rule, so not applied (warned)."""

# The permanents a "produced by" rule names: (card types, subtypes, supertypes) each of which must hold.
_KINDS: Final[dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]]] = {
    "basic lands": (frozenset({"Land"}), frozenset(), frozenset({"Basic"})),
    "lands": (frozenset({"Land"}), frozenset(), frozenset()),
    "creatures": (frozenset({"Creature"}), frozenset(), frozenset()),
    "artifacts": (frozenset({"Artifact"}), frozenset(), frozenset()),
    "Treasures": (frozenset(), frozenset({"Treasure"}), frozenset()),
    "snow permanents": (frozenset(), frozenset(), frozenset({"Snow"})),
    "snow sources": (frozenset(), frozenset(), frozenset({"Snow"})),
}


@dataclass(frozen=True, slots=True)
class SpellSpending:
    """The spending rules printed on a spell (CR 106.6, 601.2h), as read from its text.

    ``on_x``: the types the mana spent on X may be (None: no such rule); ``produced_by``: the kind of
    permanent whose mana alone may pay (None: any), with ``this_way`` when it holds only for the card's
    alternative cost ("to cast it this way"); ``texts``: the sentences read; ``unread``: "Spend only"
    sentences of the spell not understood (the caller warns)."""

    on_x: frozenset[str] | None = None
    produced_by: str | None = None
    this_way: bool = False
    texts: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return self.on_x is None and self.produced_by is None


def spell_spending(face: Face) -> SpellSpending:
    """The spending rules of ``face``'s text (reminder text is parenthesized, never a sentence here)."""
    text = face.oracle_text
    if "Spend only" not in text:
        return SpellSpending()
    on_x: frozenset[str] | None = None
    produced: str | None = None
    this_way = False
    read: list[str] = []
    for m in _ON_X.finditer(text):
        words = m.group("what").split(" and/or ")
        on_x = frozenset(COLORS) if words == ["colored"] else frozenset(_COLOR_WORDS[w] for w in words)
        read.append(m.group(0))
    for m in _PRODUCED_BY.finditer(text):
        if m.group("kind") in _KINDS:
            produced = m.group("kind")
            this_way = m.group("what") == "it this way"
            read.append(m.group(0))
    unread = tuple(
        m.group(0)
        for m in _ANY_SPEND_ONLY.finditer(text)
        if m.group(0) not in read and not m.group(0).startswith("Spend only mana of the chosen color")
    )
    if on_x is not None and _EACH_COLOR_ONCE in text:
        unread = (*unread, _EACH_COLOR_ONCE)
    return SpellSpending(on_x, produced, this_way, tuple(read), unread)


def produced_by_matches(
    kind: str, types: tuple[str, ...], subtypes: tuple[str, ...], supers: tuple[str, ...]
) -> bool:
    """CR 106.6: whether a permanent of these types is of the kind a "produced by" rule names."""
    need_types, need_subtypes, need_supers = _KINDS[kind]
    return need_types <= set(types) and need_subtypes <= set(subtypes) and need_supers <= set(supers)


def restrict_x(cost: ManaCost, colors: frozenset[str], amount: int) -> ManaCost:
    """CR 601.2h: ``amount`` of ``cost``'s generic mana (what X stands for) accepts only ``colors``; each such
    unit is a symbol of its own, written ``{1}`` as the generic mana it is."""
    k = min(amount, cost.generic)
    if k <= 0:
        return cost
    sym = _symbol("{1}", SymbolKind.HYBRID, frozenset(colors))
    return ManaCost(cost.variables, cost.generic - k, (*cost.others, *([sym] * k)))


# -- "as though" -----------------------------------------------------------------------------------------

_AS_THOUGH: Final = re.compile(
    r"(?:^|(?<=\. ))(?P<who>You|Players) may spend (?:(?P<mana>white|blue|black|red|green|colorless) )?"
    r"mana as though it were (?:mana of any (?P<any>color|type)|(?P<as>white|blue|black|red|green) mana)"
    r"(?: to cast (?P<spells>[^.\n]+?))?\.",
    re.MULTILINE,
)
_ONLY_AS_COLORLESS: Final = re.compile(
    r"(?:^|(?<=\. ))You may spend other mana only as though it were colorless mana\.", re.MULTILINE
)


@dataclass(frozen=True, slots=True)
class AsThough:
    """One "as though" effect (CR 609.4b) of a permanent: ``mana`` (a type, None: any mana) may be spent as
    though it were any type of ``as_types``; ``only`` when it is "other mana only as though it were
    colorless" (every type but ``mana`` is spent as colorless only); ``all_players`` for "Players may";
    ``spells``: the spells it is limited to ("creature spells"), None for any cost."""

    permanent: str
    text: str
    mana: str | None
    as_types: frozenset[str]
    all_players: bool = False
    spells: str | None = None
    only: bool = False


def read_as_though(permanent: str, text: str) -> tuple[AsThough, ...]:
    """The "as though" effects of one permanent's text (CR 609.4b)."""
    if "as though it were" not in text:
        return ()
    out: list[AsThough] = []
    for m in _AS_THOUGH.finditer(text):
        mana = _COLOR_WORDS[m.group("mana")] if m.group("mana") else None
        kind = m.group("any")
        as_types = (
            frozenset(COLORS)
            if kind == "color"
            else frozenset(MANA_TYPES)
            if kind == "type"
            else frozenset({_COLOR_WORDS[m.group("as")]})
        )
        out.append(
            AsThough(permanent, m.group(0), mana, as_types, m.group("who") == "Players", m.group("spells"))
        )
        only = _ONLY_AS_COLORLESS.search(text)
        if only is not None and mana is not None:
            out.append(AsThough(permanent, only.group(0), mana, frozenset({"C"}), only=True))
    return tuple(out)


def applies_to(effect: AsThough, spell: Face | None, chosen: Choices, casting: Casting | None) -> bool | None:
    """Whether ``effect`` reaches this payment: any cost when it names no spells; else a spell it names
    (CR 106.6 wording, ``spell_meets``); None when that is not decided (warned by the caller)."""
    if effect.spells is None:
        return True
    if spell is None:
        return False
    return spell_meets(f"Spend this mana only to cast {effect.spells}.", spell, chosen, casting)


def spent_as(effects: tuple[AsThough, ...]) -> dict[str, frozenset[str]]:
    """For each mana type, the types it may be spent as under ``effects`` (CR 609.4b)."""
    out = {t: frozenset({t}) for t in MANA_TYPES}
    only = [e for e in effects if e.only]
    for e in effects:
        if e.only:
            continue
        for t in MANA_TYPES if e.mana is None else (e.mana,):
            out[t] = out[t] | e.as_types
    for e in only:  # "other mana only as though it were colorless" (Celestial Dawn)
        for t in MANA_TYPES:
            if t != e.mana:
                out[t] = frozenset({"C"})
    return out


def apply_as_though(cost: ManaCost, effects: tuple[AsThough, ...]) -> ManaCost:
    """``cost`` with each symbol accepting the mana ``effects`` let pay it (CR 609.4b); the same cost when no
    effect changes a symbol. Generic mana, {S} and {2/X} are as they were."""
    if not effects:
        return cost
    as_of = spent_as(effects)
    others: list[ManaSymbol] = []
    changed = False
    for sym in cost.others:
        accepted = _accepts(sym)
        if accepted is None:
            others.append(sym)
            continue
        new = frozenset(t for t in MANA_TYPES if as_of[t] & accepted)
        if new == accepted:
            others.append(sym)
            continue
        changed = True
        if sym.kind in (SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
            others.append(_symbol(sym.text, SymbolKind.PHYREXIAN, new))
        else:
            others.append(_symbol(sym.text, SymbolKind.HYBRID, new))
    return ManaCost(cost.variables, cost.generic, tuple(others)) if changed else cost


def _accepts(sym: ManaSymbol) -> frozenset[str] | None:
    """The mana types a symbol accepts (CR 107.4), None for those left as they are (generic, {S}, {2/X},
    {∞}, a colorless half)."""
    kind = sym.kind
    if kind in (SymbolKind.COLORED, SymbolKind.HYBRID, SymbolKind.PHYREXIAN, SymbolKind.HYBRID_PHYREXIAN):
        return frozenset(sym.colors)
    if kind is SymbolKind.COLORLESS:
        return frozenset({"C"})
    if kind is SymbolKind.COLORLESS_HYBRID:
        return frozenset({*sym.colors, "C"})
    if kind is SymbolKind.HALF and sym.colors:
        return frozenset(sym.colors)
    return None


def _symbol(text: str, kind: SymbolKind, accepted: frozenset[str]) -> ManaSymbol:
    """A symbol accepting exactly ``accepted`` (the solver reads a hybrid's colors as the types it takes,
    colorless included), written as ``text``."""
    colors = tuple(sorted(accepted, key=_ORDER.__getitem__))
    return ManaSymbol(text, kind, colors)


_SPEND_AS_THOUGH: Final = "spend mana as though it were"


def _as_though_sentences(text: str) -> list[str]:
    """The sentences of ``text`` that speak of spending mana as though (split on line ends and ". ", in
    linear time: no pattern scanned from every character)."""
    out: list[str] = []
    for line in text.split("\n"):
        if _SPEND_AS_THOUGH not in line:
            continue
        for part in line.split(". "):
            if _SPEND_AS_THOUGH in part:
                out.append(part if part.endswith(".") else part + ".")
    return out


def _unread_for_cards(st: PermanentState) -> list[Warning]:
    """Nothing silent: "... you may spend mana as though it were mana of any color to cast that spell"
    (Gonti, Hostage Taker, Robber of the Rich) reaches the card it exiled, which the request cannot name: for
    a spell cast from another zone than the hand, each such sentence not read is said."""
    text = st.face.oracle_text
    if "as though it were" not in text:
        return []
    read = {e.text for e in read_as_though(st.id, text)}
    return [
        Warning(st.id, sentence, "not applied: whether this spell is the card it names is unknown")
        for sentence in _as_though_sentences(text)
        if sentence not in read and "activat" not in sentence
    ]


def board_as_though(
    states: tuple[PermanentState, ...], player: str, spell: Face | None, casting: Casting | None
) -> tuple[tuple[AsThough, ...], tuple[Warning, ...]]:
    """The "as though" effects of the board that reach ``player`` paying for ``spell`` (None: a cost that
    is not a spell's): "You may ..." of the player's own permanents, "Players may ..." of any permanent
    (CR 609.4b), a permanent that lost its abilities giving none (CR 613.1f). An effect limited to spells
    the spell may or may not be (not decided: a chosen number or name not given) is not applied, with a
    warning."""
    found: list[AsThough] = []
    warnings: list[Warning] = []
    elsewhere = spell is not None and casting is not None and casting.cast_from != "hand"
    for st in states:
        if st.lost_own_abilities:
            continue
        if elsewhere and st.controller == player:
            warnings.extend(_unread_for_cards(st))
        for effect in read_as_though(st.id, st.face.oracle_text):
            if st.controller != player and not effect.all_players:
                continue
            reaches = applies_to(effect, spell, st.permanent.chosen, casting)
            if reaches is None:
                warnings.append(
                    Warning(st.id, effect.text, "whether it reaches this spell is not decided: not applied")
                )
            elif reaches:
                found.append(effect)
    return tuple(found), tuple(warnings)


@dataclass(frozen=True, slots=True)
class Spending:
    """How a payment spends mana: the cost as the solver pays it (``paid``: each symbol accepting what may
    pay it), the sources that may pay (``produced_by``: only those of that kind; None: all), and what was
    read or not (``applied``: the sentences applied, ``warnings``)."""

    paid: ManaCost
    produced_by: str | None
    applied: tuple[str, ...]
    warnings: tuple[Warning, ...]


def spending_for(
    cost: ManaCost,
    states: tuple[PermanentState, ...],
    player: str,
    spell: Face | None = None,
    casting: Casting | None = None,
    x_spent: int = 0,
    alternative: bool = False,
) -> Spending:
    """CR 601.2h, 106.6, 609.4b: the cost ``player`` pays for ``spell`` (None: a cost that is not a spell's)
    with the spell's own spending rules (``x_spent``: the mana X stands for in the total; ``alternative``:
    it is cast by its alternative cost, for "to cast it this way") and the board's "as though" effects."""
    paid = cost
    applied: list[str] = []
    warnings: list[Warning] = []
    produced: str | None = None
    if spell is not None:
        own = spell_spending(spell)
        if own.on_x is not None and x_spent > 0:
            paid = restrict_x(paid, own.on_x, x_spent)
        if own.produced_by is not None and (alternative or not own.this_way):
            produced = own.produced_by
        applied.extend(own.texts)
        warnings.extend(
            Warning(spell.name, t, "spending rule not understood: not applied (CR 106.6)") for t in own.unread
        )
    effects, unsure = board_as_though(states, player, spell, casting)
    paid = apply_as_though(paid, effects)
    applied.extend(e.text for e in effects)
    warnings.extend(unsure)
    return Spending(paid, produced, tuple(applied), tuple(warnings))


def only_produced_by(
    sources: tuple[ManaSource, ...], states: tuple[PermanentState, ...], kind: str
) -> tuple[ManaSource, ...]:
    """CR 106.6: "Spend only mana produced by [kind] to cast this spell": only the sources that are such
    permanents pay (convoke, improvise and delve, listed with negative ability numbers, pay no mana and
    stay); a card in a zone (Elvish Spirit Guide in the hand) is no permanent."""
    by_id = {st.id: st for st in states}
    kept: list[ManaSource] = []
    for src in sources:
        st = by_id.get(src.permanent)
        if src.ability < 0 or (
            st is not None and produced_by_matches(kind, st.types, st.subtypes, st.supertypes)
        ):
            kept.append(src)
    return tuple(kept)
