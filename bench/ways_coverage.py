"""Ways coverage sweep (issue 25): every way to cast and every optional cost that a card's text offers, over
the whole catalogue, classified as right, warned or silently missing.

The casting texts are found by this script's own patterns, independent of the readers (a keyword line of
a way to cast or an optional cost, CR 702, with the zone the rules give it; an alternative cost written in
the text, "rather than pay this spell's mana cost", CR 118.9; "you may cast this spell without paying its
mana cost"; a card's own permission to be cast from another zone, CR 601.3; spree and tiered modes,
702.172a, 702.183a) and the cost each gives is worked out here from the text. Then the card is costed by
the engine from that zone on an empty board (``ways_to_cast``, as ``spells/cost`` answers ``ways``):

- **right**: a way with that method (and optional cost) is offered with the cost the text gives;
- **warned**: it is not, or with another cost, and the answer (or the reader) says so in a warning, or the
  way is refused with a rules violation naming why (a condition the empty board does not meet);
- **silent**: neither: missing, or a different total, and nothing said. The goal is 0.

Permanents that grant ways (a permission to cast from a zone, an alternative cost, a granted keyword: CR
601.2b, 613) are counted by sentence: right when the reader made it a permission, warned when it said it
did not read it (the answer then warns), silent otherwise.

Figures are per item and per card face (a face is right when all its items are, silent when any is,
warned otherwise). Baseline: none (a coverage figure, not a timing). Target: 0 silent, at least 95% right.

    .venv/bin/python bench/ways_coverage.py [CARDS_JSON ...] [--list silent|warned|right] [--limit N]

Without arguments it reads ``../shared/data/scryfall-oracle-cards.json`` and the spoiler supplement next to
it when present, else the bundled catalogue (``app/data/cards.json.gz``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.casting.engine import total_cost, ways_to_cast  # noqa: E402
from app.rules.casting.prepared import prepare_board  # noqa: E402
from app.rules.casting.spell_cost import CostWarning, OptionalChoice, SpellToCast, WayTotal  # noqa: E402
from app.rules.errors import RulesError  # noqa: E402
from app.rules.text.face_ways import ways_of  # noqa: E402
from app.rules.text.granted_text import read_granted  # noqa: E402
from app.rules.values.board import Board, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card, Face  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
from app.rules.values.types import TypeLine  # noqa: E402
from app.services.card_formats import BadCardRecord, card_from_scryfall  # noqa: E402

SKIP_LAYOUTS = {"token", "double_faced_token", "emblem", "art_series", "planar", "scheme", "vanguard"}

# CR 702: the ways to cast with a cost, the zone each applies from, and how the cost reads (written from the
# rules for this bench; the reader has its own table). "cost": the mana after the keyword; "three": {3}
# face down (702.37c); "zero": without paying its mana cost; "mana_cost": the card's mana cost.
WAY_KEYWORDS: dict[str, tuple[str, str]] = {
    "flashback": ("graveyard", "cost"), "madness": ("exile", "cost"), "morph": ("hand", "three"),
    "megamorph": ("hand", "three"), "disguise": ("hand", "three"), "evoke": ("hand", "cost"),
    "prowl": ("hand", "cost"), "retrace": ("graveyard", "mana_cost"), "miracle": ("hand", "cost"),
    "overload": ("hand", "cost"), "bestow": ("hand", "cost"), "dash": ("hand", "cost"),
    "awaken": ("hand", "cost"), "surge": ("hand", "cost"), "emerge": ("hand", "cost"),
    "aftermath": ("graveyard", "mana_cost"), "jump-start": ("graveyard", "mana_cost"),
    "spectacle": ("hand", "cost"), "escape": ("graveyard", "cost"), "mutate": ("hand", "cost"),
    "foretell": ("exile", "cost"), "disturb": ("graveyard", "cost"), "cleave": ("hand", "cost"),
    "blitz": ("hand", "cost"), "prototype": ("hand", "cost"), "more than meets the eye": ("hand", "cost"),
    "plot": ("exile", "zero"), "freerunning": ("hand", "cost"), "impending": ("hand", "cost"),
    "harmonize": ("graveyard", "cost"), "warp": ("hand", "cost"), "mayhem": ("graveyard", "cost"),
    "web-slinging": ("hand", "cost"), "suspend": ("exile", "zero"), "sneak": ("hand", "cost"),
}  # fmt: skip
OPTIONAL_KEYWORDS = (
    "buyback", "kicker", "multikicker", "entwine", "replicate", "conspire", "escalate", "casualty",
    "squad", "bargain", "gift", "offspring",
)  # fmt: skip
REMINDER = re.compile(r"\([^()]{0,2000}\)")
BRACES = re.compile(r"(?:\{[^{}]{1,8}\})+")
OWN_ALTERNATIVE = re.compile(r"rather than pay (?:this spell's|[^.]{1,60}'s) mana cost", re.IGNORECASE)
OWN_FREE = re.compile(r"^(?:if [^.]{1,160}, )?you may cast (?:this spell|~) without paying", re.IGNORECASE)
OWN_ZONE = re.compile(r"^(?:[^.]{0,160}, )?you may cast ~ from (?:your )?(graveyard|exile)", re.IGNORECASE)
GRANTED = re.compile(
    r"rather than pay(?:ing)? (?:the|its|their) mana costs?|without paying their mana costs"
    r"|\bmay (?:play lands and )?cast [a-z ,0-9]{0,80}spells? from\b|card in your graveyard (?:has|gains) "
    r"(?:escape|flashback)",
    re.IGNORECASE,
)
TRIGGERED = re.compile(
    r"^(?:[a-z' -]{1,30} — )?(?:when|whenever|at the beginning|at end)\b|^[^\"]{0,80}?: ", re.IGNORECASE
)
ONE_SHOT = re.compile(r"from among|the cop(?:y|ies)|that card|those cards|the exiled card|it this turn", re.I)


@dataclass(frozen=True)
class Item:
    """One thing the text offers: how it is cast (``method``, ``optional``) from ``zone`` and the total the
    text gives (None: not worked out here, any total counts; X is 0, CR 107.3b), and the text it is from."""

    text: str
    zone: str
    method: str
    expected: ManaCost | None
    optional: str | None = None
    which: int = 1


def _lines(face: Face) -> Iterator[str]:
    for raw in face.oracle_text.split("\n"):
        line = REMINDER.sub("", raw).strip()
        if line:
            yield line


def _keyword(line: str, keywords: Iterable[str]) -> str | None:
    low = line.casefold()
    for kw in sorted(keywords, key=len, reverse=True):
        if low.startswith(kw):
            rest = low[len(kw) :]
            if rest == "" or rest[0] in "—{" or rest.startswith((" {", " —", " x")) or rest[1:2].isdigit():
                return kw
    return None


def _first_cost(text: str) -> ManaCost:
    """The first run of mana symbols in ``text`` ({0} when it has none: a cost of other parts only)."""
    found = BRACES.search(text.split(", ", 1)[0])
    return ManaCost.parse(found.group(0)) if found else ManaCost.zero()


def items(face: Face) -> list[Item]:
    """Everything this face's text offers for casting it (see the module)."""
    out: list[Item] = []
    name = face.name
    lines = list(_lines(face))
    for line in lines:
        kw = _keyword(line, WAY_KEYWORDS)
        if kw is not None:
            zone, how = WAY_KEYWORDS[kw]
            rest = (
                line[len(kw) :].split("—", 1)[1]
                if kw in ("awaken", "impending", "suspend")
                else line[len(kw) :]
            )
            expected = {
                "three": ManaCost.of(3),
                "zero": ManaCost.zero(),
                "mana_cost": face.mana_cost,
            }.get(how, _first_cost(rest) if how == "cost" else None)
            out.append(Item(line, zone, kw, expected if kw != "suspend" else ManaCost.zero()))
            continue
        opt = _keyword(line, OPTIONAL_KEYWORDS)
        if opt is not None and face.mana_cost is not None:
            costs = [_first_cost(p) for p in line[len(opt) :].split(" and/or ")]
            for i, c in enumerate(costs, 1):
                out.append(Item(line, "hand", "normal", face.mana_cost + c, opt, i))
    if any(x.casefold() in ("spree", "tiered") for x in lines) and face.mana_cost is not None:
        modal = "spree" if any(x.casefold() == "spree" for x in lines) else "tiered"
        for i, line in enumerate((x for x in lines if x.startswith("+ ")), 1):
            out.append(Item(line, "hand", "normal", face.mana_cost + _first_cost(line[2:]), modal, i))
    for line in lines:
        for sentence in re.split(r"(?<=\.)\s*(?=[A-Z])", line.replace(name, "~")):
            if OWN_ALTERNATIVE.search(sentence) and "rather than pay the mana cost" not in sentence:
                pay = re.search(r"you may pay ((?:\{[^{}]{1,8}\})+)(?: rather| and|,)", sentence, re.I)
                expected = ManaCost.parse(pay.group(1)) if pay else ManaCost.zero()
                zone = "graveyard" if "cast ~ from your graveyard" in sentence else "hand"
                out.append(Item(sentence, zone, "alternative" if zone == "hand" else "any", expected))
            elif OWN_FREE.search(sentence):
                out.append(Item(sentence, "hand", "alternative", ManaCost.zero()))
            elif (m := OWN_ZONE.search(sentence)) and not TRIGGERED.match(sentence):
                out.append(Item(sentence, m.group(1).casefold(), "any", None))
    return out


