"""Engine values survive pickling and copying, compiled or not (worker processes and
search bots rely on it)."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable

import pytest

from c8league.engine import Hand, HandRecord, Rules
from c8league.engine.state import POSITION

RULES = Rules.from_options("pagat", {"multiple_equal": True, "turn_cap": 500})

Copier = Callable[[object], object]
COPIERS: dict[str, Copier] = {
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}


def mid_hand() -> Hand:
    hand = Hand.deal(RULES, 4, dealer=1, seed=21)
    hand.play_out(random.Random(2), limit=23)
    return hand


@pytest.mark.parametrize("how", COPIERS)
def test_values_round_trip(how: str) -> None:
    finished = mid_hand()
    finished.play_out(random.Random(4))
    observation = mid_hand().observation(2)
    values = [
        RULES,
        Rules.from_options("countdown"),
        finished.result,
        observation.snapshot(),
    ]
    for value in values:
        again = COPIERS[how](value)
        assert again == value and type(again) is type(value)
    history = COPIERS[how](observation.history)
    assert list(history) == list(observation.history)


@pytest.mark.parametrize("how", COPIERS)
def test_a_copied_hand_has_the_same_position_and_plays_on_alike(how: str) -> None:
    hand = mid_hand()
    again = COPIERS[how](hand)
    assert isinstance(again, Hand)
    for name in POSITION:
        if name != "rng":
            assert getattr(again, name) == getattr(hand, name), name
    assert again.rng.getstate() == hand.rng.getstate()
    assert again.rules == hand.rules and again.legal_moves() == hand.legal_moves()
    again.play_out(random.Random(8))
    hand.play_out(random.Random(8))
    assert HandRecord.of(again) == HandRecord.of(hand)


def test_a_copy_owns_its_containers() -> None:
    hand = mid_hand()
    for again in (hand.copy(), pickle.loads(pickle.dumps(hand))):
        again.play_out(random.Random(1))
        assert hand.result is None and len(hand.moves) == 23
