"""Reading a request's board into the rules core's ``Board``: resolve cards, validate choices, all at once.

Every problem of a board is reported in one answer (python-chess's ``Board.status()`` idea): three unknown
cards give three ``errors`` entries, each with the JSON path of the permanent it concerns.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import fields
from typing import Any, Protocol

from app.errors import AmbiguousCard, AppError, InputError, InvalidChoice, MalformedCost, UnknownCard
from app.rules import deadline
from app.rules.errors import InvalidChoiceError, ManaCostSyntaxError, RulesError
from app.rules.text.characters import validate_character
from app.rules.values.board import THIS_TURN_FACTS, Board, Choices, Permanent, Player, ThisTurn
from app.rules.values.cards import Card
from app.rules.values.costs import ManaCost
from app.rules.values.types import canonical_creature_type, is_card_type_word, is_creature_type
from app.schemas.board import BoardIn, InlineCardIn, OracleIdRef, PermanentIn, PlayerIn, ScryfallCardIn
from app.services.card_formats import BadCardRecord, card_from_inline
from app.services.name_memo import NAMES

Loc = tuple[str | int, ...]


class CardSource(Protocol):
    """What board reading needs of the catalogue (``app.services.catalogue.Catalogue``)."""

    def by_name(self, name: str) -> Card: ...

    def by_oracle_id(self, oracle_id: str) -> Card: ...


def validate_creature_type(value: str) -> str:
    """One existing creature type (CR 205.3m), not a card type, not two types (Herald's Horn rulings)."""
    canonical = canonical_creature_type(value)
    if canonical is not None:
        return canonical
    if is_card_type_word(value):
        raise InvalidChoiceError(
            f"{value!r} is a card type, not a creature type (ruling: Herald's Horn)", field="creature_type"
        )
    words = value.split()
    if len(words) > 1 and all(is_creature_type(w) for w in words):
        raise InvalidChoiceError(
            f"{value!r} is several creature types; choose exactly one (ruling: Herald's Horn)",
            field="creature_type",
        )
    raise InvalidChoiceError(
        f"{value!r} is not a creature type of CR 205.3m (rules of 2026-04-17)", field="creature_type"
    )


CardRefValue = str | OracleIdRef | InlineCardIn | ScryfallCardIn
"""What a request's ``card`` holds once validated (a Scryfall object validation already made inline)."""


def _inline(ref: InlineCardIn | ScryfallCardIn) -> InlineCardIn:
    """Validation turns a Scryfall card object into an inline card; one a caller built itself, here."""
    return ref.as_inline() if isinstance(ref, ScryfallCardIn) else ref


def resolve_card(ref: CardRefValue, *, catalogue: CardSource) -> Card:
    """The card a request names: by name, by oracle id, or the inline card itself."""
    if isinstance(ref, str):
        return catalogue.by_name(ref)
    if isinstance(ref, OracleIdRef):
        return catalogue.by_oracle_id(ref.oracle_id)
    return card_from_inline(_inline(ref).model_dump(exclude_none=True))


def build_board(
    board_in: BoardIn,
    *,
    catalogue: CardSource,
    loc: Loc = ("body", "board"),
    extra_players: Sequence[str] = (),
    data_version: str | None = None,
) -> Board:
    """The rules ``Board`` for ``board_in``; raises one ``AppError`` listing every problem found.

    Players (API.md): the active player, ``extra_players`` (the caster or payer of the request) and
    every controller are players, with 20 life unless given. Cards named in zones, commanders and
    ``chosen.imprinted`` resolve as permanents' cards do, each problem at its JSON path. With the
    catalogue's ``data_version``, names resolve through the process's ``NameMemo``.
    """
    problems = _Problems()
    cards = _CardReader(catalogue, problems, data_version)
    permanents: list[Permanent] = []
    first_index: dict[str, int] = {}
    known = cards.memo
    for i, p_in in enumerate(board_in.permanents):
        deadline.check()  # one permanent's card (an inline one's text read): a safe point between two
        if p_in.id in first_index:
            problems.add(
                InputError,
                (*loc, "permanents", i, "id"),
                f"id {p_in.id!r} is already used by permanents[{first_index[p_in.id]}]",
            )
            continue
        first_index[p_in.id] = i
        # The common case first, with no path or message built: a name an earlier board resolved.
        ref = p_in.card
        card = known.get(ref) if type(ref) is str else None
        if card is None:
            card = cards.read(ref, (*loc, "permanents", i, "card"), f"permanent {p_in.id!r}")
        imprinted = None
        chosen = p_in.chosen
        if chosen is not None and chosen.imprinted is not None:
            imprinted = cards.read(
                chosen.imprinted,
                (*loc, "permanents", i, "chosen", "imprinted"),
                f"permanent {p_in.id!r} imprinted",
            )
            if imprinted is None:
                continue
        if card is None:
            continue
        if chosen is None and p_in.face is None:
            permanents.append(_plain_permanent(p_in, card))
            continue
        try:
            permanents.append(_permanent(p_in, card, imprinted))
        except InvalidChoiceError as exc:
            here: Loc = (*loc, "permanents", i)
            problems.add(InvalidChoice, (*here, *_choice_loc(exc.field)), f"permanent {p_in.id!r}: {exc}")
    effects: list[Permanent] = []
    for i, e_in in enumerate(board_in.effects):
        here = (*loc, "effects", i)
        if e_in.id in first_index:
            problems.add(InputError, (*here, "id"), f"id {e_in.id!r} is already used on this board")
            continue
        first_index[e_in.id] = len(board_in.permanents) + i
        card = cards.read(e_in.card, (*here, "card"), f"effect {e_in.id!r}")
        if card is None:
            continue
        as_permanent = PermanentIn(id=e_in.id, card=e_in.card, controller=e_in.controller, chosen=e_in.chosen)
        try:
            effects.append(_permanent(as_permanent, card))
        except InvalidChoiceError as exc:
            problems.add(InvalidChoice, (*here, *_choice_loc(exc.field)), f"effect {e_in.id!r}: {exc}")
    for i, p_in in enumerate(board_in.permanents):
        if p_in.attached_to is not None and p_in.attached_to not in first_index:
            msg = f"permanent {p_in.id!r} is attached to {p_in.attached_to!r}, which is not on the board"
            problems.add(InputError, (*loc, "permanents", i, "attached_to"), msg)
    given_players = {
        name: _player(name, pl_in, cards, (*loc, "players", name)) for name, pl_in in board_in.players.items()
    }
    problems.raise_if_any()

    names = dict.fromkeys(
        [board_in.active_player, *extra_players, *(p.controller for p in (*permanents, *effects))]
    )
    names.update(dict.fromkeys(board_in.players))
    players = tuple(given_players.get(n) or Player(n) for n in names)
    pool = tuple((who, ManaCost.parse_loose(text)) for who, text in board_in.mana_pool.items())
    return Board(
        tuple(permanents),
        players,
        board_in.active_player,
        pool,
        board_in.day_night,
        board_in.step,
        effects=tuple(effects),
    )


class _CardReader:
    """Resolves the cards a board names, each distinct name once (boards repeat names: eight Forests)."""

    def __init__(self, catalogue: CardSource, problems: _Problems, data_version: str | None = None) -> None:
        self.catalogue = catalogue
        self.problems = problems
        self.data_version = data_version
        self.by_name: dict[str, Card] = {}
        memo = NAMES.names(data_version) if data_version is not None else None
        # The names earlier boards of this catalogue version resolved: read here, written by ``read`` only.
        self.memo: dict[str, Card] = {} if memo is None else memo

    def read(self, ref: CardRefValue, loc: Loc, what: str) -> Card | None:
        """The card, or None after recording the problem at ``loc``."""
        try:
            if isinstance(ref, str):
                card = self.by_name.get(ref)
                if card is None:
                    card = self.by_name.setdefault(ref, self.catalogue.by_name(ref))
                    if self.data_version is not None:
                        NAMES.put(self.data_version, ref, card)
                return card
            return resolve_card(ref, catalogue=self.catalogue)
        except (UnknownCard, AmbiguousCard) as exc:
            self.problems.add(type(exc), loc, f"{what}: {exc.detail}", exc.extra)
        except ManaCostSyntaxError as exc:  # an inline card's cost
            self.problems.add(MalformedCost, (*loc, "mana_cost"), f"{what}: {exc}")
        except (BadCardRecord, RulesError) as exc:
            self.problems.add(InputError, loc, f"{what}: {exc}")
        return None

    def read_all(
        self, refs: Sequence[str | OracleIdRef | InlineCardIn], loc: Loc, what: str
    ) -> tuple[Card, ...]:
        found = (self.read(ref, (*loc, j), f"{what}[{j}]") for j, ref in enumerate(refs))
        return tuple(c for c in found if c is not None)


def _player(name: str, p_in: PlayerIn, cards: _CardReader, loc: Loc) -> Player:
    """A stated player: zones and commanders resolved; ``given`` records which facts were stated."""
    if not p_in.model_fields_set:
        # ``"you": {}``, as most boards name their players: nothing stated, so every fact has its default
        # (nothing to resolve, nothing given); the player the loop below would build, without the loop
        # (tests/services/test_boards_fast.py holds the two equal).
        return Player(name, p_in.life)
    return _stated_player(name, p_in, cards, loc)


def _stated_player(name: str, p_in: PlayerIn, cards: _CardReader, loc: Loc) -> Player:
    """``_player`` of a player with something stated: every fact read."""
    zones: dict[str, tuple[Card, ...]] = {}
    for zone in ("commander", "graveyard", "exile", "hand"):
        refs = getattr(p_in, zone)
        zones[zone] = () if refs is None else cards.read_all(refs, (*loc, zone), f"player {name!r} {zone}")
    given = {zone for zone in zones if getattr(p_in, zone) is not None}
    if p_in.hand_size is not None:
        given.add("hand_size")
    for fact in ("counters", "speed"):
        if getattr(p_in, fact) is not None:
            given.add(fact)
    this_turn = ThisTurn()
    if p_in.this_turn is not None:
        stated = {f: getattr(p_in.this_turn, f) for f in THIS_TURN_FACTS}
        this_turn = ThisTurn(
            **{f: v for f, v in stated.items() if v is not None},
            given=frozenset(f for f, v in stated.items() if v is not None),
        )
    return Player(
        name,
        p_in.life,
        commander=zones["commander"],
        graveyard=zones["graveyard"],
        exile=zones["exile"],
        hand=zones["hand"],
        hand_size=p_in.hand_size,
        this_turn=this_turn,
        given=frozenset(given),
        counters=tuple(sorted((p_in.counters or {}).items())),
        speed=p_in.speed or 0,
    )


class _Problems:
    """Collects a board's problems; the answer's problem type is the most specific kind found."""

    _PRIORITY: tuple[type[AppError], ...] = (UnknownCard, AmbiguousCard, MalformedCost, InvalidChoice)

    def __init__(self) -> None:
        self.kinds: list[type[AppError]] = []
        self.errors: list[dict[str, Any]] = []

    def add(self, kind: type[AppError], loc: Loc, msg: str, extra: dict[str, Any] | None = None) -> None:
        self.kinds.append(kind)
        self.errors.append({"loc": list(loc), "msg": msg, "type": kind.type_slug, **(extra or {})})

    def raise_if_any(self) -> None:
        if not self.errors:
            return
        kind = next((k for k in self._PRIORITY if k in self.kinds), self.kinds[0])
        count = len(self.errors)
        detail = (
            self.errors[0]["msg"] if count == 1 else f"{count} problems; the first: {self.errors[0]['msg']}"
        )
        raise kind(detail, errors=self.errors)


_NO_CHOICES = Choices()


def _permanent(p_in: PermanentIn, card: Card, imprinted: Card | None = None) -> Permanent:
    chosen = _NO_CHOICES
    if p_in.chosen is not None:
        c = p_in.chosen
        chosen = Choices(
            creature_type=validate_creature_type(c.creature_type) if c.creature_type is not None else None,
            character=validate_character(c.character) if c.character is not None else None,
            color=c.color,
            card_name=c.card_name,
            card_type=c.card_type,
            colors=tuple(c.colors or ()),
            imprinted=imprinted,
        )
    face = None
    if p_in.face is not None:
        face = card.face(p_in.face).name  # InvalidChoiceError names the card's faces
    return Permanent(
        id=p_in.id,
        card=card,
        controller=p_in.controller,
        tapped=p_in.tapped,
        controlled_since_turn_began=p_in.controlled_since_turn_began,
        face=face,
        chosen=chosen,
        x=p_in.x,
        played_as=tuple(p_in.played_as),
        attached_to=p_in.attached_to,
        counters=tuple(sorted((p_in.counters or {}).items())),
        class_level=p_in.class_level if p_in.class_level is not None else 1,
        level=p_in.level if p_in.level is not None else 0,
        given=_given(p_in),
        attacking=bool(p_in.attacking),
        blocking=bool(p_in.blocking),
        token=bool(p_in.token),
        power=p_in.power,
        toughness=p_in.toughness,
        activated_this_turn=_activated(p_in),
    )


def _plain_permanent(p_in: PermanentIn, card: Card) -> Permanent:
    """``_permanent`` of a permanent with no choices and its front face up: nothing to validate, so
    nothing can raise (most permanents of a board)."""
    counters = p_in.counters
    values = (
        p_in.id,
        card,
        p_in.controller,
        p_in.tapped,
        p_in.controlled_since_turn_began,
        None,
        _NO_CHOICES,
        p_in.x,
        tuple(p_in.played_as) if p_in.played_as else (),
        p_in.attached_to,
        () if not counters else tuple(sorted(counters.items())),
        p_in.class_level if p_in.class_level is not None else 1,
        p_in.level if p_in.level is not None else 0,
        _given(p_in),
        bool(p_in.attacking),
        bool(p_in.blocking),
        bool(p_in.token),
        p_in.power,
        p_in.toughness,
        _activated(p_in),
    )
    if _SETTERS is None:
        return Permanent(*values)
    permanent = Permanent.__new__(Permanent)
    for set_field, value in zip(_SETTERS, values, strict=True):
        set_field(permanent, value)
    return permanent


def _field_setters() -> tuple[Callable[[Permanent, object], None], ...] | None:
    """``Permanent``'s field setters in field order, or None when it is not a plain slots dataclass.

    A frozen dataclass's ``__init__`` sets each of its 19 fields through
    ``object.__setattr__`` (pure or mypyc-compiled alike, which keeps the dataclass machinery's
    ``__init__``); the fields' own descriptors set them in about half the time. The
    value made is the same frozen ``Permanent`` (equal, same hash; ``tests/services/test_boards_fast.py``).
    Anything the constructor would do besides setting fields (a ``__post_init__``) turns this off, and so
    does a compiled core: there ``Permanent.__init__`` is written out and compiled by mypyc, and faster
    than the setters."""
    if hasattr(Permanent, "__post_init__") or not inspect.isfunction(Permanent.__init__):
        return None
    setters: list[Callable[[Permanent, object], None]] = []
    for f in fields(Permanent):
        setter = getattr(Permanent.__dict__.get(f.name), "__set__", None)
        if setter is None:
            return None
        setters.append(setter)
    return tuple(setters)


_SETTERS = _field_setters()


_NOTHING_GIVEN: frozenset[str] = frozenset()


def _activated(p_in: PermanentIn) -> tuple[int, ...]:
    """The abilities it activated this turn (CR 602.5b), as sorted distinct indices; none when not stated."""
    done = p_in.activated_this_turn
    return tuple(sorted(set(done))) if done else ()


def _given(p_in: PermanentIn) -> frozenset[str]:
    """Which of its facts the request stated (``Permanent.given``); most state none."""
    if (
        p_in.counters is None
        and p_in.class_level is None
        and p_in.level is None
        and p_in.token is None
        and p_in.attacking is None
        and p_in.blocking is None
        and p_in.activated_this_turn is None
    ):
        return _NOTHING_GIVEN
    return frozenset(
        [
            f
            for f in ("counters", "class_level", "level", "token", "activated_this_turn")
            if getattr(p_in, f) is not None
        ]
        + (["combat"] if p_in.attacking is not None or p_in.blocking is not None else [])
    )


def _choice_loc(field: str) -> Loc:
    return ("face",) if field == "face" else ("chosen", field)
