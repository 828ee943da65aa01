"""``--max-forfeits``: stop a run whose bot keeps failing.

Matches are counted in the order their reports are handed back (task order, the same on
any number of workers). A bot's streak is the number of its matches in a row that it
forfeited; a match it plays through ends the streak.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c8league.results import Forfeit, forfeit_at

MAX_FORFEITS = 5
"""The default: a bot that forfeits this many matches in a row stops the run."""


@dataclass(frozen=True, slots=True)
class Streak:
    """A bot that forfeited ``count`` matches in a row, the last one ``forfeit``."""

    bot: str
    count: int
    forfeit: Forfeit
    match: str
    """The last forfeited match, as the user names it (``17``, ``duel-1:3A``)."""

    def __str__(self) -> str:
        f = self.forfeit
        return (
            f"{self.bot} forfeited {self.count} matches in a row (the last, match "
            f"{self.match}: {f.reason} at its {forfeit_at(f)}: {f.detail})"
        )


class ForfeitStreaks:
    """Counts each bot's forfeits in a row; ``limit`` None or 0 never stops."""

    def __init__(self, limit: int | None = MAX_FORFEITS) -> None:
        self.limit = limit or None
        self._count: dict[str, int] = {}

    def add(self, bots: Sequence[str], forfeit: Forfeit | None, match: str) -> Streak | None:
        """Count one match whose seats hold ``bots`` (in seat order, by name); the streak
        that reached the limit, if one did."""
        loser = None if forfeit is None else bots[forfeit.seat]
        for bot in set(bots):
            self._count[bot] = self._count.get(bot, 0) + 1 if bot == loser else 0
        if loser is None or self.limit is None:
            return None
        assert forfeit is not None
        count = self._count[loser]
        return Streak(loser, count, forfeit, match) if count >= self.limit else None
