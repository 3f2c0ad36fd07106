"""Bounded validation errors: a body with 340,000 mistakes costs what one with 100 does.

Pydantic finds every error of a body in one pass, but turning
them into Python dicts (``ValidationError.errors()``), then FastAPI relocating each under ``body``, then
listing them, took seconds for tens of thousands of errors, all of it holding the event loop
(or the GIL) and hundreds of MB. A 422 lists at most ``MAX_LISTED_ERRORS`` of them (API.md 1.1), so
only that many are ever built:

- ``error_count()`` counts them all without building any;
- the first ones are found by validating a *pruned* copy of the input, its long lists cut to their first
  ``k`` items and its large objects to their first ``MAX_KEPT_KEYS`` keys, ``k`` doubling from 1 until
  the pruned copy has enough errors; each round validates a small input and builds few errors;
- only the errors the cut cannot have changed are kept: those at a node of the input none of whose
  descendants (nor itself) was cut. Pydantic validates a node from its own subtree, so such an error is
  an error of the whole body, as the whole body's validation reports it (a ``missing`` field of an
  object whose keys were cut, a ``too_short`` list, a board-level check of a cut board are not kept).

The answer then lists up to ``MAX_LISTED_ERRORS`` errors and a last item of type ``errors_truncated``
whose ``ctx.error_count`` is the true total; ``app.validation_problems.validation_problem`` reads it.

Where: every route taking a JSON body validates a body over ``INLINE_BODY_BYTES`` this way, in a worker
thread within the compute budget, and raises its 422 there (``app.api.routing``), so FastAPI (which
builds every error, on the event loop) only sees large bodies that are valid; a ``ComputeRoute`` reads
its bodies this way whenever pydantic's JSON parser refuses them. What is left is pydantic's own pass over
the body, one C call that holds the GIL.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from types import UnionType
from typing import Annotated, Any, Union, get_args, get_origin

from annotated_types import MaxLen
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WrapValidator,
)

from app.errors import MAX_LISTED_ERRORS, TRUNCATED_ERRORS_TYPE

MAX_KEPT_KEYS = 64
"""An object of more keys is cut to this many when pruned (no request model has half as many fields)."""
MAX_BUILT_ERRORS = 4 * MAX_LISTED_ERRORS * 8
"""A pruned round with more errors than this is not built (``k`` doubles: at most 8 x per round for the
three levels of lists a request nests), and the errors found so far are listed."""
_MAX_ROUNDS = 16  # k up to 2**15 covers every list a body under its size limit can hold


def bounded_errors(adapter: TypeAdapter[Any], value: Any, exc: ValidationError) -> list[dict[str, Any]]:
    """``exc.errors()`` of ``adapter.validate_python(value)`` when there are at most
    ``MAX_LISTED_ERRORS``; else some of them (the first the pruned rounds find, at most that many) and an
    ``errors_truncated`` item counting them all. Without the URL, as FastAPI asks for them."""
    total = exc.error_count()
    if total <= MAX_LISTED_ERRORS:
        return [dict(err) for err in exc.errors(include_url=False)]
    found: list[dict[str, Any]] = []
    k = 1
    for _ in range(_MAX_ROUNDS):
        pruned, tainted = _pruned(value, k)
        try:
            adapter.validate_python(pruned, from_attributes=True)
        except ValidationError as round_exc:
            if round_exc.error_count() > MAX_BUILT_ERRORS:
                break
            found = [
                dict(err)
                for err in round_exc.errors(include_url=False)
                if not _touched(value, err["loc"], tainted)
            ]
            if len(found) >= MAX_LISTED_ERRORS:
                break
        if not tainted:
            break  # nothing was cut: that was the body itself
        k *= 2
    listed = found[:MAX_LISTED_ERRORS]
    return [*listed, _truncated(total, len(listed))]


def _pruned(value: Any, k: int) -> tuple[Any, set[int]]:
    """A copy of ``value`` with lists cut to ``k`` items and objects to ``MAX_KEPT_KEYS`` keys, and the
    ids of the original containers that were cut or hold one that was."""
    tainted: set[int] = set()

    def prune(node: Any) -> Any:
        # Only what is kept is visited: a round costs the size of the pruned copy, not of the body.
        if isinstance(node, list):
            kept_items = node[:k] if len(node) > k else node
            items = [prune(item) for item in kept_items]
            if len(node) > k or any(id(item) in tainted for item in kept_items):
                tainted.add(id(node))
            return items
        if isinstance(node, dict):
            kept = list(islice(node.items(), MAX_KEPT_KEYS))
            copy = {key: prune(item) for key, item in kept}
            if len(node) > MAX_KEPT_KEYS or any(id(item) in tainted for _, item in kept):
                tainted.add(id(node))
            return copy
        return node

    return prune(value), tainted


def _touched(value: Any, loc: Sequence[int | str], tainted: set[int]) -> bool:
    """Whether the node an error's ``loc`` reaches in ``value`` was cut or holds a cut node. A part of
    ``loc`` that is no key or index of the node it is read at (a union member's tag, a missing field) is
    skipped: the error belongs to the node reached so far."""
    node = value
    for part in loc:
        if isinstance(node, dict):
            node = node.get(part, node) if isinstance(part, str) else node
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
    return id(node) in tainted


# --- Validating a body's long lists in chunks -------------------------------------

CHUNK_MIN_ITEMS = 64
"""A list of fewer items is validated with its body in one pass (a few milliseconds at most)."""
CHUNK_SECONDS = 0.004
"""What one chunk's validation should take: the GIL is held for that long at most, then let go."""
MAX_REST_ERRORS = 2 * MAX_BUILT_ERRORS
"""A body whose part outside its long lists has more errors than this is validated whole (as before)."""
_FIRST_CHUNK = 8


class BoundedInvalid(Exception):
    """The body is invalid: ``errors`` as ``bounded_errors`` gives them (at most ``MAX_LISTED_ERRORS``,
    then an ``errors_truncated`` item with the true count), locations relative to the body."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(f"{len(errors)} validation errors listed")
        self.errors = errors


@dataclass(frozen=True, slots=True)
class _Spot:
    """A long list of the body, at ``path`` (keys of objects from the body's top), of model items."""

    path: tuple[str, ...]
    items: list[Any]
    adapter: TypeAdapter[Any]  # list[item model], without the field's length constraints
    max_length: int | None


@dataclass(slots=True)
class _Found:
    """What the chunks of one spot found: every error counted, the first ``MAX_LISTED_ERRORS`` built."""

    total: int = 0
    listed: list[dict[str, Any]] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)  # the validated items, while all are valid


def validate(adapter: TypeAdapter[Any], value: Any) -> Any:
    """``adapter.validate_python(value, from_attributes=True)``, or ``BoundedInvalid`` with the errors it
    raises: the first ``MAX_LISTED_ERRORS`` of them as pydantic lists them, and their exact count.

    Pydantic validates a body in one C call holding the GIL, all that time with the event loop stopped
    (a slow /healthz). So the long lists
    of model items reached from the body's top through objects (``board.permanents``) are validated a
    chunk of items at a time, the GIL let go between chunks, and then the rest of the body with each such
    list replaced:

    - a list of valid items is replaced by those items validated (model instances, which pydantic takes
      as they are: ``revalidate_instances="never"``), so the rest's pass runs its length limits and every
      validator looking at several items (model validators, field validators of the list) as the body's
      own pass would, without validating the items twice; when every list is valid, that is the answer;
    - a list with an invalid item is replaced by ``[None]``, whose one item fails: pydantic reports a list
      with an invalid item by its items' errors only (no length error, no validator of the list or of the
      objects holding it runs, CR-free: pydantic's ``list`` and ``model`` validators), so the rest's errors
      are the body's own but for ``None``'s, where the items' errors go, in order;
    - a list longer than its ``max_length`` is replaced by as many ``None``: pydantic then stops at the
      item after the limit and reports ``too_long`` only, as for the real items.

    A list is chunked only where the path to it and its item type make that exact: model fields without
    aliases or validators of their own, models without ``before``/``wrap`` model validators, items that
    are models (their errors do not depend on where they sit). Anything else is validated whole."""
    spots = _spots(adapter, value)
    if not spots:
        return _whole(adapter, value)
    found = [_chunked(spot) for spot in spots]
    replaced = {
        spot.path: (
            [None] * len(spot.items)
            if spot.max_length is not None and len(spot.items) > spot.max_length
            else [None]
            if f.total
            else f.values
        )
        for spot, f in zip(spots, found, strict=True)
    }
    copies: dict[int, Any] = {}
    rest_value = _with(value, replaced, (), copies)
    try:
        result = adapter.validate_python(rest_value, from_attributes=True)
    except ValidationError as exc:
        if exc.error_count() > MAX_REST_ERRORS:
            return _whole(adapter, value)
        rest = exc.errors(include_url=False)
    else:
        if any(f.total for f in found):
            return _whole(adapter, value)  # a None was valid: no place for the items' errors (not models)
        return result
    merged: list[dict[str, Any]] = []
    total = 0
    spliced: set[tuple[str, ...]] = set()
    for err in rest:
        spot_path = _sentinel_of(err["loc"], spots, found)
        if spot_path is None:
            total += 1
            if len(merged) < MAX_LISTED_ERRORS:
                merged.append({**err, "input": copies.get(id(err["input"]), err["input"])})
        elif spot_path not in spliced:
            spliced.add(spot_path)
            f = found[[s.path for s in spots].index(spot_path)]
            total += f.total
            merged.extend(f.listed[: max(0, MAX_LISTED_ERRORS - len(merged))])
    if len(spliced) != sum(1 for f, s in zip(found, spots, strict=True) if _chunk_failed(s, f)):
        return _whole(adapter, value)  # a list's None gave no error: validated whole, never guessed
    if total <= MAX_LISTED_ERRORS:
        raise BoundedInvalid(merged)
    raise BoundedInvalid([*merged, _truncated(total, len(merged))])


def _chunk_failed(spot: _Spot, found: _Found) -> bool:
    too_long = spot.max_length is not None and len(spot.items) > spot.max_length
    return bool(found.total) and not too_long


def _sentinel_of(loc: Sequence[int | str], spots: list[_Spot], found: list[_Found]) -> tuple[str, ...] | None:
    """The path of the list whose ``[None]`` this error is of, or None for an error of the body's own."""
    for spot, f in zip(spots, found, strict=True):
        n = len(spot.path)
        if _chunk_failed(spot, f) and len(loc) > n and tuple(loc[:n]) == spot.path and loc[n] == 0:
            return spot.path
    return None


def _whole(adapter: TypeAdapter[Any], value: Any) -> Any:
    try:
        return adapter.validate_python(value, from_attributes=True)
    except ValidationError as exc:
        raise BoundedInvalid(bounded_errors(adapter, value, exc)) from None


def _truncated(total: int, listed: int) -> dict[str, Any]:
    return {
        "type": TRUNCATED_ERRORS_TYPE,
        "loc": (),
        "msg": f"{total} errors in all; {listed} listed",
        "input": None,
        "ctx": {"error_count": total},
    }


def _chunked(spot: _Spot) -> _Found:
    """Validate ``spot``'s items a chunk at a time, each chunk sized to take about ``CHUNK_SECONDS``, and
    let go of the GIL between chunks (``time.sleep(0)``) so the event loop answers meanwhile."""
    found = _Found()
    size = _FIRST_CHUNK
    start = 0
    items = spot.items
    if spot.max_length is not None and len(items) > spot.max_length:
        return _Found(total=1)  # pydantic reports ``too_long`` alone: the rest's pass gives it
    while start < len(items):
        chunk = items[start : start + size]
        began = time.perf_counter()
        try:
            valid = spot.adapter.validate_python(chunk, from_attributes=True)
            if not found.total:
                found.values += valid
        except ValidationError as exc:
            found.values = []
            found.total += exc.error_count()
            if len(found.listed) < MAX_LISTED_ERRORS:
                for err in exc.errors(include_url=False):
                    if len(found.listed) >= MAX_LISTED_ERRORS:
                        break
                    index, *inner = err["loc"]
                    found.listed.append({**err, "loc": (*spot.path, start + int(index), *inner)})
        took = time.perf_counter() - began
        start += len(chunk)
        size = max(1, min(size * 4, int(size * CHUNK_SECONDS / took) if took > 0 else size * 4))
        time.sleep(0)
    return found


def _with(
    value: Any, replaced: dict[tuple[str, ...], list[Any]], at: tuple[str, ...], copies: dict[int, Any]
) -> Any:
    """A copy of the objects of ``value`` on the way to the ``replaced`` lists, with those lists; each
    copy and replacement is entered in ``copies`` (by id) with what it stands for, so that an error's
    ``input`` is given as the body's own (a ``missing`` field's input is the object that lacks it)."""
    if at in replaced:
        new: Any = replaced[at]
    elif not any(path[: len(at)] == at for path in replaced):
        return value
    else:
        new = {key: _with(item, replaced, (*at, key), copies) for key, item in value.items()}
    if new is not value:
        copies[id(new)] = value
    return new


def _spots(adapter: TypeAdapter[Any], value: Any) -> list[_Spot]:
    """The lists of ``CHUNK_MIN_ITEMS`` items or more that ``validate`` may chunk exactly (see there)."""
    model: Any = getattr(adapter, "_type", None)  # the type the adapter was made for
    if not isinstance(value, dict) or not _plain_model(model):
        return []
    spots: list[_Spot] = []
    _find_spots(model, value, (), spots)
    return spots


def _find_spots(
    model: type[BaseModel], value: dict[str, Any], at: tuple[str, ...], spots: list[_Spot]
) -> None:
    checked = {
        name for deco in model.__pydantic_decorators__.field_validators.values() for name in deco.info.fields
    }
    if "*" in checked:
        return
    for name, info in model.model_fields.items():
        item = value.get(name)
        if name in checked or info.alias is not None or info.validation_alias is not None:
            continue
        if isinstance(item, dict) and _plain_model(info.annotation) and not _has_validators(info.metadata):
            _find_spots(info.annotation, item, (*at, name), spots)  # type: ignore[arg-type]
        elif isinstance(item, list) and len(item) >= CHUNK_MIN_ITEMS:
            listed = _list_of_models(info.annotation, info.metadata)
            if listed is not None:
                item_model, max_length = listed
                spots.append(_Spot((*at, name), item, _list_adapter(item_model), max_length))


def _plain_model(tp: Any) -> bool:
    """A model class whose validation of an object looks at no more than its fields one by one."""
    if not (isinstance(tp, type) and issubclass(tp, BaseModel)):
        return False
    decorators = tp.__pydantic_decorators__
    return not any(d.info.mode in ("before", "wrap") for d in decorators.model_validators.values())


def _has_validators(metadata: Sequence[Any]) -> bool:
    validator_types = (AfterValidator, BeforeValidator, PlainValidator, WrapValidator)
    return any(isinstance(m, validator_types) for m in metadata)


def _list_of_models(annotation: Any, metadata: Sequence[Any]) -> tuple[type[BaseModel], int | None] | None:
    """``(item model, max_length)`` of a field typed ``list[Model]`` (possibly ``| None``, ``Annotated``
    with length limits), or None for any other type or any validator on the way."""
    if _has_validators(metadata):
        return None
    lengths = [m.max_length for m in metadata if isinstance(m, MaxLen)]
    tp = annotation
    if get_origin(tp) in (Union, UnionType):
        members = [a for a in get_args(tp) if a is not type(None)]
        if len(members) != 1:
            return None
        tp = members[0]
    if get_origin(tp) is Annotated:
        tp, *extra = get_args(tp)
        for meta in extra:
            inner = getattr(meta, "metadata", [meta])  # a FieldInfo carries its constraints
            if _has_validators(inner):
                return None
            lengths += [m.max_length for m in inner if isinstance(m, MaxLen)]
    if get_origin(tp) is not list:
        return None
    (item,) = get_args(tp)
    if not (isinstance(item, type) and issubclass(item, BaseModel)):
        return None  # a model's errors are its own wherever it sits; a str's depend on its parent's config
    if item.model_config.get("revalidate_instances", "never") != "never":
        return None  # its validated instances, put back in the body, would be validated again
    return item, min(lengths) if lengths else None


_LIST_ADAPTERS: dict[type[BaseModel], TypeAdapter[Any]] = {}


def _list_adapter(model: type[BaseModel]) -> TypeAdapter[Any]:
    adapter = _LIST_ADAPTERS.get(model)
    if adapter is None:
        adapter = _LIST_ADAPTERS[model] = TypeAdapter(list[model])  # type: ignore[valid-type]
    return adapter


# --- Parsing a large body a piece at a time -----------------------------------------------------------

PIECES_MIN_BYTES = 64 * 1024
"""A smaller body is parsed by ``json.loads`` in one call (a millisecond or so)."""
PIECES_DEPTH = 3
"""Arrays and objects nested less deep than this are read here, item by item; deeper values by the C
parser in one call each (an item of ``board.permanents``, at depth 3, is a few hundred bytes)."""
_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def loads_in_pieces(body: bytes) -> Any:
    """``json.loads(body)``: the same value, or the same exception (on any doubt ``json.loads`` itself is
    called, so a malformed body gets its very message and position).

    ``json.loads`` of a 1 MB body of 340,000 errors is one C call holding the GIL, the event loop
    stopped meanwhile. Here the outer arrays and objects are
    walked in Python and each of their items parsed by the same C scanner (``JSONDecoder.raw_decode``),
    so the GIL can pass between items. Only bodies that ``json.loads`` reads as UTF-8 are walked (an
    object first: no byte-order mark, no UTF-16); ``app.api.limits`` has refused bodies not UTF-8."""
    if len(body) < PIECES_MIN_BYTES or body[:1] != b"{":
        return json.loads(body)
    try:
        text = body.decode("utf-8", "surrogatepass")  # as json.loads decodes UTF-8
        value, end = _piece(text, 0, 0)
        if _SPACE.match(text, end).end() != len(text):  # type: ignore[union-attr]
            raise ValueError("extra data")
    except (ValueError, IndexError, RecursionError):
        return json.loads(body)  # raises what json.loads raises, as it raises it
    return value


def _piece(text: str, at: int, depth: int) -> tuple[Any, int]:
    """The JSON value starting at ``at`` (no space before it) and the index after it."""
    opening = text[at]
    if depth >= PIECES_DEPTH or opening not in "{[":
        return _DECODER.raw_decode(text, at)
    closing = "}" if opening == "{" else "]"
    pairs: list[tuple[str, Any]] = []
    items: list[Any] = []
    at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
    if text[at] == closing:
        return ({} if opening == "{" else []), at + 1
    while True:
        if opening == "{":
            if text[at] != '"':
                raise ValueError("a key must be a string")
            key, at = _DECODER.raw_decode(text, at)
            at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
            if text[at] != ":":
                raise ValueError("expected ':'")
            at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
            item, at = _piece(text, at, depth + 1)
            pairs.append((key, item))
        else:
            item, at = _piece(text, at, depth + 1)
            items.append(item)
        at = _SPACE.match(text, at).end()  # type: ignore[union-attr]
        if text[at] == closing:
            return (dict(pairs) if opening == "{" else items), at + 1
        if text[at] != ",":
            raise ValueError("expected ','")
        at = _SPACE.match(text, at + 1).end()  # type: ignore[union-attr]
