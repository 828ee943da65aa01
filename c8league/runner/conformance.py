"""A conformance check for player implementations, to run on your own bot.

It plays the player through a few seeded matches under each rule preset, at tables
of two to four against the built-in ``random`` and ``greedy`` players, in every
seat, and checks that it

* returns legal moves only (no forfeit for an illegal move),
* breaks no rule of its protocol, and never crashes, runs out of memory or raises:
  each fault is counted by its kind (the forfeit reasons of ``docs/faults.md``),
* answers in time (a game it runs out of time in ends there; the other games go on),
  and under ``time_limit`` if one is given (mean and maximum are reported in any case),
* makes the same choices when the same seeded match is played again in a fresh
  process (derive any randomness from the seed given to ``start_match``), and when it
  is played again after another match in the same process: a bot kept between
  matches (an external bot that announces ``match_start``), or a Python player's
  module, must forget the matches before.

Each game is played three times: in a fresh process, again in that process, and in
another fresh process (a process of the check's own, see ``runner.worker``, which
keeps external bots between its games as a run's workers do). So a player that ends
its process (``os._exit``, a crash in native code) fails ``crash``, and one stuck where
no timer reaches it (a long C call, a loop swallowing every exception) fails
``timeout``. A game still running at ``match_seconds`` ends its preset (each game after
it would take as long); the other presets are played. A move over its own time limit
(an external bot's ``move_time``) ends its game only.

Under rules that penalise a missed "last card" call, a player that played down to one
card without announcing it every time it did gets a warning: it can never go out.
A player whose factory takes a ``log_dir`` option (the ``external`` player) writes its
logs to one folder per check, named in the report (and removed if nothing was kept),
each log named by the game, its play and the seat.

From Python::

    from c8league.runner.conformance import assert_conforms, check_player

    report = check_player(MyBot, games=5)      # a factory, or a registered name
    print(report.failures())
    assert_conforms(MyBot)                     # raises AssertionError on a failure

From the command line: ``c8league bots check NAME``.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from c8league import sandbox
from c8league.engine import Move, Observation, Rules, derive_seed
from c8league.players import registry
from c8league.players.base import BasePlayer, Player, PlayerWrapper, adapt
from c8league.players.containment import Keeper, before_foreign_bot
from c8league.players.external import keep
from c8league.players.external.player import ExternalPlayer, logs_named
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.results import forfeit_at
from c8league.runner.conformance_defaults import CHECK_MATCH_SECONDS as CHECK_MATCH_SECONDS
from c8league.runner.conformance_defaults import DEFAULT_GAMES as DEFAULT_GAMES
from c8league.runner.conformance_defaults import DEFAULT_PRESETS as DEFAULT_PRESETS
from c8league.runner.loop import (
    MatchOutcome,
    describe,
    past_the_limit,
    play_match,
    user_interrupt,
)
from c8league.runner.tasks import PLAYING, STARTING, refuse_unsandboxable
from c8league.runner.worker import Slot, Worker, can_fork, fork_worker, supervise
from c8league.sandbox import Mode, run_mode

MACHINE_RETRIES = 3
"""A game the machine held up (its process found stopped) is played again this often."""

CHECKS: tuple[str, ...] = (
    "illegal",
    "protocol",
    "crash",
    "memory",
    "exception",
    "timeout",
    "time",
    "deterministic",
    "earlier",
    "opponent",
)
"""The kinds of fault: the forfeit reasons of docs/faults.md (an illegal move, a
protocol fault, a crash, memory, an exception, a timeout), a move slower than the time
limit (``time``), different choices on a replay of the same seed in a fresh process
(``deterministic``) or after another match in the same process (``earlier``), and an
opponent's forfeit (``opponent``: c8league's own player, never the tested one's
doing)."""

# The opponents of game i are _TABLES[i % len(_TABLES)]; the player sits at seat
# i % table size, so it deals, leads and follows every kind of player.
_OPPONENTS: dict[str, Callable[[], BasePlayer]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
_TABLES: tuple[tuple[str, ...], ...] = (
    ("random",),
    ("greedy",),
    ("random", "greedy"),
    ("greedy", "random", "random"),
)


@dataclass(frozen=True)
class Fault:
    """One failed check in one game."""

    check: str
    """One of :data:`CHECKS`."""
    preset: str
    game: int | None
    """The game's number (0-based), None for a fault of the preset as a whole."""
    seed: int | None
    """The match seed of that game."""
    detail: str

    def __str__(self) -> str:
        if self.game is None:
            return f"{self.preset}: {self.detail}"
        return f"{self.preset} game {self.game + 1} (seed {self.seed}): {self.detail}"


