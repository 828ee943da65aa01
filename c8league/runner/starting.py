"""Fail fast: every bot of a run is started once, on every worker that will play it,
before the first match.

Starting a bot is building it from its plugin and options, and showing it the start of
a match and of its first hand, as a match would; an external bot's process is started
and must answer ``hello`` within its start-up time (its ``warm``), and one that plays
match after match is then kept, in the worker, for its first match there (see
``players.external.keep``). A bot that cannot start would otherwise forfeit every match
of the run (hundreds of games, and a verdict); instead the run stops before it begins,
with one line naming the bot and why (for an external bot, the end of its standard
error and its log).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from c8league import sandbox
from c8league.engine import Rules
from c8league.errors import PlayerFault, PluginError
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.containment import ready_moves
from c8league.players.external.player import ExternalPlayer, logs_named
from c8league.runner.interleave import WIDTH
from c8league.runner.loop import describe, user_interrupt
from c8league.runner.tasks import SeatSpec, close_player, create_player
from c8league.sandbox import Support


@dataclass(frozen=True, slots=True)
class BotStart:
    """A bot to start: its name in messages (``A (cmd:./bot)``, ``entrant 'Ada'``), who
    it is, and the table it will sit at (rules as JSON, table size, seat)."""

    label: str
    seat: SeatSpec
    rules: str
    players: int
    seat_number: int = 0


@dataclass(frozen=True, slots=True)
class Started:
    """What came of starting a run's bots in a worker: why one cannot start (None: every
    one started), and how many matches the worker may play at once with them (see
    ``runner.interleave``): :data:`~c8league.runner.interleave.WIDTH` where one of them
    plays several at once (its process kept for them), else 1."""

    problem: str | None
    together: int = 1


def start_bots(bots: Sequence[BotStart]) -> str | None:
    """Start each bot in turn and close it (in the process that will play its matches);
    the first that fails, as one line, or None when every bot started."""
    return start_here(bots).problem


def start_here(bots: Sequence[BotStart]) -> Started:
    """:func:`start_bots`, telling also how many matches this process may play at once
    with them (see :class:`Started`)."""
    together = 1
    for bot in bots:
        problem, at_once = start_bot(bot)
        if problem is not None:
            return Started(problem)
        if at_once:
            together = WIDTH
    return Started(None, together)


def ready(bots: Sequence[BotStart]) -> Callable[[], None]:
    """Ready this machine for ``bots`` about to be started (in other processes, or in
    this one): where one of them moves a process into a cgroup, a bot over the protocol
    into its enclosure or a Python bot not of c8league its worker into ``play``, the
    kernel is readied for it (``containment.ready_moves``). The call returned is to be
    made once they have started."""
    external = ExternalPlayer.name
    if any(bot.seat.plugin == external or not registry.ours(bot.seat.plugin) for bot in bots):
        return ready_moves()
    return lambda: None


def unsandboxed(bots: Sequence[BotStart]) -> Support | None:
    """Why the external bots of ``bots`` that would run sandboxed where this machine
    allowed it (their mode ``auto``) run without one here; None if none does."""
    found = sandbox.support()
    if found.available:
        return None
    for bot in bots:
        if bot.seat.plugin != ExternalPlayer.name:
            continue
        mode = bot.seat.sandbox
        if mode is None:
            try:
                own = json.loads(bot.seat.options or "{}").get("sandbox", "auto")
            except (ValueError, AttributeError):
                own = "auto"
            mode = own if own in sandbox.MODES else "auto"
        if mode == "auto":
            return found
    return None


def start_bot(bot: BotStart) -> tuple[str | None, bool]:
    """Start one bot (see the module): why it cannot start (None: it started), and
    whether it plays several matches at once. Its log is named ``start``."""
    with logs_named("start"):
        return _start_bot(bot)


def _start_bot(bot: BotStart) -> tuple[str | None, bool]:
    try:
        player = create_player(bot.seat)
    except PluginError as exc:
        return f"{bot.label} cannot start: {exc}", False
    try:
        player.warm(Rules.from_json(bot.rules), bot.players, bot.seat_number)
        return None, player.plays_at_once
    except PlayerFault as fault:
        detail = fault.detail + _said(player, fault.detail)
        return f"{bot.label} did not start ({fault.reason}): {detail}", False
    except BaseException as exc:
        if user_interrupt(exc):
            raise
        return f"{bot.label} did not start: {describe(exc)}", False
    finally:
        close_player(player)


def _said(player: BasePlayer, detail: str) -> str:
    """The last line a bot wrote to its standard error, when ``detail`` does not give it
    (``; its standard error ends: ...``), or nothing."""
    path = player.stderr_path
    if path is None:
        return ""
    try:
        with open(path, "rb") as log:
            log.seek(max(0, os.path.getsize(path) - 4096))
            lines = [line.strip() for line in log.read().decode("utf-8", "replace").splitlines()]
    except OSError:
        return ""
    last = next((line for line in reversed(lines) if line), "")[:200]
    return f"; its standard error ends: {last!r}" if last and last not in detail else ""
