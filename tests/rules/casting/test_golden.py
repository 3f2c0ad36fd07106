"""Golden cases as data (``tests/golden/*.yaml``): every ruling of ../shared/rulings plus the CR 601.2f cases.

Cards are named from the bundled catalogue (``app/data/cards.json.gz``) or given inline; characters come from
``app/data/characters.json``. Each case names its rule or ruling.
"""

from __future__ import annotations

import gzip
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.rules.casting import mental_magic
from app.rules.casting.engine import total_cost, ways_to_cast
from app.rules.casting.spell_cost import CastAs, CostWarning, OptionalChoice, SpellToCast, StepKind
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.card_registry import heralds_horn_reveal
from app.rules.text.characters import CharacterIndex
from app.rules.values.board import Board, Choices, Permanent, Player, ThisTurn
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.types import canonical_creature_type
from app.services.card_formats import card_from_inline, card_from_scryfall

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden"


@cache
def catalogue() -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for obj in json.loads(gzip.decompress((ROOT / "app" / "data" / "cards.json.gz").read_bytes())):
        c = card_from_scryfall(obj)
        cards[fold_name(c.name)] = c
        for f in c.faces:
            cards.setdefault(fold_name(f.name), c)
    return cards


@cache
def characters() -> CharacterIndex:
    return CharacterIndex.from_mapping(
        json.loads((ROOT / "app" / "data" / "characters.json").read_text("utf-8"))
    )


def card(ref: str | dict[str, Any]) -> Card:
    if isinstance(ref, dict):
        return card_from_inline(ref)
    return catalogue()[fold_name(ref)]


def board(case: dict[str, Any]) -> Board:
    perms = permanents(case.get("board") or [])
    facts = case.get("players") or {}
    names = dict.fromkeys(["you", case.get("caster", "you"), *(p.controller for p in perms), *facts])
    return Board(
        tuple(perms),
        tuple(player(n, facts.get(n) or {}) for n in names),
        case.get("active_player", "you"),
        day_night=case.get("day_night"),
        step=case.get("step"),
        effects=tuple(permanents(case.get("effects") or [])),
    )


def permanents(entries: list[dict[str, Any]]) -> list[Permanent]:
    perms = []
    for p in entries:
        chosen = dict(p.get("chosen") or {})
        if "imprinted" in chosen:
            chosen["imprinted"] = card(chosen["imprinted"])
        if "colors" in chosen:
            chosen["colors"] = tuple(chosen["colors"])
        perms.append(
            Permanent(
                id=p["id"],
                card=card(p["card"]),
                controller=p.get("controller", "you"),
                tapped=p.get("tapped", False),
                face=p.get("face"),
                chosen=Choices(**chosen),
                played_as=tuple(p.get("played_as", ())),
                counters=tuple((p.get("counters") or {}).items()),
                class_level=p.get("class_level", 1),
                attached_to=p.get("attached_to"),
                given=frozenset(k for k in ("counters", "class_level", "level", "token") if k in p)
                | ({"combat"} if "attacking" in p or "blocking" in p else set()),
                attacking=p.get("attacking", False),
                blocking=p.get("blocking", False),
                power=p.get("power"),
                toughness=p.get("toughness"),
                token=p.get("token", False),
            )
        )
    return perms


def player(name: str, facts: dict[str, Any]) -> Player:
    """A player with the zones and this-turn facts a case states (the rest: not given)."""
    turn = facts.get("this_turn") or {}
    zones = {
        z: tuple(card(c) for c in facts[z]) for z in ("graveyard", "exile", "hand", "commander") if z in facts
    }
    return Player(
        name,
        life=facts.get("life", 20),
        **zones,
        this_turn=ThisTurn(**turn, given=frozenset(turn)),
        given=frozenset(zones) | {k for k in ("counters", "speed") if k in facts},
        counters=tuple((facts.get("counters") or {}).items()),
        speed=facts.get("speed", 0),
    )


