"""What one seat may see: the observation handed to a player with the legal moves.

An :class:`Observation` is a read-only view of one seat's knowledge, valid for the
decision it was made for: its properties are computed from the hand on demand (a
player pays only for what it reads), and reading one after the hand has moved on
raises :class:`StaleObservationError`. ``observation.snapshot()`` gives a frozen copy
(:class:`ObservationSnapshot`) to keep. Through its public interface an observation
shows the seat's own cards and public facts, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Protocol, overload

from c8league.engine import jsonform
from c8league.engine.cards import Card, Rank, Suit
from c8league.engine.frozen import reduce_by_fields
from c8league.engine.moves import Move
from c8league.engine.rules import Rules  # at run time: the compiled snapshot class needs it
from c8league.engine.state import HandState
from c8league.errors import C8LeagueError

_RANKS: tuple[Rank | None, ...] = (None, *Rank)
"""The rank of each face value (its index), None at 0: a wild rank looked up, not made."""


class StaleObservationError(C8LeagueError):
    """An observation was read after the hand moved on; keep ``snapshot()`` instead."""


class HistoryView(Sequence[tuple[int, Move]]):
    """A read-only view of the public history of a hand: ``(seat, move)`` for every move
    made so far. A draw shows that a seat drew, never which card."""

    __slots__ = ("_length", "_moves", "_seats")

    def __init__(self, seats: list[int], moves: list[Move], length: int) -> None:
        self._seats = seats
        self._moves = moves
        self._length = length

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> tuple[int, Move]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, Move]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, Move] | Sequence[tuple[int, Move]]:
        if isinstance(index, slice):
            seats, moves = self._seats, self._moves
            return [(seats[i], moves[i]) for i in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return (self._seats[index], self._moves[index])

    def since(self, start: int) -> tuple[list[int], list[Move]]:
        """The seats and the moves of the history from move ``start`` on (a copy of
        each, quicker than a slice of pairs)."""
        end = self._length
        return self._seats[start:end], self._moves[start:end]

    def __iter__(self) -> Iterator[tuple[int, Move]]:
        seats, moves = self._seats, self._moves
        for i in range(self._length):
            yield (seats[i], moves[i])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return list(self) == list(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"HistoryView({len(self)} moves)"

    def __reduce__(self) -> tuple[object, tuple[list[int], list[Move], int]]:
        n = self._length
        return (HistoryView, (self._seats[:n], self._moves[:n], n))


class _SeatFacts(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def current(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def wild_ranks(self) -> tuple[Rank | None, ...]: ...


class _Conveniences:
    """What both a live observation and a snapshot derive from the seat's facts."""

    __slots__ = ()

    @property
    def my_turn(self: _SeatFacts) -> bool:
        """Whether this seat is the one to act."""
        return self.current == self.seat

    @property
    def wild_rank(self: _SeatFacts) -> Rank | None:
        """This seat's own wild rank."""
        return self.wild_ranks[self.seat]

    def next_seat(self: _SeatFacts, steps: int = 1) -> int:
        """The seat ``steps`` places on from this seat in the current direction of play."""
        return (self.seat + self.direction * steps) % self.players


