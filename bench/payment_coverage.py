"""Payment coverage sweep (issue 24): every permanent of the bundled catalogue with a mana ability, paid.

For each mana ability of each permanent face (alone on a board, with a chosen color and creature type):

1. **given**: the board holds the least its cost needs (counters, untapped permanents of the kind it taps
   or sacrifices, cards in hand or graveyard, mana in the pool for a mana cost), and ``payments/plan``'s
   solver is asked to pay one mana of each type the ability could add: payable, or warned;
2. **one taken away** (one counter, permanent, card or the pool's mana fewer; the permanent tapped for a
   bare {T}): the ability's own types are asked again, where no other ability of the permanent adds
   them: not payable, or warned;
3. **restricted mana** (CR 106.6, "Spend this mana only to cast a creature spell"): checks 1 and 2 pay
   for casting a spell this script builds from the restriction's words to meet it (``spell_for``), and
   a plain spell sharing none of its words (``contrast_for``) is asked the ability's own types: not
   payable, or warned. A face with restricted mana pays its other abilities for that spell too (for a
   bare cost its restricted mana is left out with a warning). A restriction on how the spell is cast
   ("kicked spells", "from your graveyard", "from exile", "with flashback from a graveyard", "your
   commander", "face-down spells") is met by a plain spell cast that way and contrasted with the same spell
   cast from the hand, not kicked, face up, not a commander (``_how_cast``). Restrictions this script builds
   no spell for (mana only for abilities, "with devoid", "{X} in its mana cost") stay bare costs.

"Payable" in check 1 means a plan that activates the permanent (a step names it), unless the pool that
pays the ability's own cost already holds the type asked. Permanents the cost only sacrifices or returns
are tapped, so they add no mana of their own.

A check is **right** (as expected, no warning), **warned** (``warnings`` name the permanent: the service
said it did not understand something) or **silent** (wrong with no warning: the goal is 0). A face counts
by its worst check. Abilities that work only from another zone (CR 113.6m) and costs whose resources this
script cannot build are counted apart (``other``). Baseline: none (a coverage figure).
Target: 0 silent, at least 95% right.

    .venv/bin/python bench/payment_coverage.py [CARDS_JSON(.gz)] [--list silent|warned] [--limit N]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.errors import RulesError  # noqa: E402
from app.rules.mana.ability_values import Ability, PermanentState  # noqa: E402
from app.rules.mana.activation_checks import check_activation, existence_gate  # noqa: E402
from app.rules.mana.payment import PaymentSources  # noqa: E402
from app.rules.mana.production import analyze_board  # noqa: E402
from app.rules.mana.restrictions import Casting  # noqa: E402
from app.rules.mana.sources import bare_payment_inputs, payment_inputs  # noqa: E402
from app.rules.text.activation import Need  # noqa: E402
from app.rules.values.board import Board, Choices, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card, Face  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
from app.rules.values.creature_types import CREATURE_TYPE_LIST  # noqa: E402
from app.rules.values.names import NUMBER_WORDS  # noqa: E402
from app.rules.values.symbols import MANA_TYPES, SymbolKind  # noqa: E402
from app.rules.values.types import TypeLine  # noqa: E402
from app.services.card_formats import BadCardRecord, card_from_scryfall  # noqa: E402

BUNDLED = ROOT / "app" / "data" / "cards.json.gz"
PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")
LAND_SUBTYPES = {"Forest", "Island", "Mountain", "Plains", "Swamp", "Desert", "Gate", "Cave", "Lair", "Locus"}
_FIXTURE = "fixture"
Spell = tuple[Face, Casting]
"""A spell to pay for: its face and how it is cast (zone, way, kicked, commander, X)."""


def records(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as fh:
        data: list[dict[str, Any]] = json.load(fh)
    return data


def _resource_card(need: Need, k: int) -> Card | None:
    """An inline permanent the ``pick`` of ``need`` names (its first alternative); None if not built."""
    assert need.pick is not None
    flt, colors = need.pick.alternatives[0]
    if flt.keyword or flt.min_power or flt.named or flt.counter or flt.all_subtypes or flt.not_types:
        return None
    types = list(flt.types)
    subtypes = list(flt.subtypes[:1])
    if not types:
        if not subtypes:
            return None
        sub = subtypes[0]
        types = (
            ["Land"] if sub in LAND_SUBTYPES else ["Creature"] if sub in CREATURE_TYPE_LIST else ["Artifact"]
        )
    line = " ".join([*flt.supertypes, *types]) + (" — " + " ".join(subtypes) if subtypes else "")
    cost = ManaCost.parse("".join("{" + c + "}" for c in colors)) if colors else None
    name = f"Resource {k}"
    return Card(name, (Face(name, cost, TypeLine.parse(line), "", power="1", toughness="1"),))


def _pool_for(cost: ManaCost | None, asked: str) -> ManaCost | None:
    """Typed mana paying ``cost`` from the pool (a pool holds types, CR 106.4), its generic part of a type
    other than ``asked`` (so the pool cannot pay the mana asked of the ability itself)."""
    if cost is None or cost.is_zero:
        return None
    filler = "{C}" if asked != "C" else "{W}"
    out = [filler] * cost.generic
    for s in cost.others:
        if s.kind is SymbolKind.COLORLESS or not s.colors:
            out.append(filler)
        else:  # a hybrid's other half when the first is the type asked
            colors = [c for c in s.colors if c != asked] or list(s.colors)
            out.append("{" + colors[0] + "}")
    return ManaCost.parse("".join(out))


def board_for(
    card: Card, face: Face, ability: Ability, *, less: str | None, asked: str = "C"
) -> Board | None:
    """The board with the least ``ability``'s cost needs; ``less``: which resource has one fewer."""
    counters: dict[str, int] = {}
    extra: list[Permanent] = []
    hand: list[Card] = []
    graveyard: list[Card] = []
    for i, need in enumerate(ability.needs):
        if need.kind == "remove_counters" and need.amount:
            counters[need.counter or ""] = need.amount - (1 if less == f"need{i}" else 0)
        elif need.kind in {"tap", "sacrifice", "return"}:
            n = need.amount - (1 if less == f"need{i}" else 0)
            for k in range(n):
                made = _resource_card(need, k)
                if made is None:
                    return None
                # a permanent only sacrificed or returned is tapped: it adds no mana of its own (a Forest
                # sacrificed to Goblin Clearcutter), so the payment can only come from the ability
                extra.append(Permanent(f"r{i}-{k}", made, "you", tapped=need.kind != "tap"))
        elif need.kind in {"discard", "exile_cards"}:
            n = need.amount - (1 if less == f"need{i}" else 0)
            cards = [
                Card(f"Card {k}", (Face(f"Card {k}", None, TypeLine.parse("Instant")),)) for k in range(n)
            ]
            (hand if need.zone == "hand" else graveyard).extend(cards)
        elif need.kind in {"exile_self", "unknown", "exile"}:
            return None
    gate = existence_gate(face, ability)  # STATION N+ (CR 721.2a), max speed (702.178a): reached
    if gate is not None and gate[0] == "station":
        counters["charge"] = max(counters.get("charge", 0), gate[1])
    chosen = _chosen(face)
    perm = Permanent(
        "card",
        card,
        "you",
        face=None if face is card.front else face.name,
        chosen=chosen,
        tapped=(less == "tap") != ability.has_untap,  # {Q} needs it tapped (CR 107.6)
        counters=tuple(counters.items()),
        given=frozenset({"counters"}),
    )
    pool = None if less == "pool" else _pool_for(ability.mana_cost, asked)
    you = Player(
        "you",
        hand=tuple(hand),
        graveyard=tuple(graveyard),
        speed=4 if gate is not None and gate[0] == "speed" else 0,
        given=frozenset({"hand", "graveyard", "speed"}),
    )
    pools = (("you", pool),) if pool is not None else ()
    return Board((perm, *extra), (you, Player("opponent", given=frozenset({"counters"}))), mana_pool=pools)