def spell(s: dict[str, Any]) -> SpellToCast:
    printing = s.get("printing") or {}
    cast_as = s.get("cast_as")
    return SpellToCast(
        card=card(s["card"]),
        face=s.get("face"),
        x=s.get("x", 0),
        alternative_cost=ManaCost.parse(s["alternative_cost"]) if "alternative_cost" in s else None,
        additional_costs=tuple(ManaCost.parse(c) for c in s.get("additional_costs", ())),
        cast_from=s.get("cast_from", "hand"),
        commander_casts=s.get("commander_casts", 0),
        cast_as=CastAs(card(cast_as["card"]), cast_as["via"]) if cast_as else None,
        flavor_text=printing.get("flavor_text"),
        art_characters=tuple(printing.get("art_characters", ())),
        targets=tuple(s.get("targets", ())),
        targets_given="targets" in s,
        commander_casts_given="commander_casts" in s,
        method=s.get("method"),
        optional_costs=tuple(OptionalChoice(**o) for o in s.get("optional_costs", ())),
        which=s.get("which"),
        granted_by=s.get("granted_by"),
    )


# Golden files of another shape, with their own test (not rules cases): file name -> the test reading it.
OTHER_GOLDEN = {
    "karsten_2022.yaml": "tests/rules/decks/test_castability.py",
    "activation_costs.yaml": "tests/rules/mana/test_golden_activation.py",
    "decklists.yaml": "tests/rules/decks/test_decklist_formats.py",
    "ledger.yaml": "tests/rules/text/test_golden_ledger.py",
}


def load_cases() -> list[Any]:
    out = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        if path.name in OTHER_GOLDEN:
            continue
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            out.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return out


CASES = load_cases()


def test_every_case_names_its_rule_and_every_ruling_file_is_covered() -> None:
    rules = {p.values[0]["rule"] for p in CASES}
    assert all(isinstance(r, str) and r for r in rules)
    rulings = ROOT.parent / "shared" / "rulings"
    if not rulings.is_dir():
        pytest.skip("../shared/rulings is not present")
    for path in rulings.glob("*.txt"):
        assert f"ruling:{path.stem}" in rules, f"no golden case for {path.name}"


_REMINDER = re.compile(r"\s*\([^()]*\)")


def _case_cards(case: dict[str, Any]) -> dict[str, Card]:
    """The cards a case names (board, spell, the card it is cast as, the revealed card), by name."""
    refs = [p["card"] for p in [*(case.get("board") or []), *(case.get("effects") or [])]]
    spell = case.get("spell")
    if isinstance(spell, dict) and "card" in spell:
        refs.append(spell["card"])
        if isinstance(spell.get("cast_as"), dict):
            refs.append(spell["cast_as"]["card"])
    if case.get("top_card"):
        refs.append(case["top_card"])
    return {r["name"] if isinstance(r, dict) else r: card(r) for r in refs}


def _printed(c: Card) -> str:
    """A card's mana costs, type lines and rules text, reminder text removed (CR 207.2)."""
    faces = [f"{f.mana_cost or ''}\n{f.type_line}\n{f.oracle_text}" for f in c.faces]
    return _REMINDER.sub("", "\n".join(faces))


@pytest.mark.parametrize("case", CASES)
def test_each_case_quotes_its_cards(case: dict[str, Any]) -> None:
    """Provenance: the sentences (mana costs, type lines) the expectation is worked out from, each really in
    a card of the case; a case naming no card quotes its ruling."""
    cards = _case_cards(case)
    if not cards:
        assert case.get("ruling"), "a case with no card quotes its ruling"
        return
    assert case.get("quote"), "every case quotes the sentences that decide it"
    for name, sentences in case["quote"].items():
        assert name in cards, f"the quote names {name}, not a card of the case"
        printed = _printed(cards[name])
        for sentence in sentences:
            assert sentence in printed, f"{sentence!r} is not in {name}'s text"


