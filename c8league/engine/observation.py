"""What one seat may see: the observation handed to a player with the legal moves."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from c8league.engine.cards import Card, Rank, Suit
from c8league.engine.moves import Move

if TYPE_CHECKING:
    from c8league.engine.rules import Rules


class HistoryView(Sequence[tuple[int, Move]]):
    """A read-only view of the public history of a hand: ``(seat, move)`` for every move
    made so far. A draw shows that a seat drew, never which card."""

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[tuple[int, Move]], length: int) -> None:
        self._items = items
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> tuple[int, Move]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, Move]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, Move] | Sequence[tuple[int, Move]]:
        if isinstance(index, slice):
            return self._items[: self._length][index]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._items[index]

    def __iter__(self) -> Iterator[tuple[int, Move]]:
        items = self._items
        for i in range(self._length):
            yield items[i]

    def __repr__(self) -> str:
        return f"HistoryView({len(self)} moves)"


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a hand. It holds the seat's own cards and public facts only."""

    seat: int
    players: int
    dealer: int
    current: int
    """The seat to act."""
    phase: int
    """0: the dealer nominates a wild starter's suit; 1: play; 2: the hand is over."""
    hand: tuple[Card, ...]
    top: Card
    suit: Suit | None
    """The suit to follow (nominated after a wild card); None: any card may be played."""
    wild_top: bool
    """The top card was played as a wild card: follow ``suit`` or play your own wild card."""
    pending: int
    """Cards the player to act must draw unless they answer (draw-two / draw-five)."""
    pending_kind: str | None
    direction: int
    """1 clockwise (to the left), -1 anticlockwise."""
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_size: int
    drawn: int
    """Cards this seat has drawn in its current turn (0 when it is not this seat's turn)."""
    drawn_card: Card | None
    """With ``draw = one_then_play``: the card just drawn, the only one that may be played."""
    turn: int
    scores: tuple[int, ...]
    """Running match totals (Countdown: each seat's countdown score)."""
    wild_ranks: tuple[Rank | None, ...]
    target: int
    hand_number: int
    history: HistoryView
    rules: Rules

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat

    @property
    def wild_rank(self) -> Rank | None:
        """This seat's own wild rank."""
        return self.wild_ranks[self.seat]

    def next_seat(self, steps: int = 1) -> int:
        """The seat ``steps`` places on in the current direction of play."""
        return (self.seat + self.direction * steps) % self.players
