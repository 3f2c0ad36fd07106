"""Maximum flow of a transportation problem: aggregated mana units onto aggregated cost slots.

The payment solver groups identical mana units (same producible types, snow, position) into one supply
node with a capacity, and identical cost slots into one demand node, so a board of 80 lands and a cost of
24 mana is a graph of a few dozen nodes. Edges between supply and demand have unlimited capacity; the
answer is bounded by the number of nodes, never by the capacities (Edmonds-Karp style shortest paths).

Flow is added in phases (``Transport.augment`` with the supplies and demands a phase may use). An
augmenting path starts at a supply with capacity left and ends at a demand with room left, so a phase never
lowers what an earlier phase sent out of any supply or into any demand: the solver uses that to put life
first or last, and to fill the slots that need a particular type before the optional ones.

Supplies are tried in the order given (the caller puts the least flexible first), which is the solver's
tie-break: a more flexible unit is used only when an augmenting path needs it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Sequence


class Transport:
    """A bipartite transportation network whose flow grows phase by phase."""

    __slots__ = ("adj", "flow", "radj", "rem_d", "rem_s")

    def __init__(self, supply: Sequence[int], demand: Sequence[int], adj: Sequence[Sequence[int]]) -> None:
        self.rem_s = [max(0, s) for s in supply]
        self.rem_d = [max(0, d) for d in demand]
        self.adj = adj
        self.flow: list[dict[int, int]] = [{} for _ in supply]
        self.radj: list[list[int]] = [[] for _ in demand]
        for i, js in enumerate(adj):
            for j in js:
                self.radj[j].append(i)

    def sent(self, i: int) -> int:
        """What supply ``i`` gives in all."""
        return sum(self.flow[i].values())

    def received(self, j: int) -> int:
        """What demand ``j`` gets in all."""
        return sum(self.flow[i].get(j, 0) for i in self.radj[j])

    def augment(self, supplies: Collection[int], demands: Collection[int]) -> int:
        """Send as much more as possible from ``supplies`` into ``demands``; returns the amount added."""
        supplies = set(supplies)
        demands = set(demands)
        added = self._greedy(supplies, demands)
        while True:
            if not any(self.rem_d[j] > 0 for j in demands):  # all paid: the usual end, checked first
                return added
            starts = [i for i in sorted(supplies) if self.rem_s[i] > 0]
            if not starts:
                return added
            parent_s: dict[int, int] = {i: -1 for i in starts}  # supply -> demand it was reached from
            parent_d: dict[int, int] = {}  # demand -> supply it was reached from
            queue = deque(starts)
            end = -1
            while queue and end < 0:
                i = queue.popleft()
                for j in self.adj[i]:
                    if j in parent_d:
                        continue
                    parent_d[j] = i
                    if self.rem_d[j] > 0 and j in demands:
                        end = j
                        break
                    for k in self.radj[j]:
                        if k not in parent_s and self.flow[k].get(j, 0) > 0:
                            parent_s[k] = j
                            queue.append(k)
            if end < 0:
                return added
            added += self._push(end, parent_s, parent_d)

    def _greedy(self, supplies: Collection[int], demands: Collection[int]) -> int:
        """A quick start: most constrained demands first, each from its first (least flexible) supply."""
        total = 0
        live = [j for j in sorted(demands) if self.rem_d[j] > 0]
        for j in _least_supplied_first(live, self.rem_s, self.radj, supplies):
            for i in self.radj[j]:
                if self.rem_d[j] == 0:
                    break
                if self.rem_s[i] == 0 or i not in supplies:
                    continue
                x = min(self.rem_s[i], self.rem_d[j])
                self.rem_s[i] -= x
                self.rem_d[j] -= x
                self.flow[i][j] = self.flow[i].get(j, 0) + x
                total += x
        return total

    def _push(self, end: int, parent_s: dict[int, int], parent_d: dict[int, int]) -> int:
        amount = self.rem_d[end]
        j = end
        while True:
            i = parent_d[j]
            back = parent_s[i]
            if back < 0:
                amount = min(amount, self.rem_s[i])
                break
            amount = min(amount, self.flow[i][back])
            j = back
        j = end
        self.rem_d[end] -= amount
        while True:
            i = parent_d[j]
            self.flow[i][j] = self.flow[i].get(j, 0) + amount
            back = parent_s[i]
            if back < 0:
                self.rem_s[i] -= amount
                return amount
            self.flow[i][back] -= amount
            if self.flow[i][back] == 0:
                del self.flow[i][back]
            j = back


def _least_supplied_first(
    live: list[int], rem_s: Sequence[int], radj: Sequence[Sequence[int]], supplies: Collection[int]
) -> list[int]:
    """The greedy start's order of demands: least supply that may reach them first, then by index."""
    return sorted(live, key=lambda j: (sum(rem_s[i] for i in radj[j] if i in supplies), j))


