"""Local search for rounds in which pairs meet as evenly as possible.

With ``m`` the times a pair shares a table and ``s`` the times an entrant
sits at one of the smaller tables, the objective is::

    Σ over pairs (m² + 4 × (distance of m outside [⌊T/P⌋, ⌈T/P⌉])²)  +  48 × Σ s²

where ``T`` is the total number of meetings the table sizes give and ``P``
the number of pairs. With the table sizes fixed, ``T`` and the total of
``s`` are fixed, so ``Σ m²`` and ``Σ s²`` are smallest when meetings and
smaller tables are spread evenly; the second term adds a steeper price for a
pair far from the even share (one that never meets although others meet
twice, or one that meets in every round). The heavy weight on ``s`` makes
the smaller tables rotate fairly first. The lower bound is reached exactly
when every pair meets ``⌊T/P⌋`` or ``⌈T/P⌉`` times and every entrant sits
short ``⌊S/N⌋`` or ``⌈S/N⌉`` times.

The rounds are first built greedily, then improved by simulated annealing
over swaps of two entrants at different tables of the same round, most
moves taking an entrant from an over-frequent meeting. Everything is driven
by one seeded :class:`random.Random`, so the result is a function of the
seed.
"""

from __future__ import annotations

import math
import random
from bisect import insort
from collections.abc import Sequence
from typing import Final

SHORT_WEIGHT: Final = 48
OUTSIDE_WEIGHT: Final = 4
_START_TEMPERATURE: Final = 2.0
_END_TEMPERATURE: Final = 0.05
_TARGETED_MOVES: Final = 0.7

Grouping = list[list[list[int]]]
"""Rounds, each a list of tables, each a list of entrant indices."""


def even_share(total: int, slots: int) -> tuple[int, int]:
    """The counts an even spread of ``total`` over ``slots`` uses: ⌊total/slots⌋ and ⌈…⌉."""
    if slots == 0:
        return 0, 0
    return total // slots, -(-total // slots)


def pair_cost(m: int, share: tuple[int, int]) -> int:
    """The cost of a pair that shares a table ``m`` times, given the even ``share``."""
    low, high = share
    outside = low - m if m < low else m - high if m > high else 0
    return m * m + OUTSIDE_WEIGHT * outside * outside


def lower_bound(n: int, sizes: Sequence[int], rounds: int) -> int:
    """The smallest value the objective can take (it may be unreachable)."""
    pairs = n * (n - 1) // 2
    meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    full = max(sizes, default=0)
    short_seats = rounds * sum(s for s in sizes if s < full)
    return _even_bound(meetings, pairs) + SHORT_WEIGHT * _even_bound(short_seats, n)


def _even_bound(total: int, slots: int) -> int:
    """The least ``Σ x²`` over ``slots`` counts adding up to ``total``."""
    low, high = even_share(total, slots)
    extra = total - slots * low
    return (slots - extra) * low * low + extra * high * high


def objective(n: int, grouping: Grouping) -> int:
    """The objective of a grouping (see the module docstring)."""
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
    counts = [met[a * n + b] for a in range(n) for b in range(a + 1, n)]
    share = even_share(sum(counts), len(counts))
    pairs = sum(pair_cost(m, share) for m in counts)
    return pairs + SHORT_WEIGHT * sum(s * s for s in short)


def default_iterations(n: int, rounds: int) -> int:
    """The swaps :func:`balanced_grouping` tries by default: 100 per entrant and round,
    at least ten thousand, at most a million."""
    return min(1_000_000, max(10_000, 100 * n * rounds))


