"""The time a bot is held to: the match's clock, and the per-move limit of a run
(``--move-seconds``) or the match clock of each seat (``--clock``) read on it.

A match's :class:`Clock` counts only time in which its process could run: not time it
was stopped (``SIGSTOP``, a debugger, a suspended machine) or waited for a processor.
It runs in the main thread of the process that plays the match, under the match's
time limit (``--match-seconds``, see ``runner.loop``), which is read on it.

The per-move limit is read on the same clock. A player whose plugin has a ``move_time``
option (the ``external`` player) keeps its own clock, which it also tells the bot: the
limit becomes its ``move_time`` when lower. Any other player is wrapped in a
:class:`MoveClock`, which times every ``choose`` on the running match's clock (on the
wall clock where none runs: a match without a time limit, or one played outside a
main thread) and turns an answer that came too late into a ``timeout`` forfeit. A
player that never answers is stopped by the match's own limit.

A match clock (:class:`MatchClock`, ``--clock 60+0.5``) is kept per seat by a
:class:`SeatClock`, around every player, external bots too: each seat has ``base``
seconds a match; the time of each of its decisions, read on the match's clock, is
taken from it, and ``increment`` added after each move it makes. A seat whose time runs
out forfeits with ``timeout``. An external bot is told its time left with each move
request, which is also its limit on the decision (in place of its ``move_time``); the
forced moves c8league plays for it (``skip_forced``) take none of its time and earn no
increment.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from c8league.engine import Move, Observation
from c8league.errors import PlayerFault, UsageError
from c8league.players.base import Player, PlayerWrapper
from c8league.players.external.player import ExternalPlayer

TICK_SECONDS = 0.05
"""The match clock looks at the time every this many seconds (in the main thread), and
after the limit interrupts a player that swallowed the interruption again as often."""

MOVE_TIME = "move_time"
"""The option through which a plugin keeps its own per-move clock."""


class ClockWatch(Protocol):
    """Where a :class:`Clock` writes what it left out, for a process that watches the
    match from outside (``runner.worker``)."""

    lost: float
    """Seconds of the match so far in which its process could not run, as of
    :attr:`ticked`."""
    ticked: float
    """When the clock last looked (``time.monotonic()``)."""
    delay: float
    """The main thread's time waiting for a processor then (``/proc``'s ``run_delay``,
    seconds): what a process that watches from outside compares its own reading with."""


class Clock:
    """A match's clock in the main thread of its process: the time since the match began
    in which the process could run. It looks at the time every :data:`TICK_SECONDS`
    (``runner.loop``'s deadline) and leaves out

    * the time the main thread waited for a processor (the kernel's ``run_delay``, in
      ``/proc``: a machine too busy for its processes);
    * the time a look came late that the main thread did not spend running either:
      the process was stopped (``SIGSTOP``, a debugger, a suspended machine).

    A player's own sleeping and waiting count; so does its computing in a long C call
    (the look comes late, but the thread was running). Where ``/proc`` is missing only
    the second is left out. The time left out is written to the :class:`ClockWatch`.
    While it runs it is this process's :func:`running` clock."""

    __slots__ = ("_cpu", "_delay", "_expected", "lost", "start", "watch")

    def __init__(self, watch: ClockWatch | None) -> None:
        self.watch = watch
        self.start = self._expected = time.monotonic()
        self.lost = 0.0
        self._cpu = time.thread_time()
        self._delay = run_delay()
        if watch is not None:
            watch.lost, watch.ticked, watch.delay = 0.0, self.start, self._delay

    def expect(self, seconds: float) -> None:
        """The next look is due in ``seconds``."""
        self._expected = time.monotonic() + seconds

    def _reading(self) -> tuple[float, float, float, float]:
        """Now, the thread's processor time, its wait for a processor, and the time left
        out so far, this moment's included."""
        now, cpu, delay = time.monotonic(), time.thread_time(), run_delay()
        waited = max(0.0, delay - self._delay)
        late = now - self._expected
        lost = self.lost + waited + max(0.0, late - (cpu - self._cpu) - waited)
        return now, cpu, delay, lost

    def look(self) -> float:
        """Account for the time since the last look; the match's time so far."""
        now, self._cpu, self._delay, self.lost = self._reading()
        watch = self.watch
        if watch is not None:
            watch.lost, watch.ticked, watch.delay = self.lost, now, self._delay
        return now - self.start - self.lost

    def now(self) -> float:
        """The match's time so far, as :meth:`look` would say, changing nothing (safe to
        read outside the clock's own looks)."""
        now, _, _, lost = self._reading()
        return now - self.start - lost

    def __enter__(self) -> Clock:
        _running.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self in _running:
            _running.remove(self)


_running: list[Clock] = []


def running() -> Clock | None:
    """The clock of the match being played in this process, if one runs (see
    :class:`Clock`)."""
    return _running[-1] if _running else None


_SCHEDSTAT = "/proc/thread-self/schedstat"
_no_schedstat: list[bool] = []


def run_delay(pid: int | None = None) -> float:
    """Seconds the thread (this one, or the main thread of process ``pid``) has waited
    for a processor since it started (Linux; 0.0 elsewhere)."""
    if _no_schedstat:
        return 0.0
    path = _SCHEDSTAT if pid is None else f"/proc/{pid}/schedstat"
    try:
        with open(path, "rb") as file:
            return int(file.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        if pid is None:
            _no_schedstat.append(True)
        return 0.0


# -- the per-move limit ---------------------------------------------------------------


def with_move_limit(options: dict[str, Any], names: Sequence[str], seconds: float) -> bool:
    """Give ``options`` the run's limit as ``move_time`` when the plugin (whose option
    ``names`` are given) keeps its own clock and its time is longer; True if it does."""
    if MOVE_TIME not in names:
        return False
    current = options.get(MOVE_TIME)
    try:
        own = float(current) if current is not None else None
    except (TypeError, ValueError):
        own = None
    if own is None or own > seconds:
        options[MOVE_TIME] = seconds
    return True


def _wall() -> float:
    return time.perf_counter()


class MoveClock(PlayerWrapper):
    """A player whose every decision must come within ``seconds`` of the match's clock
    (see the module docstring): a later one is a ``timeout`` fault (the match loop
    records the forfeit). The hooks pass through."""

    def __init__(self, inner: Player, seconds: float) -> None:
        super().__init__(inner)
        self.seconds = seconds
        self.moves = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.moves += 1
        clock = running()
        now = _wall if clock is None else clock.now
        start = now()
        move = self.inner.choose(observation, legal)
        took = now() - start
        if took > self.seconds:
            raise PlayerFault(
                "timeout",
                f"took {took:.3f} s for its move {self.moves}, over the limit of "
                f"{self.seconds:g} s a move",
            )
        return move

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.moves = 0
        super().start_match(seat, players, seed)


# -- the match clock ------------------------------------------------------------------

CLOCK_SECONDS_MAX = 86_400.0
"""The most a match clock's time or increment may be (a day)."""


@dataclass(frozen=True, slots=True)
class MatchClock:
    """A match clock with increment, as chess engine testers give it (``tc=60+0.5``):
    ``base`` seconds for a seat's decisions in a match, ``increment`` added after each
    move. Its text form, ``60+0.5`` (``60`` for no increment), round-trips:
    ``str(MatchClock.parse("60+0.5")) == "60+0.5"``."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str, param: str = "clock") -> MatchClock:
        """The clock ``text`` gives (``SECONDS+INCREMENT``, or ``SECONDS``); a
        :class:`~c8league.errors.UsageError` naming ``param`` if it gives none."""
        base, plus, increment = text.strip().partition("+")
        try:
            clock = cls(float(base), float(increment) if plus else 0.0)
        except ValueError:
            clock = None
        if clock is None or not clock.valid:
            raise UsageError(
                f"`{param}` must be SECONDS+INCREMENT, e.g. 60+0.5 (a match's seconds for "
                f"each seat, more than 0, and the seconds added after each move), not {text!r}",
                params=[param],
            )
        return clock

    @property
    def valid(self) -> bool:
        """The time is more than 0, the increment 0 or more, neither over a day."""
        return (
            math.isfinite(self.base)
            and math.isfinite(self.increment)
            and 0 < self.base <= CLOCK_SECONDS_MAX
            and 0 <= self.increment <= CLOCK_SECONDS_MAX
        )

    def __str__(self) -> str:
        return f"{_seconds(self.base)}+{_seconds(self.increment)}"


def _seconds(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def one_limit(move_seconds: float | None, clock: MatchClock | None) -> None:
    """Refuse both a limit on each decision and a match clock, in one line."""
    if move_seconds is not None and clock is not None:
        raise UsageError(
            "give `move_seconds` (a limit on each decision) or `clock` (a match clock), not both",
            params=["move_seconds", "clock"],
        )


class SeatClock(PlayerWrapper):
    """A seat held to a match clock (see the module docstring): its time left, less each
    decision's time on the match's clock, plus the increment after each move; a decision
    that takes more than is left is a ``timeout`` fault. An external bot (``bot``: the
    player wrapped, or the player inside the wrapper given) is told its time left before
    each decision. The hooks pass through."""

    def __init__(self, inner: Player, clock: MatchClock, bot: ExternalPlayer | None) -> None:
        super().__init__(inner)
        self.clock = clock
        self.bot = bot
        self.left = clock.base
        """The seat's time left, in seconds."""
        self.moves = 0
        """Decisions asked of the seat in this match."""
        self.requests = 0
        """Decisions the seat spent time on (the forced moves played for a bot left out)."""
        if bot is not None:
            bot.clock = (clock.base, clock.increment)

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.moves += 1
        bot = self.bot
        asked = 0
        if bot is not None:
            bot.time_left = self.left
            asked = bot.requests
        clock = running()
        now = _wall if clock is None else clock.now
        start = now()
        move = self.inner.choose(observation, legal)
        took = now() - start
        if bot is not None and bot.requests == asked:
            return move  # a forced move played for the bot: none of its time
        self.requests += 1
        if took > self.left:
            raise PlayerFault(
                "timeout",
                f"its clock ran out ({self.clock}): it took {took:.3f} s over a decision "
                f"with {self.left:.3f} s left",
                None if self.requests == self.moves else self.requests,
            )
        self.left += self.clock.increment - took
        return move

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.left = self.clock.base
        self.moves = self.requests = 0
        super().start_match(seat, players, seed)
