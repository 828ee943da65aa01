"""What one seat knows at a decision, and deals of the unseen cards consistent with it.

The discard pile is public: it is a suffix of the starter followed by every card played
in the hand, because a reshuffle keeps only the top card. So the unseen cards are the
pack(s) less the seat's own hand and the discard pile; a deal shares them out among
the other hands (with their known sizes) and the stock. With inference on, a player
who drew at the start of a turn, not facing a pending draw, is taken to have held no
card it could play then; the cards it still holds from that moment are dealt from the
cards that would not have been playable.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, cast

from c8league.engine import ALL_CARDS, Card, Hand, Move, MoveKind, Observation, Phase
from c8league.engine.hand import PendingKind

_RANK: Final = tuple(int(card.rank) for card in ALL_CARDS)
_SUIT: Final = tuple(int(card.suit) for card in ALL_CARDS)


@dataclass(frozen=True, slots=True)
class Void:
    """A seat drew (or passed) at the start of a turn when it had to follow ``suit`` on a
    card of rank ``rank`` (-1: a wild card, where rank does not match): ``held`` of its
    current cards were in its hand then, none of them of that suit or rank or of the
    seat's wild rank ``wild``."""

    suit: int
    rank: int
    wild: int
    held: int

    def allows(self, card: Card) -> bool:
        index = card.index
        rank = _RANK[index]
        return _SUIT[index] != self.suit and rank != self.rank and rank != self.wild


@dataclass(frozen=True, slots=True)
class Deal:
    """Every hidden card placed: the hands (the searching seat's own included), the
    stock from its top, and the discard pile from its bottom."""

    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    seed: int


class HandTracker:
    """Follows the public history of one hand: the cards played in order and, for each
    seat, the turns it started by drawing or passing since it last played."""

    __slots__ = (
        "_draw_five",
        "_draw_two",
        "_events",
        "_last",
        "_pending",
        "_seen",
        "_suit",
        "_top",
        "_until_playable",
        "_wild_must_match",
        "_wild_top",
        "hand_number",
        "played",
        "starter",
    )

    def __init__(self, observation: Observation, starter: Card | None) -> None:
        rules = observation.rules
        self.hand_number = observation.hand_number
        self.starter = starter
        self.played: list[Card] = []
        self._seen = 0
        self._last: tuple[int, MoveKind] | None = None
        self._draw_two = -1 if rules.draw_two_rank is None else int(rules.draw_two_rank)
        five = rules.draw_five_card
        self._draw_five = -1 if five is None else five.index
        self._until_playable = rules.draw == "until_playable"
        self._wild_must_match = rules.wild_must_match
        # seat -> events, oldest first: [suit, rank, wild rank, cards received since]
        self._events: dict[int, list[list[int]]] = {}
        # The card to follow: top card index, suit (-1: any card), played as wild, pending.
        self._top = -1
        self._suit = -1
        self._wild_top = False
        self._pending = 0
        if starter is not None:
            dealer = observation.dealer
            wild = observation.wild_ranks[dealer]
            self._top = starter.index
            self._wild_top = wild is not None and starter.rank == wild
            self._suit = int(starter.suit)
            if self._wild_top and rules.starter_eight == "any_card":
                self._suit = -1
            self._pending = self._penalty((starter,))

    def _penalty(self, cards: Sequence[Card]) -> int:
        total = 0
        for card in cards:
            if card.index == self._draw_five:
                total += 5
            elif _RANK[card.index] == self._draw_two:
                total += 2
        return total

    def update(self, observation: Observation) -> None:
        """Read the moves made since the last update."""
        history = observation.history
        if len(history) == self._seen:
            return
        wild_ranks = [-1 if w is None else int(w) for w in observation.wild_ranks]
        for seat, move in history[self._seen :]:
            self._see(seat, move, wild_ranks[seat])
        self._seen = len(history)

    def _see(self, seat: int, move: Move, wild: int) -> None:
        kind = move.kind
        starts_turn = self._last != (seat, MoveKind.DRAW)
        self._last = (seat, kind)
        if kind is MoveKind.PLAY:
            cards = move.cards
            self.played.extend(cards)
            self._events.pop(seat, None)
            last = cards[-1]
            self._top = last.index
            self._wild_top = move.suit is not None or _RANK[last.index] == wild
            self._suit = int(last.suit if move.suit is None else move.suit)
            self._pending += self._penalty(cards)
            return
        if kind is MoveKind.NOMINATE:
            self._suit = int(move.suit) if move.suit is not None else self._suit
            self._wild_top = True
            return
        events = self._events.setdefault(seat, [])
        if starts_turn and self._top >= 0 and self._suit >= 0 and not self._pending:
            rank = -1 if self._wild_top else _RANK[self._top]
            # A wild card that must match could have been held without being playable.
            events.append([self._suit, rank, -1 if self._wild_must_match else wild, 0])
        if kind is MoveKind.DRAW:
            if self._pending:
                received = self._pending
                self._pending = 0
            else:
                # Drawing until playable takes an unknown number of cards.
                received = 1_000 if self._until_playable else 1
            for event in events:
                event[3] += received

    def voids(self, sizes: Sequence[int], seat: int) -> dict[int, list[Void]]:
        """For each other seat, what its drawing says about its current cards."""
        found: dict[int, list[Void]] = {}
        for other, events in self._events.items():
            if other == seat:
                continue
            voids = [
                Void(suit, rank, wild, sizes[other] - received)
                for suit, rank, wild, received in events
                if sizes[other] - received > 0
            ]
            if voids:
                found[other] = voids
        return found


