"""The per-move time limit of a run (``--move-seconds``), apart from the match's clock.

A player whose plugin has a ``move_time`` option (the ``external`` player) keeps its own
clock, which it also tells the bot: the limit becomes its ``move_time`` when lower.
Any other player is wrapped in a :class:`MoveClock`, which times every ``choose`` and
turns an answer that came too late into a ``timeout`` forfeit. A player that never
answers is stopped by the match's own limit (``--match-seconds``, ``runner.loop``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from c8league.engine import HandResult, MatchResult, Move, Observation
from c8league.errors import PlayerFault
from c8league.players.base import Player

MOVE_TIME = "move_time"
"""The option through which a plugin keeps its own per-move clock."""


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


class MoveClock:
    """A player whose every decision must come within ``seconds``: a later one is a
    ``timeout`` fault (the match loop records the forfeit). The hooks pass through."""

    def __init__(self, inner: Player, seconds: float) -> None:
        self.inner = inner
        self.seconds = seconds
        self.moves = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.moves += 1
        start = time.perf_counter()
        move = self.inner.choose(observation, legal)
        took = time.perf_counter() - start
        if took > self.seconds:
            raise PlayerFault(
                "timeout",
                f"took {took:.3f} s for its move {self.moves}, over the limit of "
                f"{self.seconds:g} s a move",
            )
        return move

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.moves = 0
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
