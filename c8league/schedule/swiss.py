"""Swiss pairing at tables of 2 to 8.

Entrants are ranked by score and tiebreak order, then seated with others of
similar standing while avoiding repeat meetings:

1. Byes (when the field does not divide and byes are wanted, or at
   2-player tables with an odd field) go to the lowest-ranked entrants among
   those with the fewest byes so far, so nobody gets a second bye while
   another entrant has none.
2. At 2-player tables the pairing is a minimum-cost perfect matching.
3. At larger tables the ranking is cut into tables (the smaller tables at
   the bottom), then improved by swapping entrants between tables: a seeded
   simulated annealing over all tables in small fields, a descent over
   nearby tables in large ones.
4. Seats are assigned to balance each entrant's seat history.

The cost of a table is, over its pairs, ``spread × (gap in score group)²``
plus ``repeat × (earlier meetings)²``, plus, at a smaller table,
``short_table × (earlier smaller tables)`` for each entrant. Score groups are
the distinct scores, best first (0, 1, 2, …), so the cost does not depend on
the points scale. Repeat meetings are a cost, not a rule, so even a small
field always gets a pairing. At 2-player tables a pair whose members are
both due the same seat costs a little more, less than any other difference,
so seats alternate where they can; among pairings of equal cost the one
pairing entrants closest in the standings wins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from c8league.schedule.errors import ScheduleError
from c8league.schedule.layout import ShortTables, check_table_size, table_layout
from c8league.schedule.ledger import Ledger, index_entrants, ledger_of
from c8league.schedule.matching import min_cost_pairs
from c8league.schedule.model import E, Round
from c8league.schedule.seats import seat_tables

_ANNEAL_UP_TO = 96
_WINDOW = 4


@dataclass(frozen=True, slots=True)
class SwissWeights:
    """Integer weights of the Swiss table cost (see the module docstring)."""

    spread: int = 1
    repeat: int = 64
    short_table: int = 8

    def __post_init__(self) -> None:
        if min(self.spread, self.repeat, self.short_table) < 0:
            raise ScheduleError("Swiss weights cannot be negative")


def rank_entrants(scores: Mapping[E, float], order: Sequence[E] | None = None) -> list[E]:
    """Entrants best first: by score, ties by position in ``order``.

    ``order`` (default: the order of ``scores``) must list the same entrants,
    each once; it is typically the standings after tiebreaks.
    """
    if order is None:
        order = list(scores)
    elif len(order) != len(scores) or set(order) != set(scores):
        raise ScheduleError("the tiebreak order must list exactly the entrants that have scores")
    position = {e: i for i, e in enumerate(order)}
    if len(position) != len(order):
        raise ScheduleError("the tiebreak order lists an entrant twice")
    for e in order:
        if math.isnan(scores[e]):
            raise ScheduleError(f"the score of {e!r} is not a number")
    return sorted(order, key=lambda e: (-scores[e], position[e]))


def swiss_round(
    scores: Mapping[E, float],
    history: Sequence[Round[E]],
    table_size: int,
    *,
    seed: int = 0,
    order: Sequence[E] | None = None,
    short: ShortTables | None = None,
    weights: SwissWeights | None = None,
    rotate_short: bool = False,
) -> Round[E]:
    """The next Swiss round for the entrants in ``scores``.

    ``scores`` maps every entrant to be paired to its score; entrants who
    have withdrawn are simply left out. ``order`` breaks ties in score (see
    :func:`rank_entrants`). ``history`` holds the rounds played so far, in
    seat order, as returned by this function or built by the caller; it
    gives earlier meetings, byes, smaller tables and seats, and may mention
    entrants no longer in ``scores``.

    ``short`` chooses between smaller tables and byes when the field does not
    divide (default: byes at 2-player tables, smaller tables otherwise). With
    ``rotate_short``, the smaller tables go to those who sat at one least
    often in ``history``, so that nobody sits short twice before everyone has
    once, as far as the numbers allow (without it, sitting short again only
    costs). The top table comes first; byes are listed best-ranked first. The
    same arguments always give the same round.
    """
    check_table_size(table_size)
    weights = weights or SwissWeights()
    ranked = rank_entrants(scores, order)
    index = index_entrants(ranked, history)
    ledger = ledger_of(history, index)
    n = len(ranked)
    layout = table_layout(n, table_size, short)
    rng = random.Random(seed)

    bye_set = set(sorted(range(n), key=lambda i: (ledger.byes[i], -i))[: layout.byes])
    active = [i for i in range(n) if i not in bye_set]
    group = _score_groups([scores[e] for e in ranked])
    costs = _Costs(ledger, group, weights)

    tables: list[list[int]]
    if table_size == 2:
        pairs = min_cost_pairs(len(active), costs.match_costs(active))
        tables = [[active[i], active[j]] for i, j in pairs]
    else:
        full = max(layout.sizes, default=0)
        short_seats = sum(size for size in layout.sizes if size < full)
        if rotate_short and short_seats:
            must, may = _due_short([ledger.short[i] for i in active], short_seats)
            costs.movable = [False] * n
            for position in may:
                costs.movable[active[position]] = True
            # The smaller tables at the bottom hold those due, the lowest-ranked of
            # those who may be, then the rest in rank order.
            chosen = set(must) | set(may[len(may) - (short_seats - len(must)) :])
            lineup = [i for p, i in enumerate(active) if p not in chosen]
            lineup += [i for p, i in enumerate(active) if p in chosen]
        else:
            lineup = active
        tables = []
        start = 0
        for size in layout.sizes:
            tables.append(lineup[start : start + size])
            start += size
        _improve(tables, costs, rng)
        tables.sort(key=min)
    seated = seat_tables(tables, ledger, rng)
    return Round(
        tuple(tuple(ranked[i] for i in t) for t in seated),
        tuple(ranked[i] for i in sorted(bye_set)),
    )


def _due_short(counts: Sequence[int], seats: int) -> tuple[list[int], list[int]]:
    """Who must sit at the ``seats`` short seats and who may, by how often each sat
    short before (``counts``, by position): everyone below the level that fills the
    seats must, everyone at that level may."""
    level = 0
    while sum(1 for c in counts if c <= level) < seats:
        level += 1
    must = [p for p, c in enumerate(counts) if c < level]
    may = [p for p, c in enumerate(counts) if c == level]
    return must, may


def _score_groups(values: Sequence[float]) -> list[int]:
    """For scores listed best first, the index of each one's distinct score."""
    groups = []
    group = -1
    previous: float | None = None
    for v in values:
        if v != previous:
            group += 1
            previous = v
        groups.append(group)
    return groups