def _offered(ways: tuple[WayTotal, ...], item: Item) -> list[WayTotal]:
    found = []
    for w in ways:
        if item.method not in ("any", w.method):
            continue
        opts = [(o.keyword, o.which) for o in w.optional_costs]
        if item.optional is None and opts:
            continue
        if item.optional is not None and (item.optional, item.which) not in opts:
            continue
        found.append(w)
    return found


def _explained(card: Card, face: Face, item: Item, board: Any) -> bool:
    """Whether the total differs from the text's cost only by the spell's own cost abilities ("This spell
    costs {1} less to cast if it's bargained"), each an applied step of the answer (CR 601.2f)."""
    optional = (OptionalChoice(item.optional, item.which),) if item.optional else ()
    method = None if item.method in ("any", "normal") else item.method
    spell = SpellToCast(
        card,
        face=face.name if len(card.faces) > 1 else None,
        cast_from=item.zone,
        method=method,
        optional_costs=optional,
    )
    try:
        r = total_cost(board, "you", spell)
    except RulesError:
        return False
    return any(s.source is None and s.applied and s.kind.value in ("reduction", "increase") for s in r.steps)


def _norm(text: str) -> str:
    return " ".join(REMINDER.sub("", text).casefold().split()).rstrip(".")


def classify(card: Card, face: Face, board: Any) -> list[tuple[str, str]]:
    verdicts: list[tuple[str, str]] = []
    by_zone: dict[str, tuple[tuple[WayTotal, ...], str]] = {}
    for item in items(face):
        if item.zone not in by_zone:
            spell = SpellToCast(card, face=face.name if len(card.faces) > 1 else None, cast_from=item.zone)
            try:
                result = total_cost(board, "you", spell)
                refused: list[CostWarning] = []
                ways = ways_to_cast(board, "you", spell, known=result, refused=refused)
                said = " ".join(_norm(f"{w.text} {w.message}") for w in (*result.warnings, *refused))
            except RulesError as exc:  # refused with a rule: the answer says why
                ways, said = (), _norm(f"refused: {exc}")
            said += " " + " ".join(_norm(n.text) for n in ways_of(face).not_read)
            by_zone[item.zone] = (ways, said)
        ways, said = by_zone[item.zone]
        offered = _offered(ways, item)
        expected = None if item.expected is None else item.expected.with_variables(0, 0, 0)
        if offered and (expected is None or any(w.total_cost == expected for w in offered)):
            verdicts.append((item.text, "right"))
            continue
        if offered and _explained(card, face, item, board):
            verdicts.append((item.text, "right"))
            continue
        if item.optional is not None:
            spell = SpellToCast(
                card,
                face=face.name if len(card.faces) > 1 else None,
                optional_costs=(OptionalChoice(item.optional, item.which),),
            )
            try:
                r = total_cost(board, "you", spell)
                said += " " + " ".join(_norm(f"{w.text} {w.message}") for w in r.warnings)
            except RulesError as exc:
                said += " refused: " + _norm(str(exc))
        n = _norm(item.text)
        if (n and n[:40] in said) or "refused:" in said or (not offered and said.strip()):
            verdicts.append((item.text, "warned"))
        else:
            verdicts.append((item.text, "silent"))
    for sentence in _granted_sentences(face):
        granted = read_granted(face.name, face.oracle_text)
        n = _norm(sentence.replace(face.name, "~").replace(face.name.split(",")[0], "~"))
        read = [_norm(p.text) for p in granted.permissions] + [_norm(k.text) for k in granted.keyword_costs]
        if any(n[:60] in r for r in read):
            verdicts.append((sentence, "right"))
        elif any(n[:60] in _norm(t) for t in granted.not_read):
            verdicts.append((sentence, "warned"))
        else:
            verdicts.append((sentence, "silent"))
    return verdicts


