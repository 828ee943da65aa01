"""The state of a hand: the small values it is made of, and :class:`HandState`, the
position as public fields.

:class:`~c8league.engine.hand.Hand` is a :class:`HandState` with the operations of a
hand: its moves change these fields, and nothing else does. An
:class:`~c8league.engine.observation.Observation` reads them (what one seat may see),
which is why they are a class of their own, below both.
"""

from __future__ import annotations

import random
from enum import IntEnum
from typing import Final, Literal, TypeAlias

from c8league.engine.cards import Card, Suit
from c8league.engine.moves import Move
from c8league.engine.rules import COUNTDOWN_START, Rules
from c8league.engine.scoring import HandResult

PendingKind: TypeAlias = Literal["two", "five"]

NO_RANK: Final = -1
"""A rank value no card has: the rank of a special card the rules do without."""


class Phase(IntEnum):
    NOMINATE = 0
    """The dealer nominates the suit for a wild starter."""
    PLAY = 1
    OVER = 2


# Enum members as module constants: the compiled engine reads these directly instead
# of looking the member up on its class each time.
PLAYING: Final = Phase.PLAY
OVER: Final = Phase.OVER


class HandState:
    """The position of one hand: the table (rules, size, dealer), where the cards are,
    whose turn it is and what the top card asks, the moves made so far and the match's
    running totals. Only :class:`~c8league.engine.hand.Hand`'s moves change it."""

    # A hand is a hot object: slots and plain ints keep the move loop fast.
    __slots__ = (
        "current",
        "dealer",
        "direction",
        "discard",
        "drawn",
        "drawn_card",
        "hand_number",
        "hands",
        "history_moves",
        "history_seats",
        "n",
        "passes",
        "pending",
        "pending_kind",
        "phase",
        "result",
        "rng",
        "rules",
        "scores",
        "start",
        "stock",
        "suit",
        "target",
        "turns",
        "version",
        "wild_ranks",
        "wild_top",
    )

    def __init__(self, rules: Rules, players: int, dealer: int, rng: random.Random) -> None:
        self.rules = rules
        self.n = players
        self.dealer = dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock: list[Card] = []  # top of the stock is the end of the list
        self.discard: list[Card] = []  # top of the discard pile is the end of the list
        self.current = dealer
        self.direction = 1
        # The suit to follow; None: any card may be played.
        self.suit: Suit | None = None
        # The top card was played as a wild card.
        self.wild_top = False
        # Cards the player to act must draw unless it answers (draw-two, draw-five).
        self.pending = 0
        self.pending_kind: PendingKind | None = None
        # Cards the player to act has drawn in this turn.
        self.drawn = 0
        # Under ``one_then_play``: the card just drawn, the only one that may be played.
        self.drawn_card: Card | None = None
        # Turns in a row in which nobody played or drew (all pass: the hand is blocked).
        self.passes = 0
        self.turns = 0
        self.phase = PLAYING
        self.result: HandResult | None = None
        # Every choice of chance in the hand (the deal, reshuffles).
        self.rng = rng
        # The history as two parallel lists, the seat and its move: appending to both
        # allocates nothing.
        self.history_seats: list[int] = []
        self.history_moves: list[Move] = []
        # How the hand was set up, for its record.
        self.start: dict[str, object] = {}
        # Running match totals (in Countdown, each seat's countdown score).
        self.scores: list[int] = [COUNTDOWN_START] * players if rules.countdown else [0] * players
        self.target = COUNTDOWN_START if rules.countdown else rules.target_for(players)
        self.hand_number = 0
        # Counts the moves applied: an observation is valid while it does not change.
        self.version = 0
        # Each seat's wild rank (in Countdown, its score); NO_RANK where there is none.
        wild = NO_RANK if rules.wild_rank is None else int(rules.wild_rank)
        self.wild_ranks: list[int] = (
            [COUNTDOWN_START] * players if rules.countdown else [wild] * players
        )


#: What a hand's position is made of, beyond its rules, table size and dealer: what
#: ``Hand.copy`` copies and pickling keeps.
POSITION: Final = (
    "hands",
    "stock",
    "discard",
    "current",
    "direction",
    "suit",
    "wild_top",
    "pending",
    "pending_kind",
    "drawn",
    "drawn_card",
    "passes",
    "turns",
    "phase",
    "result",
    "rng",
    "history_seats",
    "history_moves",
    "start",
    "scores",
    "target",
    "hand_number",
    "version",
    "wild_ranks",
)