class Observation(_Conveniences):
    """One seat's view of a hand at one decision (see the module docstring)."""

    __slots__ = ("_hand", "_seat", "_version")

    def __init__(self, hand: HandState, seat: int) -> None:
        self._hand = hand
        self._version = hand.version
        self._seat = seat

    @property
    def seat(self) -> int:
        """This player's seat (0 deals the match's first hand)."""
        return self._seat

    def _h(self) -> HandState:
        hand = self._hand
        if hand.version != self._version:
            raise StaleObservationError(
                "this observation is out of date: the hand has moved on (use snapshot())"
            )
        return hand

    @property
    def players(self) -> int:
        """How many players sit at the table."""
        return self._hand.n

    @property
    def dealer(self) -> int:
        """The seat that dealt this hand."""
        return self._hand.dealer

    @property
    def rules(self) -> Rules:
        """The rule set of the match (every house rule)."""
        return self._hand.rules

    @property
    def current(self) -> int:
        """The seat to act."""
        return self._h().current

    @property
    def phase(self) -> int:
        """0: the dealer nominates a wild starter's suit; 1: play; 2: the hand is over."""
        return int(self._h().phase)

    @property
    def hand(self) -> tuple[Card, ...]:
        """This seat's own cards, in the order received."""
        return tuple(self._h().hands[self.seat])

    @property
    def top(self) -> Card:
        """The top card of the discard pile."""
        return self._h().discard[-1]

    @property
    def suit(self) -> Suit | None:
        """The suit to follow (nominated after a wild card); None: any card may be played."""
        return self._h().suit

    @property
    def wild_top(self) -> bool:
        """The top card was played as a wild card: follow ``suit`` or play your own wild."""
        return self._h().wild_top

    @property
    def pending(self) -> int:
        """Cards the seat to act must draw unless it answers (draw-two / draw-five)."""
        return self._h().pending

    @property
    def pending_kind(self) -> str | None:
        """What the pending draw is: ``two`` or ``five`` (None without one)."""
        return self._h().pending_kind

    @property
    def direction(self) -> int:
        """1 clockwise (to the left), -1 anticlockwise."""
        return self._h().direction

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds, by seat."""
        return tuple([len(h) for h in self._h().hands])

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self._h().stock)

    @property
    def discard_size(self) -> int:
        """Cards in the discard pile."""
        return len(self._h().discard)

    @property
    def drawn(self) -> int:
        """Cards this seat has drawn in its current turn (0 when it is not its turn)."""
        hand = self._h()
        return hand.drawn if hand.current == self.seat else 0

    @property
    def drawn_card(self) -> Card | None:
        """With ``draw = one_then_play``: the card just drawn, the only one that may be played."""
        hand = self._h()
        return hand.drawn_card if hand.current == self.seat else None

    @property
    def turn(self) -> int:
        """Turns played in this hand so far."""
        return self._h().turns

    @property
    def scores(self) -> tuple[int, ...]:
        """Running match totals (Countdown: each seat's countdown score)."""
        return tuple(self._h().scores)

    @property
    def wild_ranks(self) -> tuple[Rank | None, ...]:
        """Each seat's wild rank (in Countdown it is the seat's score; None: no wild card)."""
        ranks = _RANKS
        return tuple(
            [None if w < 1 else ranks[w] if w < 14 else Rank(w) for w in self._h().wild_ranks]
        )

    @property
    def target(self) -> int:
        """The score that wins the match (Countdown: the starting score, 8; reaching 0 wins)."""
        return self._hand.target

    @property
    def hand_number(self) -> int:
        """The hand's number in the match, from 0."""
        return self._hand.hand_number

    @property
    def history(self) -> HistoryView:
        """Every move of the hand so far, as ``(seat, move)``; a draw shows no card."""
        hand = self._h()
        return HistoryView(hand.history_seats, hand.history_moves, len(hand.history_moves))

    def snapshot(self) -> ObservationSnapshot:
        """A frozen copy of everything this observation shows."""
        values = {f.name: getattr(self, f.name) for f in fields(ObservationSnapshot)}
        values["history"] = tuple(values["history"])
        return ObservationSnapshot(**values)

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """The observation's JSON form, as bots receive it: see
        :meth:`ObservationSnapshot.to_dict`."""
        return _json_form(self, history)

    def history_json(self, start: int = 0) -> list[list[int | str]]:
        """The JSON form of the history from move ``start`` on: see
        :meth:`ObservationSnapshot.history_json`."""
        return _history_json(self.history, start)

    def __repr__(self) -> str:
        return f"Observation(seat={self.seat}, hand={' '.join(map(str, self.hand))})"


def observed_state(obs: Observation) -> HandState:
    """The position behind a live ``obs``, checked fresh (``StaleObservationError``):
    for the engine's own writer of a seat's view (``engine.wire``), which reads it field
    by field on the hot path of every bot over pipes. It holds every seat's cards: never
    hand it to a player."""
    return obs._h()


@dataclass(frozen=True, slots=True)
class ObservationSnapshot(_Conveniences):
    """A frozen copy of an :class:`Observation`, safe to keep after the hand moves on."""

    seat: int
    players: int
    dealer: int
    current: int
    phase: int
    hand: tuple[Card, ...]
    top: Card
    suit: Suit | None
    wild_top: bool
    pending: int
    pending_kind: str | None
    direction: int
    hand_sizes: tuple[int, ...]
    stock_size: int
    discard_size: int
    drawn: int
    drawn_card: Card | None
    turn: int
    scores: tuple[int, ...]
    wild_ranks: tuple[Rank | None, ...]
    target: int
    hand_number: int
    history: tuple[tuple[int, Move], ...]
    rules: Rules

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return reduce_by_fields(self)

    def snapshot(self) -> ObservationSnapshot:
        """This snapshot itself, already frozen (as :meth:`Observation.snapshot` keeps a
        live one)."""
        return self

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        rules: Rules,
        history: Sequence[tuple[int, Move]] | None = None,
    ) -> ObservationSnapshot:
        """The observation whose JSON form is ``data`` (the inverse of :meth:`to_dict`:
        what a bot receives), under ``rules`` (a bot is told them in its ``hello``:
        ``Rules.from_options("pagat", hello["rules"])``). ``history``, if given, is the
        hand's history already read, in place of ``data["history"]`` (for a reader that
        keeps it from message to message). Raises :class:`~c8league.errors.WireError`
        naming a field that does not read."""
        what = "an observation"
        if history is None:
            history = jsonform.moves(data, "history", what)
        return cls(
            seat=jsonform.whole(data, "seat", what),
            players=jsonform.whole(data, "players", what),
            dealer=jsonform.whole(data, "dealer", what),
            current=jsonform.whole(data, "current", what),
            phase=jsonform.whole(data, "phase", what),
            hand=jsonform.cards(data, "hand", what),
            top=jsonform.card(data, "top", what),
            suit=jsonform.suit_or_none(data, "suit", what),
            wild_top=jsonform.flag(data, "wild_top", what),
            pending=jsonform.whole(data, "pending", what),
            pending_kind=jsonform.text_or_none(data, "pending_kind", what),
            direction=jsonform.whole(data, "direction", what),
            hand_sizes=jsonform.wholes(data, "hand_sizes", what),
            stock_size=jsonform.whole(data, "stock_size", what),
            discard_size=jsonform.whole(data, "discard_size", what),
            drawn=jsonform.whole(data, "drawn", what),
            drawn_card=jsonform.card_or_none(data, "drawn_card", what),
            turn=jsonform.whole(data, "turn", what),
            scores=jsonform.wholes(data, "scores", what),
            wild_ranks=jsonform.ranks_or_none(data, "wild_ranks", what),
            target=jsonform.whole(data, "target", what),
            hand_number=jsonform.whole(data, "hand_number", what),
            history=tuple(history),
            rules=rules,
        )

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """The observation's JSON form, as bots receive it (``docs/protocol.md``): plain
        values, with cards, suits, ranks and moves as text, ``history`` last. Without
        ``history``, every field but that one, for a writer that sends the history its
        own way (with :meth:`history_json`)."""
        return _json_form(self, history)

    def history_json(self, start: int = 0) -> list[list[int | str]]:
        """The JSON form of the history from move ``start`` on: ``[seat, move text]`` for
        each move, as in :meth:`to_dict`."""
        return _history_json(self.history, start)