def _answer(board: Board, mana: str, spell: Spell | None = None) -> tuple[bool, bool, bool]:
    """(payable, a plan paying it activates the permanent, warned about the permanent) for one ``mana``,
    paid for casting ``spell`` when given (restricted mana, CR 106.6), else as a bare cost."""
    cost = ManaCost.parse("{" + mana + "}")
    analysis = analyze_board(board)
    if spell is None:
        inputs = bare_payment_inputs(board, "you", analysis)
    else:
        inputs = payment_inputs(board, "you", cost, spell[0], analysis, casting=spell[1])
    warned = any(w.permanent == "card" for w in inputs.warnings)
    payer = PaymentSources(inputs.sources, pool=board.pool_of("you"), life=board.player("you").life)
    try:
        plan = payer.plan(cost)
    except RulesError:
        return False, False, warned
    return True, any(s.permanent == "card" for s in plan.steps), warned


def _verdict(expected: bool, got: bool, warned: bool) -> str:
    if got is expected:
        return "right" if not warned else "warned"
    return "warned" if warned else "silent"


def check_face(card: Card, face: Face) -> tuple[str, list[str]]:
    """The face's worst verdict and the texts of its silent or warned checks."""
    base = Board(
        (Permanent("card", card, "you", given=frozenset({"counters"})),),
        (Player("you"), Player("opponent", given=frozenset({"counters"}))),
    )
    state = analyze_board(base).state.states[0]
    mana = [a for a in state.abilities if a.is_mana_ability and a.mana is not None]
    if not mana:
        return "none", []
    chosen = _chosen(face)
    spells = {a.index: spell_for(a.restriction, chosen) for a in mana if a.restriction is not None}
    # an unrestricted ability is paid for a spell meeting the face's restrictions (restricted mana is not
    # used for a bare cost, said in a warning); a restriction the sweep cannot build a spell for stays bare
    any_spell = next((sp for sp in spells.values() if sp is not None), None)
    verdicts: list[tuple[str, str]] = []
    for ability in mana:
        spell = spells.get(ability.index, any_spell) if ability.restriction is not None else any_spell
        verdicts.extend(_check_ability(card, face, state, ability, spell))
    kinds = {v for v, _t in verdicts}
    worst = next((k for k in ("silent", "warned", "right", "other") if k in kinds), "none")
    return worst, [f"{v}: {t}" for v, t in verdicts if v in {"silent", "warned"}]


