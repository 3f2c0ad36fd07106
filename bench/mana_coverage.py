"""Mana coverage sweep (issue 11): every permanent of the catalogue whose text can add mana, alone on a board.

Each such permanent is put on a board of its own, with the context its text needs (a chosen color and
creature type, an opponent), and analysed by ``app.rules.mana.production.analyze_board``. Every line of its
text that adds or changes mana (found here by a pattern of this script, independent of the reader) is
counted once:

- **understood**: the reader read it into a mana ability or a static mana effect, with a production;
- **warned**: the answer's ``warnings`` name the line (the service says it did not understand it);
- **silent**: neither (the goal is 0).

A card counts as understood when all its mana lines are, silent when any line is, warned otherwise.
Then each card-text template of the mana reader (``registry("mana")``, ``registry("mana-static")``) with
how many sentences it read.
Baseline: none (a coverage figure, not a timing); the run time is printed for information.
Target: 0 silent, at least 97% of cards understood.

    .venv/bin/python bench/mana_coverage.py [CARDS_JSON] [--list silent|warned] [--limit N]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.rules.mana.production import analyze_board  # noqa: E402
from app.rules.text.oracle_mana import read_face, strip_reminder  # noqa: E402
from app.rules.text.templates import registry  # noqa: E402
from app.rules.values.board import Board, Choices, Permanent, Player  # noqa: E402
from app.rules.values.cards import Card, Face  # noqa: E402
from app.rules.values.costs import ManaCost  # noqa: E402
from app.rules.values.types import TypeLine  # noqa: E402
from bench._catalogue import catalogue_cards  # noqa: E402

BASIC_TYPES = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")
# A line adds mana ("Add {G}", "adds one mana", "add X mana") or changes produced mana ("produces ...
# instead", "tapped for mana"). Bounded classes and one lazy gap between literal anchors: linear time.
MANA_LINE = re.compile(
    r"\badds?\b[^.]{0,200}?(?:\{[WUBRGCSX]\}|\bmana\b)|\bproduces?\b[^.]{0,80}\binstead\b",
    re.IGNORECASE,
)
# "add" words that are not about mana: counters, names, abilities, types
NOT_MANA = re.compile(r"\badds?\b (?:a |an |one |two |three |that |those |it )?(?:[+\-]\d|counter|card)")


def paragraphs(text: str) -> list[str]:
    """The text's abilities, one a line, with the line breaks some data lost put back by the sweep's own
    rule: an ability's cost brace straight after a sentence's end (``.``, ``)`` or a closing quote),
    outside quotes ("...enters tapped.{3}{B}, {T}: Seek..."). One pass over the characters."""
    out: list[str] = []
    for raw in text.splitlines():
        start, quotes = 0, 0
        for i, ch in enumerate(raw):
            if ch == '"':
                quotes += 1
            elif ch == "{" and i and raw[i - 1] in '.)"' and quotes % 2 == 0:
                out.append(raw[start:i])
                start = i
        out.append(raw[start:])
    return out


def mana_lines(face: Face) -> list[str]:
    out = []
    for raw in paragraphs(strip_reminder(face.oracle_text)):
        line = strip_reminder(raw).strip()
        if line and MANA_LINE.search(line) and not NOT_MANA.search(line):
            out.append(raw.strip())
    return out


COUNTER_KIND = re.compile(r"\b([a-z+/\-0-9]{1,20}) counters? on\b")
# The context a commander deck gives (CR 903.4): a two-color commander, so "your commander's color
# identity" names W and U.
CONTEXT_COMMANDER = Card(
    "Context Commander",
    (Face("Context Commander", ManaCost.parse("{W}{U}"), TypeLine.parse("Legendary Creature — Human")),),
)


def context_permanent(card: Card, face: Face) -> Permanent:
    """The permanent alone on its board, with what its text reads: a chosen color and creature type, and
    two of each kind of counter its text names (stated, so they are read rather than warned about)."""
    subtypes = [s for s in face.type_line.subtypes if face.type_line.has_creature_types]
    chosen = Choices(creature_type=subtypes[0] if subtypes else "Elf", color="G")
    face_name = None if face is card.front else face.name
    kinds = dict.fromkeys(COUNTER_KIND.findall(face.oracle_text))
    return Permanent(
        "card",
        card,
        "you",
        face=face_name,
        chosen=chosen,
        counters=tuple((k, 2) for k in kinds),
        given=frozenset({"counters"}),
    )


def context_players() -> tuple[Player, Player]:
    return (Player("you", commander=(CONTEXT_COMMANDER,), given=frozenset({"commander"})), Player("opponent"))


def classify(card: Card, face: Face) -> tuple[str, list[tuple[str, str]]]:
    lines = mana_lines(face)
    board = Board((context_permanent(card, face),), context_players())
    analysis = analyze_board(board)
    warned_texts = {w.text.strip() for w in analysis.warnings}
    disposition = dict(read_face(face).lines)
    state = analysis.state.states[0]
    bad_ability = any(
        analysis.produces.get((state.id, a.index)) is None for a in state.abilities if a.mana is not None
    )
    verdicts = []
    made = {
        "WUBRGC"[i]
        for a in state.abilities
        for mana in analysis.produces.get((state.id, a.index)) or ()
        for i, n in enumerate(mana.counts)
        if n
    }
    intrinsic = {
        f"{{T}}: Add {{{BASIC_TYPES[t]}}}." for t in face.type_line.subtypes if BASIC_TYPES.get(t) in made
    }
    for line in lines:
        if line in warned_texts or any(w and w in line for w in warned_texts):
            verdicts.append((line, "warned"))
        elif line in intrinsic and not bad_ability:
            # a basic land type's own ability (CR 305.6), printed as its reminder with the parentheses lost
            # (the Alchemy Gates): the answer must make that mana, from the type
            verdicts.append((line, "understood"))
        elif disposition.get(line) in {"mana", "static", "trigger", "token"} and not bad_ability:
            verdicts.append((line, "understood"))
        else:
            verdicts.append((line, "silent"))
    kinds = {v for _l, v in verdicts}
    card_verdict = "silent" if "silent" in kinds else "warned" if "warned" in kinds else "understood"
    return card_verdict, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = ROOT.parent / "shared" / "data" / "scryfall-oracle-cards.json"
    parser.add_argument("cards", nargs="?", default=str(default))
    parser.add_argument("--list", choices=("silent", "warned", "understood"), default=None)
    parser.add_argument("--limit", type=int, default=60)
    args = parser.parse_args()
    path = Path(args.cards)
    if not path.exists():
        print(f"no card data at {path}: nothing to measure")
        return
    totals: Counter[str] = Counter()
    listed: list[str] = []
    start = time.perf_counter()
    for card in catalogue_cards([path]):
        for face in card.faces:
            if not any(t in face.type_line.types for t in PERMANENT_TYPES) or not mana_lines(face):
                continue
            try:
                verdict, lines = classify(card, face)
            except Exception as exc:  # a crash is the worst kind of silence: count and show it
                verdict, lines = "silent", [(f"crash: {type(exc).__name__}: {exc}", "silent")]
            totals[verdict] += 1
            if args.list == verdict and len(listed) < args.limit:
                listed.extend(f"{face.name}: {text}" for text, v in lines if v == verdict)
    elapsed = time.perf_counter() - start
    n = sum(totals.values())
    for line in listed[: args.limit]:
        print(" ", line)
    print(f"{n} permanent faces that add mana ({elapsed:.1f} s)")
    for kind in ("understood", "warned", "silent"):
        print(f"  {kind:<10} {totals[kind]:>6}  {100 * totals[kind] / max(n, 1):6.2f} %")
    print("templates read (hits, rule, template):")
    for reader in ("mana", "mana-static"):
        for line in registry(reader).report():
            print(" ", line)


if __name__ == "__main__":
    main()
