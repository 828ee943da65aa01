"""One hand of Crazy Eights (or a whole game of Countdown): the state machine.

A :class:`Hand` is dealt from a seed (:meth:`Hand.deal`), from an explicit
deal (:meth:`Hand.from_deal`, where the starter's effects apply as if the
dealer had played it), or set up at any position (:meth:`Hand.from_position`).
It then offers :meth:`Hand.legal_moves`, :meth:`Hand.observation` for a seat,
and :meth:`Hand.apply`, which raises :class:`IllegalMoveError` and changes
nothing for a move that is not legal. Every choice of chance comes from the
hand's own ``random.Random`` seeded at the start, so a :class:`HandRecord`
of the start and the moves replays the hand exactly.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import product
from typing import Final, Literal, TypeAlias

from c8league.engine.cards import Card, Suit, pack, parse_cards
from c8league.engine.frozen import reduce_by_fields
from c8league.engine.moves import (
    DRAW,
    NOMINATE,
    NOMINATION_CALLS,
    NOMINATIONS,
    PASS,
    PLAIN,
    PLAIN_CALLS,
    Move,
    MoveKind,
    single,
)
from c8league.engine.observation import Observation
from c8league.engine.rules import COUNTDOWN_START, Rules
from c8league.engine.seeds import shuffle
from c8league.errors import IllegalMoveError, PositionError

EndKind: TypeAlias = Literal["out", "blocked", "turn_cap"]
PendingKind: TypeAlias = Literal["two", "five"]

_NO_RANK: Final = -1
_ALL_SUITS: Final = tuple(Suit)
_SUITS_OR_NONE: Final[tuple[Suit | None, ...]] = (None,)
_ANNOUNCE_BOTH: Final = (False, True)
_ANNOUNCE_NO: Final = (False,)


class Phase(IntEnum):
    NOMINATE = 0
    """The dealer nominates the suit for a wild starter."""
    PLAY = 1
    OVER = 2


# Enum members as module constants: the compiled engine reads these directly instead
# of looking the member up on its class each time.
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER
_DRAW_KIND: Final = MoveKind.DRAW
_PASS_KIND: Final = MoveKind.PASS


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each seat scored in it."""

    kind: EndKind
    """``out`` (a player emptied the hand, or reached 0 in Countdown), ``blocked``
    (everyone passed), or ``turn_cap`` (scored as blocked)."""
    winners: tuple[int, ...]
    penalties: tuple[int, ...]
    """The penalty value of the cards left in each seat's hand."""
    points: tuple[int, ...]
    """Points each seat scored in this hand (all zero in Countdown)."""
    turns: int
    countdown_scores: tuple[int, ...] | None = None
    """Countdown only: each seat's score when play stopped (lower is better)."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return reduce_by_fields(self)


def card_penalty(card: Card, wild_rank: int) -> int:
    """50 for the wild rank, 10 for J Q K, face value for the rest (A = 1)."""
    return 50 if card.rank_value == wild_rank else card.rank.penalty


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
        "_simple",
        "_skip",
        "_turn_cap",
        "_two_packs",
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
        self.phase = _PLAY
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
        wild = _NO_RANK if rules.wild_rank is None else int(rules.wild_rank)
        self.wild_ranks: list[int] = (
            [COUNTDOWN_START] * players if rules.countdown else [wild] * players
        )
        self._legal: list[Move] | None = None
        self._skip = _NO_RANK if rules.skip_rank is None else int(rules.skip_rank)
        self._reverse = _NO_RANK if rules.reverse_rank is None else int(rules.reverse_rank)
        self._draw_two = _NO_RANK if rules.draw_two_rank is None else int(rules.draw_two_rank)
        self._five = rules.draw_five_card
        self._draw_rule = rules.draw
        self._can_reshuffle = rules.empty_stock == "reshuffle"
        self._forbid_special_out = rules.specials_on_going_out == "forbidden"
        self._last_card = rules.last_card
        self._must_play = rules.must_play_if_able
        self._turn_cap = rules.turn_cap
        self._nominates = rules.wild_nominates == "always"
        self._two_packs = rules.decks_for(players) > 1
        # Single-card plays with always-nominating wilds: moves come from ready-made tables.
        self._simple = not (
            rules.multiple_equal
            or rules.countdown
            or self._forbid_special_out
            or rules.wild_nominates == "if_matching"
        )
        self._fast = self._simple and not rules.wild_must_match
        self._equal_on_wild = rules.equal_rank_on_wild

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
        deck = pack(rules.decks_for(players))
        shuffle(hand.rng, deck)
        hand._set_scores(scores)
        sizes = hand._deal_sizes()
        # Dealt singly, one card at a time round the table, starting left of the dealer.
        for i in range(max(sizes)):
            for k in range(1, players + 1):
                seat = (dealer + k) % players
                if i < sizes[seat]:
                    hand.hands[seat].append(deck.pop())
        hand.stock = deck
        hand._turn_starter()
        hand.start = {"players": players, "dealer": dealer, "seed": seed}
        if scores is not None:
            hand.start["scores"] = list(scores)
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
        players = len(hands)
        hand = cls(rules, players, dealer, seed)
        hand._set_scores(scores)
        hand.hands = [_cards(h) for h in hands]
        hand.stock = list(reversed(_cards(stock)))
        hand._check_cards()
        hand._turn_starter()
        hand.start = {
            "players": players,
            "dealer": dealer,
            "seed": seed,
            "deal": {"hands": [_text(h) for h in hands], "stock": _text(stock)},
        }
        if scores is not None:
            hand.start["scores"] = list(scores)
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
        players = len(hands)
        hand = cls(rules, players, dealer, seed)
        hand._set_scores(scores)
        hand.hands = [_cards(h) for h in hands]
        hand.stock = list(reversed(_cards(stock)))
        hand.discard = _cards(discard)
        if not hand.discard:
            raise PositionError("the discard pile needs at least its top card")
        if direction not in (1, -1):
            raise PositionError(f"direction must be 1 (clockwise) or -1, not {direction}")
        hand.direction = direction
        hand.current = (dealer + direction) % players if current is None else current
        if not 0 <= hand.current < players:
            raise PositionError(f"current player {hand.current} is not a seat")
        top = hand.discard[-1]
        if suit is None:
            hand.suit = top.suit
        else:
            hand.suit = Suit.parse(suit) if isinstance(suit, str) else Suit(suit)
        if wild_top is None:
            previous = (hand.current - direction) % players
            wild_top = top.rank_value == hand.wild_ranks[previous]
        hand.wild_top = wild_top
        if pending < 0:
            raise PositionError(f"pending draw {pending} is negative")
        if pending and pending_kind is None:
            pending_kind = "five" if top == rules.draw_five_card else "two"
        hand.pending = pending
        hand.pending_kind = pending_kind if pending else None
        hand._check_cards()
        hand.start = {
            "players": players,
            "seed": seed,
            "position": {
                "hands": [_text(h) for h in hands],
                "discard": _text(discard),
                "stock": _text(stock),
                "dealer": dealer,
                "current": hand.current,
                "direction": direction,
                "suit": str(hand.suit),
                "wild_top": wild_top,
                "pending": pending,
                "pending_kind": hand.pending_kind,
            },
        }
        if scores is not None:
            hand.start["scores"] = list(scores)
        return hand

    def _set_scores(self, scores: Sequence[int] | None) -> None:
        if scores is None:
            return
        if len(scores) != self.n:
            raise PositionError(f"{len(scores)} scores given for {self.n} players")
        self.scores = list(scores)
        if self.rules.countdown:
            if any(not 1 <= s <= COUNTDOWN_START for s in scores):
                raise PositionError(f"Countdown scores must be 1..{COUNTDOWN_START}: {scores}")
            self.wild_ranks = list(scores)

    def _deal_sizes(self) -> list[int]:
        if self.rules.countdown and self.rules.hand_size is None:
            return list(self.scores)
        return [self.rules.hand_size_for(self.n)] * self.n

    def _check_cards(self) -> None:
        decks = self.rules.decks_for(self.n)
        counts = Counter(c for h in self.hands for c in h)
        counts.update(self.stock)
        counts.update(self.discard)
        too_many = sorted(str(c) for c, k in counts.items() if k > decks)
        if too_many:
            raise PositionError(
                f"card(s) {' '.join(too_many)} appear more than {decks} time(s) "
                f"with {decks} pack(s)"
            )

    def _turn_starter(self) -> None:
        """Turn the starter: it acts as if the dealer had played it."""
        if not self.stock:
            raise PositionError("no card left in the stock to turn as the starter")
        starter = self.stock.pop()
        self.discard.append(starter)
        dealer = self.dealer
        self.suit = starter.suit
        self.wild_top = starter.rank_value == self.wild_ranks[dealer]
        skips = self._effects((starter,))
        if self.wild_top:
            if self.rules.starter_eight == "any_card":
                self.suit = None
            elif self.rules.wild_nominates != "never":
                self.phase = Phase.NOMINATE
                self.current = dealer
                return
        self._begin_turn((dealer + self.direction * (1 + skips)) % self.n)

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
        return self.phase is _OVER

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
        wild = self.wild_ranks
        return [sum(card_penalty(c, wild[i]) for c in h) for i, h in enumerate(self.hands)]

    def card_count(self) -> int:
        return sum(len(h) for h in self.hands) + len(self.stock) + len(self.discard)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand and the public state, nothing else."""
        return Observation(self, seat)

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

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to act, in a fixed order (empty when over): the
        plays first, in the order of the cards in hand, then at most one draw or pass; or,
        when the dealer names the suit of a wild starter, the four nominations."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[Move]:
        phase = self.phase
        if phase is not _PLAY:
            return [] if phase is _OVER else [NOMINATE[s] for s in _ALL_SUITS]
        p = self.current
        hand = self.hands[p]
        if self.pending:
            firsts = self._answers(p, hand)
            moves = self._plays(p, hand, firsts) if firsts else []
            moves.append(DRAW)
            return moves
        drawn_card = self.drawn_card
        if drawn_card is None and self._fast and self.suit is not None:
            moves = self._fast_plays(p, hand)
        else:
            if drawn_card is not None:
                firsts = [drawn_card] if self._playable(drawn_card, p) else []
            else:
                firsts = self._playable_cards(p, hand)
            if not firsts:
                moves = []
            elif self._simple:
                moves = self._simple_plays(p, len(hand), firsts)
            else:
                moves = self._plays(p, hand, firsts)
        if moves and self._must_play:
            return moves
        if self.drawn == 0:
            can_draw = len(self.stock) > 0 or (self._can_reshuffle and len(self.discard) > 1)
            moves.append(DRAW if can_draw else PASS)
        elif self._draw_rule == "up_to" and self.drawn < self.rules.draw_limit and self.can_draw():
            moves.append(DRAW)
        elif self._draw_rule != "until_playable" or not moves:
            moves.append(PASS)
        return moves

    def _playable(self, card: Card, p: int) -> bool:
        # Suits and ranks are singletons: ``is`` compares them without a method call.
        suit = self.suit
        if card.rank_value == self.wild_ranks[p]:
            if self.rules.wild_must_match:
                return suit is None or card.suit is suit or card.rank is self.discard[-1].rank
            return True
        if suit is None or card.suit is suit:
            return True
        if self.wild_top:
            return self.rules.equal_rank_on_wild and card.rank is self.discard[-1].rank
        return card.rank is self.discard[-1].rank

    def _playable_cards(self, p: int, hand: list[Card]) -> list[Card]:
        suit = self.suit
        top_rank = self.discard[-1].rank
        wild = self.wild_ranks[p]
        if suit is None or self.wild_top or self.rules.wild_must_match:
            found = [c for c in hand if self._playable(c, p)]
        else:
            # The common case, written out: match suit or rank, or a wild card.
            found = [
                c for c in hand if c.suit is suit or c.rank is top_rank or c.rank_value == wild
            ]
        if self._two_packs and len(found) > 1:
            found = list(dict.fromkeys(found))  # the same card twice is one choice
        return found

    def _fast_plays(self, p: int, hand: list[Card]) -> list[Move]:
        """:meth:`_playable_cards` then :meth:`_simple_plays` in one pass over the hand,
        for the common case (single cards, always-nominating wilds that need not match,
        a suit to follow, no card drawn this turn). Same moves, same order."""
        suit = self.suit
        # A wild top card is followed by suit (or another wild), not by its rank.
        top = -2 if self.wild_top and not self._equal_on_wild else self.discard[-1].rank_value
        wild = self.wild_ranks[p]
        size = len(hand)
        nominate = self._nominates and size > 1
        calls = self._last_card and size == 2
        dedupe = self._two_packs
        seen = 0
        moves: list[Move] = []
        for c in hand:
            rank = c.rank_value
            if c.suit is suit or rank in (top, wild):
                if dedupe:  # the same card twice is one choice
                    bit = 1 << c.index
                    if seen & bit:
                        continue
                    seen |= bit
                if calls:
                    if rank == wild and nominate:
                        moves.extend(NOMINATION_CALLS[c.index])
                    else:
                        moves.extend(PLAIN_CALLS[c.index])
                elif rank == wild and nominate:
                    moves.extend(NOMINATIONS[c.index])
                else:
                    moves.append(PLAIN[c.index])
        return moves

    def _simple_plays(self, p: int, size: int, firsts: list[Card]) -> list[Move]:
        """:meth:`_plays` for single-card plays under the common rules, from ready-made moves."""
        wild = self.wild_ranks[p]
        calls = self._last_card and size == 2
        moves: list[Move] = []
        if calls:
            for c in firsts:
                if c.rank_value == wild and self._nominates:
                    moves.extend(NOMINATION_CALLS[c.index])
                else:
                    moves.extend(PLAIN_CALLS[c.index])
        else:
            for c in firsts:
                if c.rank_value == wild and self._nominates and size > 1:
                    moves.extend(NOMINATIONS[c.index])
                else:
                    moves.append(PLAIN[c.index])
        return moves

    def _answers(self, p: int, hand: list[Card]) -> list[Card]:
        """Cards that answer a pending draw: another draw-two (of the nominated suit when
        a wild Two set it, unless it is the player's own wild) or another draw-five card."""
        if self.pending_kind == "five":
            found = [c for c in hand if c is self._five]
        else:
            two = self._draw_two
            five = self._five
            found = [c for c in hand if c.rank_value == two and c is not five]
            if self.wild_top and self.suit is not None:
                suit = self.suit
                wild = self.wild_ranks[p]
                found = [c for c in found if c.suit is suit or c.rank_value == wild]
        return list(dict.fromkeys(found))

    def _plays(self, p: int, hand: list[Card], firsts: list[Card]) -> list[Move]:
        """Every play starting with one of ``firsts``: nominations and last-card calls."""
        rules = self.rules
        moves: list[Move] = []
        size = len(hand)
        wild = self.wild_ranks[p]
        for first in firsts:
            groups: list[tuple[Card, ...]] = [(first,)]
            if rules.multiple_equal:
                groups.extend(_extensions(first, hand))
            for cards in groups:
                left = size - len(cards)
                last = cards[-1]
                ends = left == 0 and (not rules.countdown or self.scores[p] == 1)
                if left == 0 and self._forbid_special_out and self.is_special(last, p):
                    continue
                suits: tuple[Suit | None, ...] = _SUITS_OR_NONE
                if last.rank_value == wild and not ends:
                    nominates = rules.wild_nominates
                    if nominates == "always" or (
                        nominates == "if_matching" and self._matches_top(first)
                    ):
                        suits = _ALL_SUITS
                announces = _ANNOUNCE_BOTH if rules.last_card and left == 1 else _ANNOUNCE_NO
                if len(cards) == 1:
                    for s in suits:
                        for a in announces:
                            moves.append(single(first, s, a))
                else:
                    for s in suits:
                        for a in announces:
                            moves.append(Move(MoveKind.PLAY, cards, s, a))
        return moves

    def _matches_top(self, card: Card) -> bool:
        suit = self.suit
        return suit is None or card.suit is suit or card.rank is self.discard[-1].rank

    # ------------------------------------------------------------------ moves

    def apply(self, move: Move) -> None:
        """Play ``move`` for the player to act; raises :class:`IllegalMoveError` (and
        changes nothing) if it is not among :meth:`legal_moves`."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        for m in legal:
            if m is move:  # moves offered by legal_moves() are found by identity
                break
        else:
            move = self._legal_equal(move, legal)
        p = self.current
        self._legal = None
        self.version += 1
        self._seats.append(p)
        self._moves.append(move)
        if move.is_play:
            self._play(p, move)
            return
        kind = move.kind
        if kind is _DRAW_KIND:
            self._draw_move(p)
        elif kind is _PASS_KIND:
            if self.drawn == 0:
                self.passes += 1
            self._end_turn(p, (p + self.direction) % self.n)
        else:  # the dealer nominates the suit of a wild starter
            self.suit = move.suit
            self.wild_top = True
            self.phase = Phase.PLAY
            skips = self._skips((self.discard[-1],))
            self._begin_turn((p + self.direction * (1 + skips)) % self.n)

    def _legal_equal(self, move: Move, legal: list[Move]) -> Move:
        """The legal move equal to ``move`` (one made elsewhere, e.g. parsed from text);
        raises :class:`IllegalMoveError` if there is none."""
        for m in legal:
            if m == move:
                return m
        # The cards between the first and the last of several equal cards may come in
        # any order; the legal list holds them in one canonical order.
        cards = move.cards
        if len(cards) > 3:
            canonical = Move(
                MoveKind.PLAY, (cards[0], *sorted(cards[1:-1]), cards[-1]), move.suit, move.announce
            )
            for m in legal:
                if m == canonical:
                    return m
        raise IllegalMoveError(self._illegal_reason(move, legal))

    def _illegal_reason(self, move: Move, legal: list[Move]) -> str:
        if self.phase is Phase.OVER:
            return f"illegal move {move}: the hand is over"
        shown = " ".join(str(m) for m in legal[:24]) + (" …" if len(legal) > 24 else "")
        return f"illegal move {move} for seat {self.current}; legal moves: {shown}"

    def _play(self, p: int, move: Move) -> None:
        hand = self.hands[p]
        cards = move.cards
        if len(cards) == 1:
            top = cards[0]
            _take(hand, top)
            self.discard.append(top)
        else:
            for c in cards:
                _take(hand, c)
            self.discard.extend(cards)
            top = cards[-1]
        self.passes = 0
        was_wild = top.rank_value == self.wild_ranks[p]
        left = len(hand)
        self.suit = move.suit if was_wild and move.suit is not None else top.suit
        self.wild_top = was_wild
        if left == 0:
            if not self.rules.countdown:
                # Going out: the special effect of the winner's last card is ignored.
                self._finish("out", (p,))
                return
            self.scores[p] -= 1
            if self.scores[p] == 0:
                self._finish("out", (p,))
                return
            # Countdown: drop a point and be dealt that many cards; your wild rank changes.
            self.wild_ranks[p] = self.scores[p]
            self._draw_cards(p, self.scores[p])
        elif left == 1 and self._last_card and not move.announce:
            self._draw_cards(p, 2)  # the last-card penalty
        skips = self._effects(cards)
        self._end_turn(p, (p + self.direction * (1 + skips)) % self.n)

    def _effects(self, cards: Sequence[Card]) -> int:
        """Apply the draw-two, draw-five and reverse effects of cards played (or turned)
        together; return how many players they skip."""
        five = self._five
        skips = 0
        for c in cards:
            if c is five:
                # The draw-five card has only that effect.
                self.pending += 5
                self.pending_kind = "five"
                continue
            rank = c.rank_value
            if rank == self._draw_two:
                self.pending += 2
                self.pending_kind = "two"
            if rank == self._reverse and self.n > 2:
                self.direction = -self.direction
            if rank == self._skip:
                skips += 1
        return skips

    def _skips(self, cards: Sequence[Card]) -> int:
        return sum(1 for c in cards if c.rank_value == self._skip and c is not self._five)

    def _draw_move(self, p: int) -> None:
        if self.pending:
            # The penalty: draw two per Two (or five); the turn then passes.
            got = self._draw_cards(p, self.pending)
            self.pending = 0
            self.pending_kind = None
            if got:
                self.passes = 0
            else:
                self.passes += 1
            self._end_turn(p, (p + self.direction) % self.n)
            return
        self.passes = 0
        rule = self._draw_rule
        if rule == "one":
            stock = self.stock
            if stock:
                self.hands[p].append(stock.pop())
            else:
                self._draw_cards(p, 1)
            self._end_turn(p, (p + self.direction) % self.n)
            return
        if rule == "until_playable":
            while True:
                got = self._draw_cards(p, 1)
                self.drawn += got
                if not got or self._playable(self.hands[p][-1], p):
                    break
        else:
            got = self._draw_cards(p, 1)
            self.drawn += got
            if rule == "one_then_play" and got:
                self.drawn_card = self.hands[p][-1]
        # Still this player's turn, unless passing is all that is left.
        moves = self.legal_moves()
        if len(moves) == 1 and moves[0] is PASS:
            self._end_turn(p, (p + self.direction) % self.n)

    def _draw_cards(self, p: int, count: int) -> int:
        """Move up to ``count`` cards from the stock to ``p``'s hand, reshuffling the
        discard pile when the stock runs out; returns how many were drawn."""
        hand = self.hands[p]
        stock = self.stock
        got = 0
        while got < count:
            if not stock:
                if not self._reshuffle():
                    break
                stock = self.stock
            hand.append(stock.pop())
            got += 1
        return got

    def _reshuffle(self) -> bool:
        if not self._can_reshuffle or len(self.discard) < 2:
            return False
        pile = self.discard[:-1]
        del self.discard[:-1]
        shuffle(self.rng, pile)
        self.stock = pile
        return True

    def _end_turn(self, p: int, nxt: int) -> None:
        self.turns = turns = self.turns + 1
        if self.passes >= self.n:
            self._finish("blocked", ())
        elif turns >= self._turn_cap:
            self._finish("turn_cap", ())
        else:
            self.current = nxt
            self.drawn = 0
            self.drawn_card = None
            self._legal = None

    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        self.drawn = 0
        self.drawn_card = None
        self._legal = None

    def _finish(self, kind: EndKind, winners: tuple[int, ...]) -> None:
        self.phase = _OVER
        self._legal = None
        penalties = self.penalties()
        n = self.n
        countdown = self.rules.countdown
        if kind != "out":
            # Blocked: the lowest total scores the difference from each opponent (ties all
            # score so). In Countdown the lowest score leads instead.
            keys = self.scores if countdown else penalties
            low = min(keys)
            winners = tuple(i for i in range(n) if keys[i] == low)
        points = [0] * n
        if not countdown:
            if kind == "out":
                points[winners[0]] = sum(penalties)
            else:
                low = penalties[winners[0]]
                for w in winners:
                    points[w] = sum(pen - low for pen in penalties)
        self.result = HandResult(
            kind=kind,
            winners=winners,
            penalties=tuple(penalties),
            points=tuple(points),
            turns=self.turns,
            countdown_scores=tuple(self.scores) if countdown else None,
        )


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


def _take(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)`` by identity (cards are interned), without a comparison
    call per card passed."""
    for i in range(len(cards)):
        if cards[i] is card:
            del cards[i]
            return
    raise ValueError(f"{card} is not in the hand")


def _extensions(first: Card, hand: list[Card]) -> list[tuple[Card, ...]]:
    """Multiple equal cards: ``first`` followed by any non-empty choice of the other cards
    of its rank, each choice once for every card that can be played last (the one the
    next player follows); the cards in between are in a fixed order."""
    others = Counter(c for c in hand if c.rank == first.rank)
    others[first] -= 1
    kinds = sorted(c for c, k in others.items() if k > 0)
    if not kinds:
        return []
    result: list[tuple[Card, ...]] = []
    for take in product(*(range(others[c] + 1) for c in kinds)):
        chosen = [c for c, k in zip(kinds, take, strict=True) for _ in range(k)]
        if not chosen:
            continue
        for last in dict.fromkeys(chosen):
            middle = list(chosen)
            middle.remove(last)
            result.append((first, *middle, last))
    return result


def _cards(cards: Sequence[Card] | str) -> list[Card]:
    return parse_cards(cards) if isinstance(cards, str) else list(cards)


def _text(cards: Sequence[Card] | str) -> str:
    return " ".join(str(c) for c in _cards(cards))
