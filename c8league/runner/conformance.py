"""A conformance check for player implementations, to run on your own bot.

It plays the player through a few seeded matches under each rule preset, at tables
of two to four against the built-in ``random`` and ``greedy`` players, in every
seat, and checks that it

* returns legal moves only (no forfeit for an illegal move),
* never crashes (no exception from its factory, ``choose`` or a hook),
* makes the same choices when the same seeded match is played again with a fresh
  instance (derive any randomness from the seed given to ``start_match``),
* answers in time, when a ``time_limit`` is given (mean and maximum are reported
  in any case).

From Python::

    from c8league.runner.conformance import assert_conforms, check_player

    report = check_player(MyBot, games=5)      # a factory, or a registered name
    print(report.failures())
    assert_conforms(MyBot)                     # raises AssertionError on a failure

From the command line: ``c8league bots check NAME``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from c8league.engine import HandResult, MatchResult, Move, Observation, Rules, derive_seed
from c8league.players import registry
from c8league.players.base import Player
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.loop import MatchOutcome, play_match

DEFAULT_PRESETS: tuple[str, ...] = ("pagat", "basic", "encyclopedia", "olsen", "countdown")
DEFAULT_GAMES = 5
#: The time limit of one game of the check: a player still deciding then is stuck.
CHECK_MATCH_SECONDS = 60.0

CHECKS: tuple[str, ...] = ("legal", "crash", "deterministic", "time")
"""The kinds of fault: an illegal move, an exception, different choices on a replay of
the same seed, a move slower than the time limit."""

# The opponents of game i are _TABLES[i % len(_TABLES)]; the player sits at seat
# i % table size, so it deals, leads and follows every kind of player.
_OPPONENTS: dict[str, Callable[[], Player]] = {"random": RandomPlayer, "greedy": GreedyPlayer}
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
    """``legal``, ``crash``, ``deterministic`` or ``time``."""
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

    @property
    def passed(self) -> bool:
        return all(p.passed for p in self.presets)

    @property
    def faults(self) -> list[Fault]:
        return [f for p in self.presets for f in p.faults]

    def failures(self) -> list[str]:
        """One line per fault."""
        return [f"{f.check}: {f}" for f in self.faults]

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "games": self.games,
            "time_limit": self.time_limit,
            "passed": self.passed,
            "presets": [
                {
                    "preset": p.preset,
                    "games": p.games,
                    "completed": p.completed,
                    "moves": p.moves,
                    "mean_seconds": p.mean_seconds,
                    "max_seconds": p.max_seconds,
                    "passed": p.passed,
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
) -> ConformanceReport:
    """Play ``player`` through ``games`` seeded matches per preset and check it.

    ``player`` is a registered plugin name (built with ``registry.create``) or a
    factory called with ``options`` for every match. An unknown name, bad options or a
    bad preset raise at once (:class:`~c8league.errors.PluginError`,
    :class:`~c8league.errors.RulesError`); everything the player does wrong afterwards
    is reported as a :class:`Fault`. ``progress(preset, game)`` is called before each
    game. A game still running after ``match_seconds`` is a ``time`` fault, and the
    check stops there (a player stuck in a loop would hold up every game after it).
    """
    if games < 1:
        raise ValueError("games must be at least 1")
    opts = dict(options or {})
    if isinstance(player, str):
        name = player
        registry.validate_options(registry.get(name), opts)

        def make() -> Player:
            return registry.create(name, opts)
    else:
        name = getattr(player, "__name__", type(player).__name__)
        factory = player

        def make() -> Player:
            return factory(**opts)

    rule_sets = [(preset, Rules.from_options(preset)) for preset in presets]
    reports = []
    stuck = False
    for preset, rules in rule_sets:
        report = PresetReport(preset)
        for game in range(games):
            if stuck:
                break
            if progress is not None:
                progress(preset, game)
            game_seed = derive_seed(seed, "conformance", preset, game)
            stuck = _check_game(report, rules, make, game, game_seed, match_seconds)
            report.games += 1
        if time_limit is not None and report.max_seconds > time_limit:
            report.faults.append(
                Fault(
                    "time",
                    preset,
                    None,
                    None,
                    f"slowest move {report.max_seconds:.3f}s, above the limit {time_limit}s",
                )
            )
        reports.append(report)
    return ConformanceReport(name, games, tuple(reports), time_limit)


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


def _check_game(
    report: PresetReport,
    rules: Rules,
    make: Callable[[], Player],
    game: int,
    seed: int,
    match_seconds: float | None = None,
) -> bool:
    """Play one game twice (the second time to check determinism); return whether the
    tested player ran out of time."""
    opponents = _TABLES[game % len(_TABLES)]
    seat = game % (len(opponents) + 1)

    def fault(check: str, detail: str) -> None:
        report.faults.append(Fault(check, report.preset, game, seed, detail))

    runs: list[tuple[MatchOutcome, _Timed]] = []
    for _ in range(2):
        try:
            tested = _Timed(make())
        except Exception as exc:
            fault("crash", f"the player could not be built: {type(exc).__name__}: {exc}")
            return False
        seats: list[Player] = [_OPPONENTS[n]() for n in opponents]
        seats.insert(seat, tested)
        outcome = play_match(rules, seats, seed, match_seconds=match_seconds)
        forfeit = outcome.forfeit
        if forfeit is not None and forfeit.seat == seat and forfeit.reason == "timeout":
            report.moves += len(tested.seconds)
            report.total_seconds += sum(tested.seconds)
            report.max_seconds = max([report.max_seconds, *tested.seconds])
            fault("time", f"timeout at its move {forfeit.move_number}: {forfeit.detail}")
            return True
        runs.append((outcome, tested))

    (outcome, timed), (again, _) = runs
    report.moves += len(timed.seconds)
    report.total_seconds += sum(timed.seconds)
    report.max_seconds = max([report.max_seconds, *timed.seconds])
    forfeit = outcome.forfeit
    if forfeit is None:
        report.completed += 1
    elif forfeit.seat == seat:
        check = "legal" if forfeit.reason == "illegal" else "crash"
        fault(check, f"{forfeit.reason} at its move {forfeit.move_number}: {forfeit.detail}")
    else:
        report.completed += 1
        names = list(opponents)
        names.insert(seat, "(tested)")
        fault(
            "crash",
            f"opponent {names[forfeit.seat]} in seat {forfeit.seat} forfeited "
            f"({forfeit.reason}: {forfeit.detail})",
        )
    difference = _first_difference(outcome, again)
    if difference is not None:
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
    if first.forfeit != second.forfeit:
        return f"the match ended differently ({first.forfeit}, then {second.forfeit})"
    if first.result != second.result:
        return f"results {first.result.placements} then {second.result.placements}"
    return None


class _Timed:
    """Wraps the player under test: times every ``choose`` and passes the hooks on."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.seconds: list[float] = []

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        start = time.perf_counter()
        try:
            return self.inner.choose(observation, legal)
        finally:
            self.seconds.append(time.perf_counter() - start)

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self._call("start_match", seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._call("start_hand", observation)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        self._call("end_hand", observation, result)

    def end_match(self, result: MatchResult) -> None:
        self._call("end_match", result)

    def close(self) -> None:
        self._call("close")

    def _call(self, hook: str, *args: object) -> None:
        method = getattr(self.inner, hook, None)
        if method is not None:
            method(*args)
