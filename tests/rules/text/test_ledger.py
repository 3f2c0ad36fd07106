"""The sentence ledger (``app.rules.text.ledger``): every sentence of the bundled catalogue is applied,
irrelevant by a named template, or unread, and no sentence naming a relevant word is irrelevant unless its
template covers that word (the CI gate of API 1.3, "nothing unread left silent")."""

from __future__ import annotations

import gzip
import json
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from app.rules.text.ledger import (
    _ACTIVATED,
    _IRRELEVANT_ONLY,
    _LIBRARY_SEARCH,
    _PATTERN_ONLY,
    APPLIED,
    COVERS,
    IRRELEVANT,
    IRRELEVANT_KEYWORDS,
    IRRELEVANT_REGISTRY,
    KEYWORDS_READ,
    UNREAD,
    Entry,
    face_ledger,
    relevant_words,
    unread_relevant,
)

BUNDLED = Path(__file__).resolve().parents[3] / "app" / "data" / "cards.json.gz"
_NOT_MANA_EFFECT = frozenset({"symbol", "activate", "ability", "type change", "color change"})


@cache
def _catalogue() -> tuple[tuple[str, Entry], ...]:
    out: list[tuple[str, Entry]] = []
    for obj in json.loads(gzip.decompress(BUNDLED.read_bytes())):
        faces = obj.get("card_faces") or [obj]
        for face in faces:
            text = face.get("oracle_text") or ""
            out.extend((obj["name"], e) for e in face_ledger(face.get("name", obj["name"]), text))
    return tuple(out)


def _guard_holds(entry: Entry) -> bool:
    assert entry.template is not None
    name = entry.template.split("/", 1)[1]
    if name == "activated-not-mana":
        found = _ACTIVATED.match(entry.sentence)
        if found is None:
            return False
        effect = found.group("effect")
        # a library search names land types only to say which lands it finds
        named = relevant_words(effect) - ({"land type"} if _LIBRARY_SEARCH.match(effect) else set())
        return named <= _NOT_MANA_EFFECT
    return entry.words <= COVERS[name]


def test_no_relevant_sentence_is_irrelevant_without_a_template_covering_its_words() -> None:
    """The gate: over the whole catalogue, an irrelevant sentence naming mana, a cost, casting, spending,
    activating, abilities, playing or "as though" (``WORD_CLASSES``) was claimed by a template that covers
    each of those words."""
    entries = _catalogue()
    assert len(entries) > 50_000
    wrong = [
        (card, e.sentence, e.template) for card, e in entries if e.kind == IRRELEVANT and not _guard_holds(e)
    ]
    assert wrong == []
    assert all(e.template is None for _c, e in entries if e.kind == UNREAD)
    assert all(
        e.template and e.template.startswith("irrelevant/") for _c, e in entries if e.kind == IRRELEVANT
    )


def test_the_ledger_counts_and_unread_sentences_are_listed() -> None:
    """The ledger is data: counts per class and the unread sentences (``bench/ledger.py`` prints them). A
    ceiling a little over today's unread share (5.6 % of 67,362 sentences on the bundled file): a change that
    leaves more text unread fails here."""
    entries = _catalogue()
    kinds = Counter(e.kind for _c, e in entries)
    assert set(kinds) == {APPLIED, IRRELEVANT, UNREAD}
    assert kinds[UNREAD] / sum(kinds.values()) < 0.065, kinds
    unread = [e for _c, e in entries if e.kind == UNREAD]
    # an unread sentence always names a relevant word: the rest are proven irrelevant by a named template
    assert all(e.words for e in unread)


def test_every_irrelevance_template_has_hits_over_the_catalogue() -> None:
    hits = Counter(e.template for _c, e in _catalogue())
    never = [t.name for t in IRRELEVANT_REGISTRY if hits[f"irrelevant/{t.name}"] == 0]
    assert never == []


@pytest.mark.parametrize(
    ("name", "example"),
    [
        (t.name, e)
        for t in IRRELEVANT_REGISTRY
        if t.name not in _PATTERN_ONLY and t.name != "limit-of-non-mana-ability"
        for e in t.examples
    ],
)
def test_each_example_is_classed_by_its_template(name: str, example: str) -> None:
    (entry,) = face_ledger("Some Card", example[0].upper() + example[1:])
    assert entry.template == f"irrelevant/{name}", entry


def test_a_keyword_the_casting_code_reads_is_never_irrelevant() -> None:
    """A keyword in both tables (a way to cast listed with its 702 rule) is decided by the table that
    reads it: the ledger's irrelevant keywords leave it out."""
    assert not set(_IRRELEVANT_ONLY) & set(KEYWORDS_READ)
    assert set(_IRRELEVANT_ONLY) <= set(IRRELEVANT_KEYWORDS)
    assert face_ledger("X", "Foretell {1}{U}")[0].kind == APPLIED


