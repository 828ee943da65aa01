"""A match: hands at one table until a player reaches the target score.

The dealer of the first hand is seat 0 and the deal passes left each hand. Each
hand's seed is derived from the match seed and the hand's number, so a match is
fixed by its rules, table size, seed and the players' choices. In Countdown the
match is one continuous hand that ends when a player's score reaches 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from c8league.engine import jsonform
from c8league.engine.hand import Hand
from c8league.engine.moves import Move
from c8league.engine.observation import Observation
from c8league.engine.record import HandRecord
from c8league.engine.rules import Rules
from c8league.engine.scoring import HandResult
from c8league.engine.seeds import derive_seed
from c8league.errors import C8LeagueError, RecordError, WireError

HandStart: TypeAlias = Callable[[Hand], None]
MoveMade: TypeAlias = Callable[[Hand, Move], None]
MatchEnd: TypeAlias = Literal["target", "countdown", "hand_cap", "blocked", "turn_cap", "forfeit"]


def placements(values: Sequence[int], *, higher_is_better: bool = True) -> tuple[int, ...]:
    """Places 1..n by ``values``, ties sharing a place (1, 1, 3): competition ranking."""
    sign = -1 if higher_is_better else 1
    keys = [sign * v for v in values]
    return tuple(1 + sum(1 for other in keys if other < k) for k in keys)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended: each seat's place and final score."""

    placements: tuple[int, ...]
    """Each seat's place: 1 is first; tied seats share a place."""
    scores: tuple[int, ...]
    """Final running totals (Countdown: final countdown scores, lower is better)."""
    hands: int
    """How many hands were played."""
    ended: MatchEnd
    """``target`` (a seat reached the target), ``countdown`` (a seat reached 0),
    ``hand_cap``, ``blocked``, ``turn_cap`` or ``forfeit``."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchResult:
        """The result whose JSON form is ``data``: the ``result`` of the bot protocol's
        ``match_end`` (``docs/protocol.md``). Raises :class:`~c8league.errors.WireError`
        naming a field that does not read."""
        what = "a match's result"
        text = data.get("ended")
        ended = _MATCH_ENDS.get(text) if isinstance(text, str) else None
        if ended is None:
            raise WireError(f"{what}'s 'ended' must be one of {', '.join(_MATCH_ENDS)}", "ended")
        return cls(
            placements=jsonform.wholes(data, "placements", what),
            scores=jsonform.wholes(data, "scores", what),
            hands=jsonform.whole(data, "hands", what),
            ended=ended,
        )


_MATCH_ENDS: Final[dict[str, MatchEnd]] = {
    "target": "target",
    "countdown": "countdown",
    "hand_cap": "hand_cap",
    "blocked": "blocked",
    "turn_cap": "turn_cap",
    "forfeit": "forfeit",
}
"""Each way a match ends, by its text."""


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


@dataclass(frozen=True)
class MatchRecord:
    """A whole match as the engine replays it: the table size, the match seed and every
    move, hand by hand. Each hand's deal follows from the seed, as :class:`Match` deals
    it, so the moves are all a record needs to keep. The last hand may be unfinished:
    the match stopped there (a player forfeited).

    ``to_text`` is the compact form storage keeps (one line of moves per hand);
    ``replay(rules)`` plays the match again and raises :class:`RecordError` where a move
    does not fit; ``hand_records(rules)`` gives each hand's :class:`HandRecord` (its
    start and moves), the form that replays one hand on its own.
    """

    players: int
    seed: int
    hands: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, match: Match) -> MatchRecord:
        """The record of ``match`` so far, its current hand included if unfinished."""
        hands = [record.moves for record in match.records]
        if match.result is None:
            hands.append(tuple(str(move) for move in match.hand.moves))
        return cls(match.players, match.seed, tuple(hands))

    @classmethod
    def from_hands(
        cls,
        players: int,
        seed: int,
        hands: Sequence[HandRecord],
        unfinished: HandRecord | None = None,
    ) -> MatchRecord:
        """The record of a match's finished ``hands`` and the hand it stopped in, if any."""
        moves = [hand.moves for hand in hands]
        if unfinished is not None:
            moves.append(unfinished.moves)
        return cls(players, seed, tuple(moves))

    def to_text(self) -> str:
        """The moves, one line per hand, separated by spaces: ``QS 8H:S draw\\n5C …``."""
        return "\n".join(" ".join(moves) for moves in self.hands)

    @classmethod
    def from_text(cls, players: int, seed: int, text: str) -> MatchRecord:
        return cls(players, seed, tuple(tuple(line.split()) for line in text.split("\n")))

    @property
    def moves(self) -> int:
        return sum(len(moves) for moves in self.hands)

    def replay(
        self,
        rules: Rules,
        *,
        on_hand: HandStart | None = None,
        on_move: MoveMade | None = None,
    ) -> Match:
        """Play the match again under ``rules``. ``on_hand(hand)`` is told each hand before
        its first move, ``on_move(hand, move)`` each move after it is applied (``hand`` is
        the hand the move was made in, which stays in its final state once the match has
        dealt the next). Raises :class:`RecordError` for a move that is not legal where it
        stands, a move after the end of its hand, or a hand after the end of the match."""
        match = Match(rules, self.players, self.seed)
        for index, moves in enumerate(self.hands):
            if match.result is not None:
                raise RecordError(f"the record has hand {index + 1} after the end of the match")
            if len(match.hand_results) != index:
                raise RecordError(f"hand {index} of the record ends before its last move")
            hand = match.hand
            if on_hand is not None:
                on_hand(hand)
            for number, text in enumerate(moves, start=1):
                if hand.result is not None:
                    raise RecordError(f"hand {index + 1} has moves after its end")
                try:
                    move = Move.parse(text)
                    match.apply(move)
                except C8LeagueError as exc:
                    raise RecordError(
                        f"hand {index + 1} move {number} ({text}) does not replay: {exc}"
                    ) from None
                if on_move is not None:
                    on_move(hand, move)
        return match

    def hand_records(self, rules: Rules) -> list[HandRecord]:
        """Each hand's record (its start and moves), the form that replays one hand on its
        own (:meth:`HandRecord.replay`)."""
        starts: list[dict[str, object]] = []
        self.replay(rules, on_hand=lambda hand: starts.append(dict(hand.start)))
        return [HandRecord(start, moves) for start, moves in zip(starts, self.hands, strict=True)]