class _Costs:
    def __init__(self, ledger: Ledger, group: list[int], weights: SwissWeights) -> None:
        self.n = ledger.n
        self.met = ledger.met
        self.short = ledger.short
        self.seats = ledger.seats
        self.last_seat = ledger.last_seat
        self.group = group
        self.spread = weights.spread
        self.repeat = weights.repeat
        self.short_weight = weights.short_table
        self.movable: list[bool] | None = None
        """Who may change between a short and a full table (None: everyone)."""

    def may_trade(self, a: int, b: int) -> bool:
        """Whether ``a`` and ``b`` may trade a short seat for a full one."""
        return self.movable is None or (self.movable[a] and self.movable[b])

    def pair_cost(self, a: int, b: int) -> int:
        gap = self.group[a] - self.group[b]
        m = self.met.get(a * self.n + b if a < b else b * self.n + a, 0)
        return self.spread * gap * gap + self.repeat * m * m

    def seat_lean(self, a: int) -> int:
        """Positive if ``a`` is due to deal first at a 2-player table, negative if due second."""
        seats, last = self.seats[a], self.last_seat[a]
        return 2 * (seats[1] - seats[0]) + (1 if last == 1 else -1 if last == 0 else 0)

    def match_cost(self, a: int, b: int) -> int:
        """The 2-player pairing cost: :meth:`pair_cost`, then a clash of seat dues.

        Two entrants both due the same seat cost a little more (less than any
        difference in :meth:`pair_cost`), so the matching prefers partners
        whose seats alternate.
        """
        lean_a, lean_b = self.seat_lean(a), self.seat_lean(b)
        clash = min(abs(lean_a), abs(lean_b), 3) if lean_a * lean_b > 0 else 0
        return 4 * self.pair_cost(a, b) + clash

    def match_costs(self, people: Sequence[int]) -> Callable[[int, int], int]:
        """:meth:`match_cost` of ``people[i]`` and ``people[j]``, by position, with
        each one's group and seat lean looked up once."""
        group = [self.group[a] for a in people]
        lean = [self.seat_lean(a) for a in people]
        get, n, spread, repeat = self.met.get, self.n, self.spread, self.repeat

        def cost(i: int, j: int) -> int:
            a, b = people[i], people[j]
            gap = group[i] - group[j]
            m = get(a * n + b if a < b else b * n + a, 0)
            lean_a, lean_b = lean[i], lean[j]
            clash = min(abs(lean_a), abs(lean_b), 3) if lean_a * lean_b > 0 else 0
            return 4 * (spread * gap * gap + repeat * m * m) + clash

        return cost

    def table_cost(self, table: Sequence[int], is_short: bool) -> int:
        cost = 0
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                cost += self.pair_cost(a, b)
            if is_short:
                cost += self.short_weight * self.short[a]
        return cost

    def bad(self, table: Sequence[int], is_short: bool) -> bool:
        """Whether the table holds a repeat meeting or a repeat smaller table."""
        n, met = self.n, self.met
        if is_short and any(self.short[a] for a in table):
            return True
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if met.get(a * n + b if a < b else b * n + a, 0):
                    return True
        return False

    def swap_delta(
        self, ta: Sequence[int], a: int, short_a: bool, tb: Sequence[int], b: int, short_b: bool
    ) -> int:
        """Change in cost when ``a`` (at ``ta``) and ``b`` (at ``tb``) trade places."""
        pc = self.pair_cost
        d = 0
        for x in ta:
            if x != a:
                d += pc(b, x) - pc(a, x)
        for y in tb:
            if y != b:
                d += pc(a, y) - pc(b, y)
        if short_a != short_b:
            diff = self.short_weight * (self.short[b] - self.short[a])
            d += diff if short_a else -diff
        return d


