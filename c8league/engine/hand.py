"""One hand of Crazy Eights (or a whole game of Countdown): the state machine.

A :class:`Hand` is dealt from a seed (:meth:`Hand.deal`), from an explicit
deal (:meth:`Hand.from_deal`, where the starter's effects apply as if the
dealer had played it), or set up at any position (:meth:`Hand.from_position`).
It then offers :meth:`Hand.legal_moves`, :meth:`Hand.observation` for a seat,
and :meth:`Hand.apply`, which raises :class:`IllegalMoveError` and changes
nothing for a move that is not legal. Every choice of chance comes from the
hand's own ``random.Random`` seeded at the start, so a :class:`HandRecord`
of the start and the moves replays the hand exactly.

The hand's position is a :class:`~c8league.engine.state.HandState` (public fields,
which observations read); :class:`Hand` adds the rules as its steps read them and
every step of a hand, in this order:

* setting a hand up: dealt from a seed, dealt as given, or at any position;
* copies (and pickling) and queries;
* the legal moves, by one of two paths to the plays:

  - the general path, the rules as written: :meth:`Hand._playable_cards` picks the
    cards that may be played (:meth:`Hand._answers` those that answer a pending
    draw), and :meth:`Hand._plays` makes every play each of them starts: equal cards
    played together, nominations and last-card calls;
  - the fast path, :meth:`Hand._fast_plays`, for the common rules (one card at a
    time, wild cards that always or never nominate, going out on any card): one pass
    over the hand, taking ready-made moves. It makes the same moves in the same order
    as the general path, which ``tests/engine/test_move_paths.py`` checks over random
    positions of every preset;

* playing a move: the cards' effects, drawing, reshuffling and the turn order, and
  the end of the hand (its points are counted by :func:`~c8league.engine.scoring.score`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import product
from typing import Final

from c8league.engine.cards import Card, Suit, pack, parse_cards
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
from c8league.engine.scoring import EndKind, HandResult, card_penalty, score
from c8league.engine.seeds import shuffle
from c8league.engine.state import (
    NO_RANK,
    OVER,
    PLAYING,
    POSITION,
    HandState,
    PendingKind,
    Phase,
)
from c8league.errors import IllegalMoveError, PositionError

__all__ = ["EndKind", "Hand", "HandResult", "PendingKind", "Phase", "card_penalty"]

# Enum members as module constants: the compiled engine reads these directly instead
# of looking the member up on its class each time.
_DRAW_KIND: Final = MoveKind.DRAW
_PASS_KIND: Final = MoveKind.PASS

_ALL_SUITS: Final = tuple(Suit)
_SUITS_OR_NONE: Final[tuple[Suit | None, ...]] = (None,)
_ANNOUNCE_BOTH: Final = (False, True)
_ANNOUNCE_NO: Final = (False,)


class Hand(HandState):
    """The mutable state of one hand. Read it through observations; change it with moves."""

    # The position's fields (HandState), declared again: the compiled class then has
    # them as its own attributes, which Python code (a runner, a search bot's playout
    # policy) reads without checking each time that the hand is a HandState.
    rules: Rules
    n: int
    dealer: int
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    current: int
    direction: int
    suit: Suit | None
    wild_top: bool
    pending: int
    pending_kind: PendingKind | None
    drawn: int
    drawn_card: Card | None
    passes: int
    turns: int
    phase: Phase
    result: HandResult | None
    rng: random.Random
    history_seats: list[int]
    history_moves: list[Move]
    start: dict[str, object]
    scores: list[int]
    target: int
    hand_number: int
    version: int
    wild_ranks: list[int]

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
        "_must_play",
        "_nominates",
        "_reverse",
        "_skip",
        "_turn_cap",
        "_two_packs",
        "_wild_must_match",
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
        super().__init__(rules, players, dealer, random.Random(seed) if rng is None else rng)
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
        # card: the plays come from the fast path (Hand._fast_plays).
        self._fast = not (
            rules.multiple_equal
            or rules.countdown
            or self._forbid_special_out
            or rules.wild_nominates == "if_matching"
        )

    # ------------------------------------------------------------------ set-up
    # Each way to set a hand up records in ``start`` how it did, which a HandRecord
    # keeps to replay the hand. A deal turns the starter, whose effects apply as if the
    # dealer had played it; a position is taken as it is. A position that cannot be
    # raises PositionError.

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
        hand._deal_singly(deck)
        hand._turn_starter()
        hand._record_start({"players": players, "dealer": dealer, "seed": seed}, scores)
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
        hand._set_scores(scores)
        hand.hands = [_cards(h) for h in hands]
        hand.stock = list(reversed(_cards(stock)))
        hand._check_cards()
        hand._turn_starter()
        start: dict[str, object] = {"players": hand.n, "dealer": dealer, "seed": seed}
        start["deal"] = {"hands": [_text(h) for h in hands], "stock": _text(stock)}
        hand._record_start(start, scores)
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
        hand._set_scores(scores)
        hand.hands = [_cards(h) for h in hands]
        hand.stock = list(reversed(_cards(stock)))
        hand.discard = _cards(discard)
        if not hand.discard:
            raise PositionError("the discard pile needs at least its top card")
        hand._set_turn(current, direction)
        hand._set_top(suit, wild_top)
        hand._set_pending(pending, pending_kind)
        hand._check_cards()
        position = {
            "players": hand.n,
            "seed": seed,
            "position": {
                "hands": [_text(h) for h in hands],
                "discard": _text(discard),
                "stock": _text(stock),
                "dealer": dealer,
                "current": hand.current,
                "direction": direction,
                "suit": str(hand.suit),
                "wild_top": hand.wild_top,
                "pending": pending,
                "pending_kind": hand.pending_kind,
            },
        }
        hand._record_start(position, scores)
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

    def _deal_singly(self, deck: list[Card]) -> None:
        """Deal from ``deck`` one card at a time round the table, starting left of the
        dealer; the rest is the stock."""
        players = self.n
        dealer = self.dealer
        if self.rules.countdown and self.rules.hand_size is None:
            sizes = list(self.scores)
        else:
            sizes = [self.rules.hand_size_for(players)] * players
        for i in range(max(sizes)):
            for k in range(1, players + 1):
                seat = (dealer + k) % players
                if i < sizes[seat]:
                    self.hands[seat].append(deck.pop())
        self.stock = deck

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

    def _set_turn(self, current: int | None, direction: int) -> None:
        """The direction of play and the seat to act (default: left of the dealer)."""
        if direction not in (1, -1):
            raise PositionError(f"direction must be 1 (clockwise) or -1, not {direction}")
        self.direction = direction
        self.current = (self.dealer + direction) % self.n if current is None else current
        if not 0 <= self.current < self.n:
            raise PositionError(f"current player {self.current} is not a seat")

    def _set_top(self, suit: Suit | str | None, wild_top: bool | None) -> None:
        """The suit to follow and whether the top card was played as a wild card."""
        top = self.discard[-1]
        if suit is None:
            self.suit = top.suit
        else:
            self.suit = Suit.parse(suit) if isinstance(suit, str) else Suit(suit)
        if wild_top is None:
            previous = (self.current - self.direction) % self.n
            wild_top = top.rank_value == self.wild_ranks[previous]
        self.wild_top = wild_top

    def _set_pending(self, pending: int, pending_kind: PendingKind | None) -> None:
        """A draw pending for the seat to act (its kind by default from the top card)."""
        if pending < 0:
            raise PositionError(f"pending draw {pending} is negative")
        if pending and pending_kind is None:
            pending_kind = "five" if self.discard[-1] == self.rules.draw_five_card else "two"
        self.pending = pending
        self.pending_kind = pending_kind if pending else None

    def _check_cards(self) -> None:
        decks = self.rules.decks_for(self.n)
        counts = Counter(c for h in self.hands for c in h)
        counts.update(self.stock)
        counts.update(self.discard)
        too_many = sorted(str(c) for c, k in counts.items() if k > decks)
        if too_many:
            raise PositionError(
                f"card(s) {' '.join(too_many)} appear more than {decks} time(s)"
                f" with {decks} pack(s)"
            )

    def _record_start(self, start: dict[str, object], scores: Sequence[int] | None) -> None:
        """Keep how the hand was set up, for its record (the scores given, last)."""
        if scores is not None:
            start["scores"] = list(scores)
        self.start = start

    # ------------------------------------------------------------------ copies

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
        other.history_seats = list(self.history_seats)
        other.history_moves = list(self.history_moves)
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
        state = {name: getattr(self, name) for name in POSITION}
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
        return list(self.history_moves)

    @property
    def history(self) -> list[tuple[int, Move]]:
        """``(seat, move)`` for every move made in this hand, in order (a new list; an
        observation's ``history`` is a view that copies nothing)."""
        return list(zip(self.history_seats, self.history_moves, strict=True))

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
        """The penalty value of each seat's cards (50 for the seat's wild rank)."""
        wild = self.wild_ranks
        return [sum(card_penalty(c, wild[i]) for c in h) for i, h in enumerate(self.hands)]

    def card_count(self) -> int:
        return sum(len(h) for h in self.hands) + len(self.stock) + len(self.discard)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see: its own hand and the public state, nothing else."""
        return Observation(self, seat)

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
        """The legal moves of the player to act, in their fixed order (see legal_moves)."""
        phase = self.phase
        if phase is not PLAYING:
            return [] if phase is OVER else [NOMINATE[s] for s in _ALL_SUITS]
        p = self.current
        cards = self.hands[p]
        if self.pending:
            firsts = self._answers(p, cards)
            moves = self._plays(p, cards, firsts) if firsts else []
            moves.append(DRAW)
            return moves
        if self._fast and self.suit is not None:
            drawn_card = self.drawn_card
            if drawn_card is None:
                moves = self._fast_plays(p, cards, len(cards))
            else:  # one then play: only the card just drawn may be played
                moves = self._fast_plays(p, [drawn_card], len(cards))
        else:
            moves = self._general_plays(p, cards)
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

    # The general path.

    def _general_plays(self, p: int, cards: list[Card]) -> list[Move]:
        """The plays of seat ``p``, holding ``cards``, when no draw is pending: the rules as
        written, for any rules and position."""
        drawn_card = self.drawn_card
        if drawn_card is not None:
            # One then play: only the card just drawn may be played.
            firsts = self._playable_cards(p, [drawn_card])
        else:
            firsts = self._playable_cards(p, cards)
            if self._two_packs and len(firsts) > 1:
                firsts = list(dict.fromkeys(firsts))  # the same card twice is one choice
        return self._plays(p, cards, firsts) if firsts else []

    def _playable_cards(self, p: int, cards: list[Card]) -> list[Card]:
        """Those of ``cards`` that seat ``p`` may play (first, when several are played
        together): a card of the suit to follow or of the top card's rank (after a wild
        card, only where the rules allow it), or one of the seat's wild cards (one that
        must match follows suit or rank as any card does)."""
        suit = self.suit
        if suit is None:  # any card may be played
            return list(cards)
        # Suits and ranks are singletons: ``is`` compares them without a method call.
        top_rank = self.discard[-1].rank
        wild = self.wild_ranks[p]
        follows_rank = not self.wild_top or self._equal_on_wild
        free_wild = not self._wild_must_match
        return [
            c
            for c in cards
            if c.suit is suit
            or (c.rank is top_rank and (follows_rank or c.rank_value == wild))
            or (free_wild and c.rank_value == wild)
        ]

    def _playable(self, card: Card, p: int) -> bool:
        """Whether seat ``p`` may play ``card``: see :meth:`_playable_cards`."""
        return bool(self._playable_cards(p, [card]))

    def _answers(self, p: int, cards: list[Card]) -> list[Card]:
        """Cards that answer a pending draw: another draw-two (of the nominated suit when
        a wild Two set it, unless it is the player's own wild) or another draw-five card."""
        if self.pending_kind == "five":
            found = [c for c in cards if c is self._five]
        else:
            two = self._draw_two
            five = self._five
            found = [c for c in cards if c.rank_value == two and c is not five]
            if self.wild_top and self.suit is not None:
                suit = self.suit
                wild = self.wild_ranks[p]
                found = [c for c in found if c.suit is suit or c.rank_value == wild]
        return list(dict.fromkeys(found))

    def _plays(self, p: int, cards: list[Card], firsts: list[Card]) -> list[Move]:
        """Every play starting with one of ``firsts``: nominations and last-card calls."""
        rules = self.rules
        moves: list[Move] = []
        size = len(cards)
        wild = self.wild_ranks[p]
        for first in firsts:
            groups: list[tuple[Card, ...]] = [(first,)]
            if rules.multiple_equal:
                groups.extend(_extensions(first, cards))
            for group in groups:
                left = size - len(group)
                last = group[-1]
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
                if len(group) == 1:
                    for s in suits:
                        for a in announces:
                            moves.append(single(first, s, a))
                else:
                    for s in suits:
                        for a in announces:
                            moves.append(Move(MoveKind.PLAY, group, s, a))
        return moves

    def _matches_top(self, card: Card) -> bool:
        suit = self.suit
        return suit is None or card.suit is suit or card.rank is self.discard[-1].rank

    # The fast path.

    def _fast_plays(self, p: int, cards: list[Card], size: int) -> list[Move]:
        """:meth:`_general_plays` in one pass over ``cards`` (the hand of seat ``p``, or
        the card it just drew), from ready-made moves, for a hand of ``size`` cards,
        where ``_fast`` says the rules allow it (single cards, wild cards that always or
        never nominate, going out on any card, not Countdown) and the position too (a
        suit to follow, no draw pending). Same moves, same order, the same move objects."""
        suit = self.suit
        top_rank = self.discard[-1].rank_value
        # A wild top card is followed by suit (or another wild), not by its rank.
        top = NO_RANK if self.wild_top and not self._equal_on_wild else top_rank
        wild = self.wild_ranks[p]
        # A wild card that must match is played on its suit or on its own rank, like any
        # other card: only when the top card has its rank does its rank match.
        wild_match = NO_RANK if self._wild_must_match and wild != top_rank else wild
        nominate = self._nominates and size > 1
        calls = self._last_card and size == 2
        dedupe = self._two_packs
        seen = 0
        moves: list[Move] = []
        for c in cards:
            rank = c.rank_value
            if c.suit is suit or rank in (top, wild_match):
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

    # ------------------------------------------------------------------ moves
    # apply() checks a move and records it, then hands it to its step: _play_cards,
    # _draw, _pass_turn or _nominate. Cards leave the player's hand for the discard
    # pile and their special effects apply, draws come from the stock (reshuffling the
    # discard pile when it runs out), and the turn passes on, or the hand ends.

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
        self.history_seats.append(p)
        self.history_moves.append(move)
        if move.is_play:
            self._play_cards(p, move)
            return
        kind = move.kind
        if kind is _DRAW_KIND:
            self._draw(p)
        elif kind is _PASS_KIND:
            self._pass_turn(p)
        else:
            self._nominate(p, move)

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
        if self.phase is OVER:
            return f"illegal move {move}: the hand is over"
        shown = " ".join(str(m) for m in legal[:24]) + (" …" if len(legal) > 24 else "")
        return f"illegal move {move} for seat {self.current}; legal moves: {shown}"

    def _play_cards(self, p: int, move: Move) -> None:
        """Seat ``p`` plays the cards of ``move``."""
        held = self.hands[p]
        cards = move.cards
        if len(cards) == 1:
            top = cards[0]
            _take(held, top)
            self.discard.append(top)
        else:
            for c in cards:
                _take(held, c)
            self.discard.extend(cards)
            top = cards[-1]
        self.passes = 0
        was_wild = top.rank_value == self.wild_ranks[p]
        left = len(held)
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

    def _draw(self, p: int) -> None:
        """Seat ``p`` draws: the pending penalty, or by the rules' way of drawing."""
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
        moves = self._legal = self._generate()
        if len(moves) == 1 and moves[0] is PASS:
            self._end_turn(p, (p + self.direction) % self.n)

    def _draw_cards(self, p: int, count: int) -> int:
        """Move up to ``count`` cards from the stock to ``p``'s hand, reshuffling the
        discard pile when the stock runs out; returns how many were drawn."""
        held = self.hands[p]
        stock = self.stock
        got = 0
        while got < count:
            if not stock:
                if not self._reshuffle():
                    break
                stock = self.stock
            held.append(stock.pop())
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

    def _pass_turn(self, p: int) -> None:
        """Seat ``p`` passes."""
        if self.drawn == 0:
            self.passes += 1
        self._end_turn(p, (p + self.direction) % self.n)

    def _nominate(self, p: int, move: Move) -> None:
        """The dealer ``p`` nominates the suit of a wild starter."""
        self.suit = move.suit
        self.wild_top = True
        self.phase = PLAYING
        skips = self._skips((self.discard[-1],))
        self._begin_turn((p + self.direction * (1 + skips)) % self.n)

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
        """Give ``seat`` the turn, with nothing drawn yet."""
        self.current = seat
        self.drawn = 0
        self.drawn_card = None
        self._legal = None

    def _finish(self, kind: EndKind, winners: tuple[int, ...]) -> None:
        """End the hand and score it: ``winners`` is the seat that went out, or empty
        when play stopped otherwise (blocked, or at the turn cap)."""
        self.phase = OVER
        self._legal = None
        self.result = score(
            kind,
            winners,
            self.penalties(),
            scores=self.scores,
            turns=self.turns,
            countdown=self.rules.countdown,
        )


def _extensions(first: Card, cards: list[Card]) -> list[tuple[Card, ...]]:
    """Multiple equal cards: ``first`` followed by any non-empty choice of the other cards
    of its rank, each choice once for every card that can be played last (the one the
    next player follows); the cards in between are in a fixed order."""
    others = Counter(c for c in cards if c.rank == first.rank)
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


def _take(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)`` by identity (cards are interned), without a comparison
    call per card passed."""
    for i in range(len(cards)):
        if cards[i] is card:
            del cards[i]
            return
    raise ValueError(f"{card} is not in the hand")


def _cards(cards: Sequence[Card] | str) -> list[Card]:
    return parse_cards(cards) if isinstance(cards, str) else list(cards)


def _text(cards: Sequence[Card] | str) -> str:
    return " ".join(str(c) for c in _cards(cards))


def _restore(rules: Rules, players: int, dealer: int, state: dict[str, object]) -> Hand:
    """A pickled hand, rebuilt."""
    hand = Hand(rules, players, dealer)
    for name, value in state.items():
        setattr(hand, name, value)
    return hand
