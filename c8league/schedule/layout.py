"""How many tables of which size a round needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from c8league.schedule.errors import ScheduleError

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 8

ShortTables = Literal["smaller", "byes"]
"""What to do when the field does not divide into full tables.

``"smaller"``: every entrant plays, some tables are one seat short.
``"byes"``: every table is full, the entrants left over sit out.
"""


@dataclass(frozen=True, slots=True)
class Layout:
    """Table sizes for one round (largest first) and the number of byes."""

    sizes: tuple[int, ...]
    byes: int

    @property
    def seated(self) -> int:
        """How many entrants sit at tables."""
        return sum(self.sizes)


def check_table_size(table_size: int) -> None:
    """Raise :class:`ScheduleError` unless ``table_size`` is in 2..8."""
    if not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ScheduleError(
            f"table size must be between {MIN_TABLE_SIZE} and {MAX_TABLE_SIZE}, not {table_size}"
        )


def default_short_tables(table_size: int) -> ShortTables:
    """Byes at 2-player tables, smaller tables otherwise."""
    return "byes" if table_size == MIN_TABLE_SIZE else "smaller"


def table_layout(n: int, table_size: int, short: ShortTables | None = None) -> Layout:
    """The tables for ``n`` entrants at tables of ``table_size``.

    With ``"smaller"`` this is the fewest tables of at most ``table_size``
    seats, with sizes differing by at most one: as many full tables as
    possible and the rest one seat smaller (13 at tables of 4 gives
    4, 3, 3, 3). When even that is impossible the tables are as equal as the
    count allows (5 at tables of 4 gives 3, 2; fewer entrants than seats give
    one table of everyone). A table that would seat one entrant is a bye.

    With ``"byes"`` every table is full and ``n mod table_size`` entrants get
    a bye, except that a field smaller than one table plays at one table.
    """
    check_table_size(table_size)
    if n < 0:
        raise ScheduleError(f"the number of entrants cannot be negative: {n}")
    if short is None:
        short = default_short_tables(table_size)
    if short not in ("smaller", "byes"):
        raise ScheduleError(f"short tables must be 'smaller' or 'byes', not {short!r}")
    if n <= 1:
        return Layout((), n)
    if n <= table_size:
        return Layout((n,), 0)
    if short == "byes":
        return Layout((table_size,) * (n // table_size), n % table_size)
    tables = -(-n // table_size)
    base, extra = divmod(n, tables)
    sizes = (base + 1,) * extra + (base,) * (tables - extra)
    ones = sizes.count(1)
    return Layout(sizes[: len(sizes) - ones], ones)