@dataclass
class PresetReport:
    """What happened under one rule preset."""

    preset: str
    games: int = 0
    """Games played."""
    completed: int = 0
    """Games the player finished without a fault of its own."""
    moves: int = 0
    """Decisions of the player (first run of each game)."""
    total_seconds: float = 0.0
    max_seconds: float = 0.0
    faults: list[Fault] = field(default_factory=list)
    stuck: int | None = None
    """The game (0-based) past whose ``match_seconds`` the player was stuck: the games
    after it were not played; None if none was."""
    last_card: bool = False
    """The preset's rules penalise a missed "last card" call."""
    down_to_one: int = 0
    """Moves of the player that left it one card (first play of each game)."""
    announced: int = 0
    """Of those, the ones that announced it."""

    @property
    def mean_seconds(self) -> float:
        return self.total_seconds / self.moves if self.moves else 0.0

    @property
    def passed(self) -> bool:
        return not self.faults

    def faults_of(self, check: str) -> list[Fault]:
        return [f for f in self.faults if f.check == check]


@dataclass(frozen=True)
class ConformanceReport:
    """The result of :func:`check_player`, one :class:`PresetReport` per preset."""

    player: str
    games: int
    """Games per preset."""
    presets: tuple[PresetReport, ...]
    time_limit: float | None = None
    log_dir: str | None = None
    """The folder of the logs the player wrote during the check, if any were kept."""
    isolation: Isolation | None = None
    """Where the player ran: in a sandbox or not (see :func:`isolation`)."""

    @property
    def passed(self) -> bool:
        return all(p.passed for p in self.presets)

    @property
    def faults(self) -> list[Fault]:
        return [f for p in self.presets for f in p.faults]

    @property
    def never_announces(self) -> int:
        """How many times the player went down to one card, under rules that penalise a
        missed call, if it never announced it (0 otherwise): it can never go out there."""
        penalised = [p for p in self.presets if p.last_card]
        down = sum(p.down_to_one for p in penalised)
        if down and not any(p.announced for p in penalised):
            return down
        return 0

    def failures(self) -> list[str]:
        """One line per fault."""
        return [f"{f.check}: {f}" for f in self.faults]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "games": self.games,
            "time_limit": self.time_limit,
            "passed": self.passed,
            "log_dir": self.log_dir,
            "isolation": None if self.isolation is None else self.isolation.to_dict(),
            "never_announces_last_card": self.never_announces,
            "presets": [
                {
                    "preset": p.preset,
                    "games": p.games,
                    "completed": p.completed,
                    "moves": p.moves,
                    "mean_seconds": p.mean_seconds,
                    "max_seconds": p.max_seconds,
                    "passed": p.passed,
                    "stuck": None if p.stuck is None else p.stuck + 1,
                    "last_card": p.last_card,
                    "down_to_one": p.down_to_one,
                    "announced": p.announced,
                    "faults": [
                        {
                            "check": f.check,
                            "game": None if f.game is None else f.game + 1,
                            "seed": f.seed,
                            "detail": f.detail,
                        }
                        for f in p.faults
                    ],
                }
                for p in self.presets
            ],
        }


