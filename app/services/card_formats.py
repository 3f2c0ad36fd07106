"""Pure conversions from card records (Scryfall, inline API objects, MTGJSON AtomicCards) to ``Card``.

No I/O and no database: the importer, the catalogue and the request schemas all go through here, so a card
reads the same wherever it comes from. A record that cannot be read raises ``BadCardRecord`` with the reason
(an inline card with a bad mana cost raises the ``ManaCostSyntaxError`` itself, which the error layer turns
into a malformed-cost problem).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from app.rules.errors import ManaCostSyntaxError
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.symbols import COLORS
from app.rules.values.types import TypeLine

__all__ = [
    "IGNORED_LAYOUTS",
    "MAX_NAME_LENGTH",
    "STATUSES",
    "BadCardRecord",
    "card_from_inline",
    "card_from_mtgjson",
    "card_from_scryfall",
    "card_to_record",
    "derived_oracle_id",
    "normalize_name",
    "parse_cost",
]

# A fixed namespace so a card without a Scryfall oracle id gets the same derived id on every import.
_ORACLE_NAMESPACE: Final = uuid.UUID("5d0f6c1e-8b1f-4d49-9a59-6a3b7e2f0c11")
STATUSES: Final = frozenset({"legal", "banned", "restricted", "not_legal"})
"""Scryfall legality statuses; MTGJSON's ``Legal``/``Banned``/``Restricted`` map onto them."""
IGNORED_LAYOUTS: Final = frozenset({"token", "double_faced_token", "emblem", "art_series"})
"""Scryfall objects that are not cards (their names would shadow real cards in look-ups)."""
MAX_NAME_LENGTH: Final = 200
MAX_TEXT_LENGTH: Final = 10_000
_FACE_SEPARATOR: Final = " // "
_UUID_RE: Final = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


class BadCardRecord(ValueError):
    """A card record that cannot be read; ``name`` is the record's name when it has one."""

    def __init__(self, reason: str, *, name: str | None = None) -> None:
        super().__init__(f"{name}: {reason}" if name else reason)
        self.reason = reason
        self.name = name


def normalize_name(text: str) -> str:
    """The look-up form of a name: accents dropped, casefolded, curly apostrophes plain, spaces merged."""
    return fold_name(text)


def derived_oracle_id(name: str) -> str:
    """A stable id for a card that has no Scryfall oracle id: uuid5 of its normalized name."""
    return str(uuid.uuid5(_ORACLE_NAMESPACE, normalize_name(name)))


def parse_cost(text: str | None) -> ManaCost | None:
    """A printed mana cost; ``None``/``""`` is no mana cost at all (a land, a back face), not ``{0}``."""
    if text is None:
        return None
    text = text.strip()
    if not text:
        return None
    return ManaCost.parse(text)


# -- Scryfall and inline objects -------------------------------------------------------------------------


def card_from_scryfall(obj: Mapping[str, Any]) -> Card:
    """A Scryfall card object (bulk data, the API's ``card`` object, or our bundled records) → ``Card``.

    Multi-face cards carry ``card_faces``; each face keeps its own mana cost, type line and text.
    Raises ``BadCardRecord`` for a record that is not a card.
    """
    if not isinstance(obj, Mapping):
        raise BadCardRecord(f"a card record is a JSON object, not {type(obj).__name__}")
    name = _name(obj.get("name"), None)
    try:
        return _scryfall_card(obj, name)
    except ManaCostSyntaxError as exc:
        raise BadCardRecord(f"bad mana cost: {exc}", name=name) from exc


def card_from_inline(obj: Mapping[str, Any]) -> Card:
    """An inline card object of the API (``name``, ``mana_cost``, ``type_line``, ``oracle_text``, ...).

    Unlike records being imported, a malformed mana cost propagates as ``ManaCostSyntaxError`` so the client
    gets a malformed-cost problem naming the symbol and its position.
    """
    if not isinstance(obj, Mapping):
        raise BadCardRecord(f"an inline card is a JSON object, not {type(obj).__name__}")
    card = _scryfall_card(obj, _name(obj.get("name"), None))
    # Not a catalogue card: no derived id that could collide with a catalogue card of the same name.
    return card if obj.get("oracle_id") else replace(card, oracle_id=None)


