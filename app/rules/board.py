"""The board state every computation reads: permanents, players, pools (CR 110, 302.6, 106.4)."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.cards import Card, Face
from app.rules.costs import ManaCost
from app.rules.errors import InvalidChoiceError


@dataclass(frozen=True, slots=True)
class Choices:
    """Values chosen as a permanent entered (Herald's Horn's creature type, Vorthos's character...)."""

    creature_type: str | None = None
    character: str | None = None
    color: str | None = None
    card_name: str | None = None


@dataclass(frozen=True, slots=True)
class Permanent:
    """A permanent on the battlefield.

    ``controlled_since_turn_began`` is the CR 302.6 fact ("under its controller's control continuously
    since their most recent turn began"); ``face`` names the face that is up (None: the front);
    ``attached_to`` is the id of what an Aura or Equipment is attached to; ``x`` is the value of X its
    spell was cast with (CR 107.3m).
    """

    id: str
    card: Card
    controller: str = "you"
    tapped: bool = False
    controlled_since_turn_began: bool = True
    face: str | None = None
    chosen: Choices = Choices()
    x: int = 0
    played_as: tuple[str, ...] = ()
    attached_to: str | None = None

    @property
    def characteristics(self) -> Face:
        """The face that is up (CR 711.2, 712.8): the front unless ``face`` names another."""
        return self.card.front if self.face is None else self.card.face(self.face)

    @property
    def name(self) -> str:
        return self.characteristics.name


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    life: int = 20


@dataclass(frozen=True, slots=True)
class Board:
    """Permanents in board order, players, the active player and mana already in pools."""

    permanents: tuple[Permanent, ...] = ()
    players: tuple[Player, ...] = (Player("you"),)
    active_player: str = "you"
    mana_pool: tuple[tuple[str, ManaCost], ...] = ()

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise InvalidChoiceError(f"no player named {name!r} on this board", field="player")

    def controlled_by(self, name: str) -> tuple[Permanent, ...]:
        return tuple(p for p in self.permanents if p.controller == name)

    def opponents_of(self, name: str) -> tuple[str, ...]:
        """CR 102.2-102.3: every other player is an opponent (no teams in this model)."""
        return tuple(p.name for p in self.players if p.name != name)

    def get(self, permanent_id: str) -> Permanent:
        for p in self.permanents:
            if p.id == permanent_id:
                return p
        raise InvalidChoiceError(f"no permanent with id {permanent_id!r} on this board", field="permanent")

    def pool_of(self, name: str) -> ManaCost:
        for player, pool in self.mana_pool:
            if player == name:
                return pool
        return ManaCost.zero()
