"""How balanced a schedule is: meetings, seats, byes and smaller tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic

from c8league.schedule.ledger import index_entrants, ledger_of
from c8league.schedule.model import E, Round


@dataclass
class BalanceReport(Generic[E]):
    """Tallies over a schedule, for the entrants listed in ``entrants``.

    ``pair_meetings`` holds every pair that shared a table at least once,
    keyed ``(a, b)`` with ``a`` listed before ``b`` in ``entrants``; pairs not
    in it never met. ``seat_counts[e][i]`` is how often ``e`` sat in the
    ``i``-th seat (index 0 deals first; shown as seat 1); ``before_counts[(a, b)]`` how often ``a``
    played directly before ``b`` at a table of three or more.
    ``common_seats`` is the size of the smallest table.
    """

    entrants: tuple[E, ...]
    rounds: int
    common_seats: int = 0
    pair_meetings: dict[tuple[E, E], int] = field(default_factory=dict)
    seat_counts: dict[E, tuple[int, ...]] = field(default_factory=dict)
    before_counts: dict[tuple[E, E], int] = field(default_factory=dict)
    bye_counts: dict[E, int] = field(default_factory=dict)
    short_table_counts: dict[E, int] = field(default_factory=dict)
    games: dict[E, int] = field(default_factory=dict)

    def meetings(self, a: E, b: E) -> int:
        """How often ``a`` and ``b`` shared a table."""
        return self.pair_meetings.get((a, b), self.pair_meetings.get((b, a), 0))

    @property
    def pair_count(self) -> int:
        """The number of pairs of entrants."""
        n = len(self.entrants)
        return n * (n - 1) // 2

    @property
    def min_pair_meetings(self) -> int:
        """The fewest times any pair met (0 if some pair never met)."""
        if len(self.pair_meetings) < self.pair_count:
            return 0
        return min(self.pair_meetings.values(), default=0)

    @property
    def max_pair_meetings(self) -> int:
        """The most times any pair met."""
        return max(self.pair_meetings.values(), default=0)

    @property
    def repeat_meetings(self) -> int:
        """Meetings beyond the first of each pair: ``Σ max(0, m - 1)``."""
        return sum(m - 1 for m in self.pair_meetings.values() if m > 1)

    @property
    def seat_width(self) -> int:
        """Seat positions in use: the size of the largest table."""
        return max((len(c) for c in self.seat_counts.values()), default=0)

    @property
    def max_seat_imbalance(self) -> int:
        """The largest gap, over entrants, between their most and least used seat.

        Only the seats every table has count (seats 0, 1, 2 when tables of 4
        and 3 are mixed): a seat that only the larger tables have is filled
        less often by design.
        """
        common = self.common_seats
        worst = 0
        for counts in self.seat_counts.values():
            used = counts[:common]
            if used:
                worst = max(worst, max(used) - min(used))
        return worst

    @property
    def max_before(self) -> int:
        """The most times one entrant played directly before the same other one."""
        return max(self.before_counts.values(), default=0)

    def records(self) -> tuple[tuple[str, ...], list[tuple[str | int, ...]]]:
        """The header, then one row per entrant: the entrant, then numbers.

        Columns: entrant, games, byes, smaller tables, distinct opponents,
        most meetings with one opponent, then the count of each seat,
        numbered from 1 as the sheets number them (seat 1 deals first).
        """
        width = self.seat_width
        header = (
            "entrant",
            "games",
            "byes",
            "short",
            "opponents",
            "most_meetings",
            *(f"seat{i + 1}" for i in range(width)),
        )
        opponents: dict[E, int] = dict.fromkeys(self.entrants, 0)
        most: dict[E, int] = dict.fromkeys(self.entrants, 0)
        for (a, b), m in self.pair_meetings.items():
            for e in (a, b):
                opponents[e] += 1
                most[e] = max(most[e], m)
        rows: list[tuple[str | int, ...]] = []
        for e in self.entrants:
            seats = self.seat_counts.get(e, ())
            rows.append(
                (
                    str(e),
                    self.games.get(e, 0),
                    self.bye_counts.get(e, 0),
                    self.short_table_counts.get(e, 0),
                    opponents[e],
                    most[e],
                    *(seats[i] if i < len(seats) else 0 for i in range(width)),
                )
            )
        return header, rows

    def rows(self) -> list[tuple[str, ...]]:
        """:meth:`records` as text cells, the header first."""
        header, rows = self.records()
        return [header, *(tuple(str(v) for v in row) for row in rows)]

    def summary(self) -> dict[str, int]:
        """The summary figures by name."""
        return {
            "entrants": len(self.entrants),
            "rounds": self.rounds,
            "pairs": self.pair_count,
            "pairs that met": len(self.pair_meetings),
            "min pair meetings": self.min_pair_meetings,
            "max pair meetings": self.max_pair_meetings,
            "repeat meetings": self.repeat_meetings,
            "max seat imbalance": self.max_seat_imbalance,
            "max times before the same entrant": self.max_before,
            "max byes": max(self.bye_counts.values(), default=0),
        }

    def summary_rows(self) -> list[tuple[str, str]]:
        """The summary figures as ``(name, value)`` text pairs."""
        return [(name, str(value)) for name, value in self.summary().items()]


def balance_report(
    schedule: Sequence[Round[E]], entrants: Sequence[E] | None = None
) -> BalanceReport[E]:
    """Tally ``schedule``: pair meetings, seats, byes, smaller tables.

    ``entrants`` (default: everyone in the schedule, in order of first
    appearance) fixes the entrants reported on and their order; it should
    include everyone who appears in the schedule.
    """
    index = index_entrants(entrants or (), schedule)
    people = tuple(index)
    ledger = ledger_of(schedule, index)
    n = ledger.n
    sizes = [len(t) for rnd in schedule for t in rnd.tables]
    report = BalanceReport(people, len(schedule), min(sizes, default=0))
    for key, m in ledger.met.items():
        a, b = divmod(key, n)
        report.pair_meetings[(people[a], people[b])] = m
    for key, m in ledger.before.items():
        a, b = divmod(key, n)
        report.before_counts[(people[a], people[b])] = m
    width = max(sizes, default=0)
    for i, e in enumerate(people):
        report.seat_counts[e] = tuple(ledger.seats[i][:width])
        report.bye_counts[e] = ledger.byes[i]
        report.short_table_counts[e] = ledger.short[i]
        report.games[e] = ledger.played[i]
    return report