def _scryfall_card(obj: Mapping[str, Any], name: str) -> Card:
    layout = _opt_str(obj.get("layout"), "layout", name) or "normal"
    oracle_id = _oracle_id(obj.get("oracle_id"), name)
    keywords = _str_list(obj.get("keywords"), "keywords", name)
    raw_faces = obj.get("card_faces") or _split_faces(obj, name)
    if raw_faces and obj.get("layout") is None and not obj.get("card_faces"):
        layout = _split_layout(raw_faces)
    faces: list[Face]
    if raw_faces:
        if not isinstance(raw_faces, Sequence) or isinstance(raw_faces, str):
            raise BadCardRecord("card_faces is a list of objects", name=name)
        faces = []
        for i, raw in enumerate(raw_faces):
            if not isinstance(raw, Mapping):
                raise BadCardRecord(f"card_faces[{i}] is not an object", name=name)
            face_name = _name(raw.get("name"), name)
            text = _opt_str(raw.get("oracle_text"), "oracle_text", name) or ""
            faces.append(
                Face(
                    name=face_name,
                    mana_cost=parse_cost(_opt_str(raw.get("mana_cost"), "mana_cost", name)),
                    type_line=_type_line(raw.get("type_line"), name),
                    oracle_text=text,
                    flavor_text=_opt_str(raw.get("flavor_text"), "flavor_text", name)
                    or (_opt_str(obj.get("flavor_text"), "flavor_text", name) if i == 0 else None),
                    keywords=_str_list(raw.get("keywords"), "keywords", name)
                    if "keywords" in raw
                    else _keywords_for_face(keywords, face_name, text),
                    colors=_colors(raw.get("colors"), name),
                    power=_stat(raw.get("power"), "power", name),
                    toughness=_stat(raw.get("toughness"), "toughness", name),
                    loyalty=_stat(raw.get("loyalty"), "loyalty", name),
                )
            )
    else:
        faces = [
            Face(
                name=name,
                mana_cost=parse_cost(_opt_str(obj.get("mana_cost"), "mana_cost", name)),
                type_line=_type_line(obj.get("type_line"), name),
                oracle_text=_opt_str(obj.get("oracle_text"), "oracle_text", name) or "",
                flavor_text=_opt_str(obj.get("flavor_text"), "flavor_text", name),
                keywords=keywords,
                colors=_colors(obj.get("colors"), name),
                power=_stat(obj.get("power"), "power", name),
                toughness=_stat(obj.get("toughness"), "toughness", name),
                loyalty=_stat(obj.get("loyalty"), "loyalty", name),
            )
        ]
    return Card(
        name=name,
        faces=_melded(_land_face_costless(tuple(faces), layout), layout, obj.get("cmc"), name),
        layout=layout,
        oracle_id=oracle_id,
        legalities=_legalities(obj.get("legalities"), name),
        color_identity=_colors(obj.get("color_identity"), name),
    )


def _land_face_costless(faces: tuple[Face, ...], layout: str) -> tuple[Face, ...]:
    """A Town // Adventure card (a land with an Adventure, CR 715) whose record gives its one mana cost to
    the land face: the cost is the Adventure's, a land is played and has no mana cost (CR 202.1b, 305.1),
    so it moves to the Adventure face. Other cards are left as they are."""
    if layout != "adventure" or len(faces) != 2:
        return faces
    land, adventure = faces
    if land.type_line.is_land and land.mana_cost is not None and adventure.mana_cost is None:
        return (replace(land, mana_cost=None), replace(adventure, mana_cost=land.mana_cost))
    return faces


def _melded(faces: tuple[Face, ...], layout: str, cmc: Any, name: str) -> tuple[Face, ...]:
    """The combined back face of a meld pair (Scryfall's ``layout: meld`` card with no mana cost, Brisela,
    Voice of Nightmares) keeps the mana value Scryfall gives it (``cmc``, its fronts' summed: CR 202.3c) as
    ``melded_value``; a meld pair's fronts have their own mana cost and are left as they are, and so is a
    land front (Hanweir Battlements: no mana cost, ``cmc`` 0, its mana value 0 anyway, CR 202.3a)."""
    if layout != "meld" or len(faces) != 1 or faces[0].mana_cost is not None or cmc in (None, 0):
        return faces
    if not isinstance(cmc, int | float) or isinstance(cmc, bool) or not 0 <= cmc <= 1_000_000:
        raise BadCardRecord("cmc is a number", name=name)
    value = int(cmc) if float(cmc).is_integer() else float(cmc)
    return (replace(faces[0], melded_value=value),)