def max_transport(
    supply: Sequence[int],
    demand: Sequence[int],
    adj: Sequence[Sequence[int]],
    *,
    late: int | None = None,
) -> tuple[int, int, list[dict[int, int]]]:
    """Send as many units as possible from ``supply`` nodes to ``demand`` nodes along ``adj``.

    ``adj[i]`` lists the demand nodes supply ``i`` may serve, in preference order. If ``late`` is given,
    supply ``late`` is held back until no more flow fits without it (the solver's life supply: mana
    before life, CR 119.4 / 107.4f), so its use is the least any maximum flow needs.
    Returns ``(total, late_used, flow)`` where ``flow[i][j]`` is the amount supply i gives demand j.
    """
    net = Transport(supply, demand, adj)
    demands = range(len(demand))
    total = net.augment([i for i in range(len(supply)) if i != late], demands)
    late_used = 0
    if late is not None:
        late_used = net.augment([late], demands)
        total += late_used
    return total, late_used, net.flow


def same_flow_with_less(
    supply: Sequence[int],
    less: Sequence[int],
    demand: Sequence[int],
    adj: Sequence[Sequence[int]],
    *,
    late: int,
) -> bool:
    """Whether ``max_transport(less, demand, adj, late=late)`` gives the very flow ``max_transport(supply,
    demand, adj, late=late)`` gave (same ``flow[i][j]`` for every pair), where ``less`` lowers some mana
    supplies, each no lower than what its supply sends in that flow, and raises or keeps the ``late`` one,
    and where that flow paid every demand. The caller guarantees those; this checks the one remaining
    condition, the greedy start's order of demands.

    Why it holds otherwise, step by step, both runs starting from the same (empty) flow:

    * A supply's total outflow never decreases: ``_greedy`` only adds, and a push leaves the outflow of
      every supply on its path unchanged except its root's, which grows. So a supply lowered to no less
      than its final outflow never runs out earlier in a way that matters: in ``_greedy``, where the first
      run gives ``x = min(rem_s, rem_d) > 0`` the supply still has ``x`` left in the second (its final
      outflow covers it), and a supply the first run never gives to (a lowered one at 0 among them) is
      only ever reached once the demand is full. Same order of demands, same greedy flow: hence the check.
    * The searches from the mana supplies (``augment``, a breadth-first search from every supply with
      capacity left, in index order) visit nodes in the lexicographic order of their shortest paths from
      those roots (the root's index, then each edge's rank in ``adj``/``radj``), and end at the first
      supply met next to a demand with room. Lowering supplies only removes roots (a supply left with no
      capacity never again roots a push: its outflow is already final), so every node's order key can
      only grow, while the path the first run pushed on (its root kept: its outflow grew) keeps its key.
      So the second run meets the same end first, by the same path, and pushes the same amount (bounded
      by the root's capacity only when the first run's was the bound, which the root then still has).
    * The life supply (``late``) goes after every mana supply (CR 119.4). Its greedy start sorts the
      demands it reaches all alike (each by the same capacity, then by index), and a push it makes is
      bounded by its capacity only as the last one, when that push fills the last demand (the flow paid
      every demand): more life changes no step.
    """
    n = len(supply)
    mana = {i for i in range(n) if i != late}
    radj: list[list[int]] = [[] for _ in demand]
    for i, js in enumerate(adj):
        for j in js:
            radj[j].append(i)
    live = [j for j in range(len(demand)) if demand[j] > 0]
    return _least_supplied_first(live, supply, radj, mana) == _least_supplied_first(live, less, radj, mana)
