"""Round-robin schedules at tables of 2 to 8.

At 2-player tables this is the circle method: every pair meets once per
cycle of ``n - 1`` rounds (``n`` rounds with a bye each when ``n`` is odd),
every entrant deals first in half its matches, give or take one, and the
next cycle repeats the pairings with the seats swapped, so that over two
cycles each pair has met twice with each one dealing first once.

At larger tables every entrant sits once per round, at tables of ``k`` or of
``k`` and ``k - 1`` (see :func:`~c8league.schedule.layout.table_layout`).
Where a resolvable design exists (see
:func:`~c8league.schedule.designs.resolvable_design`) every pair meets
exactly once per cycle; otherwise a seeded local search spreads the meetings
as evenly as it can, and the smaller tables fairly. Seats are then assigned
round by round and balanced over the whole schedule: each entrant's seat
positions, and who plays directly before whom.

The search has two versions, kept side by side because a schedule is a function of its
event's seed and search: version 1 (:data:`FIRST_SEARCH`) spends steps in proportion
to the schedule's length; version 2 (:data:`CAPPED_SEARCH`) spends as many up to
:data:`CAPPED_STEPS` (and :data:`CAPPED_SEAT_STEPS` seating) and no more, so that a
schedule of many cycles costs little more than a short one. Schedules within the caps
are the same under both (``leagues/bot-cup.toml``'s, for one).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from c8league.schedule.designs import resolvable_design
from c8league.schedule.errors import ScheduleError
from c8league.schedule.layout import check_table_size, table_layout
from c8league.schedule.ledger import Ledger
from c8league.schedule.model import E, Round
from c8league.schedule.search import Grouping, balanced_grouping, default_iterations
from c8league.schedule.seats import balance_seats, seat_tables

FIRST_SEARCH = 1
CAPPED_SEARCH = 2
SEARCHES = (FIRST_SEARCH, CAPPED_SEARCH)
"""The versions of the search (see the module docstring)."""

CAPPED_STEPS = 20_000
"""Version 2's most swaps tried by the grouping search."""
CAPPED_SEAT_STEPS = 10_000
"""Version 2's most steps of the seat annealing."""


def cycle_length(n: int, table_size: int) -> int:
    """Rounds in one cycle: enough for every pair of ``n`` entrants to meet once.

    That is ``⌈(n - 1) / (table_size - 1)⌉``, except at 2-player tables with
    an odd ``n``, where the cycle has ``n`` rounds because of the byes.
    """
    check_table_size(table_size)
    if n < 2:
        return 0
    if table_size == 2:
        return n if n % 2 else n - 1
    return -(-(n - 1) // (table_size - 1))


def round_robin(
    entrants: Sequence[E],
    table_size: int = 2,
    *,
    rounds: int | None = None,
    cycles: int | None = None,
    seed: int = 0,
    search: int = FIRST_SEARCH,
) -> list[Round[E]]:
    """A round-robin schedule for ``entrants`` at tables of ``table_size``.

    By default one cycle (:func:`cycle_length` rounds); pass ``rounds`` for
    any number of rounds, or ``cycles`` for whole cycles (not both). The
    seed shuffles who gets which place in the design and drives the search;
    the same arguments always give the same schedule. ``search`` is the version of
    the search where one is needed (see the module docstring).
    """
    check_table_size(table_size)
    if search not in SEARCHES:
        raise ScheduleError(f"no round-robin search version {search}")
    players = list(entrants)
    if len(set(players)) != len(players):
        raise ScheduleError("every entrant must be listed once")
    n = len(players)
    length = cycle_length(n, table_size)
    if rounds is not None and cycles is not None:
        raise ScheduleError("give the number of rounds or of cycles, not both")
    if cycles is not None:
        if cycles < 0:
            raise ScheduleError(f"the number of cycles cannot be negative: {cycles}")
        rounds = cycles * length
    elif rounds is None:
        rounds = length
    if rounds < 0:
        raise ScheduleError(f"the number of rounds cannot be negative: {rounds}")
    if n == 1:
        return [Round((), (players[0],)) for _ in range(rounds)]
    if n == 0 or rounds == 0:
        return [Round(()) for _ in range(rounds)]
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    numbered = _circle(n, rounds) if table_size == 2 else _multi(n, table_size, rounds, rng, search)
    return [
        Round(
            tuple(tuple(players[order[p]] for p in t) for t in tables),
            tuple(players[order[p]] for p in byes),
        )
        for tables, byes in numbered
    ]


def _circle(n: int, rounds: int) -> list[tuple[list[list[int]], list[int]]]:
    """Circle-method pairings for entrants ``0 .. n - 1``, seats balanced.

    Entrant ``m`` (``n`` rounded up to odd, minus one) is fixed and the others
    turn around it; at the rotating tables the entrant whose place is ahead by
    1 .. (m - 1) / 2 steps deals first, which makes every entrant deal first
    equally often among those tables, and the fixed entrant alternates.
    """
    m = n if n % 2 else n - 1  # the rotating entrants; n - 1 is fixed when n is even
    result: list[tuple[list[list[int]], list[int]]] = []
    for r in range(rounds):
        cycle, c = divmod(r, m)
        tables: list[list[int]] = []
        byes: list[int] = []
        if n % 2:
            byes.append(c)
        else:
            table = [m, c] if c % 2 == 0 else [c, m]
            tables.append(table)
        for i in range(1, (m + 1) // 2):
            a, b = (c + i) % m, (c - i) % m
            table = [a, b] if (a - b) % m <= (m - 1) // 2 else [b, a]
            tables.append(table)
        if cycle % 2:
            tables = [t[::-1] for t in tables]
        result.append((tables, byes))
    return result


def _multi(
    n: int, k: int, rounds: int, rng: random.Random, search: int = FIRST_SEARCH
) -> list[tuple[list[list[int]], list[int]]]:
    capped = search == CAPPED_SEARCH
    layout = table_layout(n, k, "smaller")
    grouping: Grouping
    design = resolvable_design(n, k) if len(set(layout.sizes)) == 1 else None
    if design is not None:
        grouping = [[list(t) for t in design[r % len(design)]] for r in range(rounds)]
    else:
        steps = default_iterations(n, rounds)
        if capped:
            steps = min(steps, CAPPED_STEPS)
        grouping = balanced_grouping(n, layout.sizes, rounds, rng, max_iterations=steps)
    ledger = Ledger(n)
    seated_rounds = []
    for tables in grouping:
        tables.sort(key=len, reverse=True)
        seated = seat_tables(tables, ledger, rng)
        ledger.record(seated)
        seated_rounds.append(seated)
    balance_seats(seated_rounds, ledger, rng, max_steps=CAPPED_SEAT_STEPS if capped else None)
    return [(seated, []) for seated in seated_rounds]
