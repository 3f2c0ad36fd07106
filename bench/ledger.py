"""The sentence ledger over a catalogue: every sentence of every face, applied / irrelevant / unread, per
class of relevant word, with each template's hits and the unread sentences that name a relevant word.

    .venv/bin/python bench/ledger.py app/data/cards.json.gz [--unread N]

The gate (tests/rules/text/test_ledger.py): no sentence naming a relevant word is irrelevant unless its
template covers that word.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _catalogue import catalogue_cards

from app.rules.text.ledger import (
    APPLIED,
    IRRELEVANT,
    UNREAD,
    WORD_CLASSES,
    Entry,
    face_ledger,
)


def ledger(paths: list[Path]) -> list[tuple[str, Entry]]:
    out: list[tuple[str, Entry]] = []
    for card in catalogue_cards(paths):
        for face in card.faces:
            out.extend((card.name, e) for e in face_ledger(face.name, face.oracle_text))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--unread", type=int, default=40, help="unread relevant sentences to list")
    args = parser.parse_args()
    entries = ledger(args.paths)
    kinds = Counter(e.kind for _n, e in entries)
    total = sum(kinds.values())
    print(f"sentences {total}")
    for kind in (APPLIED, IRRELEVANT, UNREAD):
        print(f"  {kind:<11} {kinds[kind]:>7}  {100 * kinds[kind] / max(total, 1):6.2f} %")
    print("\nper class of relevant word (a sentence counts in each class it names)")
    print(f"  {'class':<14} {'applied':>8} {'irrelevant':>11} {'unread':>8}")
    for word, _p in WORD_CLASSES:
        row = Counter(e.kind for _n, e in entries if word in e.words)
        print(f"  {word:<14} {row[APPLIED]:>8} {row[IRRELEVANT]:>11} {row[UNREAD]:>8}")
    none = Counter(e.kind for _n, e in entries if not e.words)
    print(f"  {'(no word)':<14} {none[APPLIED]:>8} {none[IRRELEVANT]:>11} {none[UNREAD]:>8}")
    print("\ntemplates and their hits")
    for template, n in Counter(e.template for _n, e in entries if e.template).most_common():
        print(f"  {n:>7}  {template}")
    unread = Counter(e.sentence for _n, e in entries if e.kind == UNREAD and e.words)
    print(f"\nunread sentences naming a relevant word: {sum(unread.values())} ({len(unread)} distinct)")
    for sentence, n in unread.most_common(args.unread):
        print(f"  {n:>4}  {sentence}")


if __name__ == "__main__":
    main()
