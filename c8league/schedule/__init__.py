"""Pairings for Crazy Eights events: round-robin designs and Swiss rounds.

Pure functions with no I/O; the same arguments (including the integer seed)
always give the same result. Entrants are any hashable ids.

* :func:`round_robin` — a round-robin schedule at tables of 2 to 8;
* :func:`swiss_round` — the next Swiss round from standings and history;
* :func:`assign_seats` — seat orders balancing each entrant's seat history;
* :func:`balance_report` — meetings, seats, byes and smaller tables of a schedule;
* :func:`table_layout`, :func:`cycle_length`, :func:`resolvable_design` — the
  building blocks.

The search's modules (``ledger``, ``search``, ``seats``) are compiled with the engine
when the package is built; ``c8league.engine._build``, imported first, chooses the
compiled modules or their source for both.
"""

from __future__ import annotations

import c8league.engine._build  # noqa: F401  (first: it chooses compiled or source)
from c8league.schedule.balance import BalanceReport, balance_report
from c8league.schedule.designs import resolvable_design
from c8league.schedule.errors import ScheduleError
from c8league.schedule.layout import (
    MAX_TABLE_SIZE,
    MIN_TABLE_SIZE,
    Layout,
    ShortTables,
    table_layout,
)
from c8league.schedule.model import Round, Schedule, Table
from c8league.schedule.roundrobin import cycle_length, round_robin
from c8league.schedule.seats import assign_seats
from c8league.schedule.swiss import SwissWeights, rank_entrants, swiss_round

__all__ = [
    "MAX_TABLE_SIZE",
    "MIN_TABLE_SIZE",
    "BalanceReport",
    "Layout",
    "Round",
    "Schedule",
    "ScheduleError",
    "ShortTables",
    "SwissWeights",
    "Table",
    "assign_seats",
    "balance_report",
    "cycle_length",
    "rank_entrants",
    "resolvable_design",
    "round_robin",
    "swiss_round",
    "table_layout",
]
