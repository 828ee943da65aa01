"""Random playouts inside the engine: repeatable, legal, and ending every hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.engine import Hand, HandRecord, MoveKind, Rules

RULES = Rules.from_options("pagat", {"turn_cap": 400})


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(["pagat", "basic", "encyclopedia", "olsen", "countdown"]),
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32),
    plays_first=st.booleans(),
)
def test_a_playout_ends_the_hand_and_replays(
    preset: str, players: int, seed: int, plays_first: bool
) -> None:
    rules = Rules.from_options(preset, {"turn_cap": 300})
    hand = Hand.deal(rules, players, seed=seed)
    made = hand.play_out(random.Random(seed), plays_first=plays_first)
    assert hand.result is not None
    assert made == len(hand.moves)
    again = Hand.deal(rules, players, seed=seed)
    again.play_out(random.Random(seed), plays_first=plays_first)
    assert HandRecord.of(again) == HandRecord.of(hand)
    assert HandRecord.of(hand).replay(rules).result == hand.result


@pytest.mark.parametrize("plays_first", [False, True])
def test_each_move_is_one_the_policy_allows(plays_first: bool) -> None:
    rng = random.Random(5)
    for seed in range(20):
        hand = Hand.deal(RULES, 4, seed=seed)
        while hand.result is None:
            legal = list(hand.legal_moves())
            assert hand.play_out(rng, plays_first=plays_first, limit=1) == 1
            move = hand.moves[-1]
            assert move in legal
            if plays_first and any(m.is_play for m in legal):
                assert move.is_play


def test_uniform_playouts_draw_even_when_a_card_could_be_played() -> None:
    rng = random.Random(1)
    drew_instead = 0
    for seed in range(10):
        hand = Hand.deal(RULES, 2, seed=seed)
        while hand.result is None:
            legal = list(hand.legal_moves())
            hand.play_out(rng, limit=1)
            if hand.moves[-1].kind is MoveKind.DRAW and legal[0].is_play:
                drew_instead += 1
    assert drew_instead > 0


def test_a_limit_stops_early_and_an_ended_hand_makes_no_move() -> None:
    hand = Hand.deal(RULES, 3, seed=9)
    assert hand.play_out(random.Random(0), limit=5) == 5
    assert len(hand.moves) == 5 and hand.result is None
    hand.play_out(random.Random(0))
    assert hand.play_out(random.Random(0)) == 0
