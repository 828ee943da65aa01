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
from collections.abc import Callable
from typing import Any, Protocol

from c8league.players import containment, registry
from c8league.players.base import Player
from c8league.runner.loop import HOOKS

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


def trusted(player: object) -> bool:
    """A player of c8league itself."""
    return registry.in_package(type(player).__module__)


def guard(player: Player, seat: int, seats: Seats | None) -> Player:
    """``player`` guarded (see the module docstring), unless it is c8league's own."""
    if trusted(player):
        return player
    containment.Keeper.here().dirty = True  # its processes are swept after the match
    return Guarded(player, seat, seats)


class Guarded:
    """A player whose every call is watched (see the module docstring). It has the
    same hooks as the player it wraps, and no others."""

    def __init__(self, player: Player, seat: int, seats: Seats | None) -> None:
        self.inner = player
        self.seat = seat
        self.seats = seats
        self.name = getattr(player, "name", type(player).__name__)
        self.choose = self._wrap(player.choose)
        for hook in HOOKS:
            method = getattr(player, hook, None)
            if method is not None:
                setattr(self, hook, self._wrap(method))

    def __getattr__(self, name: str) -> Any:
        if name in HOOKS:  # a hook the player does not have
            raise AttributeError(name)
        return getattr(self.inner, name)

    def _wrap(self, method: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            before = _thread._count()
            try:
                return method(*args)
            finally:
                self._settle(before)

        return call

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
