"""Properties of the engine over random rule sets, table sizes, seeds and play."""

from __future__ import annotations

import random

# The strategies are shared with the engine's tests (tests/ is on the path: conftest.py).
from engine.helpers import rule_sets, table_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from c8league.engine import Hand, HandRecord, Match, Move, MoveKind, Observation, Rules
from c8league.engine.observation import ObservationSnapshot, StaleObservationError


def play_random(hand: Hand, rng: random.Random) -> None:
    total = hand.card_count()
    while not hand.over:
        legal = hand.legal_moves()
        assert_ordered(legal)
        hand.apply(rng.choice(legal))
        assert hand.card_count() == total


def assert_ordered(legal: list[Move]) -> None:
    """Plays first, then at most one draw or pass; or the four nominations."""
    if legal[0].kind is MoveKind.NOMINATE:
        assert [m.kind for m in legal] == [MoveKind.NOMINATE] * 4
        return
    others = [m for m in legal if not m.is_play]
    assert len(others) <= 1 and (not others or legal[-1] is others[0])
    assert [m.kind for m in others] in ([], [MoveKind.DRAW], [MoveKind.PASS])


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        [list(h) for h in hand.hands],
        list(hand.stock),
        list(hand.discard),
        hand.current,
        hand.direction,
        hand.suit,
        hand.pending,
        list(hand.scores),
        hand.result,
        [str(m) for m in hand.moves],
    )


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(rules=rule_sets(), players=st.integers(2, 8), seed=st.integers(0, 2**32), play=st.integers())
def test_cards_conserved_and_every_hand_ends(
    rules: Rules, players: int, seed: int, play: int
) -> None:
    players = table_for(rules, players)
    hand = Hand.deal(rules, players, dealer=seed % players, seed=seed)
    decks = rules.decks_for(players)
    assert hand.card_count() == 52 * decks
    play_random(hand, random.Random(play))
    assert hand.result is not None
    assert hand.result.kind in ("out", "blocked", "turn_cap")
    assert hand.turns <= rules.turn_cap
    assert hand.card_count() == 52 * decks


@SETTINGS
@given(rules=rule_sets(), players=st.integers(2, 8), seed=st.integers(0, 2**32), play=st.integers())
def test_same_seed_same_record_and_replay(rules: Rules, players: int, seed: int, play: int) -> None:
    players = table_for(rules, players)
    first = Hand.deal(rules, players, dealer=0, seed=seed)
    play_random(first, random.Random(play))
    second = Hand.deal(rules, players, dealer=0, seed=seed)
    play_random(second, random.Random(play))
    record = HandRecord.of(first)
    assert record == HandRecord.of(second)
    again = HandRecord.from_json(record.to_json()).replay(rules)
    assert snapshot(again) == snapshot(first)


def hide_others(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same position with every card ``seat`` cannot see shuffled among the places
    it cannot see (other hands, the stock), keeping their sizes."""
    other = hand.copy()
    hidden = [c for i, h in enumerate(other.hands) if i != seat for c in h] + other.stock
    rng.shuffle(hidden)
    for i, h in enumerate(other.hands):
        if i != seat:
            size = len(h)
            other.hands[i] = hidden[:size]
            del hidden[:size]
    other.stock = hidden
    return other


def comparable(obs: Observation) -> ObservationSnapshot:
    return obs.snapshot()


@settings(max_examples=60, deadline=None)
@given(rules=rule_sets(), players=st.integers(2, 6), seed=st.integers(0, 2**32), play=st.integers())
def test_no_observation_shows_another_players_cards(
    rules: Rules, players: int, seed: int, play: int
) -> None:
    players = table_for(rules, players)
    hand = Hand.deal(rules, players, seed=seed)
    rng = random.Random(play)
    steps = 0
    while not hand.over and steps < 60:
        for seat in range(players):
            masked = hide_others(hand, seat, rng)
            assert comparable(masked.observation(seat)) == comparable(hand.observation(seat))
        hand.apply(rng.choice(hand.legal_moves()))
        steps += 1
    for _, move in hand.history:
        if move.kind is MoveKind.DRAW:
            assert move.cards == ()


@settings(max_examples=30, deadline=None)
@given(preset=st.sampled_from(["pagat", "basic", "olsen", "countdown"]), players=st.integers(2, 8))
def test_matches_end_with_placements(preset: str, players: int) -> None:
    rules = Rules.from_options(preset, {"turn_cap": 300})
    match = Match(rules, players, seed=players)
    rng = random.Random(players)
    while not match.over:
        plays = [m for m in match.legal_moves() if m.is_play]
        match.apply(rng.choice(plays or match.legal_moves()))
    assert match.result is not None
    assert sorted(match.result.placements)[0] == 1
    assert all(1 <= p <= players for p in match.result.placements)


def test_observation_is_valid_for_its_decision_only() -> None:
    hand = Hand.deal(Rules(), 3, seed=4)
    obs = hand.observation(hand.current)
    kept = obs.snapshot()
    hand.apply(hand.legal_moves()[0])
    try:
        _ = obs.hand
    except StaleObservationError:
        pass
    else:
        raise AssertionError("a stale observation must not be readable")
    assert kept.hand and kept.seat == obs.seat
    assert kept.to_dict()["seat"] == kept.seat