def balanced_grouping(
    n: int,
    sizes: Sequence[int],
    rounds: int,
    rng: random.Random,
    *,
    max_iterations: int | None = None,
) -> Grouping:
    """``rounds`` rounds of ``n`` entrants at tables of ``sizes``, pairs spread evenly.

    ``sizes`` must add up to ``n``. ``max_iterations`` is the number of
    swaps tried (default: 100 per entrant and round, at least ten thousand,
    at most a million); the search stops earlier at the lower bound.
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

    def clear(self) -> None:
        self.items.clear()
        self.where.clear()

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
        short_seats = rounds * sum(
            s for s, short in zip(sizes, self.short_table, strict=True) if short
        )
        # Counts above the even share mark the entrants worth moving: first those above the
        # rounded-up share, then, once none is left, those above the rounded-down one.
        self.limits = [
            (-(-meetings // pairs), -(-short_seats // n)),
            (meetings // pairs, short_seats // n),
        ]
        self.pair_limit, self.short_limit = self.limits[0]
        self.target = lower_bound(n, sizes, rounds)
        # Change in pair cost when a pair that met m times meets once more / once less.
        share = even_share(meetings, pairs)
        self.up = [pair_cost(m + 1, share) - pair_cost(m, share) for m in range(rounds + 1)]
        self.down = [0] + [
            pair_cost(m - 1, share) - pair_cost(m, share) for m in range(1, rounds + 1)
        ]
        for _ in range(rounds):
            self._add_greedy_round()
        # The rounds in which each pair (key a * n + b, a < b) shares a table.
        self.together: dict[int, list[int]] = {}
        for r, round_tables in enumerate(self.tables):
            for table in round_tables:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        key = a * n + b if a < b else b * n + a
                        self.together.setdefault(key, []).append(r)
        self.value = objective(n, self.tables)
        # The rounds in which each entrant sits at a smaller table, in order.
        self.short_rounds: list[list[int]] = [[] for _ in range(n)]
        for r, where in enumerate(self.table_of):
            for a in range(n):
                if self.short_table[where[a]]:
                    self.short_rounds[a].append(r)
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
                    cost += SHORT_WEIGHT * (2 * short[p] + 1)
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
        """List the entrants worth moving again, at the current limits (in place: the
        search holds on to the two sets)."""
        n = self.n
        self.hot_pairs.clear()
        self.hot_short.clear()
        for a in range(n):
            for b in range(a + 1, n):
                if self.met[a * n + b] > self.pair_limit:
                    self.hot_pairs.add(a * n + b)
            if self.short[a] > self.short_limit:
                self.hot_short.add(a)

    def _bump(self, r: int, a: int, b: int, step: int) -> None:
        n, met = self.n, self.met
        m = met[a * n + b] + step
        met[a * n + b] = m
        met[b * n + a] = m
        key = a * n + b if a < b else b * n + a
        if step > 0:
            self.together.setdefault(key, []).append(r)
        else:
            self.together[key].remove(r)
        if m > self.pair_limit:
            self.hot_pairs.add(key)
        else:
            self.hot_pairs.discard(key)

    def _next_limits(self) -> bool:
        """With no entrant left above the even share, look for those above its rounded
        down value; False once there is no lower limit."""
        level = self.limits.index((self.pair_limit, self.short_limit))
        if level + 1 == len(self.limits):
            return False
        self.pair_limit, self.short_limit = self.limits[level + 1]
        self._rebuild_hot()
        return True

    def _swap(self, r: int, a: int, b: int) -> None:
        table_of, tables = self.table_of[r], self.tables[r]
        ta, tb = table_of[a], table_of[b]
        for x in tables[ta]:
            if x != a:
                self._bump(r, a, x, -1)
                self._bump(r, b, x, 1)
        for y in tables[tb]:
            if y != b:
                self._bump(r, b, y, -1)
                self._bump(r, a, y, 1)
        if self.short_table[ta] != self.short_table[tb]:
            step = 1 if self.short_table[ta] else -1
            self.short[a] -= step
            self.short[b] += step
            into, out = (b, a) if step > 0 else (a, b)
            insort(self.short_rounds[into], r)
            self.short_rounds[out].remove(r)
            for p in (a, b):
                if self.short[p] > self.short_limit:
                    self.hot_short.add(p)
                else:
                    self.hot_short.discard(p)
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        table_of[a], table_of[b] = tb, ta

    def run(self, max_iterations: int | None) -> Grouping:
        n, rounds, rng = self.n, self.rounds, self.rng
        if max_iterations is None:
            max_iterations = default_iterations(n, rounds)
        tables, table_of = self.tables, self.table_of
        # The best grouping is copied only in the cooler second half of the run.
        best_value = self.value
        best = [[list(t) for t in round_tables] for round_tables in tables]
        copy_from = max_iterations // 2
        temperature = _START_TEMPERATURE
        cooling = (_END_TEMPERATURE / _START_TEMPERATURE) ** (1 / max(1, max_iterations))
        # The loop reads everything through locals, and picks the entrant to move and
        # the change of the objective in line: it is the whole cost of a search.
        random_, exp = rng.random, math.exp
        met, short, short_table = self.met, self.short, self.short_table
        up, down = self.up, self.down
        hot_pairs, hot_short = self.hot_pairs.items, self.hot_short.items
        together, short_rounds, target = self.together, self.short_rounds, self.target
        value = self.value
        for step in range(max_iterations):
            if value <= target:
                break
            temperature *= cooling
            if random_() < _TARGETED_MOVES:
                # An entrant whose move could lower the objective: one of a pair that
                # meets too often, in a round where it does, or one that sits at the
                # smaller tables too often, in a round where it does.
                hot = len(hot_pairs)
                while hot + len(hot_short) == 0 and self._next_limits():
                    hot = len(hot_pairs)
                count = hot + len(hot_short)
                if count == 0:
                    r, a = int(random_() * rounds), int(random_() * n)
                else:
                    i = int(random_() * count)
                    if i < hot:
                        key = hot_pairs[i]
                        in_rounds = together[key]
                        r = in_rounds[int(random_() * len(in_rounds))]
                        a = key // n if random_() < 0.5 else key % n
                    else:
                        a = hot_short[i - hot]
                        in_rounds = short_rounds[a]
                        r = in_rounds[int(random_() * len(in_rounds))]
            else:
                r, a = int(random_() * rounds), int(random_() * n)
            b = int(random_() * n)
            where = table_of[r]
            ta, tb = where[a], where[b]
            if ta == tb:
                continue
            ra, rb = a * n, b * n
            d = 0
            for x in tables[r][ta]:
                if x != a:
                    d += down[met[ra + x]] + up[met[rb + x]]
            for y in tables[r][tb]:
                if y != b:
                    d += up[met[ra + y]] + down[met[rb + y]]
            if short_table[ta] != short_table[tb]:
                if short_table[ta]:
                    d += 2 * SHORT_WEIGHT * (short[b] - short[a] + 1)
                else:
                    d += 2 * SHORT_WEIGHT * (short[a] - short[b] + 1)
            if d > 0 and random_() >= exp(-d / temperature):
                continue
            self._swap(r, a, b)
            value += d
            if value < best_value and (step >= copy_from or value <= target):
                best_value = value
                best = [[list(t) for t in round_tables] for round_tables in tables]
        self.value = value
        return tables if value <= best_value else best
