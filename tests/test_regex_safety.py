"""Every regular expression in ``app/`` answers in linear-ish time on adversarial text (issue 15).

Chosen over ``regexploit``: regexploit 1.0 cannot parse possessive quantifiers (``app/api/limits.py``
uses them) and sees only literal patterns, while Vorthos's patterns are built at run time from the
chosen character. This test imports every module of ``app``, collects each compiled pattern (module
globals and class attributes), adds the run-time patterns, and pumps each with repetitions of the
characters and character pairs its own source contains, ended by a character that makes the match fail:
the shape that makes nested or overlapping quantifiers backtrack exponentially. Each match must finish
within ``BOUND_S``; an exponential pattern takes minutes at these lengths.
"""

from __future__ import annotations

import importlib
import multiprocessing
import pkgutil
import re
import time
from collections.abc import Iterator
from itertools import product
from multiprocessing.connection import Connection
from typing import Any

import app
from app.rules.text import characters
from app.rules.text.templates import REGISTRIES

PUMP_LENGTH = 2_000
SHORT_PUMP = 60
BOUND_S = 1.0
SCAN_TIMEOUT_S = 20.0
_ENDINGS = ("!", "\x00", "", "\n")
_EXTRA = " -a1{}/'\"\t"


def _app_patterns() -> Iterator[tuple[str, re.Pattern[Any]]]:
    seen: set[int] = set()
    for info in pkgutil.walk_packages(app.__path__, "app."):
        module = importlib.import_module(info.name)
        holders: list[tuple[str, Any]] = [(info.name, module)]
        holders += [(f"{info.name}.{k}", v) for k, v in vars(module).items() if isinstance(v, type)]
        for where, holder in holders:
            for name, value in list(vars(holder).items()):
                if isinstance(value, re.Pattern) and id(value) not in seen:
                    seen.add(id(value))
                    yield f"{where}.{name}", value


def _runtime_patterns() -> Iterator[tuple[str, re.Pattern[Any]]]:
    # Vorthos: the character text is the client's; the hostile one of issue 15 and a few shapes like it.
    for chosen in ("a--------b", "a - - - - b", "Niv-Mizzet", "a b c d e f g", "x-" * 20 + "y"):
        forms = characters.CharacterIndex([]).resolve(chosen).forms
        yield f"characters._pattern({chosen!r})", characters._pattern(forms)
    # The card-text templates are kept in their registries, not in module globals (every module is imported
    # by now, so every registry is full).
    for reader, registry in REGISTRIES.items():
        for template in registry:
            yield f"templates.{reader}/{template.name}", template.pattern


PATTERNS = sorted({*_app_patterns(), *_runtime_patterns()}, key=lambda item: item[0])


def _pumps(pattern: re.Pattern[Any]) -> Iterator[Any]:
    """Short pumps after every one-character prefix (exponential backtracking shows within 60 characters:
    "a" then 40 spaces took 12 s), and long pumps without a prefix (polynomial backtracking)."""
    source = pattern.pattern if isinstance(pattern.pattern, str) else pattern.pattern.decode("latin-1")
    alphabet = sorted({c for c in source if c.isprintable()} | set(_EXTRA))
    pairs = [a + b for a, b in product(alphabet[:24], repeat=2) if a != b]
    texts = [
        prefix + unit * SHORT_PUMP + ending
        for prefix in ("", *alphabet)
        for unit in alphabet
        for ending in _ENDINGS
    ]
    texts += [
        unit * (PUMP_LENGTH // len(unit)) + ending for unit in [*alphabet, *pairs] for ending in _ENDINGS
    ]
    for text in texts:
        yield text if isinstance(pattern.pattern, str) else text.encode("utf-8")


def test_the_scan_finds_the_patterns() -> None:
    names = [name for name, _ in PATTERNS]
    assert any(name.startswith("app.api.limits.") for name in names)
    assert any(name.startswith("characters._pattern") for name in names)
    assert len(names) > 10


def _scan(names: list[str], connection: Connection) -> None:
    """In a child process: pump each pattern, report (name, worst seconds, worst text) as it goes."""
    by_name = dict(PATTERNS)
    for name in names:
        worst, worst_text = 0.0, None
        for text in _pumps(by_name[name]):
            started = time.perf_counter()
            by_name[name].search(text)
            by_name[name].match(text)
            elapsed = time.perf_counter() - started
            if elapsed > worst:
                worst, worst_text = elapsed, text
        connection.send((name, worst, worst_text))


def test_no_pattern_backtracks_catastrophically() -> None:
    """A catastrophic pattern never returns from C, so the pumps run in a child that is killed when one
    pattern overruns; the failure names it."""
    names = [name for name, _ in PATTERNS]
    parent, child = multiprocessing.get_context("fork").Pipe(duplex=False)
    process = multiprocessing.get_context("fork").Process(target=_scan, args=(names, child), daemon=True)
    process.start()
    slow: list[str] = []
    try:
        for name in names:
            if not parent.poll(SCAN_TIMEOUT_S):
                slow.append(f"{name}: no answer within {SCAN_TIMEOUT_S} s (catastrophic backtracking)")
                break
            reported, worst, text = parent.recv()
            if worst >= BOUND_S:
                slow.append(f"{reported}: {worst:.2f} s on {text[:40]!r}... ({len(text)} chars)")
    finally:
        process.kill()
        process.join()
    assert not slow, "\n".join(slow)
