"""The decklist text reader: every text form, sections, comments, line numbers and the limits."""

from __future__ import annotations

import pytest

from app.rules.decks.decklist import (
    MAX_CHARS,
    MAX_LINES,
    CountOutOfRange,
    DecklistTooLarge,
    Entry,
    parse_decklist,
)


def _rows(text: str) -> list[tuple[int, int, str, str]]:
    return [(e.line, e.count, e.name, e.section) for e in parse_decklist(text).entries]


def test_plain_x_and_bare_forms() -> None:
    assert _rows("4 Llanowar Elves\n4x Lightning Bolt\n3 x Shock\nForest\n") == [
        (1, 4, "Llanowar Elves", "main"),
        (2, 4, "Lightning Bolt", "main"),
        (3, 3, "Shock", "main"),
        (4, 1, "Forest", "main"),
    ]


def test_arena_lines_drop_set_and_number() -> None:
    text = "Deck\n4 Llanowar Elves (DOM) 168\n2 Fire // Ice (MH2) 290\n1 Forest (ZNR) 279a\n"
    assert _rows(text) == [
        (2, 4, "Llanowar Elves", "main"),
        (3, 2, "Fire // Ice", "main"),
        (4, 1, "Forest", "main"),
    ]


def test_headers_sections_and_companion_in_sideboard() -> None:
    text = (
        "Commander\n1 Omnath, Locus of Creation\n\nDeck\n1 Forest\n\nSideboard:\n2 Shock\n"
        "COMPANION\n1 Lurrus of the Dream-Den\n"
    )
    assert _rows(text) == [
        (2, 1, "Omnath, Locus of Creation", "commander"),
        (5, 1, "Forest", "main"),
        (8, 2, "Shock", "sideboard"),
        (10, 1, "Lurrus of the Dream-Den", "sideboard"),  # CR 702.139a
    ]


def test_sb_prefix_wherever_it_stands() -> None:
    assert _rows("4 Shock\nSB: 2 Blood Moon\nsb:1 Fog\n4 Forest") == [
        (1, 4, "Shock", "main"),
        (2, 2, "Blood Moon", "sideboard"),
        (3, 1, "Fog", "sideboard"),
        (4, 4, "Forest", "main"),
    ]


def test_blank_line_starts_the_sideboard_only_without_headers() -> None:
    assert _rows("\n4 Shock\n\n2 Fog\n\n1 Forest") == [
        (2, 4, "Shock", "main"),  # a leading blank line (no cards yet) does not switch
        (4, 2, "Fog", "sideboard"),
        (6, 1, "Forest", "sideboard"),
    ]
    # With a header, blank lines are only spacing.
    assert _rows("Deck\n4 Shock\n\n2 Fog") == [(2, 4, "Shock", "main"), (4, 2, "Fog", "main")]


def test_comments_are_skipped_and_lines_are_physical() -> None:
    text = "// Gruul\n# by someone\n4 Shock\r\n  \t\n// Sideboard-ish comment\n2 Fog\n"
    deck = parse_decklist(text)
    assert deck.entries == (
        Entry(3, 4, "Shock", "main", "4 Shock"),
        Entry(6, 2, "Fog", "sideboard", "2 Fog"),
    )


def test_count_without_name_is_a_problem_not_a_failure() -> None:
    deck = parse_decklist("4 Shock\n12\n4x\n1 Fog")
    assert [(p.line, p.text) for p in deck.problems] == [(2, "12"), (3, "4x")]
    assert [e.name for e in deck.entries] == ["Shock", "Fog"]


@pytest.mark.parametrize("count", [0, 1001, 99999999999])
def test_count_out_of_range(count: int) -> None:
    with pytest.raises(CountOutOfRange) as exc:
        parse_decklist(f"1 Fog\n{count} Shock")
    assert exc.value.line == 2


def test_count_limits_inclusive() -> None:
    assert _rows("1000 Forest\n1 Fog") == [(1, 1000, "Forest", "main"), (2, 1, "Fog", "main")]


def test_character_limit() -> None:
    ok = "1 Fog\n" + "#" * (MAX_CHARS - 6)
    assert len(ok) == MAX_CHARS
    assert _rows(ok) == [(1, 1, "Fog", "main")]
    with pytest.raises(DecklistTooLarge) as exc:
        parse_decklist(ok + "#")
    assert exc.value.what == "characters"


def test_line_limit() -> None:
    assert len(parse_decklist("1 Fog\n" * MAX_LINES).entries) == MAX_LINES
    with pytest.raises(DecklistTooLarge) as exc:
        parse_decklist("1 Fog\n" * (MAX_LINES + 1))
    assert exc.value.what == "lines"
