"""The legal moves of the player to act.

:func:`generate` lists them in a fixed order: the plays first, in the order of the
cards in hand, then at most one draw or pass; or, when the dealer names the suit of a
wild starter, the four nominations. It takes one of two paths to the plays:

* the general path, the rules as written: :func:`playable_cards` picks the cards
  that may be played (:func:`answers` those that answer a pending draw), and
  :func:`plays` makes every play each of them starts: equal cards played together,
  nominations and last-card calls;
* the fast path, :func:`fast_plays`, for the common rules (one card at a time, wild
  cards that always or never nominate, going out on any card): one pass over the
  hand, taking ready-made moves. It makes the same moves in the same order as the
  general path, which ``tests/engine/test_move_paths.py`` checks over random
  positions of every preset.
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import TYPE_CHECKING, Final

from c8league.engine.cards import Card, Suit
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
from c8league.engine.state import NO_RANK, OVER, PLAYING

if TYPE_CHECKING:
    from c8league.engine.hand import Hand

_ALL_SUITS: Final = tuple(Suit)
_SUITS_OR_NONE: Final[tuple[Suit | None, ...]] = (None,)
_ANNOUNCE_BOTH: Final = (False, True)
_ANNOUNCE_NO: Final = (False,)


def generate(hand: Hand) -> list[Move]:
    """The legal moves of the player to act, in their fixed order (see the module)."""
    phase = hand.phase
    if phase is not PLAYING:
        return [] if phase is OVER else [NOMINATE[s] for s in _ALL_SUITS]
    p = hand.current
    cards = hand.hands[p]
    if hand.pending:
        firsts = answers(hand, p, cards)
        moves = plays(hand, p, cards, firsts) if firsts else []
        moves.append(DRAW)
        return moves
    if hand._fast and hand.suit is not None:
        drawn_card = hand.drawn_card
        if drawn_card is None:
            moves = fast_plays(hand, p, cards, len(cards))
        else:  # one then play: only the card just drawn may be played
            moves = fast_plays(hand, p, [drawn_card], len(cards))
    else:
        moves = general_plays(hand, p, cards)
    if moves and hand._must_play:
        return moves
    if hand.drawn == 0:
        can_draw = len(hand.stock) > 0 or (hand._can_reshuffle and len(hand.discard) > 1)
        moves.append(DRAW if can_draw else PASS)
    elif hand._draw_rule == "up_to" and hand.drawn < hand.rules.draw_limit and hand.can_draw():
        moves.append(DRAW)
    elif hand._draw_rule != "until_playable" or not moves:
        moves.append(PASS)
    return moves


# ---------------------------------------------------------------- the general path


def general_plays(hand: Hand, p: int, cards: list[Card]) -> list[Move]:
    """The plays of seat ``p``, holding ``cards``, when no draw is pending: the rules as
    written, for any rules and position."""
    drawn_card = hand.drawn_card
    if drawn_card is not None:
        # One then play: only the card just drawn may be played.
        firsts = playable_cards(hand, p, [drawn_card])
    else:
        firsts = playable_cards(hand, p, cards)
        if hand._two_packs and len(firsts) > 1:
            firsts = list(dict.fromkeys(firsts))  # the same card twice is one choice
    return plays(hand, p, cards, firsts) if firsts else []


def playable_cards(hand: Hand, p: int, cards: list[Card]) -> list[Card]:
    """Those of ``cards`` that seat ``p`` may play (first, when several are played
    together): a card of the suit to follow or of the top card's rank (after a wild
    card, only where the rules allow it), or one of the seat's wild cards (one that
    must match follows suit or rank as any card does)."""
    suit = hand.suit
    if suit is None:  # any card may be played
        return list(cards)
    # Suits and ranks are singletons: ``is`` compares them without a method call.
    top_rank = hand.discard[-1].rank
    wild = hand.wild_ranks[p]
    follows_rank = not hand.wild_top or hand._equal_on_wild
    free_wild = not hand._wild_must_match
    return [
        c
        for c in cards
        if c.suit is suit
        or (c.rank is top_rank and (follows_rank or c.rank_value == wild))
        or (free_wild and c.rank_value == wild)
    ]


def playable(hand: Hand, card: Card, p: int) -> bool:
    """Whether seat ``p`` may play ``card``: see :func:`playable_cards`."""
    return bool(playable_cards(hand, p, [card]))


def answers(hand: Hand, p: int, cards: list[Card]) -> list[Card]:
    """Cards that answer a pending draw: another draw-two (of the nominated suit when
    a wild Two set it, unless it is the player's own wild) or another draw-five card."""
    if hand.pending_kind == "five":
        found = [c for c in cards if c is hand._five]
    else:
        two = hand._draw_two
        five = hand._five
        found = [c for c in cards if c.rank_value == two and c is not five]
        if hand.wild_top and hand.suit is not None:
            suit = hand.suit
            wild = hand.wild_ranks[p]
            found = [c for c in found if c.suit is suit or c.rank_value == wild]
    return list(dict.fromkeys(found))


def plays(hand: Hand, p: int, cards: list[Card], firsts: list[Card]) -> list[Move]:
    """Every play starting with one of ``firsts``: nominations and last-card calls."""
    rules = hand.rules
    moves: list[Move] = []
    size = len(cards)
    wild = hand.wild_ranks[p]
    for first in firsts:
        groups: list[tuple[Card, ...]] = [(first,)]
        if rules.multiple_equal:
            groups.extend(_extensions(first, cards))
        for group in groups:
            left = size - len(group)
            last = group[-1]
            ends = left == 0 and (not rules.countdown or hand.scores[p] == 1)
            if left == 0 and hand._forbid_special_out and hand.is_special(last, p):
                continue
            suits: tuple[Suit | None, ...] = _SUITS_OR_NONE
            if last.rank_value == wild and not ends:
                nominates = rules.wild_nominates
                if nominates == "always" or (
                    nominates == "if_matching" and _matches_top(hand, first)
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


def _matches_top(hand: Hand, card: Card) -> bool:
    suit = hand.suit
    return suit is None or card.suit is suit or card.rank is hand.discard[-1].rank


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


# ---------------------------------------------------------------- the fast path


def fast_plays(hand: Hand, p: int, cards: list[Card], size: int) -> list[Move]:
    """:func:`general_plays` in one pass over ``cards`` (the hand of seat ``p``, or the
    card it just drew), from ready-made moves, for a hand of ``size`` cards, where
    ``hand._fast`` says the rules allow it (single cards, wild cards that always or
    never nominate, going out on any card, not Countdown) and the position too (a
    suit to follow, no draw pending). Same moves, same order, the same move objects."""
    suit = hand.suit
    top_rank = hand.discard[-1].rank_value
    # A wild top card is followed by suit (or another wild), not by its rank.
    top = NO_RANK if hand.wild_top and not hand._equal_on_wild else top_rank
    wild = hand.wild_ranks[p]
    # A wild card that must match is played on its suit or on its own rank, like any
    # other card: only when the top card has its rank does its rank match.
    wild_match = NO_RANK if hand._wild_must_match and wild != top_rank else wild
    nominate = hand._nominates and size > 1
    calls = hand._last_card and size == 2
    dedupe = hand._two_packs
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
