"""All SQL of the card catalogue: batch upserts, loading ``Card``s, name look-ups, the cost search, meta.

Functions flush, never commit (the caller owns the transaction). Writes go through SQLAlchemy Core so an
import of tens of thousands of cards keeps no ORM objects in memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from operator import attrgetter, itemgetter
from typing import Any

from sqlalchemy import and_, delete, func, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from app.db.base import utcnow
from app.db.models import AppMeta
from app.db.models.cards import CardCostRow, CardFaceRow, CardLegalityRow, CardNameRow, CardRow
from app.rules.text.oracle_mana import card_produced_mana
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name as normalize_name
from app.rules.values.types import TypeLine

_CHILD_TABLES = (CardFaceRow, CardNameRow, CardCostRow, CardLegalityRow)
_CARD_UPDATE_COLUMNS = (
    "name",
    "name_norm",
    "layout",
    "mana_cost",
    "mana_value",
    "color_identity",
    "produced_mana",
    "updated_at",
)
_STREAM_ROWS = 5_000  # rows fetched at a time by whole-table reads (a server-side cursor on PostgreSQL)
_IN_CHUNK = 500  # ids per IN (...) clause: well under SQLite's bound-parameter limit


@dataclass(frozen=True, slots=True)
class NameHit:
    """A card a name matched: its oracle id and catalogue name."""

    oracle_id: str
    name: str


# -- writing -----------------------------------------------------------------------------------------------


def _insert(session: Session, table: Any) -> Any:
    # On the Core table, not the ORM class: the ORM's bulk path ran one INSERT per row (34,000 statements
    # for the bundled catalogue); Core sends each batch as one executemany (insertmanyvalues).
    core = getattr(table, "__table__", table)
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        return postgresql.insert(core)
    if dialect == "sqlite":
        return sqlite.insert(core)
    raise NotImplementedError(f"card upserts support PostgreSQL and SQLite, not {dialect}")


def upsert_cards(session: Session, cards: Iterable[Card]) -> tuple[int, int]:
    """Insert or update these cards (keyed by oracle id); answers (new, updated). Re-importing a card
    replaces its faces, names, cost keys and legalities, so nothing is ever duplicated."""
    by_id: dict[str, Card] = {}
    for card in cards:
        if card.oracle_id is None:
            raise ValueError(f"{card.name}: a catalogue card needs an oracle id")
        by_id[card.oracle_id] = card  # the last record of an id wins (default-cards lists printings)
    if not by_id:
        return 0, 0
    ids = list(by_id)
    existing: set[str] = set()
    for chunk in _chunks(ids):
        existing.update(session.scalars(select(CardRow.oracle_id).where(CardRow.oracle_id.in_(chunk))))
        for table in _CHILD_TABLES:
            session.execute(delete(table).where(table.oracle_id.in_(chunk)))
    now = utcnow()
    card_rows: list[dict[str, Any]] = []
    faces: list[dict[str, Any]] = []
    names: list[dict[str, Any]] = []
    costs: list[dict[str, Any]] = []
    legal: list[dict[str, Any]] = []
    for oid, card in by_id.items():
        cost = card.mana_cost
        mv = cost.mana_value if cost is not None else card.front.melded_value  # a meld result's (202.3c)
        card_rows.append(
            {
                "oracle_id": oid,
                "name": card.name,
                "name_norm": normalize_name(card.name),
                "layout": card.layout,
                "mana_cost": str(cost) if cost is not None else None,
                "mana_value": float(mv) if mv is not None else None,
                "color_identity": "".join(card.color_identity) if card.color_identity is not None else None,
                "produced_mana": "".join(card_produced_mana(card)),
                "updated_at": now,
            }
        )
        own = normalize_name(card.name)
        seen = {own}
        names.append({"name_norm": own, "oracle_id": oid, "is_card_name": True})
        for pos, face in enumerate(card.faces):
            faces.append(_face_row(oid, pos, face))
            folded = normalize_name(face.name)
            if folded not in seen:
                seen.add(folded)
                names.append({"name_norm": folded, "oracle_id": oid, "is_card_name": False})
        costs.extend({"cost_key": k, "oracle_id": oid} for k in cost_keys(card))
        legal.extend({"oracle_id": oid, "format": f, "status": s} for f, s in card.stored_legalities)
    stmt = _insert(session, CardRow)
    stmt = stmt.on_conflict_do_update(
        index_elements=[CardRow.oracle_id],
        set_={c: stmt.excluded[c] for c in _CARD_UPDATE_COLUMNS},
    )
    connection = session.connection()
    connection.execute(stmt, card_rows)
    # DO NOTHING: two processes loading the same bundled file at once must not fail on each other's rows.
    for table, rows in (
        (CardFaceRow, faces),
        (CardNameRow, names),
        (CardCostRow, costs),
        (CardLegalityRow, legal),
    ):
        if rows:
            connection.execute(_insert(session, table).on_conflict_do_nothing(), rows)
    session.flush()
    return len(by_id) - len(existing), len(existing)


def _face_row(oid: str, pos: int, face: Face) -> dict[str, Any]:
    row: dict[str, Any] = {"oracle_id": oid, "position": pos, **face.fields()}
    row["colors"] = "".join(face.colors) if face.colors is not None else None  # the column is a string
    return row


def _chunks(ids: Sequence[str]) -> Iterable[Sequence[str]]:
    for i in range(0, len(ids), _IN_CHUNK):
        yield ids[i : i + _IN_CHUNK]


def cost_keys(card: Card) -> tuple[str, ...]:
    """The multiset keys the card is found under by a mana cost search (Mental Magic).

    The card's own mana cost (CR 709.4: a split card's combined cost) and each face's cost, so both
    ``{1}{R}`` and ``{1}{U}`` find Fire // Ice. Cards with no mana cost have no key (not ``{0}``).
    """
    costs = [card.mana_cost, *(f.mana_cost for f in card.faces)] if len(card.faces) > 1 else [card.mana_cost]
    return tuple(dict.fromkeys(c.sort_key for c in costs if c is not None))


# -- reading -----------------------------------------------------------------------------------------------


def load_cards(session: Session, oracle_ids: Sequence[str]) -> dict[str, Card]:
    """The cards with these oracle ids (those that exist), each with its faces and legalities."""
    out: dict[str, Card] = {}
    for chunk in _chunks(list(dict.fromkeys(oracle_ids))):
        out.update(_assemble(session, chunk, {}))
    return out


def load_all_cards(session: Session, previous: Mapping[str, Card] | None = None) -> dict[str, Card]:
    """Every card of the catalogue (start-up's in-memory index): three scans of whole tables, with no
    ``IN`` lists of ids, whose hundreds of bound parameters per query cost PostgreSQL start-up seconds.

    ``previous`` (a reload: the cards by oracle id of the catalogue being replaced): a face or a card equal
    to one of those is that object, and its id string the old one. Each new face is compared as soon as it
    is read, so the copy of a catalogue that did not change is never held whole, and freeing the replaced
    catalogue returns its memory instead of leaving it scattered among the new one's objects."""
    return _assemble(session, None, previous or {})


def _assemble(session: Session, ids: Sequence[str] | None, previous: Mapping[str, Card]) -> dict[str, Card]:
    """The cards with these oracle ids (all of them for ``None``), faces and legalities attached.

    Each card's faces, legalities and then the card itself are made and compared with ``previous``'s as
    soon as they are read, one card at a time, and every part equal to the old one is the old object (its id
    string too): a reload that copied the whole catalogue before comparing it held a second one's worth of
    short-lived objects at its peak, in arenas and heap the allocators had to add and kept."""

    def only(stmt: Any, column: Any) -> Any:
        return stmt if ids is None else stmt.where(column.in_(ids))

    def key(oid: str) -> str:
        before = previous.get(oid)
        return before.oracle_id if before is not None and before.oracle_id is not None else oid

    faces: dict[str, tuple[Face, ...]] = {}
    face_rows = session.execute(
        only(select(*_FACE_COLUMNS), CardFaceRow.oracle_id)
        .order_by(CardFaceRow.oracle_id, CardFaceRow.position)
        .execution_options(yield_per=_STREAM_ROWS)
    )
    for oid, rows in groupby(face_rows, key=attrgetter("oracle_id")):
        old = previous[oid].faces if oid in previous else ()
        read: list[Face] = []
        for f in rows:
            face = _face(f)
            if len(read) < len(old) and old[len(read)] == face:
                face = old[len(read)]
            read.append(face)
        found = tuple(read)
        faces[key(oid)] = old if found == old else found
    legal: dict[str, tuple[tuple[str, str], ...]] = {}
    # 19 formats a card: one shared (format, status) pair each, not 600,000 tuples of new strings.
    pairs: dict[tuple[str, str], tuple[str, str]] = {}
    legality_rows = session.execute(
        only(
            select(CardLegalityRow.oracle_id, CardLegalityRow.format, CardLegalityRow.status),
            CardLegalityRow.oracle_id,
        )
        .order_by(CardLegalityRow.oracle_id, CardLegalityRow.format)
        .execution_options(yield_per=_STREAM_ROWS)
    )
    for oid, rows in groupby(legality_rows, key=itemgetter(0)):
        found_pairs = tuple(pairs.setdefault((fmt, status), (fmt, status)) for _oid, fmt, status in rows)
        before = previous.get(oid)
        legal[key(oid)] = (
            before.legalities if before is not None and before.legalities == found_pairs else found_pairs
        )
    card_columns = select(
        CardRow.oracle_id, CardRow.name, CardRow.layout, CardRow.color_identity, CardRow.mana_value
    )
    cards: dict[str, Card] = {}
    for oid, name, layout, identity, value in session.execute(
        only(card_columns, CardRow.oracle_id).execution_options(yield_per=_STREAM_ROWS)
    ):
        card = Card(
            name=name,
            faces=_melded(faces.get(oid, ()), layout, value),
            layout=layout,
            oracle_id=oid,
            legalities=legal.get(oid, ()),
            color_identity=tuple(identity) if identity is not None else None,
        )
        before = previous.get(oid)
        if before is not None and before == card:
            cards[before.oracle_id or oid] = before
        else:
            cards[oid] = card
    return cards


def _melded(faces: tuple[Face, ...], layout: str, value: float | None) -> tuple[Face, ...]:
    """A meld result's face with its mana value (CR 202.3c), kept as the card row's ``mana_value``."""
    if layout != "meld" or value is None or len(faces) != 1 or faces[0].mana_cost is not None:
        return faces
    return (replace(faces[0], melded_value=int(value) if value.is_integer() else value),)


_FACE_COLUMNS = (
    CardFaceRow.oracle_id,
    CardFaceRow.name,
    CardFaceRow.mana_cost,
    CardFaceRow.type_line,
    CardFaceRow.oracle_text,
    CardFaceRow.flavor_text,
    CardFaceRow.keywords,
    CardFaceRow.colors,
    CardFaceRow.power,
    CardFaceRow.toughness,
    CardFaceRow.loyalty,
)


# The catalogue's 30,000 faces share a few thousand costs and type lines; both values are frozen, so one
# parsed instance serves every face (a third of the start-up's card loading).
_parse_cost = lru_cache(maxsize=65_536)(ManaCost.parse)
_parse_type_line = lru_cache(maxsize=65_536)(TypeLine.parse)


def _face(row: Any) -> Face:
    keywords = row.keywords if isinstance(row.keywords, list) else json.loads(row.keywords or "[]")
    return Face(
        name=row.name,
        mana_cost=_parse_cost(row.mana_cost) if row.mana_cost is not None else None,
        type_line=_parse_type_line(row.type_line),
        oracle_text=row.oracle_text,
        flavor_text=row.flavor_text,
        keywords=tuple(keywords),
        colors=tuple(row.colors) if row.colors is not None else None,
        power=row.power,
        toughness=row.toughness,
        loyalty=row.loyalty,
    )


def find_by_name(session: Session, name_norm: str, *, card_names_only: bool) -> list[NameHit]:
    """Cards bearing exactly this folded name: as their own name, or (``card_names_only=False``) a face's."""
    stmt = (
        select(CardRow.oracle_id, CardRow.name)
        .join(CardNameRow, CardNameRow.oracle_id == CardRow.oracle_id)
        .where(CardNameRow.name_norm == name_norm)
    )
    if card_names_only:
        stmt = stmt.where(CardNameRow.is_card_name.is_(True))
    return _hits(session, stmt.order_by(CardRow.name_norm, CardRow.oracle_id))


def find_by_word_prefix(session: Session, name_norm: str, *, limit: int) -> list[NameHit]:
    """Cards one of whose names starts with these whole words ("lim-dul" → "lim-dul the necromancer",
    "thalia" → "thalia, guardian of thraben"), at most ``limit``."""
    escaped = _escape_like(name_norm)
    stmt = (
        select(CardRow.oracle_id, CardRow.name)
        .join(CardNameRow, CardNameRow.oracle_id == CardRow.oracle_id)
        .where(
            or_(
                CardNameRow.name_norm.like(escaped + " %", escape="\\"),
                CardNameRow.name_norm.like(escaped + ", %", escape="\\"),
            )
        )
        .distinct()
        .order_by(CardRow.name, CardRow.oracle_id)
        .limit(limit)
    )
    return _hits(session, stmt)


def names_near(session: Session, name_norm: str, *, limit: int) -> list[str]:
    """Folded names sharing a word or the first letters with ``name_norm``: the pool for suggestions."""
    words = sorted({w for w in name_norm.replace(",", " ").split() if len(w) >= 3}, key=len, reverse=True)[:3]
    conds = [CardNameRow.name_norm.like(_escape_like(name_norm[:3]) + "%", escape="\\")]
    conds += [CardNameRow.name_norm.like("%" + _escape_like(w) + "%", escape="\\") for w in words]
    stmt = select(CardNameRow.name_norm).where(or_(*conds)).distinct().limit(limit)
    return list(session.scalars(stmt))


def card_names_for(session: Session, names_norm: Sequence[str]) -> dict[str, str]:
    """Catalogue names of the cards bearing these folded names (card or face names)."""
    if not names_norm:
        return {}
    stmt = (
        select(CardNameRow.name_norm, CardRow.name)
        .join(CardRow, CardRow.oracle_id == CardNameRow.oracle_id)
        .where(CardNameRow.name_norm.in_(list(names_norm)))
    )
    return {n: name for n, name in session.execute(stmt)}


def search(
    session: Session,
    *,
    cost_key: str | None,
    fmt: str | None,
    name_contains: str | None,
    after: tuple[str, str] | None,
    limit: int,
) -> list[tuple[str, str]]:
    """``(name_norm, oracle_id)`` of the cards matching, in that order, after the ``after`` key (keyset
    pagination); ``fmt`` keeps cards legal or restricted there."""
    stmt: Any = select(CardRow.name_norm, CardRow.oracle_id)
    if cost_key is not None:
        stmt = stmt.join(CardCostRow, CardCostRow.oracle_id == CardRow.oracle_id).where(
            CardCostRow.cost_key == cost_key
        )
    if fmt is not None:
        stmt = stmt.join(CardLegalityRow, CardLegalityRow.oracle_id == CardRow.oracle_id).where(
            CardLegalityRow.format == fmt, CardLegalityRow.status.in_(("legal", "restricted"))
        )
    if name_contains:
        stmt = stmt.where(CardRow.name_norm.like("%" + _escape_like(name_contains) + "%", escape="\\"))
    if after is not None:
        stmt = stmt.where(
            or_(
                CardRow.name_norm > after[0],
                and_(CardRow.name_norm == after[0], CardRow.oracle_id > after[1]),
            )
        )
    stmt = stmt.order_by(CardRow.name_norm, CardRow.oracle_id).limit(limit)
    return [(str(row[0]), str(row[1])) for row in session.execute(stmt)]


def count_cards(session: Session) -> int:
    return int(session.scalar(select(func.count()).select_from(CardRow)) or 0)


def _hits(session: Session, stmt: Any) -> list[NameHit]:
    return [NameHit(str(row[0]), str(row[1])) for row in session.execute(stmt)]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# -- app_meta ----------------------------------------------------------------------------------------------


def get_meta(session: Session, key: str) -> str | None:
    return session.scalar(select(AppMeta.value).where(AppMeta.key == key))


def set_meta(session: Session, key: str, value: str) -> None:
    """Insert or update one ``app_meta`` entry."""
    stmt = _insert(session, AppMeta).values(key=key, value=value, updated_at=utcnow())
    stmt = stmt.on_conflict_do_update(
        index_elements=[AppMeta.key],
        set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
    )
    session.execute(stmt)
    session.flush()


def all_names(session: Session) -> Iterator[tuple[str, str, bool, str]]:
    """Every folded name of the catalogue: ``(name_norm, oracle_id, is_card_name, card name)`` (the
    in-memory name index is built from these), read as they come."""
    stmt = select(CardNameRow.name_norm, CardNameRow.oracle_id, CardNameRow.is_card_name, CardRow.name).join(
        CardRow, CardRow.oracle_id == CardNameRow.oracle_id
    )
    for n, o, c, name in session.execute(stmt.execution_options(yield_per=_STREAM_ROWS)):
        yield (str(n), str(o), bool(c), str(name))


def legality_formats(session: Session) -> frozenset[str]:
    """The formats the catalogue's legality data lists for at least one card (its index leads by format)."""
    return frozenset(session.scalars(select(CardLegalityRow.format).distinct()))
