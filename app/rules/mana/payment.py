"""The payment solver: can this player pay this mana cost with these mana abilities, and how (CR 601.2g-h)?

Public API, verify / can / do: ``PaymentSources`` (sources prepared once, for many costs) and the
one-cost functions: ``verify_payment`` raises ``UnpayableError`` (an ``IllegalError``) with the
reason, ``can_pay`` answers a bool, ``plan_payment`` returns a ``PaymentPlan`` (every activation, in
order, what it adds and what each symbol was paid with), ``shortfall`` the least mana that, added to the
pool, would pay it.

Semantics (what a plan may do, and what the brute-force reference in ``tests/rules`` enumerates):

* Each listed ``ManaSource`` is activated at most once; of the sources with ``uses_permanent`` (a {T} or
  {Q} cost) at most one per permanent (CR 602.5b: a tapped permanent cannot pay {T} again). A source that
  can be activated repeatedly is listed once per activation.
* Mana abilities are activated before the cost is paid (CR 601.2g); an activation pays its own mana cost
  from the mana pool as it is then, so from the pool given and from sources activated earlier, never from
  its own mana (CR 605.3a, 602.2b). Life costs are paid as the abilities are activated.
* The spell's cost is then paid from the pool (CR 601.2h). {C} needs colorless mana (CR 107.4c), {S} mana
  from a snow source (CR 107.4h; mana already in the pool is taken as not from a snow source), a hybrid
  symbol one of its colors (107.4e), {2/W} one white or two of any type (107.4e), {C/W} colorless or white,
  a Phyrexian symbol its color or 2 life (107.4f), generic any type (107.4b).
* Life: a player can pay life only if their life total is at least the payment (CR 119.4); every life
  payment of one plan (sources' life costs and Phyrexian symbols) comes out of the same total, so their sum
  may be at most ``life``: paying 2 life at 2 life is allowed, at 1 it is not. Mana is preferred to life.
* Half mana ({HW}, {HR}, {½}, Un-sets): no source adds half a mana, so each half symbol is paid with one
  whole mana of its color ({½}: of any type); the unused half is lost. {∞} is never payable. Variables
  must be substituted first (``ManaCost.with_variables``, CR 107.3a): a cost still holding {X} raises.

Algorithm (exact, not an enumeration of mana combinations):

* Sources that add one mana and cost nothing are merged per permanent into one unit that may be any of
  the types they can add; sources whose alternatives are every multiset of n mana over some types (a
  filter land's {W}{W}/{W}{U}/{U}{U}) become n such units. Identical units are aggregated, and cost symbols
  likewise, so paying is a small transportation max-flow (``flow.py``) whatever the board's size.
* Only permanents that have a real choice (several abilities, several fixed alternatives such as Gilded
  Lotus's three mana of one color, a mana or life cost) are branched on, identical permanents together
  (how many take each option, not which), with a relaxed flow as the bound: undecided permanents add
  their most mana of any of their types for free, and activation order is ignored. The search's first
  path is tried before its bounds are checked: when its leaf pays with the least life the root's bound
  allows, the bounded search would have stopped there too.
* With nothing to branch on (no batch: every activation has its one way, as lands whose only cost is
  {T}) and no {2/X} symbol, ``plan`` makes the plan's assignment at once: the search's one configuration
  is the base, and its check the very flow the assignment's first match computes (``plan_unsearched``).
* A choice that uses abilities costing mana is checked exactly by searching the activation order with the
  same flow (each prefix bounded by the order-free relaxation of the rest).
* Among plans the solver prefers, in order: the least life; then the fewest activations with a mana cost
  (``Prepared.solve``: a Signet is not fed the Plains that alone pays {1}); then (tie-break) spending mana
  already in the pool, then the least flexible sources (fewest producible types, non-snow before snow), so
  the most flexible sources stay untapped; and it never activates a source none of whose mana is spent.
  Branching tries options in a fixed order, so answers are deterministic.

Modules: ``payment_values`` (the values above and the input checks), ``payment_options`` (sources as
options and groups, clusters, batches), ``payment_graph`` (the transport graph and its flow checks),
``payment_search`` (``Prepared``: the search), ``payment_shortfall``, ``payment_render`` (the plan).
This module is the public face; its names are the ones to import.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.mana.payment_graph import slots_only
from app.rules.mana.payment_render import build_plan, plan_unsearched
from app.rules.mana.payment_search import Prepared
from app.rules.mana.payment_shortfall import shortfall as solve_shortfall
from app.rules.mana.payment_values import (
    ManaSource,
    PaymentPlan,
    UnpayableError,
    check_cost,
)
from app.rules.values.costs import ManaCost

__all__ = ["PaymentSources", "can_pay", "plan_payment", "shortfall", "verify_payment"]


class PaymentSources:
    """One player's mana sources, pool and life, prepared once for any number of costs (verify / can /
    plan / shortfall, as the functions below).

    Preparing (grouping the sources into units and batches, ``Prepared``) does not depend on the cost: a
    board asked about many costs (every card of a hand) prepares its sources once. Safe to share between
    threads: after construction only memo tables of the bound are filled, each entry with the one value
    its key determines.
    """

    __slots__ = ("_prepared",)

    def __init__(
        self, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
    ) -> None:
        self._prepared = Prepared(sources, pool, life)

    @property
    def notes(self) -> tuple[str, ...]:
        """What the solver could not prove (a cluster of shared resources cut at its bound)."""
        return tuple(self._prepared.notes)

    def plan(self, cost: ManaCost) -> PaymentPlan:
        """A plan paying ``cost``, with the least life; raises ``UnpayableError`` when there is none."""
        prepared = self._prepared
        check_cost(cost)
        if prepared.unsearched and slots_only(cost):
            # Nothing to search: the plan's assignment is the whole answer (``plan_unsearched``).
            plan = plan_unsearched(prepared, cost)
            if plan is None:
                raise self._unpayable(cost)
            return plan
        found = prepared.solve(cost, best_life=True)
        if found is None:
            raise self._unpayable(cost)
        return build_plan(prepared, cost, found)

    def can(self, cost: ManaCost) -> bool:
        """Whether some plan pays ``cost`` (CR 601.2g-h)."""
        return self._prepared.solve(check_cost(cost), best_life=False) is not None

    def verify(self, cost: ManaCost) -> None:
        """Return if ``cost`` can be paid; otherwise raise ``UnpayableError`` saying what is missing."""
        if not self.can(cost):
            raise self._unpayable(cost)

    def shortfall(self, cost: ManaCost) -> ManaCost:
        """The least mana that, added to the pool, would pay ``cost`` (``shortfall``)."""
        return solve_shortfall(self._prepared, cost)

    def _unpayable(self, cost: ManaCost) -> UnpayableError:
        short = solve_shortfall(self._prepared, cost)
        return UnpayableError(f"cannot pay {cost}: {short} is missing", short=short)


def plan_payment(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> PaymentPlan:
    """A plan paying ``cost``, with the least life; raises ``UnpayableError`` when there is none."""
    return PaymentSources(sources, pool=pool, life=life).plan(cost)


def can_pay(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> bool:
    """Whether some plan pays ``cost`` (CR 601.2g-h)."""
    return PaymentSources(sources, pool=pool, life=life).can(cost)


def verify_payment(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> None:
    """Return if ``cost`` can be paid; otherwise raise ``UnpayableError`` saying what is missing."""
    PaymentSources(sources, pool=pool, life=life).verify(cost)


def shortfall(
    cost: ManaCost, sources: Sequence[ManaSource], *, pool: ManaCost | None = None, life: int = 20
) -> ManaCost:
    """The least mana that, added to the pool, would make ``cost`` payable; ``{0}`` when it is payable.

    API 1.1: fewest mana, then fewest that must be of a particular type, written as mana: the mana that may
    be of any type as one generic number, then ``{W}`` ``{U}`` ``{B}`` ``{R}`` ``{G}`` ``{C}`` (``{S}``:
    mana of any type from a snow source, CR 107.4h). Never a hybrid or Phyrexian symbol: a missing
    ``{B/P}`` is ``{B}``, a ``{2/W}`` half paid is ``{1}``. ``{∞}`` is kept, as nothing pays it.
    """
    return PaymentSources(sources, pool=pool, life=life).shortfall(cost)


# -- internals ---------------------------------------------------------------------------------------
