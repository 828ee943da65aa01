"""A match as plain data crossing to a worker, and its report coming back.

Workers build the players from their plugin names and options, play the match and
return a :class:`MatchReport`; they never touch the database. Everything here
pickles cheaply, so the same task runs in-process, in a process pool or on a
Dask worker with identical results.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from c8league.engine import Rules
from c8league.errors import PluginError
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.containment import before_foreign_bot
from c8league.players.external.player import ExternalPlayer, logs_named
from c8league.results import Forfeit, MatchReport, Result
from c8league.runner.clock import MatchClock, MoveClock, SeatClock, with_move_limit
from c8league.runner.guard import guard
from c8league.runner.loop import (
    MatchOutcome,
    Stop,
    Watch,
    forfeit_result,
    play_match,
    user_interrupt,
)
from c8league.sandbox import Mode, run_mode

IDLE, STARTING, PLAYING, CLOSING = 0, 1, 2, 3
"""The phases of a task, as a :class:`TaskWatch` records them: building the players
(``turn`` is the seat being built), playing, closing the players (the report is out)."""


class TaskWatch(Watch, Protocol):
    """A :class:`~c8league.runner.loop.Watch` that also records the task's phase, and
    the seats whose threads outlived their calls (see ``runner.guard``)."""

    phase: int
    owners: int


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits in a seat: a player plugin and its options (JSON), and the run's
    ``--sandbox`` (None: the bot's own ``sandbox`` option; see
    :func:`c8league.sandbox.run_mode`)."""

    plugin: str
    options: str = "{}"
    sandbox: Mode | None = None
    version: str = ""
    """The digest of the bot's version, as the run found it before it began (see
    ``c8league.players.versions``): it goes with the result, and a bot's process kept
    from a match of another version is not reused ("": not known)."""


@dataclass(frozen=True, slots=True)
class MatchTask:
    match_id: int
    rules: str
    """Every rule option as canonical JSON (``Rules.to_json``)."""
    seats: tuple[SeatSpec, ...]
    seed: int
    match_seconds: float | None = None
    """The match's time limit (see ``runner.loop``); None: none."""
    hands: bool = True
    """Whether the report carries the hands with their results and records (a duel,
    which keeps its matches' moves only, does without them: every report carries the
    moves)."""
    move_seconds: float | None = None
    """The run's limit on each decision (``--move-seconds``, see ``runner.clock``)."""
    label: str = ""
    """What the logs of its bots are named by (``players.external.player.logs_named``);
    "": ``match-ID``."""
    clock: MatchClock | None = None
    """The run's match clock, kept per seat (``--clock``, see ``runner.clock``); None:
    none."""


def play_task(
    task: MatchTask,
    *,
    watch: TaskWatch | None = None,
    stop: Stop | None = None,
    reported: Callable[[MatchReport], None] | None = None,
) -> MatchReport:
    """Play one match task. Never raises for a player's fault; a missing plugin or bad
    options come back as ``error`` so the caller can stop the event with a clear line.

    ``watch``, ``stop`` and ``reported`` are for a process that supervises the match
    (see :func:`~c8league.runner.loop.play_match`); ``reported`` gets the report as soon
    as the result is known, before the players are closed. With a ``watch`` (in a
    worker), players that do not come with c8league are guarded (``runner.guard``).

    A :class:`~c8league.errors.MachineFault` (the machine held the match up) goes
    through: the match is to be played again."""
    with logs_named(task.label or f"match-{task.match_id}"):
        return _play_task(task, watch=watch, stop=stop, reported=reported)


def _play_task(
    task: MatchTask,
    *,
    watch: TaskWatch | None,
    stop: Stop | None,
    reported: Callable[[MatchReport], None] | None,
) -> MatchReport:
    start = time.perf_counter()
    rules = Rules.from_json(task.rules)
    players: list[BasePlayer] = []
    if watch is not None:
        watch.phase, watch.calls = STARTING, 0
    try:
        for seat, spec in enumerate(task.seats):
            if watch is not None:
                watch.turn = seat
                guarded = _guard(seat, watch)
                players.append(create_player(spec, task.move_seconds, guarded, clock=task.clock))
            else:
                players.append(create_player(spec, task.move_seconds, clock=task.clock))
    except PluginError as exc:
        for p in players:
            close_player(p)
        return MatchReport.failed(task.match_id, str(exc))
    if watch is not None:
        watch.phase, watch.turn = PLAYING, -1

    done: list[MatchReport] = []

    def early(outcome: MatchOutcome) -> None:
        done.append(task_report(task, outcome, time.perf_counter() - start))
        if reported is not None:
            reported(done[0])
        if watch is not None:
            watch.phase = CLOSING

    play_match(
        rules,
        players,
        task.seed,
        match_seconds=task.match_seconds,
        watch=watch,
        stop=stop,
        reported=early,
    )
    return done[0]


