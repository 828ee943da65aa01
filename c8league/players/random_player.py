"""``random``: a uniformly random legal move from the player's own seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence

from pydantic import Field

from c8league.engine import Move, Observation, derive_seed
from c8league.players.base import BasePlayer, PlayerOptions


class RandomOptions(PlayerOptions):
    """The options of the ``random`` player."""

    seed: int = Field(0, ge=-(2**63), lt=2**63)
    playable_first: bool = False


class RandomPlayer(BasePlayer):
    """A uniformly random legal move from its own seeded generator.

    Options: ``seed``, mixed with each match's seed (two random players with different
    seeds play differently in the same match; 0, the default, takes the match's own), and
    ``playable_first``: play a random playable card whenever it has one, draw only when it
    cannot play.
    """

    name = "random"
    options_model = RandomOptions

    def __init__(self, seed: int = 0, playable_first: bool = False) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.playable_first = playable_first

    def start_match(self, seat: int, players: int, seed: int) -> None:
        self.rng = random.Random(seed if self.seed == 0 else derive_seed(seed, "random", self.seed))

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        if self.playable_first:
            plays = [m for m in legal if m.is_play]
            if plays:
                return plays[self.rng.randrange(len(plays))]
        return legal[self.rng.randrange(len(legal))]
