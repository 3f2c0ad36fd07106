"""The payment solver's values (CR 601.2g-h): the sources it is given, the plans it returns, the error it
raises, and the checks of its input (a source's outputs, the pool's mana, a cost with no variable left)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.values.costs import ManaCost
from app.rules.values.symbols import MANA_TYPES, SymbolKind


@dataclass(frozen=True, slots=True)
class Consumed:
    """What an activation uses beside its own {T}/{Q} and mana (CR 118.3, 602.2b), as a plan step shows it:
    permanents it sacrifices, taps or returns (ids), counters it removes from its own permanent (kind,
    count), cards it exiles or discards (names)."""

    sacrifices: tuple[str, ...] = ()
    taps: tuple[str, ...] = ()
    returns: tuple[str, ...] = ()
    removes: tuple[tuple[str, int], ...] = ()
    exiles: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()

    def __init__(
        self,
        sacrifices: tuple[str, ...] = (),
        taps: tuple[str, ...] = (),
        returns: tuple[str, ...] = (),
        removes: tuple[tuple[str, int], ...] = (),
        exiles: tuple[str, ...] = (),
        discards: tuple[str, ...] = (),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "sacrifices", sacrifices)
        object.__setattr__(self, "taps", taps)
        object.__setattr__(self, "returns", returns)
        object.__setattr__(self, "removes", removes)
        object.__setattr__(self, "exiles", exiles)
        object.__setattr__(self, "discards", discards)


TAP: Final = "tap:"
LEAVES: Final = "leaves:"
CARD: Final = "card:"


@dataclass(frozen=True, slots=True)
class ManaSource:
    """One activatable mana ability of a permanent, as the board analysis finds it (CR 605.1a).

    ``outputs`` are the alternatives it may add, each a multiset of mana types; ``activation_cost`` is mana
    paid to activate it (a filter land's {W/U}); ``uses_permanent``: it has {T} or {Q} in its cost;
    ``spell_only``: its mana has a spending restriction (CR 106.6) the spell being paid for meets, so it
    pays the spell's cost but never another mana ability's activation cost.

    ``tokens`` are the resources the activation uses beside its own permanent's {T}: ``tap:<id>`` (a
    permanent it taps, CR 118.3: once), ``leaves:<id>`` (a permanent it sacrifices or returns; convoke and
    improvise carry it too, as they need the permanent still there at CR 601.2h), ``card:<zone>:<i>`` (a
    card it exiles or discards). Two activations sharing a token are never both in a plan; a source with
    ``uses_permanent`` holds ``tap:<permanent>``. ``activation`` tells apart the listings of one ability
    (its repeated activations, or the alternatives of which resources it uses); ``consumes`` is what the
    plan step shows.
    """

    permanent: str
    ability: int
    outputs: tuple[tuple[str, ...], ...]
    activation_cost: ManaCost | None = None
    life_cost: int = 0
    snow: bool = False
    uses_permanent: bool = True
    spell_only: bool = False
    tokens: frozenset[str] = frozenset()
    activation: int = 0
    consumes: Consumed = Consumed()

    def __init__(
        self,
        permanent: str,
        ability: int,
        outputs: tuple[tuple[str, ...], ...],
        activation_cost: ManaCost | None = None,
        life_cost: int = 0,
        snow: bool = False,
        uses_permanent: bool = True,
        spell_only: bool = False,
        tokens: frozenset[str] = frozenset(),
        activation: int = 0,
        consumes: Consumed = Consumed(),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanent", permanent)
        object.__setattr__(self, "ability", ability)
        object.__setattr__(self, "outputs", outputs)
        object.__setattr__(self, "activation_cost", activation_cost)
        object.__setattr__(self, "life_cost", life_cost)
        object.__setattr__(self, "snow", snow)
        object.__setattr__(self, "uses_permanent", uses_permanent)
        object.__setattr__(self, "spell_only", spell_only)
        object.__setattr__(self, "tokens", tokens)
        object.__setattr__(self, "activation", activation)
        object.__setattr__(self, "consumes", consumes)

    @property
    def all_tokens(self) -> frozenset[str]:
        return self.tokens | {TAP + self.permanent} if self.uses_permanent else self.tokens


@dataclass(frozen=True, slots=True)
class PlanStep:
    """One activation of a plan: ``adds`` is one of the source's ``outputs``."""

    permanent: str
    ability: int
    adds: tuple[str, ...]
    activation_cost: ManaCost | None = None
    life_paid: int = 0
    consumes: Consumed = Consumed()

    def __init__(
        self,
        permanent: str,
        ability: int,
        adds: tuple[str, ...],
        activation_cost: ManaCost | None = None,
        life_paid: int = 0,
        consumes: Consumed = Consumed(),
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "permanent", permanent)
        object.__setattr__(self, "ability", ability)
        object.__setattr__(self, "adds", adds)
        object.__setattr__(self, "activation_cost", activation_cost)
        object.__setattr__(self, "life_paid", life_paid)
        object.__setattr__(self, "consumes", consumes)