def _check_ability(
    card: Card, face: Face, state: PermanentState, ability: Ability, spell: Spell | None
) -> list[tuple[str, str]]:
    """The verdicts of one mana ability: each type it adds, paid (by this permanent); one resource fewer,
    not paid; for restricted mana, a spell that does not meet the restriction, not paid with it."""
    board = board_for(card, face, ability, less=None)
    if board is None:
        return [("other", ability.cost_text)]
    analysis = analyze_board(board)
    here = analysis.state.states[0]
    same = [a for a in here.abilities if a.index == ability.index and a.text == ability.text]
    if not same:
        return [("other", ability.cost_text)]  # the fixture changed its abilities
    if any(r.rule == "602.5b" for r in check_activation(analysis.state, here, same[0])):
        return [("other", ability.cost_text)]  # an "Activate only if" this board does not meet
    produced = analysis.produces.get(("card", ability.index)) or ()
    own = {t for m in produced for t in m.as_tuple(8)}
    if not own:
        return [("other", ability.cost_text)]  # adds nothing on this board (a count of 0)
    verdicts: list[tuple[str, str]] = []
    for t in sorted(own, key=MANA_TYPES.index):
        asked = board_for(card, face, ability, less=None, asked=t)
        assert asked is not None
        payable, used, warned = _answer(asked, t, spell)
        # the plan must activate this permanent, unless the pool paying its own cost holds the type asked
        # (Blood Celebrant's "{B}, Pay 1 life": that {B} pays {B} itself, CR 106.4)
        used = used or t in _types(asked.pool_of("you"))
        verdicts.append((_verdict(True, payable and used, warned), f"{ability.text} [{t}]"))
    # one resource taken away
    others = {
        t
        for a in state.abilities
        if a.index != ability.index and a.is_mana_ability
        for m in (analysis.produces.get(("card", a.index)) or ())
        for t in m.as_tuple(8)
    }
    lonely = sorted(own - others, key=MANA_TYPES.index)
    removals = [
        f"need{i}"
        for i, n in enumerate(ability.needs)
        if n.amount and n.kind in _COUNTED and not (n.pick and _names_itself(here, n))
    ]
    if ability.mana_cost is not None and not ability.mana_cost.is_zero and not others:
        removals.append("pool")  # (another mana ability of it could pay the cost instead)
    if ability.has_tap and not removals:
        removals.append("tap")
    for less in removals:
        smaller = board_for(card, face, ability, less=less, asked=lonely[0] if lonely else "C")
        if smaller is None or not lonely or lonely[0] in _types(smaller.pool_of("you")):
            continue  # (mana of that type in the pool would pay it with no ability at all)
        payable, _used, warned = _answer(smaller, lonely[0], spell)
        verdicts.append((_verdict(False, payable, warned), f"{ability.text} [{lonely[0]}, one {less} fewer]"))
    # restricted mana and a spell that does not meet the restriction (CR 106.6): never paid with it
    contrast = contrast_for(ability.restriction) if ability.restriction is not None and spell else None
    if contrast is not None and lonely:
        asked = board_for(card, face, ability, less=None, asked=lonely[0])
        assert asked is not None
        payable, _used, warned = _answer(asked, lonely[0], contrast)
        verdicts.append(
            (_verdict(False, payable, warned), f"{ability.text} [{lonely[0]}, for {_named(contrast)}]")
        )
    return verdicts


