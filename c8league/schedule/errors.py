"""The error raised for impossible or inconsistent scheduling requests."""

from __future__ import annotations

from c8league.errors import C8LeagueError


class ScheduleError(C8LeagueError, ValueError):
    """A schedule or pairing request that cannot be met as given.

    Raised for a table size outside 2..8, a negative round count, duplicate
    entrants, standings that disagree with their tiebreak order, and the like.
    """

    exit_code = 2
