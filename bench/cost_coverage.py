"""Cost coverage sweep (issue 10): every sentence of every card that changes what spells cost or offers a
way to cast, classified as understood, warned or silent.

The sentences are found by patterns of this script, independent of the readers: a sentence that says a
spell costs more or less to cast ("costs {1} less to cast", "costs an additional ... to cast", "would cost
less than"), an affinity, a grant of a cost keyword ("spells you cast have affinity for artifacts",
"... have convoke"), and a keyword line of a way to cast or an optional additional cost (CR 702: the
keyword list below, written here from the rules, not taken from the reader). Each one is then looked up
in what the readers answered for the face (``cost_effects`` for cost effects, ``ways_of`` for ways to
cast and optional costs):

- **understood**: a reader turned the sentence into an effect, a way or an optional cost;
- **warned**: a reader returned it as not understood (the answer's ``warnings`` carry it);
- **silent**: neither (the goal is 0: such a sentence changes a total while the answer says nothing).

Figures are per sentence and per card face (a face counts as understood when all its sentences are,
silent when any is, warned otherwise). Baseline: none (a coverage figure, not a timing).
Target: 0 silent, at least 95% of sentences understood. Then each card-text template of the readers
(``registry("costs")`` and any other non-mana registry) with how many sentences it read.

    .venv/bin/python bench/cost_coverage.py [CARDS_JSON ...] [--list silent|warned|understood] [--limit N]

Without arguments it reads ``../shared/data/scryfall-oracle-cards.json`` and the spoiler supplement next to
it, when present.
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

from app.rules.text.card_registry import cost_effects  # noqa: E402
from app.rules.text.face_ways import ways_of  # noqa: E402
from app.rules.text.templates import REGISTRIES  # noqa: E402
from app.rules.values.cards import Card, Face  # noqa: E402
from bench._catalogue import catalogue_cards  # noqa: E402

# CR 702 keywords that give a way to cast with a cost, or an optional additional cost (written from the
# rules for this bench; the reader has its own table).
COST_KEYWORDS = (
    "flashback", "madness", "morph", "megamorph", "disguise", "evoke", "prowl", "retrace", "miracle",
    "overload", "bestow", "dash", "awaken", "surge", "emerge", "aftermath", "jump-start", "spectacle",
    "escape", "mutate", "foretell", "disturb", "cleave", "blitz", "prototype", "more than meets the eye",
    "plot", "freerunning", "impending", "harmonize", "warp", "mayhem", "web-slinging",
    "buyback", "kicker", "multikicker", "entwine", "replicate", "conspire", "escalate", "casualty",
    "squad", "bargain", "gift", "offspring",
)  # fmt: skip
# Bounded gaps between literal anchors: linear time on any text.
COST_SENTENCE = re.compile(
    r"\bcosts? (?:up to )?(?:\{[^{}]{1,8}\}){1,12} (?:less|more) to cast"
    r"|\bcosts? [^.]{0,120}\b(?:less|more) to cast"
    r"|\bcosts? an additional [^.]{0,120}to cast"
    r"|\bwould cost less than\b"
    r"|^affinity for\b"
    r"|\bhave (?:affinity for|convoke|improvise|delve)\b",
    re.IGNORECASE,
)
REMINDER = re.compile(r"\([^()]{0,2000}\)")
SENTENCE_END = re.compile(r"(?<=[.!])\s+(?=[A-Z•])")


def keyword_line(line: str) -> bool:
    low = line.casefold()
    for kw in COST_KEYWORDS:
        if low.startswith(kw):
            rest = low[len(kw) :]
            if rest == "" or rest[0] in "—{." or rest.startswith((" {", " x", " —")) or rest[1:2].isdigit():
                return True
            word = rest[1:].split(" ", 1)[0].split("—", 1)[0]
            if word in ("a", "an", "one", "two", "three", "four", "five", "six"):
                return True
    return False


def cost_sentences(face: Face) -> list[str]:
    """The sentences of ``face`` that change spell costs or define a way to cast (see the docstring)."""
    out: list[str] = []
    for raw in face.oracle_text.split("\n"):
        line = REMINDER.sub("", raw).strip()
        if not line:
            continue
        if keyword_line(line):
            out.append(line)
            continue
        body = line.split(" — ", 1)[1] if re.match(r"^[A-Z][A-Za-z' -]{1,40} — ", line) else line
        body = re.sub(r"\.(?=[A-Z])", ". ", body)  # spoiler texts whose line breaks were lost
        for sentence in SENTENCE_END.split(body):
            s = sentence.strip()
            if s and COST_SENTENCE.search(s):
                out.append(s)
    return out


def _norm(text: str, name: str) -> str:
    text = REMINDER.sub("", text)
    for n in sorted({name, name.split(", ")[0]}, key=len, reverse=True):
        text = text.replace(n, "~")
    return " ".join(text.casefold().split()).rstrip(".")


def classify(card: Card, face: Face) -> list[tuple[str, str]]:
    sentences = cost_sentences(face)
    if not sentences:
        return []
    found = cost_effects(face.name, face.oracle_text)
    ways = ways_of(face)
    understood = [e.text for e in (*found.effects, *found.own)]
    understood += [w.text for w in ways.ways] + [o.text for o in ways.optional]
    warned = [u.text for u in (*found.unsupported, *found.own_unsupported)] + [n.text for n in ways.not_read]
    understood_n = [_norm(t, face.name) for t in understood]
    warned_n = [_norm(t, face.name) for t in warned]
    verdicts = []
    for s in sentences:
        n = _norm(s, face.name)

        def hit(texts: list[str], n: str = n) -> bool:
            return any(t and (t in n or n in t) for t in texts)

        if hit(warned_n):
            verdicts.append((s, "warned"))
        elif hit(understood_n):
            verdicts.append((s, "understood"))
        else:
            verdicts.append((s, "silent"))
    return verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    data = ROOT.parent / "shared" / "data"
    defaults = [data / "scryfall-oracle-cards.json", data / "spoiler-supplement.json"]
    parser.add_argument("cards", nargs="*", default=[str(p) for p in defaults])
    parser.add_argument("--list", choices=("silent", "warned", "understood"), default=None)
    parser.add_argument("--limit", type=int, default=60)
    args = parser.parse_args()
    paths = [Path(p) for p in args.cards if Path(p).exists()]
    if not paths:
        print("no card data found: nothing to measure")
        return
    per_sentence: Counter[str] = Counter()
    per_face: Counter[str] = Counter()
    listed: list[str] = []
    seen: set[tuple[str, str]] = set()
    start = time.perf_counter()
    for card in catalogue_cards(paths):
        for face in card.faces:
            key = (face.name, face.oracle_text)
            if key in seen:
                continue
            seen.add(key)
            try:
                verdicts = classify(card, face)
            except Exception as exc:  # a crash is the worst kind of silence: count and show it
                verdicts = [(f"crash: {type(exc).__name__}: {exc}", "silent")]
            if not verdicts:
                continue
            kinds = {v for _s, v in verdicts}
            worst = "silent" if "silent" in kinds else "warned" if "warned" in kinds else "understood"
            per_face[worst] += 1
            for s, v in verdicts:
                per_sentence[v] += 1
                if args.list == v and len(listed) < args.limit:
                    listed.append(f"{face.name}: {s}")
    elapsed = time.perf_counter() - start
    for line in listed:
        print(" ", line)
    for label, totals in (("sentences", per_sentence), ("card faces", per_face)):
        n = sum(totals.values())
        print(f"{n} {label} that change spell costs or offer a way to cast ({elapsed:.1f} s)")
        for kind in ("understood", "warned", "silent"):
            print(f"  {kind:<10} {totals[kind]:>6}  {totals[kind] / max(n, 1):7.4f}")
    # Every registry the readers filled (the cost reader's, and any other reader's the sweep ran)
    print("templates read (hits, rule, template):")
    for name in sorted(REGISTRIES):
        if not name.startswith("mana"):
            for line in REGISTRIES[name].report():
                print(" ", line)


if __name__ == "__main__":
    main()
