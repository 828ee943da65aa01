"""Playing a move: the cards' effects, drawing, reshuffling and the turn order.

:meth:`Hand.apply <c8league.engine.hand.Hand.apply>` checks a move (with
:func:`legal_equal` for one made elsewhere), records it, and hands it to its step
here: :func:`play_cards`, :func:`draw`, :func:`pass_turn` or :func:`nominate`. Cards
leave the player's hand for the discard pile and their special effects apply, draws
come from the stock (reshuffling the discard pile when it runs out), and the turn
passes on, or the hand ends (:mod:`c8league.engine.scoring`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from c8league.engine.cards import Card
from c8league.engine.legal import generate, playable
from c8league.engine.moves import PASS, Move, MoveKind
from c8league.engine.scoring import finish
from c8league.engine.seeds import shuffle
from c8league.engine.state import OVER, PLAYING
from c8league.errors import IllegalMoveError

if TYPE_CHECKING:
    from c8league.engine.hand import Hand


def legal_equal(hand: Hand, move: Move, legal: list[Move]) -> Move:
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
    raise IllegalMoveError(_illegal_reason(hand, move, legal))


def _illegal_reason(hand: Hand, move: Move, legal: list[Move]) -> str:
    if hand.phase is OVER:
        return f"illegal move {move}: the hand is over"
    shown = " ".join(str(m) for m in legal[:24]) + (" …" if len(legal) > 24 else "")
    return f"illegal move {move} for seat {hand.current}; legal moves: {shown}"


def play_cards(hand: Hand, p: int, move: Move) -> None:
    """Seat ``p`` plays the cards of ``move``."""
    held = hand.hands[p]
    cards = move.cards
    if len(cards) == 1:
        top = cards[0]
        _take(held, top)
        hand.discard.append(top)
    else:
        for c in cards:
            _take(held, c)
        hand.discard.extend(cards)
        top = cards[-1]
    hand.passes = 0
    was_wild = top.rank_value == hand.wild_ranks[p]
    left = len(held)
    hand.suit = move.suit if was_wild and move.suit is not None else top.suit
    hand.wild_top = was_wild
    if left == 0:
        if not hand.rules.countdown:
            # Going out: the special effect of the winner's last card is ignored.
            finish(hand, "out", (p,))
            return
        hand.scores[p] -= 1
        if hand.scores[p] == 0:
            finish(hand, "out", (p,))
            return
        # Countdown: drop a point and be dealt that many cards; your wild rank changes.
        hand.wild_ranks[p] = hand.scores[p]
        draw_cards(hand, p, hand.scores[p])
    elif left == 1 and hand._last_card and not move.announce:
        draw_cards(hand, p, 2)  # the last-card penalty
    skips = effects(hand, cards)
    _end_turn(hand, p, (p + hand.direction * (1 + skips)) % hand.n)


def effects(hand: Hand, cards: Sequence[Card]) -> int:
    """Apply the draw-two, draw-five and reverse effects of cards played (or turned)
    together; return how many players they skip."""
    five = hand._five
    skips = 0
    for c in cards:
        if c is five:
            # The draw-five card has only that effect.
            hand.pending += 5
            hand.pending_kind = "five"
            continue
        rank = c.rank_value
        if rank == hand._draw_two:
            hand.pending += 2
            hand.pending_kind = "two"
        if rank == hand._reverse and hand.n > 2:
            hand.direction = -hand.direction
        if rank == hand._skip:
            skips += 1
    return skips


def _skips(hand: Hand, cards: Sequence[Card]) -> int:
    return sum(1 for c in cards if c.rank_value == hand._skip and c is not hand._five)


def draw(hand: Hand, p: int) -> None:
    """Seat ``p`` draws: the pending penalty, or by the rules' way of drawing."""
    if hand.pending:
        # The penalty: draw two per Two (or five); the turn then passes.
        got = draw_cards(hand, p, hand.pending)
        hand.pending = 0
        hand.pending_kind = None
        if got:
            hand.passes = 0
        else:
            hand.passes += 1
        _end_turn(hand, p, (p + hand.direction) % hand.n)
        return
    hand.passes = 0
    rule = hand._draw_rule
    if rule == "one":
        stock = hand.stock
        if stock:
            hand.hands[p].append(stock.pop())
        else:
            draw_cards(hand, p, 1)
        _end_turn(hand, p, (p + hand.direction) % hand.n)
        return
    if rule == "until_playable":
        while True:
            got = draw_cards(hand, p, 1)
            hand.drawn += got
            if not got or playable(hand, hand.hands[p][-1], p):
                break
    else:
        got = draw_cards(hand, p, 1)
        hand.drawn += got
        if rule == "one_then_play" and got:
            hand.drawn_card = hand.hands[p][-1]
    # Still this player's turn, unless passing is all that is left.
    moves = hand._legal = generate(hand)
    if len(moves) == 1 and moves[0] is PASS:
        _end_turn(hand, p, (p + hand.direction) % hand.n)


def draw_cards(hand: Hand, p: int, count: int) -> int:
    """Move up to ``count`` cards from the stock to ``p``'s hand, reshuffling the
    discard pile when the stock runs out; returns how many were drawn."""
    held = hand.hands[p]
    stock = hand.stock
    got = 0
    while got < count:
        if not stock:
            if not _reshuffle(hand):
                break
            stock = hand.stock
        held.append(stock.pop())
        got += 1
    return got


def _reshuffle(hand: Hand) -> bool:
    if not hand._can_reshuffle or len(hand.discard) < 2:
        return False
    pile = hand.discard[:-1]
    del hand.discard[:-1]
    shuffle(hand.rng, pile)
    hand.stock = pile
    return True


def pass_turn(hand: Hand, p: int) -> None:
    """Seat ``p`` passes."""
    if hand.drawn == 0:
        hand.passes += 1
    _end_turn(hand, p, (p + hand.direction) % hand.n)


def nominate(hand: Hand, p: int, move: Move) -> None:
    """The dealer ``p`` nominates the suit of a wild starter."""
    hand.suit = move.suit
    hand.wild_top = True
    hand.phase = PLAYING
    skips = _skips(hand, (hand.discard[-1],))
    begin_turn(hand, (p + hand.direction * (1 + skips)) % hand.n)


def _end_turn(hand: Hand, p: int, nxt: int) -> None:
    hand.turns = turns = hand.turns + 1
    if hand.passes >= hand.n:
        finish(hand, "blocked", ())
    elif turns >= hand._turn_cap:
        finish(hand, "turn_cap", ())
    else:
        hand.current = nxt
        hand.drawn = 0
        hand.drawn_card = None
        hand._legal = None


def begin_turn(hand: Hand, seat: int) -> None:
    """Give ``seat`` the turn, with nothing drawn yet."""
    hand.current = seat
    hand.drawn = 0
    hand.drawn_card = None
    hand._legal = None


def _take(cards: list[Card], card: Card) -> None:
    """``cards.remove(card)`` by identity (cards are interned), without a comparison
    call per card passed."""
    for i in range(len(cards)):
        if cards[i] is card:
            del cards[i]
            return
    raise ValueError(f"{card} is not in the hand")
