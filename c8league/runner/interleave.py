"""The matches of a chunk played at once, for bots that play several matches at once.

A bot over pipes pays a round trip, two wake-ups of two processes, for every decision:
more than a whole decision of a fast bot. A bot that announces ``concurrent`` (see
``docs/protocol.md``) is therefore given the matches of a worker's chunk together: up
to :data:`WIDTH` matches are played step by step (``runner.loop.MatchSteps``), each
until its bot is to answer, and the requests of all of them are written to the bot in
one go and its answers read together (``players.external.shared``). Each match is
played move for move as it would be alone, so its result is the same.

A chunk is played so when every seat of its matches is such a bot or a player that
comes with c8league (which runs no code of anyone else's, so the worker need not watch
its calls one by one), and one at least is such a bot; otherwise, or with
``--move-seconds`` or ``--clock`` (a clock per decision or per seat), it is played match
after match as before.
A bot that faults ends its process: its match forfeits, and the process's other
matches, with the rest of the chunk, are played again from their start, one match at
a time, as they would be without it.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from c8league.engine import Rules
from c8league.errors import PluginError
from c8league.players.base import BasePlayer, PlayerWrapper
from c8league.players.external.player import ExternalPlayer
from c8league.players.external.shared import BotFailed, Session, SharedBot, wait_for
from c8league.results import MatchReport
from c8league.runner.loop import MatchOutcome, MatchSteps, MatchTimeout
from c8league.runner.tasks import (
    PLAYING,
    MatchTask,
    TaskWatch,
    close_player,
    create_player,
    task_report,
)

WIDTH = 32
"""Matches played at once, at most (more keep the bot and the worker busy while the
other works: 16 cost the worker some 10% more CPU a game against a C bot)."""
FEED = 8
"""While the answers of a batch are read, the requests that follow them are written as
soon as this many wait and the bot has none left to answer: it works on those while
the worker reads the rest."""

_OWN = "c8league.players."
_NOT_OWN = ("c8league.players.terminal", "c8league.players.external")


class ChunkWatch(TaskWatch, Protocol):
    """What the worker's slot shows of a chunk (``runner.worker.Slot``): when it last
    moved on, and its first match not yet over."""

    since: float
    index: int


@dataclass(eq=False)
class _Flight:
    """A match being played."""

    index: int
    steps: MatchSteps
    bots: set[SharedBot]
    began: float
    """:attr:`_Chunk.shared` when it began."""


@dataclass(eq=False)
class _Chunk:
    tasks: Sequence[MatchTask]
    bots: dict[object, SharedBot]
    watch: ChunkWatch
    reported: Callable[[MatchReport], None]
    queue: deque[int] = field(default_factory=deque)
    flights: list[_Flight] = field(default_factory=list)
    asking: dict[Session, _Flight] = field(default_factory=dict)
    """The matches waiting for a bot's answer, by the session asked."""
    done: dict[int, MatchReport] = field(default_factory=dict)
    out: int = 0
    """Reports handed out so far (in the order of the tasks)."""
    width: int = WIDTH
    """Matches to play at once; 0 once a bot has faulted (the rest are left)."""
    rules: dict[str, Rules] = field(default_factory=dict)
    shared: float = 0.0
    """The chunk's time shared out among the matches in flight, from its start: what
    each match in flight all along has had (a match's time is this at its end less this
    at its start, so that its matches' times add up to the chunk's)."""
    ticked: float = field(default_factory=time.monotonic)


def play_chunk(
    tasks: Sequence[MatchTask], watch: ChunkWatch, reported: Callable[[MatchReport], None]
) -> dict[int, MatchReport] | None:
    """Play ``tasks`` at once if they can be (see the module), handing the reports to
    ``reported`` in the tasks' order as far as they go; None, with nothing played, if
    they cannot be. Returns the reports played but not handed out, by their task's
    index: the tasks before them that have no report are to be played one at a time
    (a bot faulted). A :class:`~c8league.errors.MachineFault` goes through (the reports
    handed out stand; the rest are to be played again)."""
    bots = _bots(tasks)
    if bots is None:
        return None
    chunk = _Chunk(tasks, bots, watch, reported, deque(range(len(tasks))))
    try:
        _play(chunk)
    finally:
        for flight in chunk.flights:
            flight.steps.abandon()
            flight.steps.finish(None)
        for bot in chunk.bots.values():
            bot.give_back()
    return chunk.done


def _bots(tasks: Sequence[MatchTask]) -> dict[object, SharedBot] | None:
    """The shared bots of the chunk's seats, by their key; None if a seat is neither
    such a bot (whose process was started before, and kept) nor a player of
    c8league's own, or if there is no such bot."""
    specs = {spec for task in tasks for spec in task.seats}
    if any(task.move_seconds is not None or task.clock is not None for task in tasks):
        return None
    bots: dict[object, SharedBot] = {}
    fits = True
    for spec in specs:
        try:
            player = create_player(spec)
        except PluginError:
            _release(bots)
            return None
        if isinstance(player, ExternalPlayer):
            if player.key in bots:
                close_player(player)
            else:  # kept from its start (or an earlier match) and concurrent
                bot = SharedBot.take(player)
                if bot is None:
                    fits = False
                else:
                    bots[player.key] = bot
        else:
            fits = _own(player)
            close_player(player)
        if not fits:
            _release(bots)
            return None
    return bots or None  # (players of c8league's own alone: nothing to gain)