def candidates(legal: Sequence[Move], hand_size: int, wild_rank: int) -> list[Move]:
    """The moves worth searching. A play without the "last card" announcement is dropped
    when the same play with it is legal (not announcing only costs two cards). Drawing
    or passing is dropped while a card can be played, and a wild card while a card of
    another rank can (unless it empties the hand): measured against the true deals,
    the search's preference for those moves was more often wrong than right."""
    announced = {(m.cards, m.suit) for m in legal if m.announce}
    moves = [m for m in legal if m.announce or (m.cards, m.suit) not in announced]
    plays = [m for m in moves if m.is_play]
    if not plays:
        return moves
    plain = [m for m in plays if int(m.cards[-1].rank) != wild_rank]
    if not plain:
        return plays
    return [m for m in plays if int(m.cards[-1].rank) != wild_rank or len(m.cards) == hand_size]


def trailing_passes(history: Sequence[tuple[int, Move]]) -> int:
    """How many players in a row have passed without drawing, from the public history."""
    count = 0
    for i in range(len(history) - 1, -1, -1):
        seat, move = history[i]
        if move.kind is not MoveKind.PASS:
            break
        if i > 0:
            before_seat, before = history[i - 1]
            if before_seat == seat and before.kind is MoveKind.DRAW:
                break  # a pass after drawing does not count; the draw reset the count
        count += 1
    return count


