"""The player protocol: what every player, built-in or plugin, implements.

A player chooses a move from an observation and the legal moves. It may also
be told when a match or a hand starts and ends; :class:`BasePlayer` gives
no-op versions of those hooks, so a player needs to write ``choose`` only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from c8league.engine import HandResult, MatchResult, Move, Observation


@runtime_checkable
class Player(Protocol):
    """Anything with a ``choose`` method (the hooks are optional)."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        """Return one of ``legal``. ``observation`` holds what this seat may see."""
        ...


class BasePlayer:
    """A convenient base class: override ``choose``; the hooks do nothing by default."""

    name = "player"

    def start_match(self, seat: int, players: int, seed: int) -> None:
        """A match starts: this player sits at ``seat`` of ``players``; ``seed`` is the
        player's own seed for this match (derived from the match seed and the seat)."""

    def start_hand(self, observation: Observation) -> None:
        """A hand has been dealt; ``observation`` is this seat's view of it."""

    def end_hand(self, observation: Observation, result: HandResult) -> None:
        """A hand ended: the final view of this seat and the hand's public result."""

    def end_match(self, result: MatchResult) -> None:
        """The match is over."""

    def close(self) -> None:
        """Release resources (processes, files). Called once, even after a fault."""

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        raise NotImplementedError
