"""The time a bot is held to: the match's clock, and the per-move limit of a run
(``--move-seconds``) read on it.

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
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

from c8league.engine import Move, Observation
from c8league.errors import PlayerFault
from c8league.players.base import Player, PlayerWrapper

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
