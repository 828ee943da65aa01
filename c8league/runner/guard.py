"""Watching the Python players that do not come with c8league, call by call.

A Python player runs in the worker process that plays its match, so what it does
outside its calls, or to the process itself, could be charged to another seat: a thread
it started ends the process while another seat is being called, or it closes the
worker's files (its pipe to the process that runs the event) and the worker breaks
later, in someone else's turn. So in a worker each such player is wrapped in a
:class:`Guarded`, which makes every call end only when

* every thread the call started has ended, or :data:`THREAD_SECONDS` have passed (a
  thread still running then is noted in the :class:`Seats` of the worker: a death
  of the process from then on cannot be charged by the call in progress alone);
* the worker's pipe is still the one it was: if not, the worker exits at once with
  :data:`FILES_CLOSED_EXIT`, while the call is still in progress.

Whatever the player does then happens during its own call, so the process that
watches the worker charges it to the right seat every time (``runner.pool``). The
players of c8league itself (greedy, random, the external player, whose bot is a
process of its own) need no guard and are not wrapped.
"""

from __future__ import annotations

import _thread
import os
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from c8league.engine import HandResult, MatchResult, Move, Observation
from c8league.players import containment, registry
from c8league.players.base import BasePlayer, Player, PlayerWrapper, adapt

THREAD_SECONDS = 0.5
"""How long a call waits for the threads it started before it returns."""
FILES_CLOSED_EXIT = 86
"""The exit status of a worker whose pipe a player closed (or replaced)."""

_pipes: list[tuple[int, int, int]] = []
"""This process's pipe to its supervisor: (descriptor, device, inode)."""


class Seats(Protocol):
    """Where a guard notes the seats whose threads outlived their calls (a bit per seat),
    e.g. the worker's shared memory."""

    owners: int


def watch_pipe(fd: int) -> None:
    """The worker starts serving: make ``fd`` its pipe, whose closing a guard looks for;
    the threads it has now are not its players'."""
    st = os.fstat(fd)
    _pipes[:] = [(fd, st.st_dev, st.st_ino)]
    _started()


def pipe_intact() -> bool:
    """Whether the worker's pipe is still open as the same pipe."""
    for fd, dev, ino in _pipes:
        try:
            st = os.fstat(fd)
        except OSError:
            return False
        if (st.st_dev, st.st_ino) != (dev, ino):
            return False
    return True


_known: set[int | None] = set()
"""The threads of this process as last looked at."""


def _started() -> list[threading.Thread]:
    """The threads started since the last look that are still running. (Counting the
    threads is what each call does; they are looked at only when there are more: a call
    that starts one and ends another is not noticed.)"""
    alive = threading.enumerate()
    started = [thread for thread in alive if thread.ident not in _known]
    _known.clear()
    _known.update(thread.ident for thread in alive)
    here = threading.current_thread()
    return [thread for thread in started if thread is not here and thread.is_alive()]


def trusted(player: BasePlayer) -> bool:
    """A player of c8league itself."""
    return registry.in_package(player.implementation.__module__)


def guard(player: Player, seat: int, seats: Seats | None) -> BasePlayer:
    """``player`` guarded (see the module docstring), unless it is c8league's own."""
    seated = adapt(player)
    if trusted(seated):
        return seated
    containment.Keeper.here().dirty = True  # its processes are swept after the match
    return Guarded(seated, seat, seats)


class Guarded(PlayerWrapper):
    """A player whose every call is watched (see the module docstring)."""

    def __init__(self, player: Player, seat: int, seats: Seats | None) -> None:
        super().__init__(player)
        self.seat = seat
        self.seats = seats

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        return self._watched(self.inner.choose, observation, legal)  # type: ignore[no-any-return]

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self._watched(self.inner.start_match, seat, players, seed)

    def start_hand(self, observation: Observation) -> None:
        self._watched(self.inner.start_hand, observation)

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        self._watched(self.inner.end_hand, observation, result)

    def end_match(self, result: MatchResult) -> None:
        self._watched(self.inner.end_match, result)

    def close(self) -> None:
        self._watched(self.inner.close)

    def _watched(self, method: Callable[..., Any], *args: Any) -> Any:
        before = _thread._count()
        try:
            return method(*args)
        finally:
            self._settle(before)

    def _settle(self, before: int) -> None:
        started = _started() if _thread._count() > before else []
        if started:
            end = time.monotonic() + THREAD_SECONDS
            for thread in started:
                thread.join(max(0.0, end - time.monotonic()))
            if any(thread.is_alive() for thread in started) and self.seats is not None:
                self.seats.owners |= 1 << self.seat
        if _pipes and not pipe_intact():
            os._exit(FILES_CLOSED_EXIT)