def _split_faces(obj: Mapping[str, Any], name: str) -> list[dict[str, Any]] | None:
    """Faces of a record written with one line per card (the spoiler files): ``"name": "A // B"`` and
    ``"mana_cost": "{4}{W} // {1}{W}"`` give one face each, with its own cost, type line and text. None when
    the record is a one-face card."""
    cost = obj.get("mana_cost")
    type_line = obj.get("type_line")
    split_cost = isinstance(cost, str) and "//" in cost
    if not split_cost and not (isinstance(type_line, str) and "//" in type_line and _FACE_SEPARATOR in name):
        return None
    names = name.split(_FACE_SEPARATOR)
    if split_cost:
        costs: list[str | None] = [c.strip() for c in str(cost).split("//")]
    else:  # a double-faced card: the front's cost; a back face has none (CR 712.8e)
        costs = [cost if isinstance(cost, str) else None] + [None] * (len(names) - 1)
    if len(names) != len(costs):
        raise BadCardRecord(f"{len(costs)} mana costs for {len(names)} face names", name=name)
    types = _parts(obj.get("type_line"), len(names))
    texts = _parts(obj.get("oracle_text"), len(names), "\n//\n")
    faces: list[dict[str, Any]] = []
    for i, face_name in enumerate(names):
        face: dict[str, Any] = {
            "name": face_name,
            "mana_cost": costs[i],
            "type_line": types[i],
            "oracle_text": texts[i],
        }
        # CR 208.1, 306.5a: power and toughness belong to the creature half, loyalty to the planeswalker.
        kind = types[i] or ""
        for key, card_type in (("power", "Creature"), ("toughness", "Creature"), ("loyalty", "Planeswalker")):
            face[key] = obj.get(key) if card_type in kind else None
        faces.append(face)
    return faces


def _parts(value: Any, n: int, separator: str = "//") -> list[str | None]:
    if not isinstance(value, str):
        return [None] * n
    parts = [p.strip() for p in value.split(separator)] if separator in value else [value]
    if len(parts) != n:  # not split the same way: the whole text stays with the front face
        whole: list[str | None] = [value, *([""] * (n - 1))]
        return whole
    out: list[str | None] = [*parts]
    return out


def _split_layout(faces: Sequence[Mapping[str, Any]]) -> str:
    # The back half's subtype names the layout ("Sorcery — Adventure", "Instant — Omen"); else a split card.
    last = str(faces[-1].get("type_line") or "")
    for word in ("Adventure", "Omen"):
        if last.endswith(word):
            return word.lower()
    if faces[-1].get("mana_cost") is None:
        return "transform"
    return "split"


