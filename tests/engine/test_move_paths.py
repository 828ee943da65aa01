"""The two paths to the legal plays agree: the fast path (one pass over the hand, from
ready-made moves) makes the same moves, in the same order, as the general path (the
rules as written), over random positions of every preset with random house rules
(Countdown's rules always take the general path); and the plays a hand offers are
always those of the general path."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.engine import PRESETS, Hand, Rules, preset_rules

from .helpers import any_rules, check_paths, positions, rule_sets, table_for


def fast_rules(rules: Rules) -> bool:
    """The rules under which the fast path may be taken, as its docstring states them."""
    return not (
        rules.multiple_equal
        or rules.countdown
        or rules.specials_on_going_out == "forbidden"
        or rules.wild_nominates == "if_matching"
    )


@settings(max_examples=400, deadline=None)
@given(hand=positions(rule_sets(fast_path=True)))
def test_the_paths_agree_at_any_position(hand: Hand) -> None:
    assert hand._fast
    check_paths(hand)


@settings(max_examples=200, deadline=None)
@given(hand=positions())
def test_a_hand_offers_the_plays_of_the_general_path(hand: Hand) -> None:
    assert hand._fast == fast_rules(hand.rules)
    check_paths(hand)


@settings(max_examples=120, deadline=None)
@given(
    rules=any_rules(),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**32),
    play=st.integers(),
)
def test_the_paths_agree_through_whole_hands(
    rules: Rules, players: int, seed: int, play: int
) -> None:
    players = table_for(rules, players)
    hand = Hand.deal(rules, players, dealer=seed % players, seed=seed)
    rng = random.Random(play)
    while not hand.over:
        check_paths(hand)
        hand.apply(rng.choice(hand.legal_moves()))


def test_each_preset_takes_the_path_its_rules_allow() -> None:
    for name in PRESETS:
        rules = preset_rules(name)
        hand = Hand.deal(rules, 4, seed=3)
        fast = 0
        rng = random.Random(3)
        while not hand.over:
            fast += check_paths(hand)
            hand.apply(rng.choice(hand.legal_moves()))
        assert (fast > 0) == fast_rules(rules), name
