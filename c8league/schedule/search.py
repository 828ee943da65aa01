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

SAMPLE = 16
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


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random choice."""

    def __init__(self) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, item: int) -> None:
        if item not in self.where:
            self.where[item] = len(self.items)
            self.items.append(item)

    def discard(self, item: int) -> None:
        i = self.where.pop(item, -1)
        if i >= 0:
            last = self.items.pop()
            if i < len(self.items):
                self.items[i] = last
                self.where[last] = i


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
        # Counts above the even share mark the entrants worth moving: first those above the
        # rounded-up share, then, once none is left, those above the rounded-down one.
        self.limits = [
            (-(-meetings // pairs), -(-short_seats // n)),
            (meetings // pairs, short_seats // n),
        ]
        self.pair_limit, self.short_limit = self.limits[0]
        self.target = lower_bound(n, sizes, rounds)
        for _ in range(rounds):
            self._add_greedy_round()
        self.value = objective(n, self.tables)
        self.hot_pairs = _IndexedSet()
        self.hot_short = _IndexedSet()
        self._rebuild_hot()

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

    def _rebuild_hot(self) -> None:
        n = self.n
        self.hot_pairs = _IndexedSet()
        self.hot_short = _IndexedSet()
        for a in range(n):
            for b in range(a + 1, n):
                if self.met[a * n + b] > self.pair_limit:
                    self.hot_pairs.add(a * n + b)
            if self.short[a] > self.short_limit:
                self.hot_short.add(a)

    def _bump(self, a: int, b: int, step: int) -> None:
        n, met = self.n, self.met
        m = met[a * n + b] + step
        met[a * n + b] = m
        met[b * n + a] = m
        key = a * n + b if a < b else b * n + a
        if m > self.pair_limit:
            self.hot_pairs.add(key)
        else:
            self.hot_pairs.discard(key)

    def _pick_mover(self) -> tuple[int, int]:
        """A round and an entrant in it whose move could lower the objective."""
        rng, n = self.rng, self.n
        while True:
            hot, short = len(self.hot_pairs), len(self.hot_short)
            if hot + short:
                break
            level = self.limits.index((self.pair_limit, self.short_limit))
            if level + 1 == len(self.limits):
                return rng.randrange(self.rounds), rng.randrange(n)
            self.pair_limit, self.short_limit = self.limits[level + 1]
            self._rebuild_hot()
        i = rng.randrange(hot + short)
        if i < hot:
            a, b = divmod(self.hot_pairs.items[i], n)
            rounds = [r for r, where in enumerate(self.table_of) if where[a] == where[b]]
            return rounds[rng.randrange(len(rounds))], (a if rng.random() < 0.5 else b)
        a = self.hot_short.items[i - hot]
        rounds = [r for r, where in enumerate(self.table_of) if self.short_table[where[a]]]
        return rounds[rng.randrange(len(rounds))], a

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
        table_of, tables = self.table_of[r], self.tables[r]
        ta, tb = table_of[a], table_of[b]
        for x in tables[ta]:
            if x != a:
                self._bump(a, x, -1)
                self._bump(b, x, 1)
        for y in tables[tb]:
            if y != b:
                self._bump(b, y, -1)
                self._bump(a, y, 1)
        if self.short_table[ta] != self.short_table[tb]:
            step = 1 if self.short_table[ta] else -1
            self.short[a] -= step
            self.short[b] += step
            for p in (a, b):
                if self.short[p] > self.short_limit:
                    self.hot_short.add(p)
                else:
                    self.hot_short.discard(p)
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        table_of[a], table_of[b] = tb, ta

    def run(self, max_iterations: int | None) -> Grouping:
        n, rng = self.n, self.rng
        if max_iterations is None:
            max_iterations = 2000 + 40 * n * self.rounds
        patience = max(500, max_iterations // 4)
        best_value = self.value
        best = [[list(t) for t in tables] for tables in self.tables]
        tabu: dict[tuple[int, int], int] = {}
        since_best = 0
        for step in range(max_iterations):
            if best_value <= self.target or since_best > patience:
                break
            choice, choice_delta, choice_a, choice_r = -1, 0, -1, -1
            ties = 0
            for _ in range(SAMPLE):
                r, a = self._pick_mover()
                where = self.table_of[r]
                ta = where[a]
                a_tabu = tabu.get((r, a), -1) >= step
                for b in range(n):
                    if where[b] == ta:
                        continue
                    d = self._delta(r, a, b)
                    if (a_tabu or tabu.get((r, b), -1) >= step) and self.value + d >= best_value:
                        continue
                    if choice < 0 or d < choice_delta:
                        choice, choice_delta, choice_a, choice_r, ties = b, d, a, r, 1
                    elif d == choice_delta:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            choice, choice_a, choice_r = b, a, r
            if choice < 0:
                since_best += 1
                continue
            self._swap(choice_r, choice_a, choice)
            self.value += choice_delta
            tenure = 4 + rng.randrange(8)
            tabu[(choice_r, choice_a)] = step + tenure
            tabu[(choice_r, choice)] = step + tenure
            if self.value < best_value:
                best_value = self.value
                best = [[list(t) for t in tables] for tables in self.tables]
                since_best = 0
            else:
                since_best += 1
        return best