@pytest.mark.parametrize(
    ("text", "template"),
    [
        ("Flying, vigilance", "irrelevant/keyword-line"),
        ("Equip {2}", "irrelevant/keyword-line"),
        ("Splice onto Arcane {1}{R}", "irrelevant/keyword-line"),  # CR 702.47a: works from the hand
        ("Convoke", "keywords/convoke"),
        ("Flashback {2}{R}", "keywords/flashback"),
        ("{T}: Add {G}.", "mana/fixed"),
        ("When Wall of Omens enters, draw a card.", "irrelevant/triggered-not-mana"),
        ("{2}, {T}: Draw a card.", "irrelevant/activated-not-mana"),
        ("Artifact spells you cast cost {1} less to cast.", "costs/spells-cost"),
        ("As an additional cost to cast this spell, sacrifice a creature.", "casting/additional-cost"),
    ],
)
def test_sentences_of_real_cards_are_classed(text: str, template: str) -> None:
    assert [e.template for e in face_ledger("Wall of Omens", text)] == [template]


def test_a_relevant_sentence_no_template_reads_is_unread_never_irrelevant() -> None:
    """Scheming Fence: "Activated abilities of the chosen permanent can't be activated." names activating and
    abilities, so no template without those words may claim it; no reader knows "the chosen permanent"."""
    text = (
        "As Scheming Fence enters the battlefield, you may choose a nonland permanent.\n"
        "Activated abilities of the chosen permanent can't be activated."
    )
    entries = face_ledger("Scheming Fence", text)
    assert [e.kind for e in entries] == [IRRELEVANT, UNREAD]
    assert unread_relevant("Scheming Fence", text)[0].words >= {"activate", "ability"}


def test_an_auras_prohibition_is_applied() -> None:
    """Gelid Shackles: "Enchanted creature can't block, and its activated abilities can't be activated." is
    read by the prohibition reader (CR 602.5, on what the Aura is attached to)."""
    text = "Enchant creature\nEnchanted creature can't block, and its activated abilities can't be activated."
    assert [e.kind for e in face_ledger("Gelid Shackles", text)] == [IRRELEVANT, APPLIED]


def test_activation_limits_follow_the_ability_they_limit() -> None:
    """An activation limit of a mana ability is read beside it (CR 602.5b); of an ability that adds no mana,
    it is irrelevant to costs and mana (605.1a)."""
    mana = face_ledger("X", "{T}: Add {R}. Activate only as a sorcery.")
    other = face_ledger("X", "{T}: Draw a card. Activate only as a sorcery.")
    assert [e.template for e in mana] == ["mana/fixed", "mana-ability/activation-condition"]
    assert [e.template for e in other] == [
        "irrelevant/activated-not-mana",
        "irrelevant/limit-of-non-mana-ability",
    ]


@pytest.mark.parametrize(
    ("name", "line"),
    [
        (
            "Jund Panorama",
            "{1}, {T}, Sacrifice Jund Panorama: Search your library for a basic Swamp, Mountain, or"
            " Forest card, put it onto the battlefield tapped, then shuffle.",
        ),
        (
            "Myriad Landscape",
            "{2}, {T}, Sacrifice Myriad Landscape: Search your library for up to two basic land cards"
            " that share a land type, put them onto the battlefield tapped, then shuffle.",
        ),
    ],
)
def test_a_search_for_lands_by_type_is_irrelevant(name: str, line: str) -> None:
    """An activated ability that searches for lands names land types only to say which: its lands are on
    the battlefield once it resolves, where the board as given lists them (CR 605.1a: it adds no mana)."""
    assert [e.template for e in face_ledger(name, line)] == ["irrelevant/activated-not-mana"]


def test_an_activated_type_change_stays_unread() -> None:
    """ "Target land becomes a Forest until end of turn." may have been activated earlier this turn, and the
    board does not say so: it is no search, and its land type keeps it a warning."""
    entries = face_ledger("X", "{T}: Target land becomes a Forest until end of turn.")
    assert [e.kind for e in entries] == [UNREAD]


def test_reminder_text_is_removed_and_the_name_read_as_tilde() -> None:
    entries = face_ledger("Llanowar Elves", "{T}: Add {G}. (Mana is added to your pool.)")
    assert [e.sentence for e in entries] == ["{T}: Add {G}."]
    assert face_ledger("Goblin", "Goblin can't block.")[0].sentence == "~ can't block."