def check_player(
    player: str | Callable[..., Player],
    options: Mapping[str, Any] | None = None,
    *,
    games: int = DEFAULT_GAMES,
    presets: Sequence[str] = DEFAULT_PRESETS,
    seed: int = 0,
    time_limit: float | None = None,
    match_seconds: float | None = CHECK_MATCH_SECONDS,
    progress: Callable[[str, int], None] | None = None,
    sandbox: Mode | None = None,
) -> ConformanceReport:
    """Play ``player`` through ``games`` seeded matches per preset and check it.

    ``player`` is a registered plugin name (built with ``registry.create``) or a
    factory called with ``options`` for every match. An unknown name, bad options or a
    bad preset raise at once (:class:`~c8league.errors.PluginError`,
    :class:`~c8league.errors.RulesError`); everything the player does wrong afterwards
    is reported as a :class:`Fault`. ``progress(preset, game)`` is called before each
    game. A game still running after ``match_seconds`` is a ``timeout`` fault, and the
    preset's games after it are not played (a player stuck in a loop would hold up
    every one of them); the other presets are.
    ``sandbox`` takes the place of an external bot's own ``sandbox`` option (as a run's
    ``--sandbox`` does); ``required`` refuses a Python plugin not of c8league.
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    opts = dict(options or {})
    if isinstance(player, str):
        name = player
        info = registry.get(name)
        registry.validate_options(info, opts)
        params = set(info.options())
        refuse_unsandboxable(name, sandbox)

        def make() -> BasePlayer:
            with run_mode(sandbox):
                return registry.create(name, opts)
    else:
        name = getattr(player, "__name__", type(player).__name__)
        factory = player
        params = _parameters(factory)

        def make() -> BasePlayer:
            with run_mode(sandbox):
                return adapt(factory(**opts))

    rule_sets = [(preset, Rules.from_options(preset)) for preset in presets]
    logs = None
    if "log_dir" in params and "log_dir" not in opts:
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "bot"
        logs = tempfile.mkdtemp(prefix=f"c8league-check-{slug}-")
        opts["log_dir"] = logs
    reports = []
    isolated = isolation(make)
    try:
        with _Games([rules for _, rules in rule_sets], make, match_seconds) as play:
            for index, (preset, rules) in enumerate(rule_sets):
                report = PresetReport(preset, last_card=rules.last_card)
                for game in range(games):
                    if progress is not None:
                        progress(preset, game)
                    stuck = _check_game(
                        report, play, index=index, game=game, seed=game_seed(seed, preset, game)
                    )
                    report.games += 1
                    if stuck:  # every game after it would take the whole limit too
                        report.stuck = game
                        break
                if time_limit is not None and report.max_seconds > time_limit:
                    slowest = f"slowest move {report.max_seconds:.3f}s"
                    detail = f"{slowest}, above the limit {time_limit}s"
                    report.faults.append(
                        Fault(check="time", preset=preset, game=None, seed=None, detail=detail)
                    )
                reports.append(report)
    finally:
        named = " ".join(f.detail for r in reports for f in r.faults)
        kept = _tidy(logs, named)
    return ConformanceReport(
        player=name,
        games=games,
        presets=tuple(reports),
        time_limit=time_limit,
        log_dir=kept,
        isolation=isolated,
    )


@dataclass(frozen=True)
class Isolation:
    """Where a checked player runs: ``in_process`` (Python code in c8league's own process,
    trusted), or an external bot's process, ``sandboxed`` or not (then ``why``: the
    sandbox is off, or this machine's :class:`~c8league.sandbox.Support` has
    none), with what its sandbox shows."""

    in_process: bool
    sandboxed: bool = False
    why: str = ""
    """Why an external bot runs without a sandbox: ``off``, or this machine's problem."""
    hint: str = ""
    tool: str = ""
    """How it is sandboxed (``Support.text()``)."""
    folder: str = ""
    """Its folder, read-only in the sandbox."""
    scratch_mb: int = 0
    network: bool = False
    ro_paths: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "in_process": self.in_process,
            "sandboxed": self.sandboxed,
            "why": self.why,
            "tool": self.tool,
            "folder": self.folder,
            "scratch_mb": self.scratch_mb,
            "network": self.network,
            "ro_paths": list(self.ro_paths),
        }


