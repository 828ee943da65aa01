"""Playouts: a fast rule-of-thumb policy for every seat, and the value of where it ends.

The policy reads the engine's :class:`~c8league.engine.Hand` directly (no observations)
and picks among its legal moves: go out when possible, answer or play an attacking
card against a player about to go out, otherwise shed the non-wild play of highest
penalty value, play a wild card only when nothing else fits (nominating the suit held
most), and draw only when there is no play.
"""

from __future__ import annotations

import math
from typing import Final

from c8league.engine import ALL_CARDS, Card, Hand, Move, MoveKind, Phase, Rules, Suit

_PENALTY: Final = tuple(card.rank.penalty for card in ALL_CARDS)
_RANK: Final = tuple(int(card.rank) for card in ALL_CARDS)
_SUIT: Final = tuple(int(card.suit) for card in ALL_CARDS)
_NO_RANK: Final = -1

_SHED: Final = 1_000
"""Base value of a play that keeps the player's wild cards."""
_ATTACK: Final = 400
"""Bonus of a skip, draw-two or draw-five card when the next player is about to go out."""


class Policy:
    """The default policy of playouts for one rule set."""

    __slots__ = ("_attack_ranks", "_five", "_players", "_reverse")

    def __init__(self, rules: Rules, players: int) -> None:
        self._players = players
        ranks = {rules.skip_rank, rules.draw_two_rank}
        if players > 2:
            ranks.add(rules.reverse_rank)
        self._attack_ranks = frozenset(int(r) for r in ranks if r is not None)
        self._five = -1 if rules.draw_five_card is None else rules.draw_five_card.index

    def choose(self, hand: Hand) -> Move:
        """The policy's move for the player to act in ``hand``."""
        legal = hand.legal_moves()
        if len(legal) == 1:
            return legal[0]
        p = hand.current
        cards_held = hand.hands[p]
        if hand.phase is Phase.NOMINATE:
            return _nominate(legal, cards_held)
        size = len(cards_held)
        wild = hand.wild_ranks[p]
        threat = len(hand.hands[(p + hand.direction) % self._players]) <= 2
        attack_ranks = self._attack_ranks
        five = self._five
        best: Move | None = None
        best_value = -1
        for move in legal:
            if move.kind is not MoveKind.PLAY:
                continue
            cards = move.cards
            if len(cards) == size:
                return move
            last = cards[-1].index
            value = 0 if _RANK[last] == wild else _SHED
            for card in cards:
                value += _PENALTY[card.index]
            if threat and (_RANK[last] in attack_ranks or last == five):
                value += _ATTACK
            value = 2 * value + move.announce
            if value > best_value:
                best_value = value
                best = move
        if best is None:
            return legal[-1]  # draw, or pass when drawing is not possible
        if best.suit is not None:
            return _best_suit(best, cards_held)
        return best


def _nominate(legal: list[Move], cards_held: list[Card]) -> Move:
    counts = [0, 0, 0, 0]
    for card in cards_held:
        counts[_SUIT[card.index]] += 1
    return max(legal, key=lambda m: counts[int(m.suit)] if m.suit is not None else -1)


def _best_suit(move: Move, cards_held: list[Card]) -> Move:
    """The same play nominating the suit held most after it."""
    counts = [0, 0, 0, 0]
    for card in cards_held:
        counts[_SUIT[card.index]] += 1
    for card in move.cards:
        counts[_SUIT[card.index]] -= 1
    suit = Suit(counts.index(max(counts)))
    if suit is move.suit:
        return move
    return Move(MoveKind.PLAY, move.cards, suit, move.announce)


def copy_position(hand: Hand) -> Hand:
    """A copy of ``hand`` to play out, sharing its random generator for reshuffles (the
    playouts of a decision draw from one stream; the set-up itself is never played)."""
    return hand.copy(rng=hand.rng)


def run(hand: Hand, policy: Policy, horizon: int) -> None:
    """Play ``hand`` with ``policy`` until it is over or ``horizon`` moves were made
    (``horizon`` 0: no limit but the rules' own turn cap)."""
    choose = policy.choose
    apply = hand.apply
    if horizon <= 0:
        while hand.phase is not Phase.OVER:
            apply(choose(hand))
        return
    for _ in range(horizon):
        if hand.phase is Phase.OVER:
            return
        apply(choose(hand))


# Weights of the estimate of who wins a hand cut short, fitted by maximum likelihood to
# positions of hands played by this policy (pagat, basic and olsen rules, 2 to 4 players).
_CARD_WEIGHT: Final = {2: -0.15, 3: -0.25}
_CARD_WEIGHT_MORE: Final = -0.33
_ONE_CARD: Final = 0.53
_TWO_CARDS: Final = 0.23
_WILD: Final = 0.9
_TO_MOVE: Final = 0.12
_NEXT: Final = 0.05
_PENDING: Final = -0.18


def win_chances(hand: Hand) -> list[float]:
    """Each seat's chance to win the hand: 1 for the winner of a finished hand (shared
    when blocked), else a logistic estimate from the cards each seat holds, its wild
    cards, the order of play and a pending draw."""
    result = hand.result
    n = hand.n
    if result is not None:
        share = 1.0 / len(result.winners)
        return [share if seat in result.winners else 0.0 for seat in range(n)]
    card_weight = _CARD_WEIGHT.get(n, _CARD_WEIGHT_MORE)
    current = hand.current
    direction = hand.direction
    wild_ranks = hand.wild_ranks
    weights: list[float] = []
    for seat, cards in enumerate(hand.hands):
        size = len(cards)
        wild = wild_ranks[seat]
        score = card_weight * size
        if size <= 2:
            score += _TWO_CARDS + (_ONE_CARD if size <= 1 else 0.0)
        for card in cards:
            if _RANK[card.index] == wild:
                score += _WILD
        order = (seat - current) * direction % n
        if order == 0:
            score += _TO_MOVE + _PENDING * hand.pending
        elif order == 1 and n > 2:
            score += _NEXT
        weights.append(math.exp(score))
    total = sum(weights)
    return [w / total for w in weights]
