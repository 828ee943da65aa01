"""Bot processes kept between matches, in a process that plays match after match.

A bot that announces the capability ``match_start`` in its hello plays any number of
matches in one process. Where matches are played one after another (the runner's
worker processes call :func:`enable`), the ``external`` player then leaves the bot's
process here when its match ends well, instead of ending it, and the next match with
the same bot (the same command, folder, environment and limits) takes it back and
begins with a ``match_start`` notice instead of a new process and a ``hello``. A bot
that faulted is never kept: its next match starts a new process. Two seats with the
same bot at one table have a process each.

What a kept bot started during its match is ended when the match ends (see
:meth:`~c8league.players.external.process.BotProcess.end_children`); whatever happens
to the process that keeps the bots, its reaper ends them with it. :func:`release`
ends the kept bots (``quit``, then a kill after a grace period).
"""

from __future__ import annotations

import os
import time
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Protocol


class KeptBot(Protocol):
    """A bot process between two matches (the ``external`` player's :class:`BotRun`)."""

    def alive(self) -> bool: ...

    def leave(self) -> None:
        """Say ``quit`` and close its input (it should exit)."""

    def end(self, deadline: float) -> None:
        """Wait for it to exit until ``deadline`` (``time.monotonic``), then kill it."""


@dataclass
class _Kept:
    pid: int
    """The process that keeps the bots: a fork of it keeps none (until enabled)."""
    idle: dict[Hashable, list[KeptBot]] = field(default_factory=dict)


_here: _Kept | None = None

GRACE_SECONDS = 1.0
"""How long kept bots have to exit after ``quit`` when they are released."""


def enable() -> None:
    """Keep bots between matches in this process from now on (until :func:`release`)."""
    global _here
    if _here is None or _here.pid != os.getpid():
        _here = _Kept(os.getpid())


def enabled() -> bool:
    """Whether this process keeps bots between matches."""
    return _here is not None and _here.pid == os.getpid()


def take(key: Hashable) -> KeptBot | None:
    """A kept bot started as ``key`` says, still running, if there is one (it is no
    longer kept); one that ended meanwhile is dropped."""
    if not enabled():
        return None
    assert _here is not None
    waiting = _here.idle.get(key)
    while waiting:
        bot = waiting.pop()
        if bot.alive():
            return bot
        bot.end(time.monotonic())
    return None


def give(key: Hashable, bot: KeptBot) -> bool:
    """Keep ``bot`` for a later match started as ``key`` says; False where bots are not
    kept (the caller ends it)."""
    if not enabled():
        return False
    assert _here is not None
    _here.idle.setdefault(key, []).append(bot)
    return True


def release() -> None:
    """End every kept bot: each is told to quit, then all are given
    :data:`GRACE_SECONDS` together before the ones still running are killed. Bots are
    not kept any more."""
    global _here
    kept, _here = _here, None
    if kept is None or kept.pid != os.getpid():
        return
    bots = [bot for waiting in kept.idle.values() for bot in waiting]
    for bot in bots:
        bot.leave()
    deadline = time.monotonic() + GRACE_SECONDS
    for bot in bots:
        bot.end(deadline)
