"""Fail fast: every bot of a run is started once, on every worker that will play it,
before the first match.

Starting a bot is building it from its plugin and options, and showing it the start of
a match and of its first hand, as a match would: an external bot's process is started
and must answer ``hello`` within its start-up time. A bot that cannot start would
otherwise forfeit every match of the run (hundreds of games, and a verdict); instead the
run stops before it begins, with one line naming the bot and why (for an external bot,
the log of its standard error).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from c8league.engine import Match, Rules, derive_seed
from c8league.errors import PlayerFault, PluginError
from c8league.players.base import Player
from c8league.runner.loop import describe, user_interrupt
from c8league.runner.tasks import SeatSpec, create_player


@dataclass(frozen=True, slots=True)
class BotStart:
    """A bot to start: its name in messages (``A (cmd:./bot)``, ``entrant 'Ada'``), who
    it is, and the table it will sit at (rules as JSON, table size, seat)."""

    label: str
    seat: SeatSpec
    rules: str
    players: int
    seat_number: int = 0


def start_bots(bots: Sequence[BotStart]) -> str | None:
    """Start each bot in turn and close it (in the process that will play its matches);
    the first that fails, as one line, or None when every bot started."""
    for bot in bots:
        problem = start_bot(bot)
        if problem is not None:
            return problem
    return None


def start_bot(bot: BotStart) -> str | None:
    """Start one bot (see the module); why it cannot start, or None."""
    try:
        player = create_player(bot.seat)
    except PluginError as exc:
        return f"{bot.label} cannot start: {exc}"
    try:
        _show_a_match(player, bot)
    except PlayerFault as fault:
        return f"{bot.label} did not start ({fault.reason}): {fault.detail}"
    except BaseException as exc:
        if user_interrupt(exc):
            raise
        return f"{bot.label} did not start: {describe(exc)}"
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            try:
                close()
            except BaseException as exc:
                if user_interrupt(exc):
                    raise
    return None


def _show_a_match(player: Player, bot: BotStart) -> None:
    seat, seed = bot.seat_number, 0
    match = Match(Rules.from_json(bot.rules), bot.players, seed)
    start_match = getattr(player, "start_match", None)
    if start_match is not None:
        start_match(seat, bot.players, derive_seed(seed, "player", seat))
    start_hand = getattr(player, "start_hand", None)
    if start_hand is not None:
        start_hand(match.hand.observation(seat))
