"""Local search for rounds in which pairs meet as evenly as possible.

The objective is ``Σ m² + Σ s²`` over all pairs (``m`` = times the pair
shares a table) and all entrants (``s`` = times the entrant sits at one of
the smaller tables). With the table sizes fixed, the total of ``m`` and of
``s`` is fixed, so the objective is smallest when both are spread evenly;
its lower bound is reached exactly when every pair meets ``⌊T/P⌋`` or
``⌈T/P⌉`` times and every entrant sits short ``⌊S/N⌋`` or ``⌈S/N⌉`` times.

The search is a tabu search in the manner of Dotú and Van Hentenryck's
social golfer solver: pick an entrant involved in an over-frequent meeting,
try swapping it with every entrant at another table of the same round, make
the best swap not recently undone, and stop at the lower bound or when the
iteration budget is spent. Everything is driven by one seeded
:class:`random.Random`, so the result is a function of the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

SAMPLE = 4
Grouping = list[list[list[int]]]
"""Rounds, each a list of tables, each a list of entrant indices."""


def lower_bound(n: int, sizes: Sequence[int], rounds: int) -> int:
    """The smallest value the objective can take (it may be unreachable)."""
    pairs = n * (n - 1) // 2
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    short_seats = rounds * sum(1 for s in sizes if s < max(sizes, default=0)) * (
        max(sizes, default=0) - 1
    )
    return _spread_bound(meetings, pairs) + _spread_bound(short_seats, n)


def _spread_bound(total: int, slots: int) -> int:
    if slots == 0:
        return 0
    low, extra = divmod(total, slots)
    return slots * low * low + extra * (2 * low + 1)


def objective(n: int, grouping: Grouping) -> int:
    """``Σ m² + Σ s²`` of a grouping (see the module docstring)."""
    met = [0] * (n * n)
    short = [0] * n
    for tables in grouping:
        full = max(len(t) for t in tables)
        for table in tables:
            for i, a in enumerate(table):
                if len(table) < full:
                    short[a] += 1
                for b in table[i + 1 :]:
                    met[min(a, b) * n + max(a, b)] += 1
    return sum(m * m for m in met) + sum(s * s for s in short)


def balanced_grouping(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    *,
    max_iterations: int | None = None,
) -> Grouping:
    """``rounds`` rounds of ``n`` entrants at tables of ``sizes``, pairs spread evenly.

    ``sizes`` must add up to ``n``. ``max_iterations`` bounds the search
    (default: grows with the size of the problem); it stops earlier at the
    lower bound or after a long run without improvement.
    """
    if sum(sizes) != n:
        raise ValueError("table sizes must add up to the number of entrants")
    if rounds == 0 or len(sizes) <= 1:
        return [[list(range(n))] if n else [] for _ in range(rounds)]
    return _Search(n, list(sizes), rounds, rng).run(max_iterations)


class _Search:
    def __init__(self, n: int, sizes: list[int], rounds: int, rng: random.Random) -> None:
        self.n = n
        self.sizes = sizes
        self.rounds = rounds
        self.rng = rng
        full = max(sizes)
        self.short_table = [s < full for s in sizes]
        self.met = [0] * (n * n)
        self.short = [0] * n
        self.tables: Grouping = []
        self.table_of: list[list[int]] = []
        pairs = n * (n - 1) // 2
        meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
        short_seats = rounds * sum(s for s, short in zip(sizes, self.short_table, strict=True) if short)
        # Meeting (or short-table) counts above the even share mark the entrants worth moving:
        # first those above the rounded-up share, then those above the rounded-down one.
        self.limits = [
            (-(-meetings // pairs), -(-short_seats // n)),
            (meetings // pairs, short_seats // n),
        ]
        self.target = lower_bound(n, sizes, rounds)
        for _ in range(rounds):
            self._add_greedy_round()
        self.value = objective(n, self.tables)

    def _add_greedy_round(self) -> None:
        n, met, short = self.n, self.met, self.short
        order = list(range(n))
        self.rng.shuffle(order)
        tables: list[list[int]] = [[] for _ in self.sizes]
        table_of = [0] * n
        for p in order:
            row = p * n
            best, best_cost = -1, 0
            for t, table in enumerate(tables):
                if len(table) == self.sizes[t]:
                    continue
                cost = 2 * sum(met[row + x] for x in table)
                if self.short_table[t]:
                    cost += 2 * short[p] + 1
                if best < 0 or cost < best_cost:
                    best, best_cost = t, cost
            tables[best].append(p)
            table_of[p] = best
        for t, table in enumerate(tables):
            for i, a in enumerate(table):
                if self.short_table[t]:
                    short[a] += 1
                for b in table[i + 1 :]:
                    met[a * n + b] += 1
                    met[b * n + a] += 1
        self.tables.append(tables)
        self.table_of.append(table_of)

    def _conflicted(self, r: int, pair_limit: int, short_limit: int) -> list[int]:
        n, met, short = self.n, self.met, self.short
        found = []
        for t, table in enumerate(self.tables[r]):
            is_short = self.short_table[t]
            for a in table:
                row = a * n
                if (is_short and short[a] > short_limit) or any(
                    met[row + x] > pair_limit for x in table if x != a
                ):
                    found.append(a)
        return found

    def _movers(self) -> list[tuple[int, int]]:
        for pair_limit, short_limit in self.limits:
            found = [
                (r, a) for r in range(self.rounds) for a in self._conflicted(r, pair_limit, short_limit)
            ]
            if found:
                return found
        return [(r, a) for r in range(self.rounds) for a in range(self.n)]

    def _delta(self, r: int, a: int, b: int) -> int:
        n, met = self.n, self.met
        ta, tb = self.table_of[r][a], self.table_of[r][b]
        ra, rb = a * n, b * n
        d = 0
        for x in self.tables[r][ta]:
            if x != a:
                d += met[rb + x] - met[ra + x] + 1
        for y in self.tables[r][tb]:
            if y != b:
                d += met[ra + y] - met[rb + y] + 1
        d *= 2
        if self.short_table[ta] != self.short_table[tb]:
            if self.short_table[ta]:
                d += 2 * (self.short[b] - self.short[a] + 1)
            else:
                d += 2 * (self.short[a] - self.short[b] + 1)
        return d

    def _swap(self, r: int, a: int, b: int) -> None:
        n, met = self.n, self.met
        table_of, tables = self.table_of[r], self.tables[r]
        ta, tb = table_of[a], table_of[b]
        for x in tables[ta]:
            if x != a:
                met[a * n + x] -= 1
                met[x * n + a] -= 1
                met[b * n + x] += 1
                met[x * n + b] += 1
        for y in tables[tb]:
            if y != b:
                met[b * n + y] -= 1
                met[y * n + b] -= 1
                met[a * n + y] += 1
                met[y * n + a] += 1
        if self.short_table[ta] != self.short_table[tb]:
            step = 1 if self.short_table[ta] else -1
            self.short[a] -= step
            self.short[b] += step
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        table_of[a], table_of[b] = tb, ta

    def run(self, max_iterations: int | None) -> Grouping:
        n, rounds, rng = self.n, self.rounds, self.rng
        if max_iterations is None:
            max_iterations = 2000 + 40 * n * rounds
        patience = max(500, max_iterations // 4)
        best_value = self.value
        best = [[list(t) for t in tables] for tables in self.tables]
        tabu: dict[tuple[int, int], int] = {}
        since_best = 0
        for step in range(max_iterations):
            if best_value <= self.target or since_best > patience:
                break
            movers = self._movers()
            if len(movers) > SAMPLE:
                movers = rng.sample(movers, SAMPLE)
            choice, choice_delta, chosen_a, chosen_r = -1, 0, -1, -1
            ties = 0
            for r, a in movers:
                ta = self.table_of[r][a]
                for b in range(n):
                    if self.table_of[r][b] == ta:
                        continue
                    d = self._delta(r, a, b)
                    if (tabu.get((r, b), -1) >= step or tabu.get((r, a), -1) >= step) and self.value + d >= best_value:
                        continue
                    if choice < 0 or d < choice_delta:
                        choice, choice_delta, ties, chosen_a, chosen_r = b, d, 1, a, r
                    elif d == choice_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice, chosen_a, chosen_r = b, a, r
            a, r = chosen_a, chosen_r
            if choice < 0:
                since_best += 1
                continue
            self._swap(r, a, choice)
            self.value += choice_delta
            tenure = 4 + rng.randrange(8)
            tabu[(r, a)] = step + tenure
            tabu[(r, choice)] = step + tenure
            if self.value < best_value:
                best_value = self.value
                best = [[list(t) for t in tables] for tables in self.tables]
                since_best = 0
            else:
                since_best += 1
        return best
