"""The decklist reader on every common export (tests/golden/decklists.yaml) and on hostile input."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.decks.decklist import MAX_CHARS, SECTIONS, parse_decklist

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "decklists.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_export_reads_with_its_sections(case: dict[str, Any]) -> None:
    deck = parse_decklist(case["text"])
    counts = {s: sum(e.count for e in deck.entries if e.section == s) for s in SECTIONS}
    assert counts == case["counts"]
    assert len(deck.entries) == case["entries"]
    assert deck.problems == ()
    names = {e.name for e in deck.entries}
    assert set(case["names"]) <= names
    if "note" in case:
        assert any(case["note"] in n for n in deck.notes), deck.notes


def test_about_block_names_no_card() -> None:
    # MTG Arena's "Name Burn" is the deck's name: reading it as a card found About Face (issue's report).
    deck = parse_decklist("About\nName Burn\n\nDeck\n4 Lightning Bolt\n")
    assert [(e.line, e.name) for e in deck.entries] == [(5, "Lightning Bolt")]


def test_category_header_is_not_a_card_and_blank_lines_are_spacing() -> None:
    deck = parse_decklist("Creatures (4)\n4 Goblin Guide\n\nLands (20)\n20 Mountain\n")
    assert [(e.name, e.section) for e in deck.entries] == [("Goblin Guide", "main"), ("Mountain", "main")]
    assert deck.notes == ()


def test_sideboard_after_categories() -> None:
    deck = parse_decklist("Lands (1)\n1 Mountain\n\nSideboard (2)\n2 Shock\n\nMaybeboard (1)\n1 Fog\n")
    assert [(e.name, e.section) for e in deck.entries] == [
        ("Mountain", "main"),
        ("Shock", "sideboard"),
        ("Fog", "maybeboard"),
    ]


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("1 Fire/Ice", "Fire // Ice"),
        ("1 Fire / Ice", "Fire // Ice"),
        ("1 Fire//Ice", "Fire // Ice"),
        ("1 Who/What/When/Where/Why", "Who // What // When // Where // Why"),
        ("1 Lightning Bolt (2X2) 117", "Lightning Bolt"),
        ("1 Lightning Bolt (PLST) M10-146", "Lightning Bolt"),
        ("1 Lightning Bolt (sld)", "Lightning Bolt"),
        ("1 B.F.M. (Big Furry Monster)", "B.F.M. (Big Furry Monster)"),
        ("1x Sol Ring [Card Draw, Ramp]", "Sol Ring"),
        ("1 [CMR#472] Sol Ring", "Sol Ring"),
    ],
)
def test_names_as_written(line: str, name: str) -> None:
    assert [e.name for e in parse_decklist(line).entries] == [name]


@pytest.mark.parametrize(
    "text",
    [
        "1 a" + " " * (MAX_CHARS - 10) + "(x",  # the run of spaces that froze the old Arena suffix pattern
        "1 " + " (ab)" * ((MAX_CHARS - 2) // 5),
        "1 x" + " [" * ((MAX_CHARS - 3) // 2),
        "1 x" + " ^" * ((MAX_CHARS - 3) // 2),
        "1 x" + " *F*" * ((MAX_CHARS - 3) // 4),
        "1 " + "/" * (MAX_CHARS - 2),
        "<Deck>\n" + "<Cards" * ((MAX_CHARS - 8) // 6) + "\n",
        "<Deck>\n<Cards " + "a" * (MAX_CHARS - 20) + "\n",
        "1 x" + " #" * ((MAX_CHARS - 3) // 2),
        ("1 x \t" * 19 + "\n") * 999,
    ],
    ids=["spaces", "sets", "brackets", "carets", "stars", "slashes", "dek", "dek-attr", "hashes", "lines"],
)
def test_hostile_list_reads_in_linear_time(text: str) -> None:
    # Whatever its shape, a list within the size limit reads in well under a second (the old reader took
    # 20 s on a 100 KB line of spaces); 0.5 s leaves room for a slow shared machine.
    assert len(text) <= MAX_CHARS
    started = time.perf_counter()
    parse_decklist(text)
    assert time.perf_counter() - started < 0.5


# Names as cards have them: words of letters with apostrophes, commas and hyphens ("Jace, the Mind
# Sculptor", "Dragon's Rage Channeler"), never a header word alone.
WORD = st.from_regex(r"[A-Z][a-z]{1,8}(?:'s|-[a-z]{2,5})?,?", fullmatch=True)
NAME = (
    st.lists(WORD, min_size=1, max_size=4)
    .map(" ".join)
    .map(lambda n: n.rstrip(","))
    .filter(lambda n: n.lower().rstrip(":") not in HEADER_WORDS and not n.lower().startswith("name "))
)
HEADER_WORDS = {
    "deck", "main", "maindeck", "mainboard", "sideboard", "side", "commander", "commanders", "companion",
    "companions", "maybeboard", "maybe", "considering", "about", "tokens", "creature", "creatures", "land",
    "lands", "instant", "instants", "sorcery", "sorceries", "artifact", "artifacts", "enchantment",
    "enchantments", "planeswalker", "planeswalkers", "battle", "battles", "spells", "other", "others",
    "nonland", "nonlands",
}  # fmt: skip
ENTRIES = st.lists(
    st.tuples(st.integers(1, 99), NAME, st.sampled_from(["main", "sideboard", "commander", "maybeboard"])),
    min_size=1,
    max_size=12,
)
ARENA_HEADER = {
    "main": "Deck",
    "sideboard": "Sideboard",
    "commander": "Commander",
    "maybeboard": "Maybeboard",
}


def _expected(entries: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    order = ["commander", "main", "sideboard", "maybeboard"]
    return sorted(entries, key=lambda e: order.index(e[2]))


@settings(max_examples=150, deadline=None)
@given(ENTRIES, st.sampled_from(["arena", "moxfield", "archidekt", "dek", "deckstats"]))
def test_every_export_reads_back_what_it_wrote(entries: list[tuple[int, str, str]], form: str) -> None:
    rows = _expected(entries)
    lines: list[str] = []
    if form in ("arena", "moxfield", "deckstats"):
        for section in ["commander", "main", "sideboard", "maybeboard"]:
            group = [r for r in rows if r[2] == section]
            if not group:
                continue
            header = ARENA_HEADER[section]
            lines.append(
                {"arena": header, "moxfield": f"{header} ({sum(r[0] for r in group)})"}.get(
                    form, f"//{header}"
                )
            )
            for count, name, _ in group:
                lines.append(
                    {"arena": f"{count} {name} (M21) 12a", "moxfield": f"{count}x {name}"}.get(
                        form, f"{count} [SET#7] {name}"
                    )
                )
            lines.append("")
    elif form == "archidekt":
        category = {
            "main": "[Ramp,Card Draw]",
            "sideboard": "[Sideboard{noDeck}]",
            "commander": "*CMDR* [Commander{top}]",
            "maybeboard": "[Maybeboard{noDeck}{noPrice}]",
        }
        lines = [
            f"{count}x {name} (cmr) 1 *F* {category[section]} ^Have,#37d67a^" for count, name, section in rows
        ]
    else:
        rows = [r for r in rows if r[2] in ("main", "sideboard")]
        lines = ['<?xml version="1.0" encoding="utf-8"?>', "<Deck>"]
        lines += [
            f'  <Cards CatID="1" Quantity="{count}" Sideboard="{str(section == "sideboard").lower()}"'
            f' Name="{name.replace(chr(39), "&apos;")}" />'
            for count, name, section in rows
        ]
        lines.append("</Deck>")
    deck = parse_decklist("\n".join(lines) + "\n")
    assert [(e.count, e.name, e.section) for e in deck.entries] == rows
    assert deck.problems == ()
