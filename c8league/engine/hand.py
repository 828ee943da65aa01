"""One hand of Crazy Eights (or a whole game of Countdown): the state machine.

A :class:`Hand` is dealt from a seed (:meth:`Hand.deal`), from an explicit
deal (:meth:`Hand.from_deal`, where the starter's effects apply as if the
dealer had played it), or set up at any position (:meth:`Hand.from_position`).
It then offers :meth:`Hand.legal_moves`, :meth:`Hand.observation` for a seat,
and :meth:`Hand.apply`, which raises :class:`IllegalMoveError` and changes
nothing for a move that is not legal. Every choice of chance comes from the
hand's own ``random.Random`` seeded at the start, so a :class:`HandRecord`
of the start and the moves replays the hand exactly.

This module holds the hand's state and its public interface; each step of a hand
is a module of its own, working on that state:

* :mod:`~c8league.engine.deal`: setting a hand up (deal, explicit deal, position);
* :mod:`~c8league.engine.legal`: the legal moves (one general path, one fast path);
* :mod:`~c8league.engine.play`: playing a move (effects, draws, the turn order);
* :mod:`~c8league.engine.scoring`: the end of the hand and its points.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from c8league.engine.cards import Card, Suit
from c8league.engine.deal import deal_as_given, deal_from_seed, set_position
from c8league.engine.legal import generate
from c8league.engine.moves import Move, MoveKind
from c8league.engine.observation import Observation
from c8league.engine.play import draw, legal_equal, nominate, pass_turn, play_cards
from c8league.engine.rules import COUNTDOWN_START, Rules
from c8league.engine.scoring import EndKind, HandResult, card_penalty, seat_penalties
from c8league.engine.state import NO_RANK, OVER, PLAYING, PendingKind, Phase
from c8league.errors import PositionError

__all__ = ["EndKind", "Hand", "HandResult", "PendingKind", "Phase", "card_penalty"]

# Enum members as module constants: the compiled engine reads these directly instead
# of looking the member up on its class each time.
_DRAW_KIND: Final = MoveKind.DRAW
_PASS_KIND: Final = MoveKind.PASS


class Hand:
    """The mutable state of one hand. Read it through observations; change it with moves."""

    # A hand is a hot object: slots and plain ints keep the move loop fast.
    __slots__ = (
        "_can_reshuffle",
        "_draw_rule",
        "_draw_two",
        "_equal_on_wild",
        "_fast",
        "_five",
        "_forbid_special_out",
        "_last_card",
        "_legal",
        "_moves",
        "_must_play",
        "_nominates",
        "_reverse",
        "_seats",
        "_skip",
        "_turn_cap",
        "_two_packs",
        "_wild_must_match",
        "current",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "drawn_card",
        "hand_number",
        "hands",
        "n",
        "passes",
        "pending",
        "pending_kind",
        "phase",
        "result",
        "rng",
        "rules",
        "scores",
        "start",
        "stock",
        "suit",
        "target",
        "turns",
        "version",
        "wild_ranks",
        "wild_top",
    )

    def __init__(
        self,
        rules: Rules,
        players: int,
        dealer: int,
        seed: int = 0,
        *,
        rng: random.Random | None = None,
    ) -> None:
        rules.check_table(players)
        if not 0 <= dealer < players:
            raise PositionError(f"dealer {dealer} is not a seat of a {players}-player table")
        self.rules = rules
        self.n = players
        self.dealer = dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.discard: list[Card] = []  # top of the discard pile is the end of the list
        self.current = dealer
        self.direction = 1
        self.suit: Suit | None = None
        self.wild_top = False
        self.pending = 0
        self.pending_kind: PendingKind | None = None
        self.drawn = 0
        self.drawn_card: Card | None = None
        self.passes = 0
        self.turns = 0
        self.phase = PLAYING
        self.result: HandResult | None = None
        self.rng = random.Random(seed) if rng is None else rng
        # The history as two parallel lists: appending a seat and a move allocates nothing.
        self._seats: list[int] = []
        self._moves: list[Move] = []
        self.start: dict[str, object] = {}
        self.scores: list[int] = [COUNTDOWN_START] * players if rules.countdown else [0] * players
        self.target = COUNTDOWN_START if rules.countdown else rules.target_for(players)
        self.hand_number = 0
        self.version = 0
        wild = NO_RANK if rules.wild_rank is None else int(rules.wild_rank)
        self.wild_ranks: list[int] = (
            [COUNTDOWN_START] * players if rules.countdown else [wild] * players
        )
        # The legal moves of the player to act, once listed (None: not yet).
        self._legal: list[Move] | None = None
        # The rules as the steps of a hand read them, in plain values.
        self._skip = NO_RANK if rules.skip_rank is None else int(rules.skip_rank)
        self._reverse = NO_RANK if rules.reverse_rank is None else int(rules.reverse_rank)
        self._draw_two = NO_RANK if rules.draw_two_rank is None else int(rules.draw_two_rank)
        self._five = rules.draw_five_card
        self._draw_rule = rules.draw
        self._can_reshuffle = rules.empty_stock == "reshuffle"
        self._forbid_special_out = rules.specials_on_going_out == "forbidden"
        self._last_card = rules.last_card
        self._must_play = rules.must_play_if_able
        self._turn_cap = rules.turn_cap
        self._nominates = rules.wild_nominates == "always"
        self._two_packs = rules.decks_for(players) > 1
        self._equal_on_wild = rules.equal_rank_on_wild
        self._wild_must_match = rules.wild_must_match
        # Single-card plays, wild cards that always or never nominate, going out on any
        # card: the plays come from the fast path (c8league.engine.legal).
        self._fast = not (
            rules.multiple_equal
            or rules.countdown
            or self._forbid_special_out
            or rules.wild_nominates == "if_matching"
        )

    # ------------------------------------------------------------------ set-up

    @classmethod
    def deal(
        cls,
        rules: Rules,
        players: int,
        dealer: int = 0,
        seed: int = 0,
        *,
        scores: Sequence[int] | None = None,
    ) -> Hand:
        """Shuffle with ``random.Random(seed)``, deal singly from the dealer's left, turn
        the starter and apply its effects. ``scores`` are Countdown scores to start from
        (also the hand sizes and wild ranks), or running totals to show in observations."""
        hand = cls(rules, players, dealer, seed)
        deal_from_seed(hand, seed, scores)
        return hand

    @classmethod
    def from_deal(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card] | str],
        stock: Sequence[Card] | str,
        *,
        dealer: int = 0,
        seed: int = 0,
        scores: Sequence[int] | None = None,
    ) -> Hand:
        """A hand dealt as given: ``stock`` lists the stock from its top, and its first
        card is turned as the starter. ``seed`` drives later reshuffles."""
        hand = cls(rules, len(hands), dealer, seed)
        deal_as_given(hand, hands, stock, seed, scores)
        return hand

    @classmethod
    def from_position(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Card] | str],
        *,
        discard: Sequence[Card] | str,
        stock: Sequence[Card] | str = (),
        dealer: int = 0,
        current: int | None = None,
        direction: int = 1,
        suit: Suit | str | None = None,
        wild_top: bool | None = None,
        pending: int = 0,
        pending_kind: PendingKind | None = None,
        scores: Sequence[int] | None = None,
        seed: int = 0,
    ) -> Hand:
        """Any position, set up explicitly. ``discard`` lists the pile bottom to top (its
        last card is the top card); ``stock`` lists the stock from its top. ``suit`` is the
        suit to follow (default: the top card's suit); ``wild_top`` says the top card was
        played as a wild card (default: if its rank is the wild rank of the seat before
        ``current``). No starter effect is applied."""
        hand = cls(rules, len(hands), dealer, seed)
        set_position(
            hand,
            hands,
            discard=discard,
            stock=stock,
            current=current,
            direction=direction,
            suit=suit,
            wild_top=wild_top,
            pending=pending,
            pending_kind=pending_kind,
            scores=scores,
            seed=seed,
        )
        return hand

    def copy(self, *, rng: random.Random | None = None) -> Hand:
        """An independent copy of this hand at its current position. By default the copy
        gets its own generator in the same state, so both continue identically under the
        same moves; ``rng`` gives it that generator for its reshuffles instead (cheaper,
        for copies played out many times, as in a search)."""
        if rng is None:
            rng = random.Random(0)  # a seed is cheaper than the system's entropy
            rng.setstate(self.rng.getstate())
        other = Hand(self.rules, self.n, self.dealer, rng=rng)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other.current = self.current
        other.direction = self.direction
        other.suit = self.suit
        other.wild_top = self.wild_top
        other.pending = self.pending
        other.pending_kind = self.pending_kind
        other.drawn = self.drawn
        other.drawn_card = self.drawn_card
        other.passes = self.passes
        other.turns = self.turns
        other.phase = self.phase
        other.result = self.result
        other._seats = list(self._seats)
        other._moves = list(self._moves)
        other.start = dict(self.start)
        other.scores = list(self.scores)
        other.target = self.target
        other.hand_number = self.hand_number
        other.version = self.version
        other.wild_ranks = list(self.wild_ranks)
        return other

    def __copy__(self) -> Hand:
        return self.copy()

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        state = {name: getattr(self, name) for name in _STATE}
        return (_restore, (self.rules, self.n, self.dealer, state))

    def __deepcopy__(self, memo: dict[int, object]) -> Hand:
        return self.copy()

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.phase is OVER

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def moves(self) -> list[Move]:
        """Every move made in this hand, in order."""
        return list(self._moves)

    @property
    def history(self) -> list[tuple[int, Move]]:
        """``(seat, move)`` for every move made in this hand, in order (a new list; an
        observation's ``history`` is a view that copies nothing)."""
        return list(zip(self._seats, self._moves, strict=True))

    def can_draw(self) -> bool:
        """Whether a card can be drawn: the stock, or a reshuffle of the discard pile."""
        return bool(self.stock) or (self._can_reshuffle and len(self.discard) > 1)

    def is_wild(self, card: Card, seat: int) -> bool:
        """Whether ``card`` is wild for ``seat`` (in Countdown each seat has its own rank)."""
        return card.rank_value == self.wild_ranks[seat]

    def is_special(self, card: Card, seat: int) -> bool:
        """Wild, skip, reverse, draw-two or draw-five for ``seat``."""
        rank = card.rank_value
        return (
            rank == self.wild_ranks[seat]
            or card is self._five
            or rank == self._skip
            or rank == self._reverse
            or rank == self._draw_two
        )

    def penalties(self) -> list[int]:
        """The penalty value of each seat's cards (50 for the wild rank)."""
        return seat_penalties(self)

    def card_count(self) -> int:
        return sum(len(h) for h in self.hands) + len(self.stock) + len(self.discard)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand and the public state, nothing else."""
        return Observation(self, seat)

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to act, in a fixed order (empty when over): the
        plays first, in the order of the cards in hand, then at most one draw or pass; or,
        when the dealer names the suit of a wild starter, the four nominations."""
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        return legal

    def apply(self, move: Move) -> None:
        """Play ``move`` for the player to act; raises :class:`IllegalMoveError` (and
        changes nothing) if it is not among :meth:`legal_moves`."""
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        for m in legal:
            if m is move:  # moves offered by legal_moves() are found by identity
                break
        else:
            move = legal_equal(self, move, legal)
        p = self.current
        self._legal = None
        self.version += 1
        self._seats.append(p)
        self._moves.append(move)
        if move.is_play:
            play_cards(self, p, move)
            return
        kind = move.kind
        if kind is _DRAW_KIND:
            draw(self, p)
        elif kind is _PASS_KIND:
            pass_turn(self, p)
        else:
            nominate(self, p, move)

    def play_out(self, rng: random.Random, *, plays_first: bool = False, limit: int = 0) -> int:
        """Play on with random moves until the hand is over, or for ``limit`` moves if it
        is positive; return how many moves were made. Each move is uniform over the legal
        moves or, with ``plays_first``, over the plays when there are any. The playouts of
        a search, run inside the engine (compiled, with no call out per move); the same
        ``rng`` state gives the same playout."""
        made = 0
        uniform = rng.random
        while self.result is None and (limit <= 0 or made < limit):
            legal = self.legal_moves()
            n = len(legal)
            if plays_first and n > 1 and legal[0].is_play and not legal[-1].is_play:
                n -= 1  # plays come first; the last move is the draw or pass
            self.apply(legal[int(uniform() * n)])
            made += 1
        return made


#: What a hand's position is made of, beyond its rules, table size and dealer (and the
#: settings derived from the rules): what ``Hand.copy`` copies and pickling keeps.
_STATE: Final = (
    "hands",
    "stock",
    "discard",
    "current",
    "direction",
    "suit",
    "wild_top",
    "pending",
    "pending_kind",
    "drawn",
    "drawn_card",
    "passes",
    "turns",
    "phase",
    "result",
    "rng",
    "_seats",
    "_moves",
    "start",
    "scores",
    "target",
    "hand_number",
    "version",
    "wild_ranks",
)


def _restore(rules: Rules, players: int, dealer: int, state: dict[str, object]) -> Hand:
    """A pickled hand, rebuilt."""
    hand = Hand(rules, players, dealer)
    for name, value in state.items():
        setattr(hand, name, value)
    return hand
