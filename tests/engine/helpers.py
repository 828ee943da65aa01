"""Set-up shared by the engine's tests: rule sets, explicit positions, legal-move sets,
snapshots of a hand's whole state, and hypothesis strategies for rule sets and
positions."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from c8league.engine import (
    ALL_CARDS,
    PRESETS,
    Hand,
    HandRecord,
    Move,
    Phase,
    Rules,
    Suit,
    parse_cards,
    preset_rules,
)
from c8league.engine.rules import COUNTDOWN_START, OptionValue


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
    """The legal moves of the player to act, as text (checking on the way that both
    paths to the plays agree: every row of the rule tables checks the general path)."""
    check_paths(hand)
    return {str(move) for move in hand.legal_moves()}


def takes_fast_path(hand: Hand) -> bool:
    """Whether the rules and the position let the hand take the fast path."""
    return hand._fast and hand.suit is not None


def check_paths(hand: Hand) -> bool:
    """At this position, the plays the hand offers are those of the general path and,
    where the fast path may be taken, those of the fast path too: the same moves (the
    same objects) in the same order. Returns whether the fast path was compared."""
    if hand.phase is not Phase.PLAY or hand.pending:
        return False  # nominations and answers to a draw have one path only
    p = hand.current
    cards = list(hand.hands[p])
    general = hand._general_plays(p, cards)
    assert [m for m in hand.legal_moves() if m.is_play] == general
    if not takes_fast_path(hand):
        return False
    drawn = hand.drawn_card
    fast = hand._fast_plays(p, cards if drawn is None else [drawn], len(cards))
    assert [str(m) for m in fast] == [str(m) for m in general]
    assert all(a is b for a, b in zip(fast, general, strict=True))  # the same objects
    return True


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


# ---------------------------------------------------------------- hypothesis strategies


@st.composite
def rule_sets(draw: st.DrawFn, *, fast_path: bool = False) -> Rules:
    """A preset with every house rule drawn at random; with ``fast_path``, only rules
    under which the legal plays may come from the fast path: every preset but
    Countdown, one card at a time, wild cards that always or never nominate, going out
    on any card."""
    presets = [name for name in PRESETS if not (fast_path and preset_rules(name).countdown)]
    preset = draw(st.sampled_from(presets))
    nominates = ["always", "never"] if fast_path else ["always", "never", "if_matching"]
    options: dict[str, str | int | bool] = {
        "draw": draw(st.sampled_from(["one", "one_then_play", "up_to", "until_playable"])),
        "draw_limit": draw(st.integers(1, 4)),
        "must_play_if_able": draw(st.booleans()),
        "wild_must_match": draw(st.booleans()),
        "wild_nominates": draw(st.sampled_from(nominates)),
        "multiple_equal": False if fast_path else draw(st.booleans()),
        "last_card": draw(st.booleans()),
        "empty_stock": draw(st.sampled_from(["reshuffle", "pass"])),
        "specials_on_going_out": (
            "ignored" if fast_path else draw(st.sampled_from(["ignored", "forbidden"]))
        ),
        "starter_eight": draw(st.sampled_from(["dealer_nominates", "any_card"])),
        "equal_rank_on_wild": draw(st.booleans()),
        "turn_cap": draw(st.integers(20, 400)),
    }
    if preset != "countdown":
        options["wild_rank"] = draw(st.sampled_from(["8", "J", "none"]))
        options["draw_five_card"] = draw(st.sampled_from(["none", "QS", "KH"]))
    if draw(st.booleans()):
        options["decks"] = draw(st.sampled_from(["auto", 1, 2]))
    return Rules.from_options(preset, options)


def table_for(rules: Rules, players: int) -> int:
    """The largest table up to ``players`` that the rules can deal."""
    while players > 2:
        try:
            rules.check_table(players)
            return players
        except ValueError:
            players -= 1
    return 2


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A preset as it is, or with every house rule drawn at random."""
    if draw(st.booleans()):
        return preset_rules(draw(st.sampled_from(list(PRESETS))))
    return draw(rule_sets())


@st.composite
def positions(draw: st.DrawFn, rules_from: st.SearchStrategy[Rules] | None = None) -> Hand:
    """A position set up with ``Hand.from_position``: the pack(s) in a random order
    split into hands, a discard pile and a stock, with a random player to act, suit to
    follow, wild top card, pending draw and (in Countdown) scores; often with a wild
    card on top of the pile or in the hand of the player to act; under ``one then
    play``, sometimes just after the player to act drew."""
    rule_set = draw(any_rules() if rules_from is None else rules_from)
    players = table_for(rule_set, draw(st.integers(2, 8)))
    # The deal is uniform (hypothesis would favour pack order and small hands).
    deal = random.Random(draw(st.integers(0, 2**32)))
    deck = list(ALL_CARDS) * rule_set.decks_for(players)
    deal.shuffle(deck)
    most = min(9, (len(deck) - 1) // players)  # leaving the discard pile its top card
    hands = []
    for _ in range(players):
        size = deal.randint(1, most)
        hands.append(deck[:size])
        del deck[:size]
    piled = draw(st.integers(1, 4))
    discard, stock = deck[:piled], deck[piled:]
    scores = None
    if rule_set.countdown:
        scores = [draw(st.integers(1, COUNTDOWN_START)) for _ in range(players)]
    current = draw(st.integers(0, players - 1))
    direction = draw(st.sampled_from([1, -1]))

    def wild_rank(seat: int) -> int | None:
        if scores is not None:
            return scores[seat]
        return None if rule_set.wild_rank is None else int(rule_set.wild_rank)

    # Often, the cards that make a difference: a wild card on top of the pile (played
    # by the seat before), one in the hand of the player to act, and a card of the top
    # card's rank there.
    held = hands[current]
    wanted = [
        (discard, -1, lambda card: card.rank_value == wild_rank((current - direction) % players)),
        (held, -1, lambda card: card.rank_value == wild_rank(current)),
        (held, 0, lambda card: card.rank is discard[-1].rank),
    ]
    for place, at, wanted_card in wanted:
        found = [i for i, card in enumerate(stock) if wanted_card(card)]
        if found and draw(st.booleans()):
            i = draw(st.sampled_from(found))
            place[at], stock[i] = stock[i], place[at]
    hand = Hand.from_position(
        rule_set,
        hands,
        discard=discard,
        stock=stock,
        dealer=draw(st.integers(0, players - 1)),
        current=current,
        direction=direction,
        suit=draw(st.sampled_from([None, *Suit])),
        wild_top=draw(st.none() | st.booleans()),
        pending=draw(st.sampled_from([0, 0, 0, 2, 4, 5])),
        scores=scores,
    )
    if rule_set.draw == "one_then_play" and not hand.pending and draw(st.booleans()):
        hand.drawn = 1
        hand.drawn_card = hand.hands[hand.current][-1]
    return hand
