"""The board state every computation reads: permanents, players, pools (CR 110, 302.6, 106.4)."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.errors import InvalidChoiceError
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost


@dataclass(frozen=True, slots=True)
class Choices:
    """Values chosen as a permanent entered (Herald's Horn's creature type, Vorthos's character...)."""

    creature_type: str | None = None
    character: str | None = None
    color: str | None = None
    card_name: str | None = None
    card_type: str | None = None
    colors: tuple[str, ...] = ()
    imprinted: Card | None = None

    def __init__(
        self,
        creature_type: str | None = None,
        character: str | None = None,
        color: str | None = None,
        card_name: str | None = None,
        card_type: str | None = None,
        colors: tuple[str, ...] = (),
        imprinted: Card | None = None,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "creature_type", creature_type)
        object.__setattr__(self, "character", character)
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "card_name", card_name)
        object.__setattr__(self, "card_type", card_type)
        object.__setattr__(self, "colors", colors)
        object.__setattr__(self, "imprinted", imprinted)


@dataclass(frozen=True, slots=True)
class Permanent:
    """A permanent on the battlefield.

    ``controlled_since_turn_began`` is the CR 302.6 fact ("under its controller's control continuously
    since their most recent turn began"); ``face`` names the face that is up (None: the front);
    ``attached_to`` is the id of what an Aura or Equipment is attached to; ``x`` is the value of X its
    spell was cast with (CR 107.3m).

    ``counters`` are (kind, count) pairs, the kind as printed in lowercase (CR 122.1); ``class_level`` is a
    Class's level (CR 716.2a: 1 when it entered) and ``level`` its level counters' meaning for level up
    (CR 711); ``attacking`` and ``blocking`` its part in combat (CR 506.4). ``given`` names which of
    ``counters``, ``class_level``, ``level`` and "combat" the request stated: an effect reading a fact
    that was not given takes the least value and says so ("nothing silent").
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
    counters: tuple[tuple[str, int], ...] = ()
    class_level: int = 1
    level: int = 0
    given: frozenset[str] = frozenset()
    attacking: bool = False  # an attacking creature (CR 506.4); "combat" in ``given`` when stated
    blocking: bool = False  # a blocking creature (CR 509.1)
    token: bool = False  # a token, not a card (CR 111.1); "token" in ``given`` when stated
    power: int | None = None  # its power now (CR 208.3), when the request states it
    toughness: int | None = None  # its toughness now (CR 208.3), when the request states it
    activated_this_turn: tuple[int, ...] = ()
    """Indices of its abilities activated this turn (CR 602.5b "Activate only once each turn");
    "activated_this_turn" in ``given`` when stated."""

    def __init__(
        self,
        id: str,
        card: Card,
        controller: str = "you",
        tapped: bool = False,
        controlled_since_turn_began: bool = True,
        face: str | None = None,
        chosen: Choices = Choices(),
        x: int = 0,
        played_as: tuple[str, ...] = (),
        attached_to: str | None = None,
        counters: tuple[tuple[str, int], ...] = (),
        class_level: int = 1,
        level: int = 0,
        given: frozenset[str] = frozenset(),
        attacking: bool = False,
        blocking: bool = False,
        token: bool = False,
        power: int | None = None,
        toughness: int | None = None,
        activated_this_turn: tuple[int, ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "controller", controller)
        object.__setattr__(self, "tapped", tapped)
        object.__setattr__(self, "controlled_since_turn_began", controlled_since_turn_began)
        object.__setattr__(self, "face", face)
        object.__setattr__(self, "chosen", chosen)
        object.__setattr__(self, "x", x)
        object.__setattr__(self, "played_as", played_as)
        object.__setattr__(self, "attached_to", attached_to)
        object.__setattr__(self, "counters", counters)
        object.__setattr__(self, "class_level", class_level)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "given", given)
        object.__setattr__(self, "attacking", attacking)
        object.__setattr__(self, "blocking", blocking)
        object.__setattr__(self, "token", token)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "toughness", toughness)
        object.__setattr__(self, "activated_this_turn", activated_this_turn)

    def counter(self, kind: str) -> int:
        """How many ``kind`` counters it has (CR 122.1); 0 when none or when counters were not given."""
        for name, count in self.counters:
            if name == kind:
                return count
        return 0

    def knows(self, fact: str) -> bool:
        """Whether the request stated ``fact`` ("counters", "class_level", "level")."""
        return fact in self.given

    def current(self, which: str) -> int:
        """Its power or toughness (CR 208.3): as stated, else the printed value (CR 208.1; a "*" or other
        non-number reads as 0) with its +1/+1 and -1/-1 counters (CR 122.1a, 613.4c), other effects
        taken as none."""
        stated = self.power if which == "power" else self.toughness
        if stated is not None:
            return stated
        face = self.characteristics
        printed = face.power if which == "power" else face.toughness
        base = int(printed) if printed is not None and printed.lstrip("-").isdigit() else 0
        return base + self.counter("+1/+1") - self.counter("-1/-1")

    @property
    def characteristics(self) -> Face:
        """The face that is up (CR 711.2, 712.8): the front unless ``face`` names another."""
        return self.card.front if self.face is None else self.card.face(self.face)

    @property
    def name(self) -> str:
        return self.characteristics.name


THIS_TURN_FACTS: tuple[str, ...] = (
    "spells_cast",
    "creature_spells_cast",
    "noncreature_spells_cast",
    "instant_sorcery_spells_cast",
    "kicked_spells_cast",
    "life_lost",
    "lands_played",
    "creatures_died",
    "life_gained",
    "cards_drawn",
    "creatures_attacked",
    "permanents_sacrificed",
    "artifacts_sacrificed",
    "crimes_committed",
    "creatures_left_battlefield",
    "cards_discarded",
    "creature_cards_to_graveyard",
    "artifact_spells_cast",
    "legendary_creature_spells_cast",
    "face_down_creature_spells_cast",
    "noncombat_damage_taken",
)


@dataclass(frozen=True, slots=True)
class ThisTurn:
    """Counts about the current turn that effects read (CR 500.1: "this turn" is the current turn).

    ``given`` names the facts the request stated; the others read as 0 and the reader warns.
    """

    spells_cast: int = 0
    creature_spells_cast: int = 0
    noncreature_spells_cast: int = 0
    instant_sorcery_spells_cast: int = 0
    kicked_spells_cast: int = 0
    life_lost: int = 0
    lands_played: int = 0
    creatures_died: int = 0  # creatures this player controlled that died this turn (CR 700.4)
    life_gained: int = 0
    cards_drawn: int = 0
    creatures_attacked: int = 0  # creatures this player attacked with this turn (CR 508.1)
    permanents_sacrificed: int = 0  # permanents this player sacrificed this turn (CR 701.21a)
    artifacts_sacrificed: int = 0  # of those, artifacts (CR 701.21a)
    crimes_committed: int = 0  # crimes this player committed this turn (CR 700.13)
    creatures_left_battlefield: int = 0  # creatures that left the battlefield under this player's control
    cards_discarded: int = 0  # cards this player discarded, cycled ones included (CR 701.9, 702.29a)
    creature_cards_to_graveyard: int = 0  # creature cards put into this player's graveyard from anywhere
    artifact_spells_cast: int = 0
    legendary_creature_spells_cast: int = 0
    face_down_creature_spells_cast: int = 0  # face-down spells are creature spells (CR 708.2a)
    noncombat_damage_taken: int = 0  # noncombat damage dealt to this player this turn (CR 120.1, 510)
    given: frozenset[str] = frozenset()

    def __init__(
        self,
        spells_cast: int = 0,
        creature_spells_cast: int = 0,
        noncreature_spells_cast: int = 0,
        instant_sorcery_spells_cast: int = 0,
        kicked_spells_cast: int = 0,
        life_lost: int = 0,
        lands_played: int = 0,
        creatures_died: int = 0,
        life_gained: int = 0,
        cards_drawn: int = 0,
        creatures_attacked: int = 0,
        permanents_sacrificed: int = 0,
        artifacts_sacrificed: int = 0,
        crimes_committed: int = 0,
        creatures_left_battlefield: int = 0,
        cards_discarded: int = 0,
        creature_cards_to_graveyard: int = 0,
        artifact_spells_cast: int = 0,
        legendary_creature_spells_cast: int = 0,
        face_down_creature_spells_cast: int = 0,
        noncombat_damage_taken: int = 0,
        given: frozenset[str] = frozenset(),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "spells_cast", spells_cast)
        object.__setattr__(self, "creature_spells_cast", creature_spells_cast)
        object.__setattr__(self, "noncreature_spells_cast", noncreature_spells_cast)
        object.__setattr__(self, "instant_sorcery_spells_cast", instant_sorcery_spells_cast)
        object.__setattr__(self, "kicked_spells_cast", kicked_spells_cast)
        object.__setattr__(self, "life_lost", life_lost)
        object.__setattr__(self, "lands_played", lands_played)
        object.__setattr__(self, "creatures_died", creatures_died)
        object.__setattr__(self, "life_gained", life_gained)
        object.__setattr__(self, "cards_drawn", cards_drawn)
        object.__setattr__(self, "creatures_attacked", creatures_attacked)
        object.__setattr__(self, "permanents_sacrificed", permanents_sacrificed)
        object.__setattr__(self, "artifacts_sacrificed", artifacts_sacrificed)
        object.__setattr__(self, "crimes_committed", crimes_committed)
        object.__setattr__(self, "creatures_left_battlefield", creatures_left_battlefield)
        object.__setattr__(self, "cards_discarded", cards_discarded)
        object.__setattr__(self, "creature_cards_to_graveyard", creature_cards_to_graveyard)
        object.__setattr__(self, "artifact_spells_cast", artifact_spells_cast)
        object.__setattr__(self, "legendary_creature_spells_cast", legendary_creature_spells_cast)
        object.__setattr__(self, "face_down_creature_spells_cast", face_down_creature_spells_cast)
        object.__setattr__(self, "noncombat_damage_taken", noncombat_damage_taken)
        object.__setattr__(self, "given", given)

    def count(self, fact: str) -> int:
        if fact not in THIS_TURN_FACTS:
            raise InvalidChoiceError(f"no this-turn fact named {fact!r}", field="this_turn")
        value: int = getattr(self, fact)
        return value

    def knows(self, fact: str) -> bool:
        return fact in self.given


@dataclass(frozen=True, slots=True)
class Player:
    """A player: life, the cards in their hidden and public zones, their commanders, this turn's facts.

    ``commander`` holds the player's commanders (CR 903.3; their color identity is the player's, CR 903.4).
    ``graveyard``, ``exile`` and ``hand`` are the cards in those zones (CR 404, 406, 402);
    ``hand_size`` counts the hand when its cards are not listed; ``counters`` are counters on the player
    (CR 122.1), ``speed`` its speed (702.179). ``given`` names which of "commander", "graveyard", "exile",
    "hand", "hand_size", "counters" and "speed" the request stated: the others read as empty (least) and
    an effect that reads them warns.
    """

    name: str
    life: int = 20
    commander: tuple[Card, ...] = ()
    graveyard: tuple[Card, ...] = ()
    exile: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    hand_size: int | None = None
    this_turn: ThisTurn = ThisTurn()
    given: frozenset[str] = frozenset()
    counters: tuple[tuple[str, int], ...] = ()  # counters on the player by kind (CR 122.1: poison, ...)
    speed: int = 0  # CR 702.179b: a player has no speed (0 here) until an effect sets it

    def __init__(
        self,
        name: str,
        life: int = 20,
        commander: tuple[Card, ...] = (),
        graveyard: tuple[Card, ...] = (),
        exile: tuple[Card, ...] = (),
        hand: tuple[Card, ...] = (),
        hand_size: int | None = None,
        this_turn: ThisTurn = ThisTurn(),
        given: frozenset[str] = frozenset(),
        counters: tuple[tuple[str, int], ...] = (),
        speed: int = 0,
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "life", life)
        object.__setattr__(self, "commander", commander)
        object.__setattr__(self, "graveyard", graveyard)
        object.__setattr__(self, "exile", exile)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_size", hand_size)
        object.__setattr__(self, "this_turn", this_turn)
        object.__setattr__(self, "given", given)
        object.__setattr__(self, "counters", counters)
        object.__setattr__(self, "speed", speed)

    def counter(self, kind: str) -> int:
        """How many ``kind`` counters the player has (CR 122.1); 0 when none or not given."""
        return next((n for name, n in self.counters if name == kind), 0)

    @property
    def cards_in_hand(self) -> int:
        """The hand's size: ``hand_size`` when given, else the listed cards (CR 402.3)."""
        return self.hand_size if self.hand_size is not None else len(self.hand)

    def knows(self, fact: str) -> bool:
        if fact == "hand":
            return "hand" in self.given or "hand_size" in self.given
        return fact in self.given