def isolation(make: Callable[[], BasePlayer]) -> Isolation | None:
    """Where the players ``make()`` builds run (None if it cannot build one: the check
    reports why)."""
    try:
        made = player = make()
    except Exception:
        return None
    try:
        while isinstance(player, PlayerWrapper):
            player = player.inner
        if not isinstance(player, ExternalPlayer):
            return Isolation(in_process=True)
        settings = player.sandboxed
        if settings is None:
            found = sandbox.support()
            off = not found.available and player.sandbox_mode != "off"
            return Isolation(
                in_process=False,
                why=found.problem if off else "off",
                hint=found.hint if off else "",
            )
        try:
            folder = sandbox.locate(player.command, cwd=player.cwd, env=player.env).folder
        except (OSError, sandbox.SandboxError):
            folder = ""
        return Isolation(
            in_process=False,
            sandboxed=True,
            tool=sandbox.support().text(),
            folder=folder,
            scratch_mb=settings.scratch_mb,
            network=settings.network,
            ro_paths=settings.ro_paths,
        )
    finally:
        with contextlib.suppress(Exception):
            made.close()


def _parameters(factory: Callable[..., Player]) -> set[str]:
    try:
        return set(inspect.signature(factory).parameters)
    except (TypeError, ValueError):
        return set()


def _tidy(folder: str | None, named: str) -> str | None:
    """Remove the empty logs of a check's folder but those ``named`` in its faults, and
    the folder if nothing is left."""
    if folder is None:
        return None
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.is_file() and entry.stat().st_size == 0 and entry.path not in named:
                os.unlink(entry.path)
        if not any(os.scandir(folder)):
            shutil.rmtree(folder, ignore_errors=True)
            return None
    return folder


