"""The sentence ledger: every sentence of a face is applied, proven irrelevant, or unread.

Each sentence of a face's text (reminder text removed, CR 207.2; the card's name read as ``~``; an ability
word dropped, CR 207.2c) is classed as one of:

- ``applied``: a named template of a reader's registry reads it (``costs``, ``ways``, ``mana``,
  ``mana-static``, ``prohibition``...), the mana-ability reader reads it beside its "Add" (a spending
  restriction, CR 106.6; an activation condition, CR 602.5b), or it is a keyword line whose keyword the
  casting or mana code reads (``KEYWORDS_READ``);
- ``irrelevant``: an irrelevance template of ``registry("irrelevant")`` proves it changes neither a cost nor
  the mana a permanent can produce; each template names the relevant words it may cover (``covers``), and a
  sentence naming a relevant word outside them is never irrelevant (``relevant_words``, the guard, enforced
  here and in ``tests/rules/text/test_ledger.py``);
- ``unread``: neither. At request time an unread sentence naming a relevant word is a warning
  (``unread_relevant``): unknown text is never silent.

The ledger reads text only (a face's name and text), memoized per text, so it is the same for a catalogue
card and a client's inline card.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

# The registries whose templates say "applied": importing their modules registers them.
import app.rules.mana.prohibitions as _prohibitions  # noqa: F401
import app.rules.text.activation as _activation  # noqa: F401
import app.rules.text.oracle_costs as _oracle_costs  # noqa: F401
import app.rules.text.ways_templates as _ways_templates  # noqa: F401
from app.rules.bounded_cache import text_cache
from app.rules.effects.keywords import keyword_rule, optional_keywords, way_keywords
from app.rules.effects.ways import OptionalCost
from app.rules.errors import RulesError
from app.rules.mana.sources import ANY_COLOR
from app.rules.text.additional_costs import read_mandatory
from app.rules.text.card_registry import RICHARD_TEXT, VORTHOS_TEXT
from app.rules.text.mana_add import ADD, parse_add
from app.rules.text.mana_static import STATIC, read_static
from app.rules.text.oracle_costs import read_cost_effects
from app.rules.text.oracle_mana import read_text, restore_breaks, strip_reminder
from app.rules.text.templates import REGISTRIES, Template, registry
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card, Face

APPLIED: Final = "applied"
IRRELEVANT: Final = "irrelevant"
UNREAD: Final = "unread"

# ------------------------------------------------------------------------------------ the relevant words

WORD_CLASSES: Final[tuple[tuple[str, str], ...]] = (
    ("mana", r"\bmana\b(?! values?\b)"),
    ("cost", r"\bcosts?\b"),
    ("cast", r"\bcast(?:s|ing)?\b"),
    ("spend", r"\bspen(?:d|ds|t|ding)\b"),
    ("activate", r"\bactivat(?:e|es|ed|ing|ion)\b"),
    ("ability", r"\babilit(?:y|ies)\b"),
    ("play", r"\bplay(?:s|ed|ing)?\b"),
    ("as though", r"\bas though\b"),
    ("add", r"\badds?\b"),
    ("symbol", r"\{(?:[WUBRGCSXYZTQ]|\d{1,2}|[WUBRGC2]/[WUBRGP]|[WUBRG]/[WUBRG]/P|H[WUBRG]|½|∞)\}"),
    ("land type", r"\b(?:plains|islands?|swamps?|mountains?|forests?|basic land types?|land types?)\b"),
    (
        "type change",
        r"\bin addition to (?:its|their) other (?:card )?types\b"
        r"|\b(?:is|are|becomes?) (?:an? )?(?:[a-z]+ ){0,3}(?:artifacts?|lands?)\b(?! cards?)",
    ),
    (
        "color change",
        r"\b(?:is|are|becomes?) (?:colorless|all colors|every color|the chosen color)\b"
        r"|\b(?:is|are) (?:white|blue|black|red|green)\b(?! (?:and|or) )",
    ),
    (
        "cost keyword",
        r"\b(?:convoke|delve|improvise|affinity|undaunted|changeling|haste|"
        + "|".join(sorted({*way_keywords(), *optional_keywords()}, key=len, reverse=True))
        + r")\b",
    ),
)
"""The words by which a sentence could bear on a cost or on mana (CR 601.2f, 106.1, 605.1a, 305.6): a
sentence naming one is never irrelevant unless a template covering that word proves it."""

_WORDS: Final = tuple((kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in WORD_CLASSES)


def relevant_words(sentence: str) -> frozenset[str]:
    """The classes of relevant word ``sentence`` names (see ``WORD_CLASSES``)."""
    return frozenset(kind for kind, pattern in _WORDS if pattern.search(sentence))


# ------------------------------------------------------------------------------------ keyword tables

IRRELEVANT_KEYWORDS: Final[dict[str, str]] = {
    "deathtouch": "702.2b",
    "defender": "702.3b",
    "double strike": "702.4b",
    "first strike": "702.7b",
    "flash": "702.8a",
    "flying": "702.9b",
    "hexproof": "702.11b",
    "indestructible": "702.12b",
    "intimidate": "702.13b",
    "landwalk": "702.14a",
    "forestwalk": "702.14a",
    "islandwalk": "702.14a",
    "swampwalk": "702.14a",
    "mountainwalk": "702.14a",
    "plainswalk": "702.14a",
    "lifelink": "702.15b",
    "protection": "702.16a",
    "reach": "702.17b",
    "shroud": "702.18a",
    "trample": "702.19b",
    "vigilance": "702.20b",
    "ward": "702.21a",
    "banding": "702.22a",
    "rampage": "702.23a",
    "cumulative upkeep": "702.24a",
    "flanking": "702.25a",
    "phasing": "702.26a",
    "shadow": "702.28a",
    "cycling": "702.29a",
    "echo": "702.30a",
    "horsemanship": "702.31a",
    "fading": "702.32a",
    "fear": "702.36a",
    "provoke": "702.39a",
    "storm": "702.40a",
    "modular": "702.43a",
    "sunburst": "702.44a",
    "bushido": "702.45a",
    "soulshift": "702.46a",
    "ninjutsu": "702.49a",
    "splice": "702.47a",
    "epic": "702.50a",
    "haunt": "702.55a",
    "graft": "702.58a",
    "recover": "702.59a",
    "ripple": "702.60a",
    "split second": "702.61a",
    "vanishing": "702.63a",
    "absorb": "702.64a",
    "dredge": "702.52a",
    "transmute": "702.53a",
    "bloodthirst": "702.54a",
    "forecast": "702.57a",
    "fortify": "702.67a",
    "frenzy": "702.68a",
    "gravestorm": "702.69a",
    "poisonous": "702.70a",
    "transfigure": "702.71a",
    "champion": "702.72a",
    "hideaway": "702.75a",
    "reinforce": "702.77a",
    "persist": "702.79a",
    "wither": "702.80a",
    "exalted": "702.83a",
    "cascade": "702.85a",
    "annihilator": "702.86a",
    "level up": "702.87a",
    "rebound": "702.88a",
    "umbra armor": "702.89a",
    "totem armor": "702.89a",
    "infect": "702.90a",
    "battle cry": "702.91a",
    "living weapon": "702.92a",
    "undying": "702.93a",
    "soulbond": "702.95a",
    "unleash": "702.98a",
    "cipher": "702.99a",
    "evolve": "702.100a",
    "extort": "702.101a",
    "fuse": "702.102a",
    "tribute": "702.104a",
    "dethrone": "702.105a",
    "hidden agenda": "702.106a",
    "outlast": "702.107a",
    "prowess": "702.108a",
    "exploit": "702.110a",
    "menace": "702.111a",
    "renown": "702.112a",
    "devoid": "702.114a",
    "ingest": "702.115a",
    "myriad": "702.116a",
    "skulk": "702.118a",
    "melee": "702.121a",
    "crew": "702.122a",
    "fabricate": "702.123a",
    "partner": "702.124a",
    "embalm": "702.128a",
    "eternalize": "702.129a",
    "afflict": "702.130a",
    "ascend": "702.131a",
    "jump-start": "702.133a",
    "mentor": "702.134a",
    "afterlife": "702.135a",
    "riot": "702.136a",
    "scavenge": "702.97a",
    "unearth": "702.84a",
    "equip": "702.6a",
    "enchant": "702.5a",
    "companion": "702.139a",
    "mutate": "702.140a",
    "encore": "702.141a",
    "boast": "702.142a",
    "foretell": "702.143a",
    "demonstrate": "702.144a",
    "daybound": "702.145a",
    "nightbound": "702.145a",
    "disturb": "702.146a",
    "decayed": "702.147a",
    "cleave": "702.148a",
    "training": "702.149a",
    "compleated": "702.150a",
    "reconfigure": "702.151a",
    "blitz": "702.152a",
    "enlist": "702.154a",
    "read ahead": "702.155a",
    "ravenous": "702.156a",
    "squad": "702.157a",
    "space sculptor": "702.158a",
    "visit": "702.159a",
    "prototype": "702.160a",
    "living metal": "702.161a",
    "more than meets the eye": "702.162a",
    "for mirrodin!": "702.163a",
    "toxic": "702.164a",
    "backup": "702.165a",
    "bargain": "702.166a",
    "craft": "702.167a",
    "solved": "702.169a",
    "saddle": "702.171a",
    "freerunning": "702.173a",
    "double team": "702.176a",
    "exhaust": "702.177a",
    "max speed": "702.178a",
    "start your engines!": "702.179a",
    "job select": "702.182a",
    "firebending": "702.184a",
}
"""Keywords that change neither a cost to cast nor the mana a permanent produces: combat and evasion
keywords, triggered keywords whose payments are made on resolution (ward, echo, cumulative upkeep: not a
cost to cast, CR 118.12, 601.2f), and activated keywords that add no mana (equip, cycling, crew: not mana
abilities, CR 605.1a). A keyword the casting code reads (``KEYWORDS_READ``) is never listed here."""

KEYWORDS_READ: Final[dict[str, str]] = {
    **{k: keyword_rule(k) or "702" for k in (*way_keywords(), *optional_keywords())},
    "convoke": "702.51a",
    "delve": "702.66a",
    "improvise": "702.126a",
    "affinity": "702.41a",
    "undaunted": "702.125a",
    "changeling": "702.73a",
    "haste": "702.10b",
}
"""Keywords the casting and mana code reads (ways and optional costs of ``cast_keywords``; the payment
keywords; undaunted; changeling for the creature-type filters; haste for CR 302.6)."""

_NO_KEYWORD_OVERLAP: Final = frozenset(IRRELEVANT_KEYWORDS) & frozenset(KEYWORDS_READ)
# Which of the two tables wins for a keyword in both: the one that reads it.
_IRRELEVANT_ONLY: Final = {k: v for k, v in IRRELEVANT_KEYWORDS.items() if k not in _NO_KEYWORD_OVERLAP}


def _keyword_of(item: str, table: dict[str, str]) -> str | None:
    """The keyword of ``table`` that ``item`` (one item of a keyword line, lower case) is, with its
    parameter (a number, a cost, "from red", a quality: "equip legendary creature {3}"), or None."""
    for keyword in sorted(table, key=len, reverse=True):
        if item == keyword:
            return keyword
        if item.startswith(keyword):
            rest = item[len(keyword) :]
            if rest[:1] in (" ", "—", "-", "{") and len(rest) <= 80:
                return keyword
    if table is _IRRELEVANT_ONLY:
        if _WALK.match(item):
            return "landwalk"
        if _TYPECYCLING.match(item):
            return "cycling"
    return None


_WALK: Final = re.compile(r"^[a-z]{1,20}walk$|^(?:non)?[a-z ]{1,30}landwalk$")
_TYPECYCLING: Final = re.compile(r"^[a-z ]{1,30}cycling(?:[ —-].{0,60})?$")


_ALONE: Final = frozenset({"equip", "cycling", "fortify", "reconfigure", "level up", "crew", "craft"})
"""Activated keywords whose line holds them alone (their cost runs to the line's end)."""
_KEYWORD_SPLIT: Final = re.compile(r"[,;] (?![^{}]*\})")


def _keyword_line(sentence: str) -> tuple[str, str, str] | None:
    """A line of keywords: (class, keyword, rule), applied when any keyword is read by the casting or mana
    code, irrelevant when every keyword is in ``IRRELEVANT_KEYWORDS``; None when it is not such a line."""
    text = sentence.casefold().rstrip(".").strip()
    if not text or len(text) > 200:
        return None
    dash = text.find("—")
    one = dash > 0 and _keyword_of(text[:dash].strip(), _IRRELEVANT_ONLY) is not None
    items = [text] if one else [i.strip() for i in _KEYWORD_SPLIT.split(text) if i.strip()]
    read: list[str] = []
    idle: list[str] = []
    for item in items:
        found = _keyword_of(item, KEYWORDS_READ)
        if found is not None:
            read.append(found)
            continue
        other = _keyword_of(item, _IRRELEVANT_ONLY)
        if other is None:
            return None
        if other in _ALONE and len(items) > 1:
            return None
        idle.append(other)
    if read:
        return APPLIED, read[0], KEYWORDS_READ[read[0]]
    return IRRELEVANT, idle[0], _IRRELEVANT_ONLY[idle[0]]


# ------------------------------------------------------------------------------------ irrelevance templates

IRRELEVANT_REGISTRY: Final = registry("irrelevant")
"""The irrelevance templates, in the order tried. They match the sentence in lower case, reminder text
removed, the card's name as ``~``, its final period kept."""

COVERS: Final[dict[str, frozenset[str]]] = {}
"""For each irrelevance template, the relevant words it may prove irrelevant (the guard: a sentence naming
any other relevant word is not claimed by it)."""


def _irrelevant(
    name: str,
    pattern: str,
    *,
    rule: str,
    examples: tuple[str, ...],
    yields: str,
    covers: tuple[str, ...] = (),
) -> Template:
    """Register an irrelevance template. Tried in order, the first match wins: the earlier templates that
    also match one of its examples, or that one of their examples matches, are named in ``shadows`` (the
    order is the registration's, stated on purpose)."""
    unknown = set(covers) - {kind for kind, _p in WORD_CLASSES}
    if unknown:
        raise ValueError(f"irrelevant/{name} covers unknown word classes {sorted(unknown)}")
    COVERS[name] = frozenset(covers)
    compiled = re.compile(pattern)
    shadows = tuple(
        t.name
        for t in IRRELEVANT_REGISTRY
        if any(t.pattern.match(e) for e in examples) or any(compiled.match(e) for e in t.examples)
    )
    return IRRELEVANT_REGISTRY.add(
        name, pattern, rule=rule, examples=examples, yields=yields, shadows=shadows
    )


_irrelevant(
    "keyword-line",
    # read by ``_keyword_line`` with the keyword table; the pattern only shows its shape
    r"^(?:flying|trample|vigilance|first strike|deathtouch|equip|enchant|ward)\b",
    rule="702.1",
    examples=("flying", "flying, vigilance", "equip {2}", "ward {2}"),
    yields="a line of keywords of IRRELEVANT_KEYWORDS (combat, evasion, payments on resolution, activated "
    "keywords that add no mana)",
    covers=("symbol", "cost", "mana", "land type", "ability", "cast", "play"),
)
_irrelevant(
    "activated-not-mana",
    # read with the mana-ability reader's verdict on the line; the pattern only shows its shape
    r"^[^:\"]{1,200}: (?!add\b)",
    rule="605.1a",
    examples=("{4}, {t}: draw a card.", "{b}: regenerate ~."),
    yields="an activated ability whose effect adds no mana: not a mana ability, it pays for nothing",
    covers=("symbol", "mana", "activate", "ability"),
)
_irrelevant(
    "limit-of-non-mana-ability",
    r"^(?:activate (?:this ability )?only\b|(?:any player|only your opponents|any opponent) may activate this"
    r" ability\b|this ability costs (?:\{[^{}]{1,8}\})+ less to activate\b)",
    rule="602.5b",
    examples=(
        "activate only as a sorcery.",
        "activate only once each turn.",
        "any player may activate this ability.",
    ),
    yields="an activation limit of an ability that adds no mana (only after such an ability)",
    covers=("activate", "ability", "cost", "symbol"),
)
_irrelevant(
    "trigger-adds-mana-on-resolution",
    # read with the mana-ability reader's verdict on the line; the pattern only shows its shape
    r"^(?:when|whenever|at the beginning of)\b[^.]{0,200}, add\b",
    rule="605.1b",
    examples=("when ~ dies, add {c}{c}{c}.", "whenever ~ attacks, add {r} or {g}."),
    yields="a triggered ability that adds mana as it resolves: not a mana ability, no payment uses it",
    covers=("mana", "add", "symbol"),
)
_irrelevant(
    "object-created-with-ability",
    # read with the mana-ability reader's verdict on the line; the pattern only shows its shape
    r"^(?:create|it has) [^\"]{0,200}\"[^\"]{0,200}\badd\b",
    rule="111.4",
    examples=(
        'create two 1/1 colorless eldrazi scion creature tokens with "sacrifice this creature: add {c}."',
    ),
    yields="a mana ability of a token or object the effect creates: on the board once it is there",
    covers=("mana", "add", "symbol", "ability"),
)
_irrelevant(
    "cast-trigger",
    r"^whenever (?:you|a player|an opponent|another player|each opponent) casts? [^,]{1,200}, "
    r"(?!.*\bcosts?\b)",
    rule="603.2",
    examples=(
        "whenever you cast a noncreature spell, ~ gets +1/+1 until end of turn.",
        "whenever a player casts a black spell, you may gain 1 life.",
    ),
    yields="a trigger on casting: it triggers once the spell is cast, its costs already paid (601.2i)",
    covers=("cast",),
)
_irrelevant(
    "triggered-not-mana",
    r"^(?:when|whenever|at the beginning of|at end of)\b(?!.*\b(?:costs?|add|adds|as though)\b)",
    rule="603.3",
    examples=(
        "at the beginning of your upkeep, sacrifice ~ unless you pay {w}{w}.",
        "at the beginning of each upkeep, if no spells were cast last turn, transform ~.",
    ),
    yields="a triggered ability that adds no mana and names no cost (the mana it names is its trigger "
    "condition or a count): it does its work as it resolves (603.3), never while a cost is paid "
    "(605.1b: not a mana ability)",
    covers=(
        "mana",
        "spend",
        "symbol",
        "cast",
        "ability",
        "activate",
        "play",
        "land type",
        "cost keyword",
        "type change",
        "color change",
    ),
)
_irrelevant(
    "trigger-limit",
    r"^this ability triggers only (?:once|twice)(?: each turn)?\.$",
    rule="603.2h",
    examples=("this ability triggers only once each turn.",),
    yields="how often a triggered ability triggers",
    covers=("ability",),
)
_irrelevant(
    "play-card-from-effect",
    r"^(?:until (?:the )?end of (?:your next )?turn, )?you may (?:play|cast) (?:that card|those cards|it|them"
    r"|the exiled card|cards exiled this way|lands from your graveyard|an additional land this turn)"
    r"(?: this turn| until [^.]{1,40}| for as long as [^.]{1,40})?\.$",
    rule="611.2c",
    examples=(
        "you may play that card this turn.",
        "until the end of your next turn, you may play that card.",
    ),
    yields="a permission a resolving effect gives for the cards it names: the request states the card's zone "
    "and way, and the permission has no cost of its own",
    covers=("play", "cast"),
)
_irrelevant(
    "unless-pays-on-resolution",
    r"^counter target [^.]{1,80} unless its controller pays (?:\{[^{}]{1,8}\})+\.$",
    rule="118.12",
    examples=("counter target spell unless its controller pays {3}.",),
    yields="a payment made on resolution, not a cost to cast",
    covers=("symbol",),
)
_irrelevant(
    "enters-tapped",
    r"^~ enters tapped\.$",
    rule="614.1c",
    examples=("~ enters tapped.",),
    yields="how the permanent entered: the board states whether it is tapped",
)
_irrelevant(
    "damage",
    r"^(?:~|it|target [a-z ]{1,40}) deals \w+ damage\b",
    rule="120.3",
    examples=("~ deals 3 damage to any target.", "~ deals 2 damage to each creature."),
    yields="damage: no cost and no mana",
)
_irrelevant(
    "life",
    r"^(?:you|each player|each opponent|target player|target opponent) (?:gains?|loses?) \w+ life\b",
    rule="119.3",
    examples=("you gain 3 life.", "each opponent loses 1 life."),
    yields="life gained or lost: no cost and no mana",
)
_irrelevant(
    "draw-discard-mill",
    r"^(?:(?:you|target player|each player|that player) )?(?:draws?|discards?|mills?|scry|surveil)\b",
    rule="121.1",
    examples=("draw a card.", "target player mills three cards.", "scry 2."),
    yields="cards drawn, discarded, milled or looked at: no cost and no mana",
)
_irrelevant(
    "power-toughness",
    r"^(?:~|target creature|creatures you control|other [a-z ]{1,30} you control|enchanted creature"
    r"|equipped creature|each creature you control|all creatures) gets? [+\-−]\w+/[+\-−]\w+",
    rule="613.4c",
    examples=("target creature gets +3/+3 until end of turn.", "equipped creature gets +2/+0."),
    yields="power and toughness: no cost and no mana",
)
_irrelevant(
    "counters",
    r"^put (?:a|an|one|two|three|\w+) [+\-−a-z0-9/]{1,20} counters? on\b",
    rule="122.1",
    examples=("put a +1/+1 counter on target creature.",),
    yields="counters put: no cost and no mana",
)
_irrelevant(
    "create-tokens",
    r"^create (?:a|an|one|two|three|four|five|x|that many|\w+) [^.\"]{1,200}\.$",
    rule="111.1",
    examples=("create a 1/1 white soldier creature token.", "create a treasure token."),
    yields="tokens created: not on the board until the request states them",
)
_irrelevant(
    "destroy-exile-return",
    r"^(?:destroy|exile|return) (?:target|all|each|up to|another|~|it|that)\b",
    rule="701.8a",
    examples=("destroy target creature.", "exile target artifact or enchantment."),
    yields="objects destroyed, exiled or returned: no cost and no mana",
)
_irrelevant(
    "combat-rules",
    r"^(?:~|enchanted creature|equipped creature|target creature|creatures your opponents control)"
    r" (?:can't (?:attack|block)|attacks each (?:combat|turn) if able|blocks each combat if able"
    r"|can block an additional)",
    rule="508.1d",
    examples=("~ can't block.", "~ attacks each combat if able."),
    yields="attacking and blocking: no cost and no mana",
)
_irrelevant(
    "modes",
    r"^choose (?:one|two|three|one or both|one or more|any number)\b[^.]{0,40}—",
    rule="700.2",
    examples=("choose one —",),
    yields="the modes of a modal spell: each mode is a sentence of its own",
)
_irrelevant(
    "gains-haste-on-resolution",
    r"^(?:it|that creature|that token|those tokens|they|the token|those creatures|target creature|~)"
    r" gains? haste(?: until end of turn)?\.$",
    rule="611.2c",
    examples=("it gains haste.", "that creature gains haste until end of turn."),
    yields="haste an effect gives as it resolves, to an object it names: not on the stated board",
    covers=("cost keyword",),
)
_irrelevant(
    "land-drops-and-revealed-play",
    r"^(?:you may play an additional land on each of your turns\.|(?:players )?play with (?:the top card of"
    r" (?:your|their) librar(?:y|ies)|their hands) revealed\."
    r"|remove ~ from your deck before playing if you're not playing for ante\.)$",
    rule="305.2",
    examples=(
        "you may play an additional land on each of your turns.",
        "play with the top card of your library revealed.",
    ),
    yields="land drops, revealed cards and ante: they change no cost and no mana",
    covers=("play",),
)
_irrelevant(
    "cast-while-resolving",
    r"^(?:if you do, )?you may cast (?:the copy|the copies|that card|it|the exiled card|any number of the"
    r" copies|a spell from among them)(?: without paying (?:its|their) mana costs?)?\.$",
    rule="608.2g",
    examples=(
        "you may cast the copy without paying its mana cost.",
        "you may cast that card without paying its mana cost.",
    ),
    yields="a spell cast while this one resolves: not the spell asked about",
    covers=("cast", "mana", "cost"),
)
_irrelevant(
    "as-though-flash",
    r"^you may cast (?:~|[a-z ]{1,30} spells) as though (?:it|they) had flash\.$",
    rule="702.8a",
    examples=(
        "you may cast ~ as though it had flash.",
        "you may cast creature spells as though they had flash.",
    ),
    yields="when a spell may be cast, not what it costs",
    covers=("cast", "as though"),
)
_irrelevant(
    "cast-only-during",
    r"^cast this spell only (?:during|before) [a-z ]{1,60}"
    r"(?: and only if you've been attacked this step)?\.$",
    rule="601.3",
    examples=(
        "cast this spell only during combat.",
        "cast this spell only during the declare blockers step.",
    ),
    yields="when a spell may be cast, not what it costs",
    covers=("cast",),
)
_irrelevant(
    "combat-damage-as-though",
    r"^you may have ~ assign its combat damage as though it weren't blocked\.$",
    rule="510.1c",
    examples=("you may have ~ assign its combat damage as though it weren't blocked.",),
    yields="combat damage: no cost and no mana",
    covers=("as though",),
)
_irrelevant(
    "counter-ability",
    r"^counter target (?:activated or triggered ability|activated ability|triggered ability|spell, activated"
    r" ability, or triggered ability|spell or ability)\.$",
    rule="701.6b",
    examples=("counter target activated or triggered ability.", "counter target activated ability."),
    yields="an ability countered as this resolves: no cost and no mana on the board",
    covers=("activate", "ability"),
)
_irrelevant(
    "cant-be-targeted",
    r"^[a-z~ ]{1,60} can't be the targets? of [a-z ]{0,40}(?:spells or abilities|abilities)[a-z ]{0,40}\.$",
    rule="115.4",
    examples=("enchanted creature can't be the target of spells or abilities your opponents control.",),
    yields="what may be targeted: no cost and no mana",
    covers=("ability",),
)
_irrelevant(
    "attack-tax",
    r"^creatures can't attack (?:you|you or planeswalkers you control) unless their controller pays"
    r" (?:\{[^{}]{1,8}\})+ for each",
    rule="508.1g",
    examples=(
        "creatures can't attack you unless their controller pays {2} for each creature they control that's"
        " attacking you.",
    ),
    yields="a cost to attack (508.1g), paid in the declare attackers step: no cost to cast, no mana",
    covers=("symbol",),
)
_irrelevant(
    "condition-on-land-type",
    r"^~ (?:gets [+\-−]\w+/[+\-−]\w+|can't attack unless defending player controls an? \w+|has [a-z ,]{1,40})"
    r"(?: as long as you control an? (?:plains|island|swamp|mountain|forest))?\.$",
    rule="613.4c",
    examples=(
        "~ gets +1/+1 as long as you control a plains.",
        "~ can't attack unless defending player controls an island.",
    ),
    yields="a land type only as the condition of a power, toughness or combat effect",
    covers=("land type",),
)
_irrelevant(
    "no-word-of-costs-or-mana",
    r"^",
    rule="601.2f",
    examples=("target creature can't be regenerated this turn.",),
    yields="a sentence naming none of the relevant words (WORD_CLASSES): it names no cost (601.2f), no mana "
    "or 'add' (106.1, 605.1a), no land type (305.6), no ability, casting or playing",
)

_PATTERN_ONLY: Final = frozenset(
    {"keyword-line", "activated-not-mana", "trigger-adds-mana-on-resolution", "object-created-with-ability"}
)
"""Irrelevance templates decided by a reader's verdict, not by their pattern (they have no examples)."""


# ------------------------------------------------------------------------------------ the ledger values


@dataclass(frozen=True, slots=True)
class Entry:
    """One sentence of a face and its class: ``template`` is ``reader/name`` (applied, irrelevant) or None
    (unread); ``words`` the relevant word classes it names; ``rule`` the template's CR rule."""

    sentence: str
    kind: str
    template: str | None
    words: frozenset[str]
    rule: str | None


_READER_DECIDES: Final = frozenset({"costs", "mana", "mana-static", "activation", "irrelevant"})
"""Registries whose patterns are guards (their readers decide, asked below) or that do not read sentences
(``activation``: cost parts; ``irrelevant``: this module's). Every other registry, present or added later
(``ways``, ``prohibition``, ``named-land-change``...), applies a sentence its template's pattern matches, in
lower case or as printed."""
_COSTS: Final = registry("costs")
_RIDERS: Final = (
    ("Activate only ", "mana-ability/activation-condition", "602.5b"),
    ("Spend this mana only", "mana-ability/spending-restriction", "106.6"),
    ("You can't spend this mana", "mana-ability/spending-restriction", "106.6"),
)
_ABILITY_WORD: Final = re.compile(r"^(?![IVX]+(?:, [IVX]+)* — )(?:• )?[A-Z][A-Za-z'’ -]{0,30} — (?=\S)")
_CHAPTER: Final = re.compile(r"^(?:[IVX]+(?:, [IVX]+)*|LEVEL \d+[-+]?\d*) — ?|^• ")
_LEVEL_LINE: Final = re.compile(r"^(?:LEVEL \d+(?:-\d+|\+)|\d+/\d+)$")
_ACTIVATED: Final = re.compile(r"^(?P<cost>[^:\"]{1,200}?):\s+(?P<effect>.+)$")
_SPLIT_AT: Final = re.compile(r"(?<=[.!])\s+(?=[A-Z•~{\[+−\-\d])")


def _sentences(line: str) -> list[str]:
    """The sentences of a line, never split inside quotes (a granted ability's text is its sentence's)."""
    out: list[str] = []
    start = 0
    quoted = False
    for i, ch in enumerate(line):
        if ch in '"“”':
            quoted = not quoted
        elif (
            not quoted
            and ch == " "
            and i > 0
            and line[i - 1] in ".!"
            and i + 1 < len(line)
            and (_SPLIT_AT.match(line, i - 1) is not None or line[i + 1].isupper())
        ):
            out.append(line[start:i].strip())
            start = i + 1
    out.append(line[start:].strip())
    return [s for s in out if s]


def _named(text: str, name: str) -> str:
    if not name:
        return text
    out = text.replace(name, "~")
    short = name.split(",")[0]
    if short and short != name:
        out = out.replace(short, "~")
    return out


def _fold(sentence: str) -> str:
    return sentence.casefold().strip().rstrip(".")


def _applied(sentence: str, cost_read: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """The registry template (``reader/name``, rule) that reads ``sentence``, or None. Matched without
    counting a hit: the readers' own sweeps count theirs. The cost reader's templates are guards whose
    readers decide, so a sentence is applied by ``costs`` only when that reader made an effect of it
    (``cost_read``, from ``read_cost_effects``)."""
    lower = sentence.casefold()
    bare = sentence.rstrip(".")
    if _fold(sentence) in cost_read:
        for template in _COSTS:
            if template.name != "not-tracked" and template.pattern.match(lower) is not None:
                return f"costs/{template.name}", template.rule
        return "costs/read", "601.2f"
    for reader, found in tuple(REGISTRIES.items()):
        if reader in _READER_DECIDES:
            continue
        for template in found:
            if template.pattern.match(lower) is not None or template.pattern.match(bare) is not None:
                return f"{reader}/{template.name}", template.rule
    # The mana templates are guards too: the reader decides (``read_static``, ``parse_add``).
    if read_static(bare) is not None:
        for template in STATIC:
            if template.pattern.match(bare) is not None:
                return f"mana-static/{template.name}", template.rule
    if bare.startswith("Add ") and parse_add(bare) is not None:
        for template in ADD:
            if template.pattern.match(bare) is not None:
                return f"mana/{template.name}", template.rule
    if VORTHOS_TEXT in sentence:
        return "cost-registry/vorthos", "ruling:vorthos"
    if RICHARD_TEXT in lower:
        return "cost-registry/richard-garfield", "ruling:richard-garfield-phd"
    if ANY_COLOR.match(sentence) is not None:
        return "payment/any-color", "609.4b"
    additional = read_mandatory(sentence)
    if isinstance(additional, OptionalCost):
        return "casting/additional-cost", additional.rule
    return None


def _by_templates(sentence: str, words: frozenset[str], after_non_mana: bool) -> Entry | None:
    lower = sentence.casefold()
    for template in IRRELEVANT_REGISTRY:
        if template.name in _PATTERN_ONLY:
            continue
        if template.name == "limit-of-non-mana-ability" and not after_non_mana:
            continue
        if not words <= COVERS[template.name]:
            continue
        if template.pattern.match(lower) is not None:
            return Entry(sentence, IRRELEVANT, f"irrelevant/{template.name}", words, template.rule)
    return None


def _irrelevant_entry(sentence: str, name: str, words: frozenset[str]) -> Entry | None:
    if not words <= COVERS[name]:
        return None
    return Entry(sentence, IRRELEVANT, f"irrelevant/{name}", words, IRRELEVANT_REGISTRY.get(name).rule)


def _classify(sentence: str, words: frozenset[str], after_non_mana: bool, cost_read: frozenset[str]) -> Entry:
    applied = _applied(sentence, cost_read)
    if applied is not None:
        return Entry(sentence, APPLIED, applied[0], words, applied[1])
    keyword = _keyword_line(sentence)
    if keyword is not None:
        kind, word, rule = keyword
        if kind == APPLIED:
            return Entry(sentence, APPLIED, f"keywords/{word}", words, rule)
        found = _irrelevant_entry(sentence, "keyword-line", words)
        if found is not None:
            return Entry(sentence, IRRELEVANT, found.template, words, rule)
    by_template = _by_templates(sentence, words, after_non_mana)
    if by_template is not None:
        return by_template
    return Entry(sentence, UNREAD, None, words, None)


_NOT_MANA_EFFECT_WORDS: Final = frozenset({"symbol", "activate", "ability", "type change", "color change"})
"""What the effect of an activated ability that adds no mana may name and still be irrelevant (its cost
may name anything: it is paid only to activate that ability)."""


_LIBRARY_SEARCH: Final = re.compile(
    r"^search your library for (?:a|an|up to (?:one|two|three)|two) [^.\"]{1,120}?\bcards?\b"
    r"(?: (?:with|that) [^.,\"]{1,60})?, "
    r"(?:put (?:it|them|that card|those cards) (?:onto the battlefield|into your hand)|reveal (?:it|them))"
    r"[^\"]{0,120}$",
    re.IGNORECASE,
)
"""An effect that searches the library for cards (the land types it names only say which): one-shot, its
cards on the battlefield only once it resolves, where the board as given lists them (Jund Panorama,
Krosan Verge, Myriad Landscape)."""


def _activated_not_mana(sentence: str, words: frozenset[str], effect: str) -> Entry | None:
    """CR 605.1a: an activated ability whose effect adds no mana is not a mana ability and pays for
    nothing; it is irrelevant when its effect names nothing else of costs or mana, or names land types only
    to say which lands it searches for (``_LIBRARY_SEARCH``)."""
    named = relevant_words(effect)
    if _LIBRARY_SEARCH.match(effect):
        named -= {"land type"}
    if not named <= _NOT_MANA_EFFECT_WORDS:
        return None
    return Entry(sentence, IRRELEVANT, "irrelevant/activated-not-mana", words, "605.1a")


def _line_entries(line: str, kind: str, cost_read: frozenset[str]) -> list[Entry]:
    """The entries of one line, with what the mana reader made of it (``FaceMana.lines``: ``mana`` a mana
    ability read, ``ability`` another activated ability, ``static``, ``trigger``, ``token``, ``problem``,
    ``other``)."""
    sentences = _sentences(line)
    out: list[Entry] = []
    activated = _ACTIVATED.match(sentences[0]) if sentences else None
    for k, sentence in enumerate(sentences):
        words = relevant_words(sentence)
        if kind == "mana":
            entry = _mana_line_entry(sentence, words, k, activated)
            if entry is not None:
                out.append(entry)
                continue
        if kind == "ability" and k == 0 and activated is not None:
            entry = _activated_not_mana(sentence, words, activated.group("effect"))
            if entry is not None:
                out.append(entry)
                continue
        if kind in ("trigger", "token"):
            name = "trigger-adds-mana-on-resolution" if kind == "trigger" else "object-created-with-ability"
            entry = _irrelevant_entry(sentence, name, words)
            if entry is not None:
                out.append(entry)
                continue
        after_non_mana = kind == "ability" and k > 0 and activated is not None
        out.append(_classify(sentence, words, after_non_mana, cost_read))
    return out


def _mana_line_entry(
    sentence: str, words: frozenset[str], k: int, activated: re.Match[str] | None
) -> Entry | None:
    """A sentence of a line the mana-ability reader read as a mana ability (CR 605.1a): the "Add" by its
    ``mana`` template, a rider it reads (``_RIDERS``), or another sentence it checked leaves the mana alone
    (``mana_activated.read_effect`` refuses a line with a sentence that may change it)."""
    if k == 0 and activated is not None:
        effect = activated.group("effect").rstrip(".")
        applied = _applied(effect)
        return Entry(
            sentence,
            APPLIED,
            applied[0] if applied else "mana-ability/effect",
            words,
            applied[1] if applied else "605.1a",
        )
    rider = next((r for r in _RIDERS if sentence.startswith(r[0])), None)
    if rider is not None:
        return Entry(sentence, APPLIED, rider[1], words, rider[2])
    if sentence.startswith("Add ") or words & {"add", "mana", "spend"}:
        applied = _applied(sentence)
        return Entry(
            sentence,
            APPLIED,
            applied[0] if applied else "mana-ability/sentence-beside",
            words,
            applied[1] if applied else "605.1a",
        )
    return None


@text_cache(entries=8192, chars=2_000_000)  # bounded in bytes too: the texts may be the client's
def face_ledger(name: str, oracle_text: str) -> tuple[Entry, ...]:
    """Every sentence of a face's text, classed (memoized per name and text)."""
    kinds = dict(read_text(oracle_text, name).lines)
    costs = read_cost_effects(name, oracle_text)
    cost_read = frozenset(_fold(e.text) for e in (*costs.effects, *costs.own))
    out: list[Entry] = []
    for whole in restore_breaks(strip_reminder(oracle_text)).splitlines():
        kind = kinds.get(whole.strip(), "other")
        pieces = _LOST_BREAK.split(whole)
        for raw in pieces:
            # a piece of a line whose break was lost: what the mana reader makes of the piece alone
            own = kind if len(pieces) == 1 else dict(read_text(raw, name).lines).get(raw.strip(), "other")
            out.extend(_raw_line_entries(raw, name, own, cost_read))
    return tuple(_riders_read(out))


_COLORED_ONLY: Final = "this effect reduces only the amount of colored mana you pay"


def _riders_read(entries: list[Entry]) -> list[Entry]:
    """The cost reader folds "This effect reduces only the amount of colored mana you pay." into the
    reduction before it (CR 601.2f): read when that reduction was."""
    out: list[Entry] = []
    for entry in entries:
        before = out[-1] if out else None
        if (
            entry.kind == UNREAD
            and _fold(entry.sentence) == _COLORED_ONLY
            and before is not None
            and before.kind == APPLIED
            and (before.template or "").startswith(("costs/", "cost-registry/"))
        ):
            entry = Entry(entry.sentence, APPLIED, "costs/colored-only-rider", entry.words, "601.2f")
        out.append(entry)
    return out


_LOST_BREAK: Final = re.compile(
    r"(?<=[a-z])(?=\{[^{}]{1,8}\}[^:\"]{0,80}:)|(?<=[a-z])(?=(?:When|Whenever|At) )"
)
"""A line break the data lost: a keyword run into an ability's cost ("Flying, trample{2}{G}, Sacrifice a land:
...") or into a trigger ("DefenderWhenever you cast ..."); oracle text always starts an ability on a line of
its own (CR 113.2)."""


def _raw_line_entries(raw: str, name: str, kind: str, cost_read: frozenset[str]) -> list[Entry]:
    """One line's entries: reminder text removed, the name read as ``~``, an ability word, a chapter or level
    label dropped (CR 207.2c, 714.2b, 711.2)."""
    line = _named(strip_reminder(raw), name).strip()
    line = _ABILITY_WORD.sub("", line, count=1)
    line = _CHAPTER.sub("", line, count=1).strip()
    if not line or _LEVEL_LINE.match(line):
        return []
    return _line_entries(line, kind, cost_read)


def unread_relevant(name: str, oracle_text: str) -> tuple[Entry, ...]:
    """The unread sentences of a face that name a relevant word: what a request warns of."""
    return tuple(e for e in face_ledger(name, oracle_text) if e.kind == UNREAD and e.words)


UNREAD_REASON: Final = (
    "a sentence this service does not read and that may bear on costs or mana: it was given no effect here"
)


@dataclass(frozen=True, slots=True)
class UnreadSentence:
    """An unread sentence naming a relevant word, on a permanent (``permanent``: its id) or on the spell
    (``permanent`` None): what a request's answer warns of."""

    permanent: str | None
    card: str
    text: str
    words: tuple[str, ...]


def _face_up(permanent: Permanent) -> Face:
    if permanent.face is None:
        return permanent.card.front
    try:
        return permanent.card.face(permanent.face)
    except RulesError:
        return permanent.card.front


def _quoted(sentence: str, face: Face) -> str:
    """The sentence as printed: the card's name where the ledger reads ``~``."""
    return sentence.replace("~", face.name)


def board_unread(board: Board) -> tuple[UnreadSentence, ...]:
    """The unread relevant sentences of every permanent of ``board`` (the face that is up), in board
    order; each face's ledger is memoized per text."""
    out: list[UnreadSentence] = []
    for permanent in board.permanents:
        face = _face_up(permanent)
        for entry in unread_relevant(face.name, face.oracle_text):
            out.append(
                UnreadSentence(
                    permanent.id,
                    permanent.card.name,
                    _quoted(entry.sentence, face),
                    tuple(sorted(entry.words)),
                )
            )
    return tuple(out)


def spell_unread(card: Card, face: Face) -> tuple[UnreadSentence, ...]:
    """The unread relevant sentences of the face being cast (``permanent`` None: the spell)."""
    return tuple(
        UnreadSentence(None, card.name, _quoted(e.sentence, face), tuple(sorted(e.words)))
        for e in unread_relevant(face.name, face.oracle_text)
    )