def _improve(tables: list[list[int]], costs: _Costs, rng: random.Random) -> None:
    """Swap entrants between tables to lower the total cost, in place."""
    if len(tables) < 2:
        return
    full = max(len(t) for t in tables)
    is_short = [len(t) < full for t in tables]
    n = sum(len(t) for t in tables)
    if n <= _ANNEAL_UP_TO:
        _anneal(tables, is_short, costs, rng, 2000 + 200 * n)
        _descend(tables, is_short, costs, len(tables))
    else:
        _descend(tables, is_short, costs, _WINDOW)


def _anneal(
    tables: list[list[int]],
    is_short: list[bool],
    costs: _Costs,
    rng: random.Random,
    iterations: int,
) -> None:
    current = sum(costs.table_cost(t, s) for t, s in zip(tables, is_short, strict=True))
    best, best_value = [list(t) for t in tables], current
    start = max(1.0, costs.repeat / 2)
    temperature, end = start, 0.1
    cooling = (end / start) ** (1 / iterations)
    count = len(tables)
    for _ in range(iterations):
        temperature *= cooling
        ia = int(rng.random() * count)
        ib = int(rng.random() * (count - 1))
        if ib >= ia:
            ib += 1
        ta, tb = tables[ia], tables[ib]
        pa, pb = int(rng.random() * len(ta)), int(rng.random() * len(tb))
        if is_short[ia] != is_short[ib] and not costs.may_trade(ta[pa], tb[pb]):
            continue
        d = costs.swap_delta(ta, ta[pa], is_short[ia], tb, tb[pb], is_short[ib])
        if d > 0 and rng.random() >= math.exp(-d / temperature):
            continue
        ta[pa], tb[pb] = tb[pb], ta[pa]
        current += d
        if current < best_value:
            best, best_value = [list(t) for t in tables], current
    tables[:] = best


