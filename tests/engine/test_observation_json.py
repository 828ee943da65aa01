"""An observation's one JSON form: the same for a live observation and its snapshot,
in a fixed order of fields, sendable in parts (the fields, then the history from any
move on) that add up to the whole, and read back as the snapshot (``from_dict``)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.engine import Hand, Move, Rules
from c8league.engine.observation import ObservationSnapshot
from c8league.errors import WireError

from .helpers import any_rules, position, rules, table_for

FIELDS = [
    "seat",
    "players",
    "dealer",
    "current",
    "phase",
    "hand",
    "top",
    "suit",
    "wild_top",
    "pending",
    "pending_kind",
    "direction",
    "hand_sizes",
    "stock_size",
    "discard_size",
    "drawn",
    "drawn_card",
    "turn",
    "scores",
    "wild_ranks",
    "target",
    "hand_number",
    "history",
]


def test_the_form_of_a_known_position() -> None:
    hand = position(rules(), ["3D 8C KH", "5S 6S"], "10C KC", stock="2H 4H")
    hand.apply(Move.parse("8C:H"))
    form = hand.observation(0).to_dict()
    assert list(form) == FIELDS
    assert form == {
        "seat": 0,
        "players": 2,
        "dealer": 1,
        "current": 1,
        "phase": 1,
        "hand": ["3D", "KH"],
        "top": "8C",
        "suit": "H",
        "wild_top": True,
        "pending": 0,
        "pending_kind": None,
        "direction": 1,
        "hand_sizes": [2, 2],
        "stock_size": 2,
        "discard_size": 3,
        "drawn": 0,
        "drawn_card": None,
        "turn": 1,
        "scores": [0, 0],
        "wild_ranks": ["8", "8"],
        "target": 100,
        "hand_number": 0,
        "history": [[0, "8C:H"]],
    }
    assert json.dumps(form, separators=(",", ":")).endswith(
        '"target":100,"hand_number":0,"history":[[0,"8C:H"]]}'
    )


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_live_kept_and_in_parts_alike(rules: Rules, players: int, seed: int) -> None:
    players = table_for(rules, players)
    hand = Hand.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    while not hand.over and hand.turns < 60:
        for seat in range(players):
            obs = hand.observation(seat)
            form = obs.to_dict()
            assert list(form) == FIELDS
            assert obs.snapshot().to_dict() == form
            assert json.loads(json.dumps(form)) == form
            head = obs.to_dict(history=False)
            assert {**head, "history": obs.history_json()} == form
            assert list(head) == FIELDS[:-1]
            start = rng.randrange(len(form["history"]) + 1)
            assert obs.history_json(start) == form["history"][start:]
            assert obs.snapshot().history_json(start) == form["history"][start:]
        hand.apply(rng.choice(hand.legal_moves()))


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_the_json_form_reads_back_as_the_snapshot(rules: Rules, players: int, seed: int) -> None:
    players = table_for(rules, players)
    hand = Hand.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    told = Rules.from_options("pagat", json.loads(json.dumps(rules.to_options())))
    while not hand.over and hand.turns < 80:
        for seat in range(players):
            obs = hand.observation(seat)
            form = json.loads(json.dumps(obs.to_dict()))
            snapshot = obs.snapshot()
            assert ObservationSnapshot.from_dict(form, told) == snapshot
            kept = list(snapshot.history)
            assert ObservationSnapshot.from_dict(form, told, history=kept) == snapshot
        hand.apply(rng.choice(hand.legal_moves()))
    final = hand.observation(0)
    assert ObservationSnapshot.from_dict(final.to_dict(), rules) == final.snapshot()


def test_a_snapshot_is_its_own_snapshot() -> None:
    kept = Hand.deal(rules(), 3, seed=5).observation(1).snapshot()
    assert kept.snapshot() is kept


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seat", "0"),
        ("turn", True),
        ("hand", ["3D", "ZZ"]),
        ("top", None),
        ("suit", "X"),
        ("wild_top", 0),
        ("hand_sizes", [2, None]),
        ("wild_ranks", ["8", 8]),
        ("history", [[0, "the queen of spades"]]),
        ("pending_kind", 2),
    ],
)
def test_a_field_that_does_not_read_is_named(field: str, value: object) -> None:
    form = Hand.deal(rules(), 2, seed=1).observation(0).to_dict()
    form[field] = value
    with pytest.raises(WireError) as caught:
        ObservationSnapshot.from_dict(form, rules())
    assert caught.value.field == field
    assert repr(field) in str(caught.value)
