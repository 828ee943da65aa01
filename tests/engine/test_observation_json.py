"""An observation's one JSON form: the same for a live observation and its snapshot,
in a fixed order of fields, and sendable in parts (the fields, then the history from
any move on) that add up to the whole."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from c8league.engine import Hand, Move, Rules

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
