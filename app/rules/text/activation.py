"""Activation costs beyond {T}, {Q} and mana: what each part consumes (CR 602.2b, 118.3).

``mana_activated.parse_cost`` splits an activation cost on commas; the parts it keeps as text ("other") and
the sacrifices whose object it could not read come here, and every part that is not {T}, {Q}, mana or
loyalty becomes a ``Need``: the resource it consumes, how many, and from where. Each sentence shape is a
template of ``registry("activation")`` (named, with its rule and real examples, listed by
``tests/rules/text/test_templates.py``); a part no template reads is a ``Need`` of kind ``unknown``, which
the payment solver never pays and the analysis names in its warnings.

Templates match the part lower-cased with the card's name as ``~``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from app.rules.bounded_cache import text_cache
from app.rules.text.mana_activated import CostPart
from app.rules.text.mana_filters import Filter, parse_filter
from app.rules.text.templates import registry
from app.rules.values.names import NUMBER_WORDS
from app.rules.values.symbols import COLORS

_COLOR_WORDS: Final = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_N: Final = r"(?P<n>an?|one|two|three|four|five|six|seven|eight|nine|ten|\d{1,3})"

ACTIVATION = registry("activation")

_REMOVE = ACTIVATION.add(
    "remove-counters-self",
    r"remove " + _N + r" (?P<kind>[a-z+/\-0-9]{1,20}) counters? from (?:~|this [a-z]{1,20})$",
    rule="118.3",
    examples=(
        "remove a charge counter from ~",  # Vivid Crag, Pentad Prism
        "remove a depletion counter from ~",  # Remote Farm
        "remove a mining counter from ~",  # Gemstone Mine
        "remove three +1/+1 counters from ~",  # Runaway Steam-Kin
    ),
    yields="remove_counters: that many counters of that kind from the permanent itself",
)
_TAP = ACTIVATION.add(
    "tap-untapped-you-control",
    r"tap " + _N + r" untapped (?P<what>.{1,60}?) you control$",
    rule="118.3",
    examples=(
        "tap an untapped creature you control",  # Springleaf Drum
        "tap two untapped elves you control",  # Birchlore Rangers
        "tap three untapped elves you control",  # Heritage Druid
        "tap an untapped artifact or creature you control",  # Moonsnare Prototype
        "tap an untapped blue creature you control",  # Grand Architect
    ),
    yields="tap: that many untapped permanents of that kind its controller controls (any of them, CR 302.6 "
    "does not apply: no {T} of theirs is paid)",
)
_SACRIFICE = ACTIVATION.add(
    "sacrifice-another",
    r"sacrifice " + _N + r" (?P<what>.{1,60})$",
    rule="701.21a",
    examples=(
        "sacrifice a creature",  # Ashnod's Altar, Phyrexian Altar
        "sacrifice a prism token",  # Diamond Kaleidoscope
        "sacrifice an artifact",  # Krark-Clan Ironworks
        "sacrifice a black or artifact creature",  # Soldevi Adnate
        "sacrifice a forest",  # Goblin Clearcutter
    ),
    yields="sacrifice: that many permanents of that kind its controller controls",
)
_DISCARD_HAND = ACTIVATION.add(
    "discard-hand",
    r"discard your hand$",
    rule="118.3",
    examples=("discard your hand",),  # Diamond Lion (payable with an empty hand)
    yields="discard_hand: every card in hand, any number (none too)",
)
_DISCARD = ACTIVATION.add(
    "discard-cards",
    r"discard " + _N + r" cards?$",
    rule="118.3",
    examples=("discard a card",),  # Bog Witch
    yields="discard: that many cards from its controller's hand",
)
_EXILE_CARDS = ACTIVATION.add(
    "exile-cards-from-zone",
    r"exile " + _N + r" cards? from your (?P<zone>graveyard|hand)$",
    rule="118.3",
    examples=("exile a card from your graveyard", "exile a card from your hand"),  # Titans' Nest
    yields="exile_cards: that many cards from its controller's graveyard or hand",
)
_EXILE_SELF_ZONE = ACTIVATION.add(
    "exile-self-from-zone",
    r"exile ~ from your (?P<zone>hand|graveyard)$",
    rule="113.6m",
    examples=(
        "exile ~ from your hand",
        "exile ~ from your graveyard",
    ),  # Elvish Spirit Guide, Jack-o'-Lantern
    yields="exile_self: the card itself, from that zone (the ability works only there, CR 113.6m)",
)
_RETURN_SELF = ACTIVATION.add(
    "return-self",
    r"return ~ to its owner's hand$",
    rule="118.3",
    examples=("return ~ to its owner's hand",),  # Grinning Ignus
    yields="return_self: the permanent leaves the battlefield",
)
_RETURN = ACTIVATION.add(
    "return-permanent",
    r"return " + _N + r" (?P<what>.{1,60}?) you control to (?:its|their) owner's hand$",
    rule="118.3",
    examples=("return a land you control to its owner's hand",),  # Scryb Ranger-like costs
    yields="return: that many permanents of that kind its controller controls leave the battlefield",
)


@dataclass(frozen=True, slots=True)
class Pick:
    """Which permanents a cost may use: any of ``alternatives``, each a filter and the colors the
    permanent must all have ("an untapped blue creature"). ``token``: the text says "token" (a Prism
    token); the board cannot tell a token from a card, so a permanent of that kind is taken as one."""

    alternatives: tuple[tuple[Filter, tuple[str, ...]], ...]
    token: bool = False


@dataclass(frozen=True, slots=True)
class Need:
    """One non-mana part of an activation cost: ``kind`` is remove_counters, tap, sacrifice,
    sacrifice_self, exile (a permanent), discard, discard_hand, exile_cards, exile_self, return,
    return_self, life or unknown.
    ``amount`` resources (0: any number, "Remove X ... counters"), of ``counter`` kind, matching ``pick``,
    from ``zone``; ``rule`` is the rule that makes it a cost to pay with resources one has."""

    kind: str
    text: str
    rule: str
    amount: int = 1
    counter: str | None = None
    pick: Pick | None = None
    zone: str | None = None


def _count(word: str) -> int:
    word = word.casefold()
    if word in {"a", "an"}:
        return 1
    return int(word) if word.isdigit() else NUMBER_WORDS[word]


def read_pick(phrase: str) -> Pick | None:
    """ "creature", "Elves", "blue creature", "artifact or creature", "black or artifact creature" (the
    head noun shared), "Prism token"; None when a word is not read."""
    text = phrase.strip()
    token = False
    if text.casefold().endswith((" token", " tokens")):
        text, token = text.rsplit(" ", 1)[0], True
    parts = re.split(r"\s+or\s+", text)
    head = parts[-1].split(" ")[-1]
    alternatives: list[tuple[Filter, tuple[str, ...]]] = []
    for part in parts:
        words = part.split(" ")
        colors = []
        while words and words[0].casefold() in _COLOR_WORDS:
            colors.append(_COLOR_WORDS[words.pop(0).casefold()])
        rest = " ".join(words) if words else head  # "black or ...": a black <head noun>
        flt = parse_filter(rest)
        if flt is None:
            return None
        alternatives.append((flt, tuple(c for c in COLORS if c in colors)))
    return Pick(tuple(alternatives), token)


@text_cache(entries=4096, chars=2_000_000)
def read_need(part: CostPart, self_name: str) -> Need | None:
    """The resource ``part`` consumes; None for {T}, {Q}, mana and loyalty (not resources of this kind)."""
    if part.kind in {"tap", "untap", "mana", "loyalty"}:
        return None
    if part.kind == "life":
        return Need("life", part.text, "119.4", part.amount)
    if part.kind == "sacrifice_self":
        return Need("sacrifice_self", part.text, "701.21a")
    if part.kind == "sacrifice" and part.amount == -1 and part.filter is not None:
        # "Sacrifice X Goats": X is chosen, 0 too (CR 107.3)
        return Need("sacrifice", part.text, "701.21a", 0, pick=Pick(((part.filter, ()),)))
    if part.kind == "exile" and part.filter is not None:  # "Exile a creature you control" (CR 406.3)
        return Need("exile", part.text, "118.3", 1, pick=Pick(((part.filter, ()),)))
    if part.kind == "remove_counters":  # "any number of" / "X": X may be 0, nothing is required
        return Need("remove_counters", part.text, "118.3", 0, part.counter)
    text = part.text.replace(self_name, "~") if self_name else part.text
    low = text.casefold()
    found = ACTIVATION.match(low)
    if found is None:
        return Need("unknown", part.text, "118.3")
    template, m = found
    if template is _REMOVE:
        return Need("remove_counters", part.text, "118.3", _count(m.group("n")), m.group("kind"))
    if template in (_TAP, _SACRIFICE, _RETURN):
        phrase = text[m.start("what") : m.end("what")]
        pick = read_pick(phrase)
        if pick is None:
            return Need("unknown", part.text, "118.3")
        kind = {_TAP: "tap", _SACRIFICE: "sacrifice", _RETURN: "return"}[template]
        return Need(kind, part.text, template.rule, _count(m.group("n")), pick=pick)
    if template is _DISCARD_HAND:
        return Need("discard_hand", part.text, "118.3", 0)
    if template is _DISCARD:
        return Need("discard", part.text, "118.3", _count(m.group("n")), zone="hand")
    if template is _EXILE_CARDS:
        return Need("exile_cards", part.text, "118.3", _count(m.group("n")), zone=m.group("zone"))
    if template is _EXILE_SELF_ZONE:
        return Need("exile_self", part.text, "113.6m", 1, zone=m.group("zone"))
    if template is _RETURN_SELF:
        return Need("return_self", part.text, "118.3")
    return Need("unknown", part.text, "118.3")  # pragma: no cover - every template is handled above
