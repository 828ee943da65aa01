"""Setting a hand up: dealt from a seed, dealt as given, or at any position.

Each function fills a new :class:`~c8league.engine.hand.Hand` (made for the rules,
table size, dealer and seed) and records in ``hand.start`` how it was set up, which a
:class:`~c8league.engine.record.HandRecord` keeps to replay the hand. A deal turns the
starter, whose effects apply as if the dealer had played it; a position is taken as
it is. A position that cannot be raises :class:`PositionError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from c8league.engine.cards import Card, Suit, pack, parse_cards
from c8league.engine.play import begin_turn, effects
from c8league.engine.rules import COUNTDOWN_START
from c8league.engine.seeds import shuffle
from c8league.engine.state import PendingKind, Phase
from c8league.errors import PositionError

if TYPE_CHECKING:
    from c8league.engine.hand import Hand


def deal_from_seed(hand: Hand, seed: int, scores: Sequence[int] | None) -> None:
    """Shuffle with the hand's generator, deal singly from the dealer's left, turn the
    starter and apply its effects."""
    players = hand.n
    dealer = hand.dealer
    deck = pack(hand.rules.decks_for(players))
    shuffle(hand.rng, deck)
    _set_scores(hand, scores)
    sizes = _deal_sizes(hand)
    # Dealt singly, one card at a time round the table, starting left of the dealer.
    for i in range(max(sizes)):
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            if i < sizes[seat]:
                hand.hands[seat].append(deck.pop())
    hand.stock = deck
    _turn_starter(hand)
    _record_start(hand, {"players": players, "dealer": dealer, "seed": seed}, scores)


def deal_as_given(
    hand: Hand,
    hands: Sequence[Sequence[Card] | str],
    stock: Sequence[Card] | str,
    seed: int,
    scores: Sequence[int] | None,
) -> None:
    """The hands as given; ``stock`` from its top, whose first card is the starter."""
    _set_scores(hand, scores)
    hand.hands = [_cards(h) for h in hands]
    hand.stock = list(reversed(_cards(stock)))
    _check_cards(hand)
    _turn_starter(hand)
    start: dict[str, object] = {"players": hand.n, "dealer": hand.dealer, "seed": seed}
    start["deal"] = {"hands": [_text(h) for h in hands], "stock": _text(stock)}
    _record_start(hand, start, scores)


def set_position(
    hand: Hand,
    hands: Sequence[Sequence[Card] | str],
    *,
    discard: Sequence[Card] | str,
    stock: Sequence[Card] | str,
    current: int | None,
    direction: int,
    suit: Suit | str | None,
    wild_top: bool | None,
    pending: int,
    pending_kind: PendingKind | None,
    scores: Sequence[int] | None,
    seed: int,
) -> None:
    """Any position, as :meth:`Hand.from_position <c8league.engine.hand.Hand.from_position>`
    describes its arguments. No starter effect is applied."""
    players = hand.n
    dealer = hand.dealer
    _set_scores(hand, scores)
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
        pending_kind = "five" if top == hand.rules.draw_five_card else "two"
    hand.pending = pending
    hand.pending_kind = pending_kind if pending else None
    _check_cards(hand)
    position = {
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
    _record_start(hand, position, scores)


def _record_start(hand: Hand, start: dict[str, object], scores: Sequence[int] | None) -> None:
    """Keep how the hand was set up, for its record (the scores given, last)."""
    if scores is not None:
        start["scores"] = list(scores)
    hand.start = start


def _set_scores(hand: Hand, scores: Sequence[int] | None) -> None:
    if scores is None:
        return
    if len(scores) != hand.n:
        raise PositionError(f"{len(scores)} scores given for {hand.n} players")
    hand.scores = list(scores)
    if hand.rules.countdown:
        if any(not 1 <= s <= COUNTDOWN_START for s in scores):
            raise PositionError(f"Countdown scores must be 1..{COUNTDOWN_START}: {scores}")
        hand.wild_ranks = list(scores)


def _deal_sizes(hand: Hand) -> list[int]:
    if hand.rules.countdown and hand.rules.hand_size is None:
        return list(hand.scores)
    return [hand.rules.hand_size_for(hand.n)] * hand.n


def _check_cards(hand: Hand) -> None:
    decks = hand.rules.decks_for(hand.n)
    counts = Counter(c for h in hand.hands for c in h)
    counts.update(hand.stock)
    counts.update(hand.discard)
    too_many = sorted(str(c) for c, k in counts.items() if k > decks)
    if too_many:
        raise PositionError(
            f"card(s) {' '.join(too_many)} appear more than {decks} time(s) with {decks} pack(s)"
        )


def _turn_starter(hand: Hand) -> None:
    """Turn the starter: it acts as if the dealer had played it."""
    if not hand.stock:
        raise PositionError("no card left in the stock to turn as the starter")
    starter = hand.stock.pop()
    hand.discard.append(starter)
    dealer = hand.dealer
    hand.suit = starter.suit
    hand.wild_top = starter.rank_value == hand.wild_ranks[dealer]
    skips = effects(hand, (starter,))
    if hand.wild_top:
        if hand.rules.starter_eight == "any_card":
            hand.suit = None
        elif hand.rules.wild_nominates != "never":
            hand.phase = Phase.NOMINATE
            hand.current = dealer
            return
    begin_turn(hand, (dealer + hand.direction * (1 + skips)) % hand.n)


def _cards(cards: Sequence[Card] | str) -> list[Card]:
    return parse_cards(cards) if isinstance(cards, str) else list(cards)


def _text(cards: Sequence[Card] | str) -> str:
    return " ".join(str(c) for c in _cards(cards))
