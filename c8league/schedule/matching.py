"""Minimum-cost perfect matchings for 2-player Swiss rounds.

Entrants are numbered ``0 .. n - 1`` in standing order and ``cost(i, j)``
prices seating ``i`` with ``j``. Fields up to 64 are matched exactly over all
pairs: by Edmonds' blossom algorithm (from ``networkx``), or by the dynamic
programme below when its band already covers everyone. Larger fields are
matched exactly among partners at most ``BAND_WIDTH`` places apart in the
standings, by dynamic programming over which of the next places are already
taken. That is linear in ``n``, and in a large field a partner further away
is seldom cheaper, since the cost grows with the gap in score.

Among matchings of equal cost, the one pairing entrants closest in the
standings is chosen (the top two together, and so on).
"""

from __future__ import annotations

from collections.abc import Callable

PairCost = Callable[[int, int], int]

EXACT_UP_TO = 64
"""Fields up to this size are matched over all pairs."""

BAND_WIDTH = 8
"""In larger fields, partners are at most this many places apart."""


def min_cost_pairs(n: int, cost: PairCost) -> list[tuple[int, int]]:
    """A minimum-cost perfect matching of ``0 .. n - 1`` (``n`` even).

    Pairs come back as ``(i, j)`` with ``i < j``, sorted by ``i``.
    """
    if n % 2:
        raise ValueError("a perfect matching needs an even number of entrants")
    if n == 0:
        return []
    scale = n * n + 1  # above any difference in the total distance in the standings

    def cost_then_distance(i: int, j: int) -> int:
        return cost(i, j) * scale + abs(j - i)

    if n - 1 <= BAND_WIDTH:
        return banded_pairs(n, cost_then_distance, n - 1)
    if n <= EXACT_UP_TO:
        return _blossom(n, cost_then_distance)
    return banded_pairs(n, cost_then_distance, BAND_WIDTH)


def _blossom(n: int, cost: PairCost) -> list[tuple[int, int]]:
    # networkx (heavy): only where a Swiss round is paired by the blossom algorithm
    import networkx as nx  # type: ignore[import-untyped,unused-ignore]

    costs = {(i, j): cost(i, j) for i in range(n) for j in range(i + 1, n)}
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((i, j, ceiling - c) for (i, j), c in costs.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def banded_pairs(n: int, cost: PairCost, width: int) -> list[tuple[int, int]]:
    """The cheapest perfect matching in which partners are at most ``width`` apart.

    ``n`` must be even and ``width`` at least 1 (neighbours can always pair).
    Of matchings of equal cost, the first reached wins: partners nearer in the
    standings are tried first. Time and memory grow with ``n × 2**width`` (a byte
    per state kept to trace the matching back), so ``width`` is meant to be small,
    like :data:`BAND_WIDTH`.
    """
    if n % 2 or width < 1:
        raise ValueError("need an even number of entrants and a positive width")
    # A state is a mask: bit d set when place i + d is already taken. Masks are
    # below ``size``; the states of a step are listed in the order first reached.
    size = 1 << width
    moves = [
        [(d, (mask | 1 << d) >> 1) for d in range(1, width + 1) if not mask & 1 << d]
        for mask in range(size)
    ]
    best = [0] * size
    seen = [-1] * size
    # came[i * size + new]: how step i reached state ``new``: the partner's distance
    # (0: place i was already taken); the state before follows from it.
    came = bytearray(n * size)
    masks, totals = [0], [0]
    for i in range(n):
        reach = min(width, n - 1 - i)
        prices = [0] + [cost(i, i + d) for d in range(1, reach + 1)]
        base = i * size
        reached: list[int] = []
        for mask, total in zip(masks, totals, strict=True):
            if mask & 1:
                new = mask >> 1
                if seen[new] != i:
                    seen[new] = i
                    reached.append(new)
                elif total >= best[new]:
                    continue
                best[new] = total
                came[base + new] = 0
                continue
            for d, new in moves[mask]:
                if d > reach:
                    break
                price = total + prices[d]
                if seen[new] != i:
                    seen[new] = i
                    reached.append(new)
                elif price >= best[new]:
                    continue
                best[new] = price
                came[base + new] = d
        masks = reached
        totals = [best[m] for m in reached]
    pairs = []
    mask = 0
    for i in range(n - 1, -1, -1):
        d = came[i * size + mask]
        if d:
            pairs.append((i, i + d))
            mask = (mask << 1) ^ (1 << d)
        else:
            mask = mask << 1 | 1
    pairs.sort()
    return pairs
