"""Oracle texts whose line breaks the data lost (the Alchemy Gates, Baldur's Gate), read as their lines,
and texts around mana that are no mana ability change (Zhur-Taa Druid)."""

from __future__ import annotations

from app.rules.text.mana_amounts import parse_condition
from app.rules.text.oracle_mana import read_face, read_text, restore_breaks
from app.rules.values.cards import Face
from app.rules.values.types import TypeLine

GATE = (
    "Gate of the Black Dragon enters the battlefield tapped.{3}{B}, {T}: Seek a nonland card. "
    "Activate only once.{T}: Add {B}."
)


def test_a_cost_right_after_a_sentence_starts_a_line() -> None:
    assert restore_breaks(GATE).splitlines() == [
        "Gate of the Black Dragon enters the battlefield tapped.",
        "{3}{B}, {T}: Seek a nonland card. Activate only once.",
        "{T}: Add {B}.",
    ]
    baldur = "{T}: Add {C}.{2}, {T}: Add X mana of any one color, where X is the number of other Gates."
    assert len(restore_breaks(baldur).splitlines()) == 2


def test_braces_inside_quotes_and_in_a_sentence_stay() -> None:
    granted = 'Lands you control have "{T}: Add {C}.{T}: Add {B}." and more.'
    assert restore_breaks(granted) == granted
    assert restore_breaks("{T}: Add {C}{C}. Spend this mana only to cast spells.").count("\n") == 0
    assert restore_breaks('this spell."{1}: Exile target card.').splitlines() == [
        'this spell."',
        "{1}: Exile target card.",
    ]


def test_the_gate_has_one_mana_ability_its_land_type_reminder_is_no_second() -> None:
    """CR 305.6: a Swamp has "{T}: Add {B}."; the trailing "{T}: Add {B}." is its reminder (CR 207.2)."""
    face = Face("Gate of the Black Dragon", None, TypeLine.parse("Land — Swamp Gate"), oracle_text=GATE)
    reading = read_face(face)
    assert reading.problems == ()
    assert [a.mana for a in reading.activated if a.mana is not None] == []  # the Swamp type gives it
    # without the land type, the line is the face's own ability
    assert any(a.mana is not None for a in read_text(GATE, "Gate of the Black Dragon").activated)


def test_activate_only_once_is_timing_and_once_and_only_if_reads_the_if() -> None:
    assert parse_condition("once").kind == "timing"
    assert parse_condition("once and only if you control an Island").kind == "control"


def test_zhur_taa_druids_damage_trigger_is_no_mana_text() -> None:
    text = "{T}: Add {G}.\nWhenever you tap Zhur-Taa Druid for mana, it deals 1 damage to each opponent."
    assert read_text(text, "Zhur-Taa Druid").problems == ()


def test_corrupted_is_a_count_of_an_opponents_counters() -> None:
    cond = parse_condition("if an opponent has three or more poison counters and only once each turn")
    assert (cond.kind, cond.at_least, cond.counter) == ("player_counters", 3, "poison")