def assert_conforms(
    player: str | Callable[..., Player],
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> ConformanceReport:
    """:func:`check_player`, raising ``AssertionError`` with every fault if one fails."""
    report = check_player(player, options, **kwargs)
    if not report.passed:
        raise AssertionError(
            f"player {report.player!r} fails the conformance check:\n  "
            + "\n  ".join(report.failures())
        )
    return report


@dataclass(frozen=True)
class _Played:
    """One play of a game: its outcome and the tested player's time per move, or why it
    could not be played: ``unbuilt`` (the factory failed), ``died`` or ``hung`` (the
    process playing it; ``at`` says where)."""

    outcome: MatchOutcome | None
    seconds: tuple[float, ...] = ()
    problem: str = ""
    detail: str = ""
    at: str = ""
    again: bool = False
    """The player played it in a process that had played a game before: a bot's process
    kept from that game, or a Python player's module."""
    down_to_one: int = 0
    """The player's moves that left it one card, under rules that penalise a missed call."""
    announced: int = 0
    """Of those, the ones that announced it."""


FRESH, AGAIN = True, False
"""How a game is played (:class:`_Games`): in a fresh process, or again in the process
of the game before (where a bot that plays match after match keeps its process)."""


class _Games:
    """Plays the games of a check: in a process of its own where processes can be
    forked (replaced after it dies or hangs, and for a game played fresh), otherwise
    here. Its process keeps external bots between games, as a run's workers do."""

    def __init__(
        self,
        rules: Sequence[Rules],
        make: Callable[[], BasePlayer],
        match_seconds: float | None,
    ) -> None:
        self.rules = list(rules)
        self.make = make
        self.match_seconds = match_seconds
        self.worker: Worker | None = None
        self.keys = itertools.count(1)
        self.played = 0
        """Games played in this process (in a worker: in that worker)."""

    def __enter__(self) -> _Games:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self.worker is not None:
            if kind is None:
                self.worker.stop()
            else:
                self.worker.kill()
            self.worker = None
        if not can_fork():
            keep.release()

    def __call__(
        self,
        index: int,
        opponents: tuple[str, ...],
        seat: int,
        seed: int,
        *,
        fresh: bool,
        label: str = "",
    ) -> _Played:
        job = (0, index, opponents, seat, seed, label)
        if not can_fork():
            if fresh:
                keep.release()  # the bots kept here end: the next game starts its own
                self.played = 0
            return self._play(job, None, None)
        if fresh and self.worker is not None:
            self.worker.stop()
            self.worker = None
        for _ in range(MACHINE_RETRIES + 1):
            # again in a fresh process if this one was gone before the game, or if the
            # machine held the game up (its process was found stopped)
            if self.worker is None:
                self.worker = fork_worker(self._play)
            key = next(self.keys)
            self.worker.send((key, *job[1:]))
            result = supervise(self.worker, key, self.match_seconds)
            if result.kind != "machine" and (result.snapshot is None or result.snapshot.job == key):
                break
            self.worker.kill()
            self.worker = None
        if result.kind == "machine":
            raise RuntimeError(
                f"the check could not play a game: the machine held it up "
                f"{MACHINE_RETRIES + 1} times ({result.value})"
            )
        if result.kind == "done":
            played: _Played = result.value
            return played
        assert self.worker is not None
        self.worker.kill()
        self.worker = None
        if result.kind == "failed":
            raise RuntimeError(f"the check could not play a game: {result.value}")
        snapshot = result.snapshot
        assert snapshot is not None
        at = f"at its move {snapshot.move}"
        if snapshot.hook != 2:  # not choose
            at += f" ({snapshot.call_name})"
        if snapshot.phase == STARTING:
            at = "while it was being built"
        if result.kind == "hung":
            detail = (
                f"still running when the game passed its limit of {self.match_seconds:g} s, "
                "and deaf to interruptions: its process was killed"
            )
            return _Played(None, problem="hung", detail=detail, at=at)
        detail = f"the process playing the game {result.how}"
        return _Played(None, problem="died", detail=detail, at=at)

    def _play(self, job: Any, slot: Slot | None, send: Callable[[object], None] | None) -> _Played:
        """Play one game (in the check's process): the player under test in ``seat``."""
        key, index, opponents, seat, seed, label = job
        with logs_named(label):
            return self._play_game(key, index, opponents, seat, seed, slot, send)

    def _play_game(
        self,
        key: int,
        index: int,
        opponents: tuple[str, ...],
        seat: int,
        seed: int,
        slot: Slot | None,
        send: Callable[[object], None] | None,
    ) -> _Played:
        keep.enable()  # bots that play match after match keep their process here
        again = self.played > 0
        self.played += 1
        if slot is not None:
            slot.phase, slot.turn = STARTING, seat
            before_foreign_bot()  # the bot checked is held as a foreign one, whoever's it is
            Keeper.here().dirty = True  # what the bot starts is ended after the game
        try:
            tested = _Timed(self.make())
        except BaseException as exc:
            if user_interrupt(exc):
                raise
            return _Played(None, problem="unbuilt", detail=describe(exc))
        seats: list[BasePlayer] = [_OPPONENTS[n]() for n in opponents]
        seats.insert(seat, tested)
        if slot is not None:
            slot.phase, slot.turn = PLAYING, -1

        def played(outcome: MatchOutcome) -> _Played:
            inner = tested.inner
            while isinstance(inner, PlayerWrapper):
                inner = inner.inner
            return _Played(
                outcome,
                tuple(tested.seconds),
                again=inner.kept if isinstance(inner, ExternalPlayer) else again,
                down_to_one=tested.down_to_one,
                announced=tested.announced,
            )

        def reported(outcome: MatchOutcome) -> None:
            if send is not None:
                send(("report", key, played(outcome)))

        outcome = play_match(
            self.rules[index],
            seats,
            seed,
            match_seconds=self.match_seconds,
            watch=slot,
            reported=reported,
        )
        return played(outcome)


def game_table(game: int) -> tuple[tuple[str, ...], int]:
    """The opponents of the check's game ``game`` (0-based) in seat order, and the seat
    the player under test takes among them: ``demo`` plays that game again with
    ``game_seed`` as its seed."""
    opponents = _TABLES[game % len(_TABLES)]
    return opponents, game % (len(opponents) + 1)


def game_seed(seed: int, preset: str, game: int) -> int:
    """The match seed of the check's game ``game`` (0-based) under ``preset``."""
    return derive_seed(seed, "conformance", preset, game)


def _check_game(
    report: PresetReport,
    play: _Games,
    *,
    index: int,
    game: int,
    seed: int,
) -> bool:
    """Play one game three times: in a fresh process, again in that process, and in
    another fresh process (see the module); return whether the tested player was stuck
    past the game's limit (interrupted, or its process killed)."""
    opponents, seat = game_table(game)

    def fault(check: str, detail: str) -> None:
        report.faults.append(
            Fault(check=check, preset=report.preset, game=game, seed=seed, detail=detail)
        )

    runs: list[_Played] = []
    for fresh, run in ((FRESH, "first"), (AGAIN, "again"), (FRESH, "alone")):
        label = f"{report.preset}-game{game + 1}-{run}"  # its logs' name
        played = play(index, opponents, seat, seed, fresh=fresh, label=label)
        if played.problem == "unbuilt":
            fault("exception", f"the player could not be built: {played.detail}")
            return False
        if played.problem == "died":
            fault("crash", f"crash {played.at}: {played.detail}")
            return False
        if played.problem == "hung":
            fault("timeout", f"timeout {played.at}: {played.detail}")
            return True
        assert played.outcome is not None
        forfeit = played.outcome.forfeit
        if not runs:
            report.moves += len(played.seconds)
            report.total_seconds += sum(played.seconds)
            report.max_seconds = max([report.max_seconds, *played.seconds])
            report.down_to_one += played.down_to_one
            report.announced += played.announced
            if forfeit is None:
                report.completed += 1
            elif forfeit.seat == seat:
                kind = forfeit.reason if forfeit.reason in CHECKS else "exception"
                fault(kind, f"{forfeit.reason} at its {forfeit_at(forfeit)}: {forfeit.detail}")
            else:
                report.completed += 1
                names = list(opponents)
                names.insert(seat, "(tested)")
                fault(
                    "opponent",
                    f"opponent {names[forfeit.seat]} in seat {forfeit.seat} forfeited "
                    f"({forfeit.reason}: {forfeit.detail})",
                )
        if forfeit is not None and forfeit.seat == seat and forfeit.reason == "timeout":
            if runs:  # (a timeout of the first play is its fault already)
                fault("timeout", f"timeout at its {forfeit_at(forfeit)}: {forfeit.detail}")
            # No play to compare. A game that took the whole limit ends its preset.
            return past_the_limit(forfeit)
        runs.append(played)

    first, again, alone = runs
    assert first.outcome is not None and again.outcome is not None and alone.outcome is not None
    difference = _first_difference(first.outcome, alone.outcome)
    if difference is not None:
        fault("deterministic", f"the same seed gave different play: {difference}")
        return False
    difference = _first_difference(first.outcome, again.outcome)
    if difference is None:
        return False
    if again.again:
        fault(
            "earlier",
            "play depends on earlier matches: played again after it in the same process, "
            f"the game went otherwise: {difference}",
        )
    else:
        fault("deterministic", f"the same seed gave different play: {difference}")
    return False


def _first_difference(first: MatchOutcome, second: MatchOutcome) -> str | None:
    """Where two plays of the same seeded match part ways, or None if they agree."""
    for number, (a, b) in enumerate(zip(first.records, second.records, strict=False), start=1):
        for index, (x, y) in enumerate(zip(a.moves, b.moves, strict=False), start=1):
            if x != y:
                return f"hand {number} move {index} was {x}, then {y}"
        if len(a.moves) != len(b.moves):
            return f"hand {number} had {len(a.moves)} moves, then {len(b.moves)}"
    if len(first.records) != len(second.records):
        return f"{len(first.records)} hands, then {len(second.records)}"
    # Compare play, not words: a forfeit's detail names files (a bot's log) that differ.
    one, two = (_ending(first), _ending(second))
    if one != two:
        return f"the match ended differently ({one}, then {two})"
    if first.result != second.result:
        return f"results {first.result.placements} then {second.result.placements}"
    return None


def _ending(outcome: MatchOutcome) -> str:
    forfeit = outcome.forfeit
    if forfeit is None:
        return "no forfeit"
    return f"seat {forfeit.seat} forfeited with {forfeit.reason} at its {forfeit_at(forfeit)}"


class _Timed(PlayerWrapper):
    """Wraps the player under test: times every ``choose``, counts the moves that leave it
    one card under rules that penalise a missed call (and those that announce it), and
    passes the hooks on."""

    def __init__(self, inner: Player) -> None:
        super().__init__(inner)
        self.seconds: list[float] = []
        self.down_to_one = 0
        self.announced = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        start = time.perf_counter()
        try:
            move = self.inner.choose(observation, legal)
        finally:
            self.seconds.append(time.perf_counter() - start)
        if (
            move.is_play
            and len(observation.hand) - len(move.cards) == 1
            and observation.rules.last_card
        ):
            self.down_to_one += 1
            self.announced += move.announce
        return move