def _stat(value: Any, field: str, name: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(int(value)) if float(value).is_integer() else str(value)
    if not isinstance(value, str) or len(value) > 16:
        raise BadCardRecord(f"{field} is a short string", name=name)
    return value


def _keywords_for_face(keywords: tuple[str, ...], face_name: str, text: str) -> tuple[str, ...]:
    # Scryfall lists keywords per card; a face gets those its own text (or name) mentions.
    low = (face_name + "\n" + text).casefold()
    return tuple(k for k in keywords if k.casefold() in low)


# -- MTGJSON -----------------------------------------------------------------------------------------------


def card_from_mtgjson(name: str, entries: Sequence[Mapping[str, Any]]) -> Card:
    """An MTGJSON ``AtomicCards`` entry (its name and its list of faces) → ``Card``.

    Faces are ordered by ``side`` (a, b, ...); statuses ``Legal``/``Banned``/``Restricted`` become
    Scryfall's lowercase ones. The oracle id is ``identifiers.scryfallOracleId`` or derived from the name.
    """
    card_name = _name(name, None)
    if not isinstance(entries, Sequence) or isinstance(entries, str) or not entries:
        raise BadCardRecord("an AtomicCards entry is a non-empty list of faces", name=card_name)
    if not all(isinstance(e, Mapping) for e in entries):
        raise BadCardRecord("an AtomicCards face is an object", name=card_name)
    ordered = sorted(entries, key=lambda e: str(e.get("side") or ""))
    first = ordered[0]
    identifiers = first.get("identifiers")
    oracle_id = _oracle_id(
        identifiers.get("scryfallOracleId") if isinstance(identifiers, Mapping) else None, card_name
    )
    try:
        faces = tuple(_mtgjson_face(e, card_name, len(ordered) > 1) for e in ordered)
    except ManaCostSyntaxError as exc:
        raise BadCardRecord(f"bad mana cost: {exc}", name=card_name) from exc
    legalities: dict[str, str] = {}
    raw_legal = first.get("legalities") or {}
    if not isinstance(raw_legal, Mapping):
        raise BadCardRecord("legalities is an object", name=card_name)
    for fmt, status in raw_legal.items():
        if not isinstance(status, str) or status.casefold().replace(" ", "_") not in STATUSES:
            raise BadCardRecord(f"unknown legality {status!r} for {fmt}", name=card_name)
        legalities[str(fmt)] = status.casefold().replace(" ", "_")
    layout = _opt_str(first.get("layout"), "layout", card_name) or "normal"
    return Card(
        name=card_name,
        faces=faces,
        layout=layout,
        oracle_id=oracle_id,
        legalities=_sorted_legalities(legalities),
        color_identity=_colors(first.get("colorIdentity"), card_name),
    )


def _mtgjson_face(entry: Mapping[str, Any], card_name: str, multi: bool) -> Face:
    face_name = _name(entry.get("faceName"), card_name) if multi else card_name
    type_text = entry.get("type")
    return Face(
        name=face_name,
        mana_cost=parse_cost(_opt_str(entry.get("manaCost"), "manaCost", card_name)),
        type_line=_type_line(type_text, card_name),
        oracle_text=_opt_str(entry.get("text"), "text", card_name) or "",
        flavor_text=_opt_str(entry.get("flavorText"), "flavorText", card_name),
        keywords=_str_list(entry.get("keywords"), "keywords", card_name),
        colors=_colors(entry.get("colors"), card_name),
        power=_stat(entry.get("power"), "power", card_name),
        toughness=_stat(entry.get("toughness"), "toughness", card_name),
        loyalty=_stat(entry.get("loyalty"), "loyalty", card_name),
    )


# -- back to a record --------------------------------------------------------------------------------------


def card_to_record(card: Card) -> dict[str, Any]:
    """A ``Card`` as a compact Scryfall-shaped record (our bundled file's shape); ``card_from_scryfall``
    reads it back to an equal ``Card``. ``not_legal`` legalities are left out (absent means not legal) but
    for a card legal nowhere (``Card.stored_legalities``)."""
    record: dict[str, Any] = {"name": card.name, "oracle_id": card.oracle_id, "layout": card.layout}
    legal = dict(card.stored_legalities)
    if len(card.faces) == 1:
        record.update(_face_record(card.front))
    else:
        record["card_faces"] = [_face_record(f) for f in card.faces]
    if card.front.melded_value is not None:  # Scryfall's shape: a meld result's cmc is its fronts' (202.3c)
        record["cmc"] = card.front.melded_value
    record["legalities"] = dict(sorted(legal.items()))
    if card.color_identity is not None:
        record["color_identity"] = list(card.color_identity)
    return _compact(record)


def _compact(record: dict[str, Any]) -> dict[str, Any]:
    # Absent and empty mean the same to the reader, except colors: [] (colorless) differs from unknown.
    return {k: v for k, v in record.items() if k == "colors" or v not in (None, [], {}, "")}


def _face_record(face: Face) -> dict[str, Any]:
    # colors absent means "read from the mana cost"; present (even empty) they are the face's own
    rec: dict[str, Any] = face.fields()
    if face.colors is None:
        del rec["colors"]
    return _compact(rec)


# -- field readers -----------------------------------------------------------------------------------------


def _name(value: Any, card_name: str | None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise BadCardRecord("a card and each face need a non-empty name", name=card_name)
    name = " ".join(value.split())
    if len(name) > MAX_NAME_LENGTH:
        raise BadCardRecord(f"a name is at most {MAX_NAME_LENGTH} characters", name=name[:40])
    return name


def _opt_str(value: Any, field: str, name: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise BadCardRecord(f"{field} is a string, not {type(value).__name__}", name=name)
    if len(value) > MAX_TEXT_LENGTH:
        raise BadCardRecord(f"{field} is at most {MAX_TEXT_LENGTH} characters", name=name)
    return value


def _str_list(value: Any, field: str, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise BadCardRecord(f"{field} is a list of strings", name=name)
    items = tuple(value)
    if not all(isinstance(v, str) for v in items):
        raise BadCardRecord(f"{field} is a list of strings", name=name)
    return items


def _type_line(value: Any, name: str) -> TypeLine:
    if value is None:
        return TypeLine()
    if not isinstance(value, str):
        raise BadCardRecord("type_line is a string", name=name)
    return TypeLine.parse(value)


def _colors(value: Any, name: str) -> tuple[str, ...] | None:
    if value is None:
        return None
    items = _str_list(value, "colors", name)
    bad = [c for c in items if c not in COLORS]
    if bad:
        raise BadCardRecord(f"unknown color {bad[0]!r} (colors are W, U, B, R, G)", name=name)
    return tuple(c for c in COLORS if c in items)


def _oracle_id(value: Any, name: str) -> str:
    if value is None or value == "":
        return derived_oracle_id(name)
    if not isinstance(value, str) or not _UUID_RE.match(value):
        raise BadCardRecord(f"oracle_id {value!r} is not a UUID", name=name)
    return value.lower()


def _legalities(value: Any, name: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, Mapping):
        raise BadCardRecord("legalities is an object (format → status)", name=name)
    out: dict[str, str] = {}
    for fmt, status in value.items():
        if not isinstance(fmt, str) or not isinstance(status, str) or status not in STATUSES:
            raise BadCardRecord(f"unknown legality {status!r} for {fmt!r}", name=name)
        out[fmt] = status
    return _sorted_legalities(out)


def _sorted_legalities(legal: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(legal.items()))


def split_face_names(name: str) -> tuple[str, ...]:
    """The face names a ``A // B`` card name holds (one name for an ordinary card)."""
    return tuple(part.strip() for part in name.split(_FACE_SEPARATOR) if part.strip())