@dataclass(frozen=True, slots=True)
class Board:
    """Permanents in board order, players, the active player and mana already in pools."""

    permanents: tuple[Permanent, ...] = ()
    players: tuple[Player, ...] = (Player("you"),)
    active_player: str = "you"
    mana_pool: tuple[tuple[str, ManaCost], ...] = ()
    day_night: str | None = None  # CR 730.1: "day", "night", or None when the request does not say
    step: str | None = None  # the current step or phase (CR 500.1: "end" for the end step), None: not said
    effects: tuple[Permanent, ...] = ()  # lasting effects of resolved spells and abilities (CR 611.2):
    # Past in Flames, Yawgmoth's Will, a Snapcaster Mage's trigger (its target as chosen.card_name)

    def __init__(
        self,
        permanents: tuple[Permanent, ...] = (),
        players: tuple[Player, ...] = (Player("you"),),
        active_player: str = "you",
        mana_pool: tuple[tuple[str, ManaCost], ...] = (),
        day_night: str | None = None,
        step: str | None = None,
        effects: tuple[Permanent, ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanents", permanents)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "active_player", active_player)
        object.__setattr__(self, "mana_pool", mana_pool)
        object.__setattr__(self, "day_night", day_night)
        object.__setattr__(self, "step", step)
        object.__setattr__(self, "effects", effects)

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