def _chosen(face: Face) -> Choices:
    """The choices the fixture's permanent was made with: its own creature type when it has one."""
    subtypes = [s for s in face.type_line.subtypes if face.type_line.has_creature_types]
    return Choices(creature_type=subtypes[0] if subtypes else "Elf", color="G")


# -- spells for restricted mana (CR 106.6) -------------------------------------------------------------
# The sweep builds, from the restriction's words, a spell with the characteristics its first alternative
# names (a spell meeting it) and a plain spell sharing none of its words (a spell not meeting it). This is
# the sweep's own reading of the sentence, kept apart from ``restrictions.spell_meets``: when the two
# disagree, the check is wrong (silent) or warned, never right by construction.

_SPELL_WORDS = re.compile(
    r"^Spend this mana only to (?:activate an ability or )?cast (?:an? )?(?P<words>[A-Za-z ,/'-]+?) spells?"
    r"(?P<chosen> of the chosen type)?"
    r"(?: with mana value (?P<mv>\w+) or greater)?(?:,? and that spell can't be countered)?(?: or .+)?\.$"
)
_ALTERNATIVE = re.compile(r",\s*(?:or\s+|and/or\s+)?|\s+or\s+|\s+and/or\s+")
_COLOR_SYMBOL = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
_SPELL_TYPES = (
    "Artifact",
    "Creature",
    "Enchantment",
    "Instant",
    "Sorcery",
    "Planeswalker",
    "Battle",
    "Kindred",
)
SUBTYPE_TYPES: dict[str, tuple[str, ...]] = {}
"""A subtype of the catalogue (not a creature type) -> the card types of the first card that has it
("Equipment" -> Artifact, "Lesson" -> Sorcery): filled by ``sweep`` from the cards it reads."""


def _index_subtypes(objs: list[dict[str, Any]]) -> None:
    for obj in objs:
        for line in [f.get("type_line") or "" for f in obj.get("card_faces") or [obj]]:
            parsed = TypeLine.parse(line)
            for sub in parsed.subtypes:
                if parsed.types and sub not in SUBTYPE_TYPES:
                    SUBTYPE_TYPES[sub] = parsed.types


_HOW_CAST = re.compile(
    r"^Spend this mana only to cast (?:(?P<commander>your commander)|(?:an? )?(?:(?P<how>kicked|face-down)"
    r"(?: creature)? )?spells?(?P<flashback> with flashback)?"
    r"(?: from (?P<zone>your graveyard|a graveyard|exile|anywhere other than your hand))?(?: or .+)?)\.$"
)
_ZONES = {"your graveyard": "graveyard", "a graveyard": "graveyard", "exile": "exile"}


