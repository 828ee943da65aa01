"""The error raised for impossible or inconsistent scheduling requests."""

from __future__ import annotations

from c8league.errors import UsageError


class ScheduleError(UsageError, ValueError):
    """A schedule or pairing request that cannot be met as given.

    Raised for a table size outside 2..8, a negative round count, duplicate
    entrants, standings that disagree with their tiebreak order, and the like.
    """