@pytest.mark.parametrize("case", CASES)
def test_golden(case: dict[str, Any]) -> None:
    kind = case.get("kind", "cost")
    expect = case["expect"]
    if kind == "choice":
        assert (canonical_creature_type(case["creature_type"]) is not None) is expect["valid"]
        return
    b = board(case)
    if kind == "reveal":
        answer = heralds_horn_reveal(b, case["board"][0]["id"], card(case["top_card"]))
        assert answer.may_put_into_hand is expect["may_put_into_hand"], answer.reason
        return
    if kind == "options":
        run_options(case, b, expect)
        return
    s = spell(case["spell"])
    if "error" in expect:
        kinds = {"rules-violation": IllegalError, "invalid-choice": InvalidChoiceError}
        with pytest.raises(kinds[expect["error"]], match=expect.get("message")):
            total_cost(b, case.get("caster", "you"), s, characters=characters())
        return
    r = total_cost(b, case.get("caster", "you"), s, characters=characters())
    explained = [(x.kind.value, x.source, str(x.result), x.applied, x.note) for x in r.steps]
    for field in ("total_cost", "mana_cost", "method", "granted_by"):
        if field in expect:
            assert str(getattr(r, field)) == expect[field], explained
    if "which" in expect:
        assert r.which == expect["which"], explained
    for field in ("mana_value", "mana_value_on_stack", "x_for_etb"):
        if field in expect:
            assert getattr(r, field) == expect[field], explained
    if "other_costs" in expect:
        assert [o.text for o in r.other_costs] == expect["other_costs"], explained
    refused: list[CostWarning] = []  # the warnings of the ways listed (API 1.3: an unknown way warns)
    offered = (
        ways_to_cast(b, case.get("caster", "you"), s, characters=characters(), known=r, refused=refused)
        if "ways" in expect
        else ()
    )
    if "warns" in expect:
        messages = " ".join(f"{w.text} {w.message}" for w in (*r.warnings, *refused))
        for needle in expect["warns"]:
            assert needle in messages, messages
    if "no_warns" in expect:  # a fact stated: the warning for it not given must not appear
        messages = " ".join(f"{w.text} {w.message}" for w in r.warnings)
        for needle in expect["no_warns"]:
            assert needle not in messages, messages
    if "ways" in expect:  # each listed way is offered, with its total and what it takes beside mana
        seen = [
            {
                "method": w.method,
                "total_cost": str(w.total_cost),
                **({"granted_by": w.granted_by} if w.granted_by else {}),
                **({"other_costs": [o.text for o in w.other_costs]} if w.other_costs else {}),
                # API 1.3: a way not available on the board is listed, saying so (and what would decide it)
                **(
                    {"available": "unknown" if w.available is None else w.available}
                    if w.available is not True
                    else {}
                ),
                **({"needs": list(w.needs)} if w.available is None else {}),
            }
            for w in offered
            if not w.optional_costs
        ]
        assert seen == expect["ways"], seen
    if "cast_as" in expect:
        assert r.cast_as is not None and r.cast_as.name == expect["cast_as"]
    changes = [x for x in r.steps if x.kind in (StepKind.REDUCTION, StepKind.INCREASE, StepKind.TOTAL)]
    applied = [x.source for x in changes if x.applied and x.note != "total cost locked in"]
    if "applied" in expect:
        assert applied == expect["applied"], explained
    for source in expect.get("not_applied", ()):
        assert source not in applied, explained
        assert any(x.source == source and not x.applied and x.note for x in changes), explained
    if "warnings" in expect:
        assert [w.source for w in r.warnings] == expect["warnings"]
    else:
        assert not [w for w in r.warnings if w.source is not None]


def run_options(case: dict[str, Any], b: Board, expect: dict[str, Any]) -> None:
    revealed = card(case["card"])
    richard = b.get(case["via"])
    fmt = case["format"]
    pool = {fold_name(n) for n in case.get("pool", ())}
    unique = {id(c): c for c in catalogue().values()}.values()
    candidates = [
        c
        for c in unique
        if c.mana_cost == revealed.mana_cost
        and (fmt == "unsanctioned" or (fmt == "pool" and fold_name(c.name) in pool) or c.is_legal_in(fmt))
    ]
    found = mental_magic.options(richard, revealed, candidates)
    names = {c.name for c in found.allowed}
    for n in expect.get("includes", ()):
        assert n in names
    for n in expect.get("excludes", ()):
        assert n not in names
    if "exactly" in expect:
        assert sorted(names) == sorted(expect["exactly"])
    if "excluded_reason" in expect:
        assert expect["excluded_reason"] in [r for _, r in found.excluded]
