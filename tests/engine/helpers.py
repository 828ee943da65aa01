"""Set-up shared by the rule tables: rule sets, explicit positions, legal-move sets and
snapshots of a hand's whole state."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from c8league.engine import ALL_CARDS, Hand, HandRecord, Move, Rules, Suit, parse_cards
from c8league.engine.rules import OptionValue


def rules(preset: str = "pagat", **options: OptionValue) -> Rules:
    """A preset with overrides, e.g. ``rules(multiple_equal=True)``."""
    return Rules.from_options(preset, options)


def ruleset(options: Mapping[str, OptionValue], preset: str = "pagat") -> Rules:
    """A preset with overrides given as a table row's mapping."""
    return Rules.from_options(preset, options)


def position(
    rule_set: Rules,
    hands: Sequence[str],
    discard: str,
    *,
    stock: str | None = None,
    dealer: int | None = None,
    **kwargs: Any,
) -> Hand:
    """``Hand.from_position`` with seat 0 to act by default (the dealer is the last seat).
    Without ``stock``, the stock is the rest of the pack(s) in pack order."""
    players = len(hands)
    if stock is None:
        decks = rule_set.decks_for(players)
        counts = Counter({card: decks for card in ALL_CARDS})
        counts.subtract(parse_cards(" ".join([*hands, discard])))
        stock = " ".join(str(card) for card in ALL_CARDS for _ in range(max(counts[card], 0)))
    return Hand.from_position(
        rule_set,
        hands=list(hands),
        discard=discard,
        stock=stock,
        dealer=players - 1 if dealer is None else dealer,
        **kwargs,
    )


def legal(hand: Hand) -> set[str]:
    """The legal moves of the player to act, as text."""
    return {str(move) for move in hand.legal_moves()}


def nominations(card: str, *, announce: bool = False) -> set[str]:
    """The four plays of a wild ``card``, one per nominated suit."""
    mark = "!" if announce else ""
    return {f"{card}:{suit}{mark}" for suit in Suit}


def play(hand: Hand, moves: str) -> Hand:
    """Apply space-separated moves in order."""
    for text in moves.split():
        hand.apply(Move.parse(text))
    return hand


def cards(text: str) -> list[str]:
    """Card texts in canonical form, for comparing hands."""
    return [str(card) for card in parse_cards(text)]


def held(hand: Hand, seat: int) -> list[str]:
    return [str(card) for card in hand.hands[seat]]


def snapshot(hand: Hand) -> dict[str, Any]:
    """Everything observable about a hand: every seat's observation, the full state,
    the legal moves, the record and the random state."""
    views = [hand.observation(seat).snapshot() for seat in range(hand.n)]
    return {
        "observations": views,
        "hands": [list(cards_) for cards_ in hand.hands],
        "stock": list(hand.stock),
        "discard": list(hand.discard),
        "state": (hand.current, hand.direction, hand.suit, hand.wild_top, hand.pending),
        "phase": hand.phase,
        "result": hand.result,
        "legal": [str(move) for move in hand.legal_moves()],
        "record": HandRecord.of(hand).to_json(),
        "rng": hand.rng.getstate(),
    }
