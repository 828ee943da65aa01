"""Tables, rounds and schedules: the values the scheduling functions return.

A *table* is a tuple of entrant ids in seat order; seat 0 deals first in the
match and play passes from seat ``i`` to seat ``i + 1`` (and from the last
seat back to seat 0), so the entrant in seat ``i - 1`` plays directly before
the entrant in seat ``i``. A :class:`Round` is a tuple of tables plus the
entrants who sit out with a bye. A *schedule* is a list of rounds.

Entrant ids are any hashable values (typically ints or strings); the
functions never order them by value or by ``hash()``, only by the order in
which the caller supplied them.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

from c8league.schedule.errors import ScheduleError

E = TypeVar("E", bound=Hashable)

Table: TypeAlias = tuple[E, ...]
"""Entrant ids in seat order; seat 0 deals first."""


@dataclass(frozen=True, slots=True)
class Round(Generic[E]):
    """One round: the tables played at the same time, and the byes.

    Every entrant appears at most once in a round. Tables are listed in a
    meaningful order (Swiss rounds list the top table first).
    """

    tables: tuple[Table[E], ...]
    byes: tuple[E, ...] = ()

    def __post_init__(self) -> None:
        seen: set[E] = set()
        count = 0
        for table in self.tables:
            if not table:
                raise ScheduleError("a table must seat at least one entrant")
            seen.update(table)
            count += len(table)
        seen.update(self.byes)
        count += len(self.byes)
        if len(seen) != count:
            raise ScheduleError("an entrant appears more than once in the same round")

    def seated(self) -> Iterator[E]:
        """The entrants at tables, table by table in seat order."""
        for table in self.tables:
            yield from table

    def entrants(self) -> tuple[E, ...]:
        """Every entrant of the round: the seated ones, then the byes."""
        return (*self.seated(), *self.byes)


Schedule: TypeAlias = list[Round[E]]
"""Rounds in the order they are played."""