@dataclass(frozen=True, slots=True)
class SymbolPayment:
    """What paid one symbol (one unit of generic mana, one half of a {2/W} paid with two mana).

    ``target``: None for the cost itself, else the index of the step whose activation cost it pays.
    ``mana``: the type spent, None when 2 life paid a Phyrexian symbol. ``step``: the index of the step
    that added the mana, None for mana that was already in the pool.
    """

    symbol: str
    target: int | None
    mana: str | None
    step: int | None

    def __init__(self, symbol: str, target: int | None, mana: str | None, step: int | None) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "symbol", symbol)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "mana", mana)
        object.__setattr__(self, "step", step)


@dataclass(frozen=True, slots=True)
class PaymentPlan:
    """How to pay ``cost``: activate ``steps`` in order, then pay as ``payments`` says."""

    cost: ManaCost
    steps: tuple[PlanStep, ...]
    payments: tuple[SymbolPayment, ...]
    life_paid: int
    from_pool: tuple[str, ...]

    def __init__(
        self,
        cost: ManaCost,
        steps: tuple[PlanStep, ...],
        payments: tuple[SymbolPayment, ...],
        life_paid: int,
        from_pool: tuple[str, ...],
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "payments", payments)
        object.__setattr__(self, "life_paid", life_paid)
        object.__setattr__(self, "from_pool", from_pool)


class UnpayableError(IllegalError):
    """The cost cannot be paid with these sources (CR 601.2h); ``short`` is ``shortfall``'s answer."""

    def __init__(self, message: str, *, short: ManaCost) -> None:
        super().__init__(message, rule="601.2h")
        self.short = short


# -- public API --------------------------------------------------------------------------------------


def check_cost(cost: ManaCost) -> ManaCost:
    if cost.variables:
        raise IllegalError(
            f"{cost} still holds {', '.join(cost.variables)}: choose the value first (CR 107.3a)",
            rule="107.3a",
        )
    return cost


def pool_units(pool: ManaCost | None) -> tuple[str, ...]:
    """Mana already in the pool, one type per unit (CR 106.4); a pool holds typed mana, never {1}."""
    if pool is None:
        return ()
    if pool.variables or pool.generic:
        raise InvalidChoiceError(
            f"a mana pool holds mana of a type (W U B R G C), not {pool} (CR 106.4)", field="mana_pool"
        )
    units: list[str] = []
    for s in pool.others:
        if s.kind is SymbolKind.COLORED:
            units.append(s.colors[0])
        elif s.kind is SymbolKind.COLORLESS:
            units.append("C")
        else:
            raise InvalidChoiceError(
                f"a mana pool holds mana of a type (W U B R G C), not {s.text} (CR 106.4)", field="mana_pool"
            )
    return tuple(units)


def validate_source(src: ManaSource, valid_outputs: set[tuple[tuple[str, ...], ...]] | None = None) -> None:
    """Refuse a source the solver cannot read: one adding no mana or something that is not a mana type
    (CR 106.1b), a negative life cost (a life payment is an amount greater than 0, CR 119.4), an activation
    cost still holding X (CR 107.3a).
    ``valid_outputs``: outputs already found valid on this board (most sources share theirs)."""
    if valid_outputs is None or src.outputs not in valid_outputs:
        _validate_outputs(src)
        if valid_outputs is not None:
            valid_outputs.add(src.outputs)
    if src.life_cost < 0:
        raise InvalidChoiceError(
            f"source {src.permanent}#{src.ability} has a negative life cost", field="sources"
        )
    if src.activation_cost is not None and src.activation_cost.variables:
        raise IllegalError(
            f"source {src.permanent}#{src.ability}: an activation cost with X needs a value (CR 107.3a)",
            rule="107.3a",
        )


def _validate_outputs(src: ManaSource) -> None:
    if not src.outputs or any(not o for o in src.outputs):
        raise InvalidChoiceError(f"source {src.permanent}#{src.ability} adds no mana", field="sources")
    for o in src.outputs:
        for t in o:
            if t not in MANA_TYPES:
                raise InvalidChoiceError(
                    f"source {src.permanent}#{src.ability} adds {t!r}, not a mana type", field="sources"
                )