def _own(player: BasePlayer) -> bool:
    if isinstance(player, PlayerWrapper):
        return False  # (a clock or a guard: its calls are watched one by one)
    module = player.implementation.__module__
    return module.startswith(_OWN) and not module.startswith(_NOT_OWN)


def _release(bots: dict[object, SharedBot]) -> None:
    for bot in bots.values():
        bot.give_back()


# -- playing -----------------------------------------------------------------------------


def _play(chunk: _Chunk) -> None:
    while True:
        while chunk.queue and len(chunk.flights) < chunk.width:
            if not _launch(chunk, chunk.queue[0]):
                chunk.width = 0
                break
            chunk.queue.popleft()
        if not chunk.flights:
            return
        chunk.watch.since, chunk.watch.phase, chunk.watch.turn = time.monotonic(), PLAYING, -1
        chunk.watch.index = min(f.index for f in chunk.flights)
        live = [bot for bot in chunk.bots.values() if bot.waiting]
        try:
            for bot in live:
                bot.flush()
            answers = _answers(live)
        except BotFailed as failed:
            _failed(chunk, failed)
            continue
        shared = _tick(chunk)  # (the answers read together arrived together)
        for session, message in answers:
            flight = chunk.asking.pop(session, None)
            if flight is None:  # its match was played out meanwhile (a fault)
                continue
            steps = flight.steps
            limit = steps.match_seconds
            if limit is not None and shared - flight.began > limit:
                _step(chunk, flight, steps.fail(MatchTimeout()))
            else:
                _step(chunk, flight, steps.advance(message))
            bot = session.bot
            if not bot.written and len(bot.waiting) >= FEED and not bot.broken:
                try:  # keep the bot busy while the other answers are read
                    bot.flush()
                except BotFailed as failed:
                    _failed(chunk, failed)


def _answers(live: list[SharedBot]) -> list[tuple[Session, object]]:
    """The answers of the bots asked: at least one, or the fault of the bot whose
    oldest request is past its time."""
    got: list[tuple[Session, object]] = [a for bot in live for a in bot.answers()]
    while not got:
        deadline = min(bot.deadline() for bot in live)
        wait_for(live, deadline)
        got = [a for bot in live for a in bot.answers()]
        if not got and time.monotonic() >= deadline:
            min(live, key=SharedBot.deadline).overdue()
    return got


def _launch(chunk: _Chunk, index: int) -> bool:
    """Begin the match of task ``index``; False if its bot has ended and will be
    started again for the match alone."""
    task = chunk.tasks[index]
    rules = chunk.rules.get(task.rules)
    if rules is None:
        rules = chunk.rules[task.rules] = Rules.from_json(task.rules)
    players: list[BasePlayer] = []
    bots: set[SharedBot] = set()
    for spec in task.seats:
        player = create_player(spec)
        if isinstance(player, ExternalPlayer):
            bot = chunk.bots.get(player.key)
            if bot is None or bot.broken:
                for made in players:
                    close_player(made)
                return False
            player = Session(bot, player)
            bots.add(bot)
        players.append(player)
    steps = MatchSteps(rules, players, task.seed, task.match_seconds)
    flight = _Flight(index, steps, bots, _tick(chunk))
    chunk.flights.append(flight)
    _step(chunk, flight, flight.steps.advance())
    return True


def _step(chunk: _Chunk, flight: _Flight, got: Session | MatchOutcome | object) -> None:
    """``flight`` has moved on to ``got``: a session asked, or its outcome."""
    if isinstance(got, MatchOutcome):
        _finish(chunk, flight, got)
    else:
        assert isinstance(got, Session)
        chunk.asking[got] = flight
    for bot in flight.bots:
        if bot.broken:  # a fault in its answer: its other matches are left to play alone
            _again(chunk, bot, flight)


def _tick(chunk: _Chunk) -> float:
    """The time each match in flight has had so far (see :attr:`_Chunk.shared`)."""
    now = time.monotonic()
    if chunk.flights:
        chunk.shared += (now - chunk.ticked) / len(chunk.flights)
    chunk.ticked = now
    return chunk.shared


def _finish(chunk: _Chunk, flight: _Flight, outcome: MatchOutcome) -> None:
    seconds = _tick(chunk) - flight.began
    chunk.flights.remove(flight)
    task = chunk.tasks[flight.index]
    chunk.done[flight.index] = task_report(task, outcome, seconds, together=WIDTH)
    flight.steps.finish(outcome.result)
    while chunk.out in chunk.done:
        chunk.reported(chunk.done.pop(chunk.out))
        chunk.out += 1


def _failed(chunk: _Chunk, failed: BotFailed) -> None:
    """A bot faulted while its matches waited: the one whose answer was at fault
    forfeits; where none can be told (its process ended, or it ran out of time), every
    match it plays is left to be played again one at a time."""
    session = failed.session
    flight = None if session is None else chunk.asking.pop(session, None)
    if flight is not None:
        _step(chunk, flight, flight.steps.fail(failed.fault))
    else:
        bot = next(b for b in chunk.bots.values() if b.broken)
        _again(chunk, bot, None)


def _again(chunk: _Chunk, bot: SharedBot, spared: _Flight | None) -> None:
    """``bot`` faulted: every match it plays but ``spared`` is left to be played again,
    with the rest of the chunk, one match at a time."""
    left = [f for f in chunk.flights if bot in f.bots and f is not spared]
    chunk.asking = {s: f for s, f in chunk.asking.items() if f not in left}
    for flight in left:
        _tick(chunk)
        chunk.flights.remove(flight)
        flight.steps.abandon()
        flight.steps.finish(None)
    chunk.width = 0
