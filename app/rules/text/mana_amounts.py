"""What an "Add" instruction adds and how often: the values the mana reader builds (CR 106.1, 106.7), the
amounts it counts on the board ("for each", devotion, domain, power; CR 700.5, 305.6, 208.1) and the
conditions it checks (CR 602.5b "Activate only if", CR 614.1a "If ..., add ... instead")."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from app.rules.text.mana_filters import CONTROLLERS, Filter, parse_filter, subtype_word
from app.rules.values.names import NUMBER_WORDS

# --------------------------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Reference:
    """CR 106.7: "one mana of any type|color that <filter> could produce"."""

    what: str  # "type" or "color"
    filter: Filter


@dataclass(frozen=True, slots=True)
class ManaOption:
    """One way an "Add" can go: fixed mana, plus ``chosen`` mana of the chosen color, or a reference."""

    fixed: tuple[str, ...] = ()
    chosen: int = 0
    reference: Reference | None = None


@dataclass(frozen=True, slots=True)
class Condition:
    """A condition read on the board: an activation restriction (CR 602.5b "Activate only if ...") or the
    "if" of an "... instead" within an ability (CR 614.1a).

    ``kind``: ``control`` (each of ``needs``, a filter and a minimum count, is met by the permanents its
    controller controls), ``modified`` (CR 700.9: it has a counter, an Equipment or an Aura its controller
    controls attached), ``never`` (a condition no permanent meets, "As long as ~ is in your graveyard"),
    ``total_power`` (the permanents of ``needs`` have that total power, CR 208.1), ``counter`` (it has a
    counter of that kind, CR 122.1),
    ``your_turn`` ("only during your turn", CR 505.1), ``not_your_turn`` ("if it's not your turn"),
    ``cards`` (the number of cards in its controller's ``zone``, hand or graveyard, is at least
    ``at_least`` and at most ``at_most``: threshold "seven or more cards are in your graveyard", hellbent
    "you have no cards in hand", CR 402.1, 404.1), ``counters`` (the number of ``counter`` counters on
    the permanent itself is between ``at_least`` and ``at_most``, CR 122.1), ``player_counters`` (an
    opponent has at least ``at_least`` ``counter`` counters, corrupted's poison, CR 122.1), ``timing`` (a
    timing restriction, "as a sorcery", "once each turn", "once": not a board fact, CR 307.1, 602.5d; no
    earlier activation is on the board), or ``unknown`` (kept as text; the board reader warns and assumes
    it is not met).
    """

    text: str
    kind: str
    needs: tuple[tuple[Filter, int], ...] = ()
    zone: str = ""
    at_least: int = 0
    at_most: int | None = None
    counter: str = ""


@dataclass(frozen=True, slots=True)
class Amount:
    """How many times an "Add" happens, read from the board: "for each <filter>", "equal to the number of
    <filter>", devotion (CR 700.5; ``devotion == ("*",)``: to the color of the mana chosen, Nykthos),
    domain (the number of basic land types among lands you control, CR 305.6), counters on the
    permanent itself (``counter``), power (CR 208.1), the life total (CR 119.1) or the party (CR 700.8).
    ``fixed`` is a plain number."""

    text: str
    filter: Filter | None = None
    devotion: tuple[str, ...] = ()
    domain: bool = False
    counter: str | None = None
    fixed: int | None = None
    power: str | None = None
    """CR 208.1: ``"self"`` ("~'s power") or ``"greatest"`` ("the greatest power among <filter>")."""
    life: bool = False
    """CR 119.1: "your life total"."""
    party: bool = False
    """CR 700.8: "creature in your party"."""
    opponents_life_lost: bool = False
    """CR 500.1: the life the controller's opponents lost this turn (the board's this-turn facts)."""
    cost_value: bool = False
    """CR 202.3: "the sacrificed artifact's mana value", "the exiled creature's": of what its cost takes."""
    offset: int = 0
    """Added to the amount read ("X plus one"; "Add {B}, then add an additional {B} for each ...")."""


@dataclass(frozen=True, slots=True)
class ManaEffect:
    """What an "Add ..." instruction adds. ``count`` multiplies every option ("{G} for each creature you
    control"); ``undefined`` names the rule under which it adds nothing (CR 106.5, 903.4f); ``restriction``
    is a spending restriction (CR 106.6: it does not change the mana's type); ``instead`` is what it adds
    when a condition holds ("If you control an Urza's Mine and an Urza's Tower, add {C}{C} instead",
    CR 614.1a); ``commander`` marks "any color in your commander's color identity" (CR 903.4); ``split`` and
    ``colors_of`` are described below."""

    options: tuple[ManaOption, ...]
    count: Amount | None = None
    undefined: str | None = None
    restriction: str | None = None
    instead: tuple[Condition, ManaEffect] | None = None
    commander: bool = False
    split: tuple[str, ...] = ()
    """ "X mana in any combination of {R} and/or {G}": the ``count`` is split in any way among these
    types (each option is then one of them)."""
    cost_of: Filter | None = None
    """ "mana equal to enchanted permanent's mana cost" (Elemental Resonance): each symbol of that cost as
    mana, one of its colors for a symbol of several, generic as colorless (CR 202.1, 107.4)."""
    colors_of: tuple[str, tuple[Filter, ...] | None] | None = None
    """CR 105.2: the colors of permanents: ``("any", filter)`` "one mana of any color among <filter>",
    ``("each", filter)`` "one mana of each color among <filter>"; a None filter is the permanent itself
    ("one mana of any of this creature's colors")."""


_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}


def parse_amount(text: str) -> Amount | None:
    """ "the number of Elves you control", "your devotion to black", "charge counter on ~", "creature you
    control" (after "for each"), "~'s power", "your life total", "X plus one". None when the amount is not
    one read here."""
    text = text.strip()
    if m := re.fullmatch(r"(.+) plus (one|two|three|\d+)", text):
        base = parse_amount(m.group(1))
        extra = NUMBER_WORDS.get(m.group(2)) if not m.group(2).isdigit() else int(m.group(2))
        if base is None or extra is None:
            return None
        return replace(base, text=text, offset=base.offset + extra)
    if text.startswith("the number of basic land types among lands you control"):
        return Amount(text, domain=True)
    if m := re.fullmatch(
        r"your devotion to ((?:white|blue|black|red|green)(?: and (?:white|blue|black|red|green))?)", text
    ):
        return Amount(text, devotion=tuple(_COLOR_WORDS[w] for w in m.group(1).split(" and ")))
    if text == "your devotion to that color":
        return Amount(text, devotion=("*",))
    if text in {"~'s power", "~’s power"}:
        return Amount(text, power="self")
    if m := re.fullmatch(r"the greatest power among (.+)", text):
        flt = parse_filter(m.group(1))
        return None if flt is None else Amount(text, filter=flt, power="greatest")
    if m := re.fullmatch(r"(?:(one|two|\d+) plus )?the (?:sacrificed|exiled) [a-z]{1,20}'s mana value", text):
        plus = m.group(1)
        extra = 0 if plus is None else int(plus) if plus.isdigit() else NUMBER_WORDS[plus]
        return Amount(text, cost_value=True, offset=extra)
    if text == "1 life your opponents have lost this turn":
        return Amount(text, opponents_life_lost=True)
    if text == "your life total":
        return Amount(text, life=True)
    if text == "creature in your party":
        return Amount(text, party=True)
    if m := re.fullmatch(r"(?:the number of )?([a-z+/\-0-9]+) counters? on ~", text):
        return Amount(text, counter=m.group(1))
    if m := re.fullmatch(r"the number of (.+)", text):
        text = m.group(1)
    flt = parse_filter(text)
    return None if flt is None else Amount(text, filter=flt)


# Anchored (they are used with fullmatch): a search would try each "if " against the rest of the text.
_TIMING_TAIL: Final = re.compile(r"^(if .+?) and only (?:as a sorcery|once each turn)")
_TIMING_HEAD: Final = re.compile(r"^(?:once|once each turn|as a sorcery) and only (if .+)")


def parse_condition(text: str) -> Condition:
    """The condition of "Activate only ..." (without those words) or of an "If ..., ... instead"."""
    text = text.strip().rstrip(".")
    if m := _TIMING_TAIL.fullmatch(text):  # "if ... and only as a sorcery" (Temple of Cultivation):
        return replace(parse_condition(m.group(1)), text=text)  # the timing part is no board fact (602.5d)
    if m := _TIMING_HEAD.fullmatch(text):  # "once and only if you control ..." (Urza's Fun House)
        return replace(parse_condition(m.group(1)), text=text)
    body = text.removeprefix("if ").removeprefix("If ")
    if text in {"during your turn"}:
        return Condition(text, "your_turn")
    if body == "it's not your turn":  # Ghost Town (CR 505.1: whose turn it is)
        return Condition(text, "not_your_turn")
    if (cards := _cards_condition(text, body)) is not None:
        return cards
    if re.fullmatch(
        r"(?:as a sorcery|as an instant|once each turn|once)(?: and only (?:as a sorcery|once each turn))?",
        text,
    ):
        return Condition(text, "timing")
    if m := re.fullmatch(r"(.+) have total power (\w+) or greater", body):
        flt, n = parse_filter(m.group(1)), NUMBER_WORDS.get(m.group(2), None)
        if n is None and m.group(2).isdigit():
            n = int(m.group(2))
        if flt is not None and n is not None:  # formidable (CR 208.1: their powers added up)
            return Condition(text, "total_power", ((flt, n),))
    if m := re.fullmatch(r"~ has an? ([a-z+/\-0-9]{1,20}) counter on it", body):
        return Condition(text, "counter", ((Filter(itself=True, counter=m.group(1)), 1),))
    if m := re.fullmatch(r"you control (.+)", body):
        needs: list[tuple[Filter, int]] = []
        for part in m.group(1).split(" and "):
            need = _control_need(part.strip())
            if need is None:
                return Condition(text, "unknown")
            needs.append(need)
        return Condition(text, "control", tuple(needs))
    return Condition(text, "unknown")


def _cards_condition(text: str, body: str) -> Condition | None:
    """ "seven or more cards are in your graveyard" (threshold), "you have no cards in hand" (hellbent),
    "you have exactly seven cards in hand": a count of the controller's cards in a zone (CR 402.1, 404.1);
    "there are three or more brick counters on ~", "it has no time counters on it" (CR 122.1)."""
    if m := re.fullmatch(r"(\w+) or more cards are in your graveyard", body):
        n = NUMBER_WORDS.get(m.group(1))
        return None if n is None else Condition(text, "cards", zone="graveyard", at_least=n)
    if m := re.fullmatch(r"there are (\w+) or more ([a-z+/\-0-9]{1,20}) counters on ~", body):
        n = NUMBER_WORDS.get(m.group(1))  # Pyramid of the Pantheon (CR 122.1)
        return None if n is None else Condition(text, "counters", at_least=n, counter=m.group(2))
    if m := re.fullmatch(r"it has no ([a-z+/\-0-9]{1,20}) counters on it", body):  # Temple of Cyclical Time
        return Condition(text, "counters", at_most=0, counter=m.group(1))
    if m := re.fullmatch(r"an opponent has (\w+) or more ([a-z]{1,20}) counters", body):
        n = NUMBER_WORDS.get(m.group(1))  # corrupted: poison counters on a player (CR 122.1, 104.3d)
        return None if n is None else Condition(text, "player_counters", at_least=n, counter=m.group(2))
    if body == "you have no cards in hand":
        return Condition(text, "cards", zone="hand", at_most=0)
    if m := re.fullmatch(r"you have exactly (\w+) cards? in hand", body):
        n = NUMBER_WORDS.get(m.group(1))
        return None if n is None else Condition(text, "cards", zone="hand", at_least=n, at_most=n)
    return None


def _control_need(part: str) -> tuple[Filter, int] | None:
    """ "three or more artifacts", "an Island", "an Urza's Power-Plant" → (filter, at least n)."""
    n = 1
    if m := re.fullmatch(r"(\w+) or more (.+)", part):
        count = NUMBER_WORDS.get(m.group(1))
        if count is None:
            return None
        n, part = count, m.group(2)
    elif m := re.fullmatch(r"(?:a|an) (.+)", part):
        part = m.group(1)
    if m := re.fullmatch(r"Urza['’]s ([A-Za-z-]+)", part):
        sub = subtype_word(m.group(1))
        if sub is None:
            return None
        return Filter(types=("Land",), all_subtypes=("Urza's", sub), controller="you"), n
    color = None
    if m := re.fullmatch(r"(white|blue|black|red|green) (.+)", part):  # CR 105.2: "two or more black
        color, part = _COLOR_WORDS[m.group(1)], m.group(2)  # permanents" (Leechridden Swamp)
    flt = parse_filter(part)
    return None if flt is None else (replace(flt, controller="you", color=color), n)


def filters_and(phrase: str) -> tuple[Filter, ...] | None:
    """ "legendary creatures and planeswalkers you control": the permanents either names (the controller
    phrase belongs to both)."""
    if (one := parse_filter(phrase)) is not None:
        return (one,)
    suffix = next((s for s, _who in CONTROLLERS if phrase.endswith(s)), "")
    parts = phrase[: len(phrase) - len(suffix)].split(" and ")
    if len(parts) != 2:
        return None
    found = tuple(parse_filter(p + suffix) for p in parts)
    return tuple(f for f in found if f is not None) if all(f is not None for f in found) else None