def _descend(tables: list[list[int]], is_short: list[bool], costs: _Costs, window: int) -> None:
    """Make the best improving swap with a nearby table until none is left.

    Only tables holding a repeat meeting or a repeat smaller table start a
    search; a table touched by a swap is looked at again. Among swaps of equal
    gain the first found wins: tables in order, then seats in order.

    The work is proportional to the tables searched, not to the field: each
    search prices the pairs across two tables once (``k²`` pair costs for a
    table pair) and reads every swap's change from their sums.
    """
    count = len(tables)
    pending = [i for i in range(count) if costs.bad(tables[i], is_short[i])]
    queued = set(pending)
    budget = 50 * count
    group, get, n, spread, repeat = costs.group, costs.met.get, costs.n, costs.spread, costs.repeat
    short, short_weight, movable = costs.short, costs.short_weight, costs.movable
    # own[i][p]: the cost of the pairs of table i that seat p is in (None: not known).
    own: list[list[int] | None] = [None] * count

    def own_of(i: int) -> list[int]:
        known = own[i]
        if known is None:
            table = tables[i]
            known = [0] * len(table)
            for p, a in enumerate(table):
                ga = group[a]
                for q in range(p + 1, len(table)):
                    b = table[q]
                    gap = ga - group[b]
                    m = get(a * n + b if a < b else b * n + a, 0)
                    c = spread * gap * gap + repeat * m * m
                    known[p] += c
                    known[q] += c
            own[i] = known
        return known

    while pending and budget > 0:
        budget -= 1
        ia = pending.pop()
        queued.discard(ia)
        ta = tables[ia]
        short_a = is_short[ia]
        own_a = own_of(ia)
        most_a = max(own_a)
        choice = None
        best = 0
        for ib in range(max(0, ia - window), min(count, ia + window + 1)):
            if ib == ia:
                continue
            tb = tables[ib]
            own_b = own_of(ib)
            trade = short_a != is_short[ib]
            if not trade and best + most_a + max(own_b) <= 0:
                # A swap gains at most what the two leave behind: none beats the best.
                continue
            # cross[pa][pb]: the cost of the pair (ta[pa], tb[pb]); a swap of the two
            # trades each one's own pairs for the other's pairs across.
            cross = []
            for a in ta:
                ga = group[a]
                row = []
                for b in tb:
                    gap = ga - group[b]
                    m = get(a * n + b if a < b else b * n + a, 0)
                    row.append(spread * gap * gap + repeat * m * m)
                cross.append(row)
            into_a = [sum(column) for column in zip(*cross, strict=True)]
            for pa, a in enumerate(ta):
                row = cross[pa]
                into_b = sum(row) - own_a[pa]
                for pb, b in enumerate(tb):
                    if trade and movable is not None and not (movable[a] and movable[b]):
                        continue
                    c = row[pb]
                    d = into_a[pb] - 2 * c - own_b[pb] + into_b
                    if trade:
                        diff = short_weight * (short[b] - short[a])
                        d += diff if short_a else -diff
                    if d < best:
                        best, choice = d, (ib, pa, pb)
        if choice is None:
            continue
        ib, pa, pb = choice
        tb = tables[ib]
        ta[pa], tb[pb] = tb[pb], ta[pa]
        own[ia] = own[ib] = None
        for i in (ia, ib):
            if i not in queued and costs.bad(tables[i], is_short[i]):
                pending.append(i)
                queued.add(i)
