"""``greedy``: a rule-of-thumb player.

In order, it:

1. goes out whenever a play empties its hand;
2. answers a pending draw-two or draw-five with its own card when it can;
3. when the next player is about to go out (one or two cards), plays a skip,
   draw-two or draw-five card (or a reverse at a table of three or more) if it has one;
4. otherwise sheds the non-wild play of highest penalty value (several equal
   cards at once when allowed), keeping its wild cards for when nothing else fits;
5. plays a wild card only when it has no other play, nominating the suit it
   holds most of after the play;
6. always announces "last card"; draws only when it has no play.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from c8league.engine import Card, Move, Observation, Suit, card_penalty
from c8league.players.base import BasePlayer, PlayerOptions


class GreedyPlayer(BasePlayer):
    """Rule of thumb: shed high cards, keep eights, attack a player about to go out.

    It takes no options; the module docstring gives its rules in order.
    """

    name = "greedy"
    options_model = PlayerOptions  # no options

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        obs = observation
        plays = [m for m in legal if m.is_play and (m.announce or not _has_announce(m, legal))]
        if not plays:
            nominations = [m for m in legal if m.suit is not None and not m.is_play]
            if nominations:
                return _best_nomination(obs.hand, nominations)
            return legal[0]
        hand_size = len(obs.hand)
        wild = obs.wild_rank
        out = [m for m in plays if len(m.cards) == hand_size]
        if out:
            return out[0]
        if obs.hand_sizes[obs.next_seat()] <= 2:
            attack = [m for m in plays if _attacks(m.cards[-1], obs)]
            if attack:
                return _pick(obs, attack)
        normal = [m for m in plays if m.cards[-1].rank != wild]
        return _pick(obs, normal or plays)


def _pick(obs: Observation, plays: list[Move]) -> Move:
    """The play shedding the most penalty points; a wild card nominates its best suit."""
    wild_rank = -1 if obs.wild_rank is None else int(obs.wild_rank)

    def value(m: Move) -> tuple[int, int]:
        return (sum(card_penalty(c, wild_rank) for c in m.cards), len(m.cards))

    best = max(value(m) for m in plays)
    candidates = [m for m in plays if value(m) == best]
    nominating = [m for m in candidates if m.suit is not None and m.cards == candidates[0].cards]
    if nominating:
        rest = list(obs.hand)
        for c in candidates[0].cards:
            rest.remove(c)
        return _best_nomination(rest, nominating)
    return candidates[0]


def _has_announce(move: Move, legal: Sequence[Move]) -> bool:
    return any(m.announce and m.cards == move.cards and m.suit == move.suit for m in legal)


def _attacks(card: Card, obs: Observation) -> bool:
    rules = obs.rules
    return (
        card.rank == rules.skip_rank
        or card.rank == rules.draw_two_rank
        or card == rules.draw_five_card
        or (card.rank == rules.reverse_rank and obs.players > 2)
    )


def _best_nomination(cards: Sequence[Card], moves: Sequence[Move]) -> Move:
    counts = Counter(c.suit for c in cards)

    def weight(m: Move) -> tuple[int, int]:
        suit = m.suit if m.suit is not None else Suit.C
        return (counts[suit], -int(suit))

    return max(moves, key=weight)