def _json_form(obs: Observation | ObservationSnapshot, history: bool) -> dict[str, Any]:
    """The one JSON form of an observation, live or kept."""
    suit = obs.suit
    drawn_card = obs.drawn_card
    form: dict[str, Any] = {
        "seat": obs.seat,
        "players": obs.players,
        "dealer": obs.dealer,
        "current": obs.current,
        "phase": obs.phase,
        "hand": [str(c) for c in obs.hand],
        "top": str(obs.top),
        "suit": None if suit is None else str(suit),
        "wild_top": obs.wild_top,
        "pending": obs.pending,
        "pending_kind": obs.pending_kind,
        "direction": obs.direction,
        "hand_sizes": list(obs.hand_sizes),
        "stock_size": obs.stock_size,
        "discard_size": obs.discard_size,
        "drawn": obs.drawn,
        "drawn_card": None if drawn_card is None else str(drawn_card),
        "turn": obs.turn,
        "scores": list(obs.scores),
        "wild_ranks": [None if r is None else r.label for r in obs.wild_ranks],
        "target": obs.target,
        "hand_number": obs.hand_number,
    }
    if history:
        form["history"] = _history_json(obs.history, 0)
    return form


def _history_json(history: Sequence[tuple[int, Move]], start: int) -> list[list[int | str]]:
    return [[seat, str(move)] for seat, move in history[start:]]
