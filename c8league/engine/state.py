"""The small values a hand's state is made of, shared by the steps of a hand: its
phase, the kind of draw pending, and the number that stands for "no such rank"."""

from __future__ import annotations

from enum import IntEnum
from typing import Final, Literal, TypeAlias

PendingKind: TypeAlias = Literal["two", "five"]

NO_RANK: Final = -1
"""A rank value no card has: the rank of a special card the rules do without."""


class Phase(IntEnum):
    NOMINATE = 0
    """The dealer nominates the suit for a wild starter."""
    PLAY = 1
    OVER = 2


# Enum members as module constants: the compiled engine reads these directly instead
# of looking the member up on its class each time.
PLAYING: Final = Phase.PLAY
OVER: Final = Phase.OVER