def _how_cast(restriction: str) -> tuple[Face, Casting, Casting] | None:
    """For a restriction on how a spell is cast (CR 601.2a zone, 702.33d kicked, 702.37c face down, 903.3
    your commander, 702.34a flashback): a plain spell, a way of casting it that meets the restriction and
    one that does not (cast from the hand, not kicked, face up, not a commander). None: not one of them."""
    m = _HOW_CAST.match(restriction)
    if m is None or not any(m.group(g) for g in ("commander", "how", "flashback", "zone")):
        return None
    plain = Casting(commander=False)
    keywords = ("Flashback",) if m.group("flashback") else ()
    face = Face("Meeting Spell", ManaCost.parse("{1}"), TypeLine.parse("Creature"), keywords=keywords)
    if m.group("commander"):
        return face, Casting(commander=True), plain
    zone = m.group("zone")
    meets = Casting(
        cast_from=_ZONES.get(zone, "exile") if zone else "hand",
        method="flashback" if m.group("flashback") else "morph" if m.group("how") == "face-down" else None,
        kicked=m.group("how") == "kicked",
        commander=False,
    )
    return face, meets, plain


def _named(spell: Spell) -> str:
    face, casting = spell
    how = [f"from {casting.cast_from}"] if casting.cast_from != "hand" else []
    how += ["kicked"] * casting.kicked + ([casting.method] if casting.method else [])
    how += ["commander"] * bool(casting.commander)
    return " ".join([face.name, *how])


def spell_for(restriction: str, chosen: Choices) -> Spell | None:
    """A spell meeting the first alternative of "Spend this mana only to cast ... spell", cast from the
    hand (or as the restriction says: kicked, from a graveyard or exile, as your commander, face down);
    None: words this sweep does not build (with devoid, with {X} in its mana cost...)."""
    how = _how_cast(restriction)
    if how is not None:
        return how[0], how[1]
    face = _spell_face(restriction, chosen)
    return None if face is None else (face, Casting(commander=False))


def _spell_face(restriction: str, chosen: Choices) -> Face | None:
    """The face of ``spell_for``'s spell for a restriction on the spell's characteristics."""
    m = _SPELL_WORDS.match(restriction)
    if m is None:
        return None
    first = _ALTERNATIVE.split(m.group("words").strip())[0].strip()
    supertypes: list[str] = []
    types: list[str] = []
    subtypes: list[str] = []
    cost: list[str] = []
    words = first.split()
    i = 0
    while i < len(words):
        word, low = words[i], words[i].casefold().removesuffix("s")
        two = " ".join(words[i : i + 2])
        if low.capitalize() in _SPELL_TYPES:
            types.append(low.capitalize())
        elif low in {"legendary", "snow"}:
            supertypes.append(low.capitalize())
        elif low in _COLOR_SYMBOL:
            cost.append(_COLOR_SYMBOL[low])
        elif low == "colorles":
            cost.append("2")
        elif low.startswith("non") and low[3:].capitalize() in _SPELL_TYPES:  # "a noncreature spell"
            types.append("Instant" if low[3:] != "instant" else "Sorcery")
        elif low == "multicolored":
            cost.extend(("W", "U"))
        elif two in CREATURE_TYPE_LIST or two in SUBTYPE_TYPES:
            subtypes.append(two)
            i += 1
        elif word[:1].isupper() and (
            word in CREATURE_TYPE_LIST or word.removesuffix("s") in CREATURE_TYPE_LIST
        ):
            subtypes.append(word if word in CREATURE_TYPE_LIST else word.removesuffix("s"))
        elif word[:1].isupper() and (word in SUBTYPE_TYPES or word.removesuffix("s") in SUBTYPE_TYPES):
            subtypes.append(word if word in SUBTYPE_TYPES else word.removesuffix("s"))
        else:
            return None
        i += 1
    if m.group("chosen"):
        subtypes.append(chosen.creature_type or "Elf")
    if not types:
        found = [SUBTYPE_TYPES.get(s, ("Creature",) if s in CREATURE_TYPE_LIST else ()) for s in subtypes]
        types = list(found[0]) if found and found[0] else ["Sorcery"]
    if m.group("mv"):
        n = NUMBER_WORDS.get(m.group("mv"), None)
        n = int(m.group("mv")) if n is None and m.group("mv").isdigit() else n
        if n is None:
            return None
        cost.insert(0, str(n))
    line = " ".join([*supertypes, *types]) + (" — " + " ".join(subtypes) if subtypes else "")
    mana_cost = ManaCost.parse("".join("{" + c + "}" for c in cost or ["1"]))
    return Face("Meeting Spell", mana_cost, TypeLine.parse(line), power="1", toughness="1")