class Knowledge:
    """The searching seat's knowledge at one decision, able to sample deals and to set
    up each sampled deal as an engine position."""

    __slots__ = (
        "_bottom",
        "_discard",
        "_obs",
        "_own",
        "_passes",
        "_pending_kind",
        "_pool",
        "_sizes",
        "_stock_size",
        "_voids",
        "seat",
    )

    def __init__(
        self,
        observation: Observation,
        played: Sequence[Card],
        starter: Card | None,
        voids: dict[int, list[Void]] | None = None,
    ) -> None:
        obs = observation
        self._obs = obs
        self.seat = obs.seat
        self._own = list(obs.hand)
        self._sizes = list(obs.hand_sizes)
        self._stock_size = obs.stock_size
        self._passes = trailing_passes(obs.history)
        self._pending_kind = cast(PendingKind | None, obs.pending_kind)
        self._voids = voids or {}
        decks = obs.rules.decks_for(obs.players)
        top = obs.top
        size = obs.discard_size
        sequence = list(played)
        if starter is None and not sequence:
            starter = top
        if starter is not None:
            sequence.insert(0, starter)
        self._discard = sequence[-size:]
        self._bottom = size - len(self._discard)  # 0, or 1 when the starter is not known
        pool = _rest(decks, self._own, self._discard)
        others = sum(self._sizes) - len(self._own)
        if (
            pool is None
            or not self._discard
            or self._discard[-1] != top
            or self._bottom > 1
            or len(pool) != others + self._stock_size + self._bottom
        ):
            # The history does not explain the pile (it cannot happen with the engine's
            # own matches): know only the top card, and deal the rest of the pile too.
            self._discard = [top]
            self._bottom = size - 1
            pool = _rest(decks, self._own, [top]) or []
            self._stock_size = max(0, len(pool) - others - self._bottom)
        self._pool = pool

    @property
    def discard(self) -> list[Card]:
        """The known part of the discard pile, from its bottom (the top card last)."""
        return list(self._discard)

    @property
    def unseen(self) -> list[Card]:
        """The cards this seat cannot see (other hands, stock, buried discard cards)."""
        return list(self._pool)

    def sample(self, rng: random.Random) -> Deal:
        """A deal of the unseen cards consistent with what the seat knows."""
        pool = list(self._pool)
        rng.shuffle(pool)
        hands: list[list[Card]] = []
        voids = self._voids
        for seat, size in enumerate(self._sizes):
            if seat == self.seat:
                hands.append(list(self._own))
                continue
            chosen: list[Card] = []
            layers = voids.get(seat)
            if layers:
                pool = _take_allowed(pool, chosen, layers, size)
            free = size - len(chosen)
            if free > 0:
                chosen.extend(pool[-free:])
                del pool[len(pool) - free :]
            hands.append(chosen)
        discard = [pool.pop() for _ in range(self._bottom)] + self._discard
        return Deal(hands, pool, discard, rng.getrandbits(32))

    def position(self, deal: Deal) -> Hand:
        """The engine position of ``deal``, in the state of the observed decision."""
        obs = self._obs
        rules = obs.rules
        hand = Hand.from_position(
            rules,
            deal.hands,
            discard=deal.discard,
            stock=deal.stock,
            dealer=obs.dealer,
            current=obs.current,
            direction=obs.direction,
            wild_top=obs.wild_top,
            pending=obs.pending,
            pending_kind=self._pending_kind,
            scores=obs.scores,
            seed=deal.seed,
        )
        # The state of the turn, which a position set-up does not take.
        hand.suit = obs.suit
        hand.turns = obs.turn
        hand.drawn = obs.drawn
        hand.drawn_card = obs.drawn_card
        hand.passes = self._passes
        if obs.phase == Phase.NOMINATE:
            hand.phase = Phase.NOMINATE
            hand.current = obs.dealer
        return hand


def _take_allowed(pool: list[Card], chosen: list[Card], voids: list[Void], size: int) -> list[Card]:
    """Move cards from the (shuffled) ``pool`` to ``chosen``: for each void, oldest first,
    the cards held since then must fit it and every later one. Returns the pool left."""
    before = 0
    for j, void in enumerate(voids):
        held = min(void.held, size)
        want = held - before
        if want <= 0:
            continue
        before = held
        later = voids[j:]
        rest: list[Card] = []
        for i in range(len(pool) - 1, -1, -1):
            card = pool[i]
            if want and all(v.allows(card) for v in later):
                chosen.append(card)
                want -= 1
            else:
                rest.append(card)
        rest.reverse()
        pool = rest
    return pool


def _rest(decks: int, *taken: Sequence[Card]) -> list[Card] | None:
    """The pack(s) less one copy of each card of ``taken`` (None if one is missing)."""
    cards = list(ALL_CARDS) * decks
    for group in taken:
        for card in group:
            try:
                cards.remove(card)
            except ValueError:
                return None
    return cards
