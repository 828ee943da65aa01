"""Every error c8league raises on purpose derives from :class:`C8LeagueError`.

The command line turns these into one red line on stderr and a non-zero exit
(see ``c8league.cli.main``); anything else reaching a user is a bug.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable


class C8LeagueError(Exception):
    """Base class of all domain errors. Its class says what went wrong (a bad request:
    :class:`UsageError` and its kin; data refused: the others); the command line gives
    each class its exit status (``c8league.cli.exits``).

    A parameter the message names is written in backquotes (`` `match_seconds` ``) and
    listed in ``params``: :meth:`worded` writes each one as the caller names it (the
    command line as its option, ``--match-seconds``)."""

    params: tuple[str, ...] = ()

    def __init__(self, *args: object, params: Iterable[str] = ()) -> None:
        super().__init__(*args)
        self.params = tuple(params)

    def worded(self, name: Callable[[str], str]) -> str:
        """The message with each parameter it names written as ``name(parameter)``."""
        text = str(self)
        for param in self.params:
            text = text.replace(f"`{param}`", name(param))
        return text


class UsageError(C8LeagueError):
    """A bad name or value given on the command line."""


class CardError(C8LeagueError, ValueError):
    """A card or move in text form could not be parsed."""


class RulesError(C8LeagueError, ValueError):
    """An unknown rule option, a bad option value, or an impossible table."""


class IllegalMoveError(C8LeagueError, ValueError):
    """A move that is not legal in the current position. The state is unchanged."""


class PositionError(C8LeagueError, ValueError):
    """An explicitly set-up position that is inconsistent (cards, seats, phase)."""


class RecordError(C8LeagueError, ValueError):
    """A hand record that does not parse or does not replay."""


class WireError(C8LeagueError, ValueError):
    """A value of the bot protocol's JSON (a seat's view, a hand's or a match's result)
    that does not read back as the engine's value; ``field`` names the field."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class PlayerFault(C8LeagueError):
    """A player broke the protocol of play; the match loop turns it into a forfeit.

    ``reason`` is one of ``exception``, ``illegal``, ``timeout``, ``crash``,
    ``protocol``, ``memory``.
    """

    def __init__(self, reason: str, detail: str, request: int | None = None) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail
        self.request = request
        """The request of the player's protocol it was answering, where the player counts
        its requests otherwise than its seat's moves (an external bot that c8league
        plays forced moves for); None otherwise."""


class PluginError(C8LeagueError):
    """A player plugin that is not installed, fails to load, or gets bad options."""


class StorageError(C8LeagueError):
    """The database cannot be opened, is from a newer version, or refuses a change."""


class DatabaseDamaged(StorageError):
    """A SQLite database file that SQLite's own check finds damaged: ``where`` names the
    file, ``detail`` is the check's first complaint. Nothing was written to it."""

    def __init__(self, where: str, detail: str) -> None:
        super().__init__(
            f"the database {where} is damaged ({detail}): restore it from a backup "
            "(nothing was changed)"
        )
        self.where = where
        self.detail = detail


class BusyError(C8LeagueError):
    """Another process is writing the same league's results (see storage.runlock)."""


class Interrupted(C8LeagueError):
    """The user stopped a long command (Ctrl-C, SIGTERM, SIGHUP: ``signum``); the message
    says what was kept."""

    def __init__(self, message: str, signum: int = 2) -> None:
        super().__init__(message)
        self.signum = signum


class ExecutorLost(C8LeagueError):
    """What played the matches went away (a Dask scheduler stopped, say); the finished
    matches are stored, and the message says how to go on."""


class NotFoundError(C8LeagueError):
    """A league, event, entrant or match that is not in the database."""


class NoDatabase(NotFoundError):
    """No c8league database at ``where`` (a file's path or a URL without its password),
    and none was to be made there."""

    def __init__(self, message: str, *, where: str) -> None:
        super().__init__(message)
        self.where = where


class DraftSeatsWithdrawn(C8LeagueError):
    """A draft round seats a member who has withdrawn since it was paired: it is to be
    discarded and paired again (or published as it is, if the organiser says so).
    ``event`` names the event."""

    def __init__(self, message: str, *, event: str) -> None:
        super().__init__(message)
        self.event = event


class LeagueFileError(C8LeagueError):
    """A league file that does not parse or validate; the message names file and field."""


class StatsError(C8LeagueError, ValueError):
    """Bad duel statistics input: SPRT bounds or error rates out of range, or an outcome
    that is not a placement share (see ``c8league.duel.stats``)."""


class ResultError(C8LeagueError):
    """A result that cannot be stored as given (wrong entrants, impossible scores, …)."""


class MachineFault(C8LeagueError):
    """Not a player's doing: the machine held a match up (a bot's process found stopped
    from outside when its time ran out). The match loop lets it through instead of
    recording a forfeit, and the runner plays the match again."""


class NoInput(C8LeagueError):
    """The input ended where a person's answer was expected: nothing was done."""


class RunStopped(C8LeagueError):
    """A run ended without what was asked of it because of its bots (one cannot start or
    keeps forfeiting, a duel found no verdict): what was played is kept."""


class BotStopped(RunStopped):
    """A run stopped because a bot cannot start or keeps forfeiting: the message names
    the bot and why, and what was kept."""


class BotChanged(C8LeagueError):
    """A run that goes on with matches played by a bot found that the bot is now another
    version (``c8league.players.versions``): ``who`` names the bot, ``old`` and ``new``
    label its versions. Nothing was played or changed."""

    def __init__(self, *args: object, who: str, old: str, new: str) -> None:
        super().__init__(*args)
        self.who, self.old, self.new = who, old, new
