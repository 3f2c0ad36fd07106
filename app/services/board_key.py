"""The board memo's key: a validated board as a tuple of its plain values, with about how many characters
its canonical JSON takes.

The memo used to key a board by ``model_dump_json()`` of the validated model: exact, but it serialized
the whole board on every request, hit or miss, and pydantic warned on
each card given by name as it went through the card union. The key is now the validated values
themselves: two boards with the same key serialize alike (the same model classes, the same values in
the same fields), so a hit is the board the request sends. Dict order counts, as in the JSON it replaces
(two orders of the same players only cost a miss).

A permanent, most of a board, takes the fast path: its scalar fields read at once by one ``attrgetter``,
the four others (the card, choices, ``played_as``, counters) one by one; ``KEYED_FIELDS`` names them all
and a test checks it against ``PermanentIn`` (``BOARD_FIELDS``, ``CHOSEN_FIELDS`` likewise). Anything else
(players, effects, inline cards, choices) goes through ``_plain``, which walks any model.
"""

from __future__ import annotations

from collections.abc import Hashable
from operator import attrgetter
from typing import Any, Final

from pydantic import BaseModel

from app.schemas.board import BoardIn, ChosenIn, PermanentIn

SCALAR_FIELDS: Final = (
    "id",
    "controller",
    "tapped",
    "controlled_since_turn_began",
    "face",
    "x",
    "attached_to",
    "class_level",
    "attacking",
    "blocking",
    "power",
    "toughness",
    "token",
    "level",
)
KEYED_FIELDS: Final = (*SCALAR_FIELDS, "card", "chosen", "played_as", "counters", "activated_this_turn")
"""Every field of ``PermanentIn`` (tests/services/test_board_key.py holds them equal)."""

_scalars = attrgetter(*SCALAR_FIELDS)
_scalars_and_card = attrgetter(*SCALAR_FIELDS, "card")
_others = attrgetter("chosen", "played_as", "counters", "activated_this_turn")
CHOSEN_SCALAR_FIELDS: Final = ("creature_type", "character", "color", "card_name", "card_type")
CHOSEN_FIELDS: Final = (*CHOSEN_SCALAR_FIELDS, "colors", "imprinted")
"""Every field of ``ChosenIn``, likewise."""
_chosen_scalars = attrgetter(*CHOSEN_SCALAR_FIELDS)
CHOSEN_CHARS: Final = 130
"""About the canonical JSON of a ``ChosenIn``'s keys and nulls."""
_NO_OTHERS: Final[tuple[None, list[str], None, None]] = (None, [], None, None)
BOARD_SCALAR_FIELDS: Final = ("active_player", "step", "day_night")
BOARD_FIELDS: Final = (*BOARD_SCALAR_FIELDS, "permanents", "players", "effects", "mana_pool")
"""Every field of ``BoardIn``, likewise."""
_board_scalars = attrgetter(*BOARD_SCALAR_FIELDS)

PERMANENT_CHARS: Final = 300
"""About the canonical JSON of a permanent's fields besides its card and lists (its keys and defaults)."""
_SCALAR_CHARS: Final = 6
BOARD_CHARS: Final = 110
"""About the canonical JSON of a board's own fields when empty."""


def board_key(board_in: BoardIn) -> tuple[Hashable, int]:
    """``board_in`` as a hashable value equal only for boards serializing alike, and about the number of
    characters of its canonical JSON (what the memo bounds)."""
    size = [BOARD_CHARS]
    others = board_in.players, board_in.effects, board_in.mana_pool
    return (
        _board_scalars(board_in),
        _permanents_key(board_in.permanents, size),
        # empty ones (most boards) as (): an empty dict or list serializes alike however it came
        tuple([_plain(v, size) if v else () for v in others]),
    ), size[0]


def _permanents_key(permanents: list[PermanentIn], size: list[int]) -> Hashable:
    keys: list[Hashable] = []
    chars = 0
    for p in permanents:
        card = p.card
        if type(card) is str and _others(p) == _NO_OTHERS:
            # Most permanents: a name and scalars, all read in one call. Its 15 values never equal the 5
            # of ``_permanent_key``'s, so the two shapes of key cannot meet.
            keys.append(_scalars_and_card(p))
            chars += PERMANENT_CHARS + len(card)
        else:
            keys.append(_permanent_key(p, size))
    size[0] += chars
    return tuple(keys)


def _permanent_key(p: PermanentIn, size: list[int]) -> Hashable:
    card = p.card
    chosen = p.chosen
    played = p.played_as
    counters = p.counters
    done = p.activated_this_turn
    if type(card) is str:
        size[0] += PERMANENT_CHARS + len(card)
        card_key: Hashable = card
    else:
        size[0] += PERMANENT_CHARS
        card_key = _plain(card, size)
    return (
        _scalars(p),
        card_key,
        None if chosen is None else _chosen_key(chosen, size),
        _plain(played, size) if played else (),
        None if counters is None else _plain(counters, size),
        None if done is None else _plain(done, size),
    )


def _chosen_key(chosen: ChosenIn, size: list[int]) -> Hashable:
    colors = chosen.colors
    imprinted = chosen.imprinted
    values = _chosen_scalars(chosen)
    size[0] += CHOSEN_CHARS + sum([len(v) for v in values if v is not None])
    return (
        values,
        None if colors is None else tuple(colors),
        imprinted if imprinted is None or type(imprinted) is str else _plain(imprinted, size),
    )


def _plain(value: Any, size: list[int]) -> Hashable:
    """A validated value as a hashable one: a model as its class and its fields' values in order, a list
    as a tuple, a dict as its items; ``size`` grows by about the characters of its JSON."""
    if isinstance(value, str):
        size[0] += len(value) + 3
        return value
    if isinstance(value, BaseModel):
        if not value.model_fields_set:
            # Nothing stated (a player given as ``{}``): every field its default, so the walk below gives
            # the same key and size for every such model of its class: worked out once per class.
            key, chars = _defaults_of(value)
            size[0] += chars
            return key
        size[0] += 2
        return (type(value), tuple([_plain(v, size) for v in value.__dict__.values()]))
    if isinstance(value, list):
        size[0] += 2
        return (list, tuple([_plain(v, size) for v in value]))
    if isinstance(value, dict):
        size[0] += 2 + sum([len(k) + 4 for k in value])
        return (dict, tuple([(k, _plain(v, size)) for k, v in value.items()]))
    size[0] += _SCALAR_CHARS
    return value  # type: ignore[no-any-return]  # None, a bool, an int: hashable, typed by its field


_DEFAULT_KEYS: dict[type[BaseModel], tuple[Hashable, int]] = {}
"""Per model class (the schema's few, never the client's), the key and size ``_plain`` finds for a model of
it with nothing stated."""


def _defaults_of(value: BaseModel) -> tuple[Hashable, int]:
    kind = type(value)
    found = _DEFAULT_KEYS.get(kind)
    if found is None:
        size = [2]
        found = _DEFAULT_KEYS[kind] = (
            (kind, tuple([_plain(v, size) for v in value.__dict__.values()])),
            size[0],
        )
    return found
