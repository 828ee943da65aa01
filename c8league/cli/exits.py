"""The exit status of a command that ends with a library error: one table, by the error's
class (docs/faults.md, "Exit status").

- 2, usage: the command line asks for what cannot be (a bad option, value or name, a
  file it names that does not validate);
- 1, refused: data the records do not allow (a result, a change, a record changed): any
  error not in the table;
- 3, bots: a run stopped by a bot's faults, or a duel without a verdict;
- 128 + N: stopped by signal N (130 for Ctrl-C).
"""

from __future__ import annotations

from typing import Final

from c8league.errors import (
    C8LeagueError,
    CardError,
    Interrupted,
    LeagueFileError,
    NotFoundError,
    PluginError,
    RulesError,
    RunStopped,
    StatsError,
    UsageError,
)
from c8league.interrupts import exit_status

USAGE: Final = 2
REFUSED: Final = 1
BOTS: Final = 3

STATUS: Final[tuple[tuple[type[C8LeagueError], int], ...]] = (
    (UsageError, USAGE),
    (CardError, USAGE),
    (RulesError, USAGE),
    (PluginError, USAGE),
    (NotFoundError, USAGE),
    (LeagueFileError, USAGE),
    (StatsError, USAGE),
    (RunStopped, BOTS),
)
"""Each kind of error and its status; the first class an error is an instance of gives
its status."""


def status_of(exc: C8LeagueError) -> int:
    """The exit status of a command that ends with ``exc``."""
    if isinstance(exc, Interrupted):
        return exit_status(exc.signum)
    return status_of_kind(type(exc))


def status_of_kind(kind: type[C8LeagueError]) -> int:
    """The exit status of a command that ends with an error of class ``kind`` (but
    :class:`Interrupted`, whose status is its signal's)."""
    for known, status in STATUS:
        if issubclass(kind, known):
            return status
    return REFUSED
