"""Seat assignment: who deals first and who plays before whom.

Given the tables of a round (who sits together) and the seat history, each
table is put in the seat order that best balances every entrant's seat
counts, avoids repeating last round's seat, and spreads "who plays directly
before whom" (in Crazy Eights the player before you sets the suit you must
follow). Tables of up to five are solved exactly over all seat orders;
larger ones by a seeded exchange search. A whole schedule (a round robin)
is then balanced across all its rounds at once by :func:`balance_seats`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from itertools import permutations
from typing import Final

from c8league.schedule.ledger import Ledger, index_entrants, ledger_of
from c8league.schedule.model import E, Round, Table

_SEAT_WEIGHT: Final = 4
_REPEAT_SEAT_WEIGHT: Final = 1
_BEFORE_WEIGHT: Final = 1
_EXACT_UP_TO: Final = 5
_BALANCE_PASSES: Final = 20
_ANNEAL_STEPS: Final = 200
_MAX_ANNEAL_STEPS: Final = 300_000


def assign_seats(
    tables: Sequence[Sequence[E]], history: Iterable[Round[E]] = (), *, seed: int = 0
) -> tuple[Table[E], ...]:
    """Put each table's entrants in seat order, balancing against ``history``.

    ``tables`` says who sits together (in any order); the result has the same
    tables in the same order, each as a tuple in seat order (seat 0 deals
    first). The same inputs and seed always give the same seats.
    """
    history = list(history)
    index = index_entrants((e for t in tables for e in t), history)
    ledger = ledger_of(history, index)
    entrants = list(index)
    rng = random.Random(seed)
    seated = seat_tables([[index[e] for e in t] for t in tables], ledger, rng)
    return tuple(tuple(entrants[i] for i in t) for t in seated)


def seat_tables(
    tables: Sequence[Sequence[int]], ledger: Ledger, rng: random.Random
) -> list[list[int]]:
    """Seat orders for numbered entrants, balancing against ``ledger``."""
    return [seat_table(table, ledger, rng) for table in tables]


def balance_seats(
    rounds: list[list[list[int]]],
    ledger: Ledger,
    rng: random.Random,
    *,
    max_steps: int | None = None,
) -> int:
    """Reorder the tables of recorded ``rounds`` to balance seats across all of them;
    returns the steps of the annealing.

    ``ledger`` must hold exactly these rounds; it is kept up to date. The
    objective is ``Σ seat count² + Σ before count²`` (weighted), lowered by a
    seeded annealing over seat exchanges within one table, then by re-seating
    one table at a time against all the others until none improves. The annealing
    takes :data:`_ANNEAL_STEPS` steps per table, at most :data:`_MAX_ANNEAL_STEPS` (or
    ``max_steps``, if fewer).
    """
    slots = [
        (tables, i, len(tables[i]) < max(len(t) for t in tables))
        for tables in rounds
        for i in range(len(tables))
        if len(tables[i]) > 1
    ]
    if not slots:
        return 0
    steps = min(_MAX_ANNEAL_STEPS, _ANNEAL_STEPS * len(slots))
    steps = steps if max_steps is None else min(steps, max_steps)
    _anneal(slots, ledger, rng, steps)
    for _ in range(_BALANCE_PASSES):
        changed = False
        for tables, i, short in slots:
            table = tables[i]
            ledger.add_table(table, short, -1)
            order = seat_table(table, ledger, rng, recent=False)
            if _order_cost(order, ledger, False) < _order_cost(table, ledger, False):
                tables[i] = order
                changed = True
            ledger.add_table(tables[i], short, 1)
        if not changed:
            break
    return steps


def _anneal(
    slots: list[tuple[list[list[int]], int, bool]],
    ledger: Ledger,
    rng: random.Random,
    iterations: int,
) -> None:
    """Seeded annealing over exchanges of two seats at one table; keeps the best seen."""
    seats, before, n = ledger.seats, ledger.before, ledger.n
    current = best = 0
    best_orders = [list(tables[i]) for tables, i, _ in slots]
    temperature = 2.0 * _SEAT_WEIGHT
    cooling = (0.05 / temperature) ** (1 / max(1, iterations))
    # Everything through locals, the edges in line: the loop is the whole cost.
    random_, exp, get = rng.random, math.exp, before.get
    count = len(slots)
    for _ in range(iterations):
        temperature *= cooling
        tables, i, _short = slots[int(random_() * count)]
        table = tables[i]
        size = len(table)
        x = int(random_() * size)
        y = int(random_() * (size - 1))
        if y >= x:
            y += 1
        p, q = table[x], table[y]
        sp, sq = seats[p], seats[q]
        delta = 2 * _SEAT_WEIGHT * (sp[y] - sp[x] + sq[x] - sq[y] + 2)
        old_edges: list[int] = []
        new_edges: list[int] = []
        if size > 2:
            # The edges "s plays before s + 1" that the exchange changes: those that
            # start at x - 1, x, y - 1 and y (fewer when x and y sit side by side).
            # (A list, each position once: a set costs more than the step.)
            before_x, before_y = (x - 1) % size, (y - 1) % size
            starts = [before_x, x]
            if before_y != x:
                starts.append(before_y)
            if y != before_x:
                starts.append(y)
            swapped = list(table)
            swapped[x], swapped[y] = q, p
            old_edges = [table[s] * n + table[(s + 1) % size] for s in starts]
            new_edges = [swapped[s] * n + swapped[(s + 1) % size] for s in starts]
            change = 0
            for key in old_edges:
                b = before[key]
                change += 1 - 2 * b
                before[key] = b - 1
            for key in new_edges:
                b = get(key, 0)
                change += 2 * b + 1
                before[key] = b + 1
            delta += _BEFORE_WEIGHT * change
        if delta <= 0 or random_() < exp(-delta / temperature):
            table[x], table[y] = q, p
            sp[x] -= 1
            sp[y] += 1
            sq[y] -= 1
            sq[x] += 1
            current += delta
            if current < best:
                best = current
                best_orders = [list(tables[i]) for tables, i, _ in slots]
        else:
            for key in new_edges:
                before[key] -= 1
            for key in old_edges:
                before[key] += 1
    for (tables, i, short), order in zip(slots, best_orders, strict=True):
        if tables[i] != order:
            ledger.add_table(tables[i], short, -1)
            tables[i] = order
            ledger.add_table(order, short, 1)


def seat_table(
    table: Sequence[int], ledger: Ledger, rng: random.Random, *, recent: bool = True
) -> list[int]:
    """The best seat order found for one table.

    ``recent`` adds a small cost for taking the same seat as in the last
    round recorded in ``ledger``.
    """
    members = list(table)
    rng.shuffle(members)
    size = len(members)
    if size <= 1:
        return members
    if size <= _EXACT_UP_TO:
        best, best_cost = members, _order_cost(members, ledger, recent)
        for order in permutations(members):
            cost = _order_cost(order, ledger, recent)
            if cost < best_cost:
                best, best_cost = list(order), cost
        return best
    return _exchange_search(members, ledger, rng, recent)


def _order_cost(order: Sequence[int], ledger: Ledger, recent: bool) -> int:
    seats, last, before, n = ledger.seats, ledger.last_seat, ledger.before, ledger.n
    cost = 0
    for seat, p in enumerate(order):
        cost += _SEAT_WEIGHT * seats[p][seat]
        if recent and last[p] == seat:
            cost += _REPEAT_SEAT_WEIGHT
    if len(order) > 2:
        prev = order[-1]
        for p in order:
            cost += _BEFORE_WEIGHT * before.get(prev * n + p, 0)
            prev = p
    return cost


def _exchange_search(
    members: list[int], ledger: Ledger, rng: random.Random, recent: bool
) -> list[int]:
    size = len(members)
    best, best_cost = members, _order_cost(members, ledger, recent)
    for _ in range(3):
        order = list(members)
        rng.shuffle(order)
        cost = _order_cost(order, ledger, recent)
        improved = True
        while improved:
            improved = False
            for i in range(size):
                for j in range(i + 1, size):
                    order[i], order[j] = order[j], order[i]
                    new = _order_cost(order, ledger, recent)
                    if new < cost:
                        cost, improved = new, True
                    else:
                        order[i], order[j] = order[j], order[i]
        if cost < best_cost:
            best, best_cost = order, cost
    return best