def task_report(
    task: MatchTask, outcome: MatchOutcome, seconds: float, *, together: int = 1
) -> MatchReport:
    """The report of ``task``'s match, played in ``seconds`` (with up to ``together``
    matches at once)."""
    result = outcome.as_result(hands=task.hands)
    if any(seat.version for seat in task.seats):
        result = replace(result, versions=tuple(seat.version for seat in task.seats))
    return MatchReport(
        task.match_id,
        result,
        seconds=seconds,
        moves="" if outcome.moves is None else outcome.moves.to_text(),
        together=together,
    )


def forfeit_report(task: MatchTask, forfeit: Forfeit) -> MatchReport:
    """The report of a match forfeited by ``forfeit.seat`` before any hand was played:
    the last resort when a match cannot be replayed to the point where it failed."""
    rules = Rules.from_json(task.rules)
    result = forfeit_result(rules, len(task.seats), task.seed, forfeit.seat)
    return MatchReport(
        task.match_id, Result(result.placements, result.scores, result.ended, forfeit=forfeit)
    )


def create_player(
    spec: SeatSpec,
    move_seconds: float | None = None,
    wrap: Callable[[BasePlayer], BasePlayer] | None = None,
    *,
    clock: MatchClock | None = None,
) -> BasePlayer:
    """A seat's player, given to ``wrap`` if given (a guard, see ``runner.guard``), then
    held to ``move_seconds`` a decision, or to the match ``clock``, if given (see
    ``runner.clock``); a factory that fails in any way (``SystemExit`` included) is a
    :class:`~c8league.errors.PluginError`, as ``registry.create`` makes of exceptions.

    With the run's sandbox required, a Python plugin not of c8league is refused: its code
    would run in this process, which no sandbox holds."""
    if not registry.ours(spec.plugin):
        refuse_unsandboxable(spec.plugin, spec.sandbox)
        before_foreign_bot()  # a worker keeps what the bot starts from its first line on
    try:
        options = _options(spec.options)
        timed = move_seconds is not None and not with_move_limit(
            options, list(registry.get(spec.plugin).options()), move_seconds
        )
        with run_mode(spec.sandbox):
            player = registry.create(spec.plugin, options)
        if spec.version and isinstance(player, ExternalPlayer):
            player.version = spec.version
        bot = player if isinstance(player, ExternalPlayer) else None
        if wrap is not None:
            player = wrap(player)
        if clock is not None:
            return SeatClock(player, clock, bot)
        if timed:
            assert move_seconds is not None
            return MoveClock(player, move_seconds)
        return player
    except PluginError:
        raise
    except BaseException as exc:
        if user_interrupt(exc):
            raise
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise PluginError(f"player {spec.plugin!r} failed to start: {detail}") from None


def refuse_unsandboxable(plugin: str, sandbox: Mode | None) -> None:
    """With the run's sandbox ``required``, refuse the player ``plugin`` if it is a Python
    plugin not of c8league: its code would run in c8league's own process, which no
    sandbox holds."""
    if sandbox == "required" and not registry.ours(plugin):
        raise PluginError(
            f"player {plugin!r} is a Python plugin: its code runs in c8league's own process, "
            "which no sandbox holds; with the sandbox required, run it as an external bot "
            "(docs/bots.md)"
        )


def _guard(seat: int, watch: TaskWatch) -> Callable[[BasePlayer], BasePlayer]:
    """What guards the player of ``seat``, noting on ``watch`` (see ``runner.guard``)."""
    return lambda player: guard(player, seat, watch)


def _options(text: str) -> dict[str, Any]:
    data = json.loads(text or "{}")
    if not isinstance(data, dict):
        raise PluginError(f"player options must be a JSON object, not {text!r}")
    return data


def close_player(player: BasePlayer) -> None:
    """Close ``player``; what its ``close`` raises is ignored, but a Ctrl-C of the user."""
    try:
        player.close()
    except BaseException as exc:
        if user_interrupt(exc):
            raise