def contrast_for(restriction: str) -> Spell | None:
    """For a restriction on how a spell is cast, the same spell cast the other way (from the hand, not
    kicked...); else a red spell of one card type, no supertype or subtype, mana value 1, whose type the
    restriction does not name, cast from the hand: it meets no "to cast ... spell" restriction this sweep
    builds (None when the restriction's words could take it: "non-", red, monocolored, any spell)."""
    how = _how_cast(restriction)
    if how is not None:
        return how[0], how[2]
    face = _contrast_face(restriction)
    return None if face is None else (face, Casting(commander=False))


def _contrast_face(restriction: str) -> Face | None:
    m = _SPELL_WORDS.match(restriction)
    words = restriction.casefold()
    if m is None or any(w in words for w in ("non", "red", "monocolored", "mana value")):
        return None
    for kind in ("Instant", "Creature", "Enchantment"):
        if kind.casefold() not in words:
            return Face(
                f"Plain {kind}", ManaCost.parse("{R}"), TypeLine.parse(kind), power="1", toughness="1"
            )
    return None


def _types(pool: ManaCost) -> set[str]:
    return {"C" if s.kind is SymbolKind.COLORLESS else s.colors[0] for s in pool.others}


def _names_itself(state: PermanentState, need: Need) -> bool:
    """The permanent itself can pay this part ("Tap an untapped creature you control" on a creature)."""
    assert need.pick is not None
    return any(state.matches(flt, state.permanent) for flt, _colors in need.pick.alternatives)


_COUNTED = frozenset({"remove_counters", "tap", "sacrifice", "return", "discard", "exile_cards"})


def sweep(path: Path, *, listing: str | None = None, limit: int = 60) -> tuple[Counter[str], list[str]]:
    totals: Counter[str] = Counter()
    listed: list[str] = []
    objs = records(path)
    _index_subtypes(objs)
    for obj in objs:
        if obj.get("layout") in {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme"}:
            continue
        if "Add" not in (obj.get("oracle_text") or "") and not obj.get("card_faces"):
            continue
        try:
            card = card_from_scryfall(obj)
        except BadCardRecord:
            continue
        for face in card.faces:
            if not any(t in face.type_line.types for t in PERMANENT_TYPES) or "Add" not in face.oracle_text:
                continue
            try:
                verdict, lines = check_face(card, face)
            except RulesError as exc:
                verdict, lines = "warned", [f"rules error: {exc}"]
            except Exception as exc:  # a crash is the worst silence: counted and shown
                verdict, lines = "silent", [f"crash: {type(exc).__name__}: {exc}"]
            if verdict == "none":
                continue
            totals[verdict] += 1
            if listing == verdict and len(listed) < limit:
                listed.extend(f"{face.name}: {line}" for line in lines)
    return totals, listed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cards", nargs="?", default=str(BUNDLED))
    parser.add_argument("--list", choices=("silent", "warned", "other"), default=None)
    parser.add_argument("--limit", type=int, default=60)
    args = parser.parse_args()
    start = time.perf_counter()
    totals, listed = sweep(Path(args.cards), listing=args.list, limit=args.limit)
    elapsed = time.perf_counter() - start
    for line in listed[: args.limit]:
        print(" ", line)
    n = sum(totals.values())
    checked = n - totals["other"]
    print(f"{n} permanent faces with a mana ability ({elapsed:.1f} s); {checked} checked")
    for kind in ("right", "warned", "silent", "other"):
        share = 100 * totals[kind] / max(checked if kind != "other" else n, 1)
        print(f"  {kind:<7} {totals[kind]:>6}  {share:6.2f} %")


if __name__ == "__main__":
    main()