def _granted_sentences(face: Face) -> list[str]:
    """A permanent's (or an effect's) sentences that grant ways to cast the spells its controller casts."""
    out = []
    for line in _lines(face):
        for sentence in re.split(r"(?<=\.)\s*(?=[A-Z])", line):
            low = sentence.replace(face.name, "~").casefold()
            if (
                GRANTED.search(low)
                and not TRIGGERED.match(low)
                and not ONE_SHOT.search(low)
                and "~" not in low
            ):
                out.append(sentence)
    return out


def records(paths: list[Path]) -> Iterator[dict[str, Any]]:
    for path in paths:
        if path.suffix == ".gz":
            yield from json.loads(gzip.decompress(path.read_bytes()))
        else:
            yield from json.loads(path.read_text(encoding="utf-8"))


def sweep(paths: list[Path], listing: str | None = None, limit: int = 60) -> dict[str, Any]:
    """Run the sweep; the counts per item and per face, and the items listed for ``listing``."""
    # each basic land type on each side, so "If you control a Swamp" and "if an opponent controls an Island"
    # hold: the sweep asks whether the way is read and costed, and those conditions are checked on the board
    basics = ("Plains", "Island", "Swamp", "Mountain", "Forest")
    lands = tuple(
        Permanent(f"{who}-{name.lower()}", _basic(name), controller=who)
        for who in ("you", "opponent")
        for name in basics
    )
    # and a permanent of yours to sacrifice for emerge and offering (CR 702.119a, 702.48a): a changeling
    # artifact creature token with no mana cost (mana value 0, CR 202.3a), so their costs are the text's
    fodder = Permanent("you-fodder", _fodder(), token=True, given=frozenset({"token"}))
    board = prepare_board(Board((*lands, fodder), (Player("you"), Player("opponent"))))
    per_item: Counter[str] = Counter()
    per_face: Counter[str] = Counter()
    listed: list[str] = []
    seen: set[tuple[str, str]] = set()
    for obj in records(paths):
        if obj.get("layout") in SKIP_LAYOUTS:
            continue
        try:
            card = card_from_scryfall(obj)
        except BadCardRecord:
            continue
        for face in card.faces:
            key = (face.name, face.oracle_text)
            if key in seen:
                continue
            seen.add(key)
            try:
                verdicts = classify(card, face, board)
            except Exception as exc:  # a crash is the worst kind of silence: count it and show it
                verdicts = [(f"crash: {type(exc).__name__}: {exc}", "silent")]
            if not verdicts:
                continue
            kinds = {v for _s, v in verdicts}
            per_face["silent" if "silent" in kinds else "warned" if "warned" in kinds else "right"] += 1
            for text, verdict in verdicts:
                per_item[verdict] += 1
                if listing == verdict and len(listed) < limit:
                    listed.append(f"{face.name}: {text}")
    return {"items": per_item, "faces": per_face, "listed": listed}


