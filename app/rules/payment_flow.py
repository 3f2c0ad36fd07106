"""Maximum flow of a transportation problem: aggregated mana units onto aggregated cost slots.

The payment solver groups identical mana units (same producible types, snow, position) into one supply
node with a capacity, and identical cost slots into one demand node, so a board of 80 lands and a cost of
24 mana is a graph of a few dozen nodes. Edges between supply and demand have unlimited capacity; the
answer is bounded by the number of nodes, never by the capacities (Edmonds-Karp style shortest paths).

Supplies are tried in the order given (the caller puts the least flexible first), which is the solver's
tie-break: a more flexible unit is used only when an augmenting path needs it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence


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
    n = len(supply)
    rem_s = list(supply)
    rem_d = list(demand)
    flow: list[dict[int, int]] = [{} for _ in range(n)]
    radj: list[list[int]] = [[] for _ in demand]
    for i in range(n):
        for j in adj[i]:
            radj[j].append(i)
    total = 0
    # Greedy start: most constrained demands first, each from the first (least flexible) supply.
    order = sorted(range(len(demand)), key=lambda j: (sum(rem_s[i] for i in radj[j] if i != late), j))
    for j in order:
        for i in radj[j]:
            if rem_d[j] == 0:
                break
            if i == late or rem_s[i] == 0:
                continue
            x = rem_s[i] if rem_s[i] < rem_d[j] else rem_d[j]
            rem_s[i] -= x
            rem_d[j] -= x
            flow[i][j] = flow[i].get(j, 0) + x
            total += x
    total += _augment(rem_s, rem_d, adj, radj, flow, excluded=late)
    late_used = 0
    if late is not None:
        late_used = _augment(rem_s, rem_d, adj, radj, flow, excluded=None)
        total += late_used
    return total, late_used, flow


def _augment(
    rem_s: list[int],
    rem_d: list[int],
    adj: Sequence[Sequence[int]],
    radj: Sequence[Sequence[int]],
    flow: list[dict[int, int]],
    *,
    excluded: int | None,
) -> int:
    """Shortest augmenting paths (supply → demand ← supply → ... → demand) until none is left."""
    added = 0
    n = len(rem_s)
    while True:
        if not any(rem_d):
            return added
        starts = [i for i in range(n) if rem_s[i] > 0 and i != excluded]
        if not starts:
            return added
        parent_s: dict[int, int] = {i: -1 for i in starts}  # supply -> demand it was reached from
        parent_d: dict[int, int] = {}  # demand -> supply it was reached from
        queue = deque(starts)
        end = -1
        while queue and end < 0:
            i = queue.popleft()
            for j in adj[i]:
                if j in parent_d:
                    continue
                parent_d[j] = i
                if rem_d[j] > 0:
                    end = j
                    break
                for k in radj[j]:
                    if k not in parent_s and k != excluded and flow[k].get(j, 0) > 0:
                        parent_s[k] = j
                        queue.append(k)
        if end < 0:
            return added
        # Bottleneck along the path.
        amount = rem_d[end]
        j = end
        while True:
            i = parent_d[j]
            back = parent_s[i]
            if back < 0:
                amount = min(amount, rem_s[i])
                break
            amount = min(amount, flow[i][back])
            j = back
        j = end
        rem_d[end] -= amount
        while True:
            i = parent_d[j]
            flow[i][j] = flow[i].get(j, 0) + amount
            back = parent_s[i]
            if back < 0:
                rem_s[i] -= amount
                break
            flow[i][back] -= amount
            if flow[i][back] == 0:
                del flow[i][back]
            j = back
        added += amount
