"""Compact hand records: the start of a hand (a seed, or the deal) and its moves.

``HandRecord.of(hand)`` takes the record of a hand; ``record.replay(rules)`` plays
it again and gives a hand in exactly the same state. The JSON form is what
storage keeps.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from c8league.engine.cards import Suit
from c8league.engine.hand import Hand
from c8league.engine.moves import Move
from c8league.engine.rules import Rules
from c8league.errors import C8LeagueError, RecordError


@dataclass(frozen=True)
class HandRecord:
    """The start of a hand and every move made in it, in order."""

    start: dict[str, Any]
    moves: tuple[str, ...] = field(default=())

    @classmethod
    def of(cls, hand: Hand) -> HandRecord:
        return cls(dict(hand.start), tuple(str(m) for m in hand.moves))

    def to_dict(self) -> dict[str, Any]:
        return {**self.start, "moves": " ".join(self.moves)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandRecord:
        if not isinstance(data, dict) or "players" not in data:
            raise RecordError("a hand record needs at least 'players' and 'moves'")
        start = {k: v for k, v in data.items() if k != "moves"}
        moves = data.get("moves", "")
        if not isinstance(moves, str):
            raise RecordError("'moves' of a hand record must be a string")
        return cls(start, tuple(moves.split()))

    @classmethod
    def from_json(cls, text: str) -> HandRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"hand record is not JSON: {exc}") from None
        return cls.from_dict(data)

    def start_hand(self, rules: Rules) -> Hand:
        """The hand as it was before the first move."""
        s = self.start
        try:
            scores = s.get("scores")
            if "position" in s:
                pos = s["position"]
                return Hand.from_position(
                    rules,
                    pos["hands"],
                    discard=pos["discard"],
                    stock=pos["stock"],
                    dealer=pos["dealer"],
                    current=pos["current"],
                    direction=pos["direction"],
                    suit=Suit.parse(pos["suit"]) if pos.get("suit") not in (None, "None") else None,
                    wild_top=pos["wild_top"],
                    pending=pos["pending"],
                    pending_kind=pos["pending_kind"],
                    scores=scores,
                    seed=s["seed"],
                )
            if "deal" in s:
                deal = s["deal"]
                return Hand.from_deal(
                    rules,
                    deal["hands"],
                    deal["stock"],
                    dealer=s["dealer"],
                    seed=s["seed"],
                    scores=scores,
                )
            return Hand.deal(rules, s["players"], s["dealer"], s["seed"], scores=scores)
        except (KeyError, TypeError) as exc:
            raise RecordError(f"hand record start is incomplete: {exc}") from None

    def replay(self, rules: Rules, *, upto: int | None = None) -> Hand:
        """Replay the hand under ``rules`` (all moves, or the first ``upto``)."""
        hand = self.start_hand(rules)
        for i, text in enumerate(self.moves[:upto]):
            try:
                hand.apply(Move.parse(text))
            except C8LeagueError as exc:
                raise RecordError(
                    f"hand record move {i + 1} ({text}) does not replay: {exc}"
                ) from None
        return hand