def _basic(name: str) -> Card:
    face = Face(name, None, TypeLine.parse(f"Basic Land — {name}"), "")
    return Card(name, (face,), layout="normal")


def _fodder() -> Card:
    text = "Changeling"
    kind = TypeLine.parse("Artifact Creature — Shapeshifter")
    face = Face("Sweep Fodder", None, kind, text, keywords=(text,))
    return Card("Sweep Fodder", (face,), layout="token")


def default_paths() -> list[Path]:
    data = ROOT.parent / "shared" / "data"
    found = [p for p in (data / "scryfall-oracle-cards.json", data / "spoiler-supplement.json") if p.exists()]
    return found or [ROOT / "app" / "data" / "cards.json.gz"]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("cards", nargs="*")
    parser.add_argument("--list", choices=("silent", "warned", "right"), default=None)
    parser.add_argument("--limit", type=int, default=60)
    args = parser.parse_args()
    paths = [Path(p) for p in args.cards] or default_paths()
    start = time.perf_counter()
    found = sweep(paths, args.list, args.limit)
    elapsed = time.perf_counter() - start
    for line in found["listed"]:
        print(" ", line)
    for label, totals in (("ways and optional costs", found["items"]), ("card faces", found["faces"])):
        n = sum(totals.values())
        print(f"{n} {label} offered by card text ({elapsed:.1f} s, {', '.join(p.name for p in paths)})")
        for kind in ("right", "warned", "silent"):
            print(f"  {kind:<7} {totals[kind]:>6}  {totals[kind] / max(n, 1):7.4f}")


if __name__ == "__main__":
    main()
