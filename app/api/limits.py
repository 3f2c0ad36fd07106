"""Request body limits, enforced before anything parses the body (413, 415 and 400 problems).

``app.api.middleware.ServiceMiddleware`` refuses a body larger than ``max_body_bytes`` (by its
``Content-Length``, and by counting the bytes as they stream in, so a chunked body is refused as
well), a body that is not JSON, and JSON nested deeper than ``max_json_depth`` (a hostile ``[[[[...``
would otherwise reach the JSON parser's recursion limit and pydantic). The checks are linear in the
body size and run in C for the most part: a 1 MiB hostile body is answered in milliseconds.
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate

MAX_JSON_DEPTH = 32
"""Deepest JSON nesting accepted; the deepest request model (a board's inline card faces) needs 8."""

# A JSON string, possessive so it never backtracks; an unterminated string runs to the end of the body.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def deeper_than(body: bytes, depth: int) -> bool:
    """Whether ``body`` nests deeper than ``depth``; a body with no more opening brackets than that (any
    usual request) cannot, so only the others are scanned."""
    return body.count(b"[") + body.count(b"{") > depth and json_depth(body) > depth


def json_depth(body: bytes) -> int:
    """How deeply ``body`` (JSON text, possibly malformed) nests arrays and objects; brackets in strings
    do not count. Malformed input gives some number; the JSON parser rejects it later anyway."""
    if b"[" not in body and b"{" not in body:
        return 0
    brackets = _outside_strings(body).translate(None, _NOT_BRACKETS)
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def _outside_strings(body: bytes) -> bytes:
    """``body`` without its JSON strings. Without a backslash every quote opens or closes a string, so
    the text between the 2nd and 3rd quote, the 4th and 5th... is outside them (and an unterminated last
    string is dropped, as ``_STRING`` drops it): a split, a few milliseconds a megabyte, where the regular
    expression engine steps through every byte holding the GIL (on the event loop)."""
    if b"\\" in body:
        return _STRING.sub(b"", body)
    return b"".join(body.split(b'"')[::2])


# Escapes JSON allows but no database or answer can hold: a NUL, and a surrogate (paired or not: the
# cheap test; the exact one decides). Bare NaN / Infinity are Python's extension of JSON.
_SUSPECT_ESCAPE = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")
# NaN and Infinity, and number literals that may overflow a float to infinity (``1e999`` parsed
# as inf and was a 500): an exponent of three digits or more, or a run of 300 digits. The exact test is
# the parsed value's (``_walk``); this only decides whether to parse.
_NON_FINITE = re.compile(rb"NaN|Infinity|[0-9][eE][+-]?[0-9]{3}|[0-9]{300}")
# The same test without the regular expression engine, which steps through every byte holding the GIL
# (a slow /healthz with two hostile requests): each byte mapped to its class (digit 0, exponent e,
# sign +, other space), then substring searches, which skip ahead. "0e000" and "0e+000" are
# [0-9][eE][+-]?[0-9]{3}; "0" x 300 is [0-9]{300}.
_NUMBER_CLASSES = bytes(
    ord("0") if chr(b).isdigit() and b < 128 else ord("e") if b in b"eE" else ord("+") if b in b"+-" else 32
    for b in range(256)
)
_OVERFLOW_SHAPES = (b"0e000", b"0e+000", b"0" * 300)


def _maybe_non_finite(body: bytes) -> bool:
    """Whether ``_NON_FINITE`` finds anything in ``body`` (exactly), in a few milliseconds a megabyte."""
    if b"NaN" in body or b"Infinity" in body:
        return True
    classes = body.translate(_NUMBER_CLASSES)
    return any(shape in classes for shape in _OVERFLOW_SHAPES)


def utf8_problem(body: bytes) -> str | None:
    """Why ``body`` is not UTF-8 (RFC 8259 section 8.1: JSON exchanged between systems is UTF-8), or None.

    A lone surrogate sent as raw bytes (``ED A0 80``) is not UTF-8, but Python's JSON parser
    decodes bytes with ``surrogatepass`` and let it through, to fail (500) wherever the text was encoded
    again. Checked in C; a body of ASCII only (most) is not even decoded."""
    if body.isascii():
        return None
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"The body is not valid UTF-8 (byte {exc.start}: {exc.reason})."
    return None


def body_hygiene_errors(body: bytes) -> list[dict[str, object]]:
    """Input errors for what JSON parses but the service must refuse the same on every database: NUL
    characters and lone surrogates in strings, ``NaN`` and ``Infinity`` (these were 500s, and
    NUL was stored by SQLite but refused by PostgreSQL). Each error names its JSON path. The scan is
    linear and in C; the body is parsed (depth already bounded) only when it finds a suspect."""
    suspect = _SUSPECT_ESCAPE.search(body) is not None or b"\x00" in body
    if not suspect and not (_maybe_non_finite(body) and _NON_FINITE.search(_STRING.sub(b"", body))):
        return []
    try:
        value = json.loads(body)
    except (ValueError, RecursionError):
        return []  # not JSON at all: the parser's own 400 says so
    errors: list[dict[str, object]] = []
    _walk(value, ["body"], errors)
    return errors


def _walk(value: object, loc: list[str | int], errors: list[dict[str, object]]) -> None:
    if isinstance(value, str):
        problem = _string_problem(value)
        if problem is not None:
            errors.append({"loc": loc, "msg": problem, "type": "string_unicode"})
    elif isinstance(value, float):
        if not math.isfinite(value):
            errors.append(
                {"loc": loc, "msg": "Numbers must be finite (no NaN or Infinity).", "type": "finite_number"}
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            problem = _string_problem(key)
            if problem is not None:
                errors.append(
                    {"loc": [*loc, _printable(key)], "msg": f"Key: {problem}", "type": "string_unicode"}
                )
            _walk(item, [*loc, key if problem is None else _printable(key)], errors)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, [*loc, index], errors)


def _string_problem(text: str) -> str | None:
    if "\x00" in text:
        return "Strings may not contain NUL characters (\\u0000)."
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "Strings must be valid Unicode: a lone surrogate (\\ud800-\\udfff) is not."
    return None


def _printable(key: str) -> str:
    return key.encode("utf-8", "backslashreplace").decode("ascii", "backslashreplace")[:100]


def is_json_media_type(content_type: str) -> bool:
    """``application/json`` or any ``+json`` type (parameters such as ``charset`` ignored)."""
    media = content_type.split(";")[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))
