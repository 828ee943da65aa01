"""A match: hands at one table until a player reaches the target score.

The dealer of the first hand is seat 0 and the deal passes left each hand. Each
hand's seed is derived from the match seed and the hand's number, so a match is
fixed by its rules, table size, seed and the players' choices. In Countdown the
match is one continuous hand that ends when a player's score reaches 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from c8league.engine.hand import Hand
from c8league.engine.moves import Move
from c8league.engine.observation import Observation
from c8league.engine.record import HandRecord
from c8league.engine.rules import Rules
from c8league.engine.scoring import HandResult
from c8league.engine.seeds import derive_seed

MatchEnd: TypeAlias = Literal["target", "countdown", "hand_cap", "blocked", "turn_cap", "forfeit"]


def placements(values: Sequence[int], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Places 1..n by ``values``, ties sharing a place (1, 1, 3): competition ranking."""
    sign = -1 if higher_is_better else 1
    keys = [sign * v for v in values]
    return tuple(1 + sum(1 for other in keys if other < k) for k in keys)


@dataclass(frozen=True, slots=True)
class MatchResult:
    placements: tuple[int, ...]
    """Each seat's place: 1 is first; tied seats share a place."""
    scores: tuple[int, ...]
    """Final running totals (Countdown: final countdown scores, lower is better)."""
    hands: int
    ended: MatchEnd


class Match:
    """A match in progress. Ask :attr:`hand` or the shortcuts for the position."""

    def __init__(self, rules: Rules, players: int, seed: int = 0) -> None:
        rules.check_table(players)
        self.rules = rules
        self.players = players
        self.seed = seed
        self.target = rules.target_for(players)
        self.totals = [0] * players
        self.hand_results: list[HandResult] = []
        self.records: list[HandRecord] = []
        self.result: MatchResult | None = None
        self.hand = self._deal(0)

    def _deal(self, index: int) -> Hand:
        dealer = index % self.players
        seed = derive_seed(self.seed, "hand", index)
        scores = None if self.rules.countdown else self.totals
        hand = Hand.deal(self.rules, self.players, dealer, seed, scores=scores)
        hand.hand_number = index
        return hand

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def current(self) -> int:
        return self.hand.current

    def legal_moves(self) -> list[Move]:
        return [] if self.result is not None else self.hand.legal_moves()

    def observation(self, seat: int) -> Observation:
        return self.hand.observation(seat)

    def apply(self, move: Move) -> HandResult | None:
        """Apply the move of the player to act. Returns the hand's result when the move
        ended a hand (the next hand is then already dealt, unless the match is over)."""
        hand = self.hand
        hand.apply(move)
        if hand.result is None:
            return None
        result = hand.result
        self.hand_results.append(result)
        self.records.append(HandRecord.of(hand))
        if self.rules.countdown:
            final = result.countdown_scores or tuple(hand.scores)
            ended: MatchEnd = "countdown" if result.kind == "out" else result.kind
            self.result = MatchResult(placements(final, higher_is_better=False), final, 1, ended)
            return result
        for seat, pts in enumerate(result.points):
            self.totals[seat] += pts
        count = len(self.hand_results)
        if max(self.totals) >= self.target or count >= self.rules.hand_cap:
            self.result = MatchResult(
                placements(self.totals),
                tuple(self.totals),
                count,
                "target" if max(self.totals) >= self.target else "hand_cap",
            )
        else:
            self.hand = self._deal(count)
        return result
