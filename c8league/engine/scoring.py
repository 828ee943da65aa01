"""The end of a hand: how it ended, and what each seat scores.

A hand ends when a player goes out (in Countdown: reaches 0), when everyone passes in
turn (blocked), or at the rules' turn cap (scored as blocked). Each seat's penalty is
the value of the cards left in its hand: 50 for the wild rank, 10 for J Q K, face
value for the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from c8league.engine import jsonform
from c8league.engine.cards import Card
from c8league.engine.frozen import reduce_by_fields
from c8league.errors import WireError

EndKind: TypeAlias = Literal["out", "blocked", "turn_cap"]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each seat scored in it."""

    kind: EndKind
    """``out`` (a player emptied the hand, or reached 0 in Countdown), ``blocked``
    (everyone passed), or ``turn_cap`` (scored as blocked)."""
    winners: tuple[int, ...]
    """The seat that went out, or the seats that scored in a blocked hand."""
    penalties: tuple[int, ...]
    """The penalty value of the cards left in each seat's hand."""
    points: tuple[int, ...]
    """Points each seat scored in this hand (all zero in Countdown)."""
    turns: int
    """Turns played in the hand."""
    countdown_scores: tuple[int, ...] | None = None
    """Countdown only: each seat's score when play stopped (lower is better)."""

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return reduce_by_fields(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandResult:
        """The result whose JSON form is ``data``: the ``result`` of the bot protocol's
        ``hand_end`` (``docs/protocol.md``). Raises :class:`~c8league.errors.WireError`
        naming a field that does not read."""
        what = "a hand's result"
        text = data.get("kind")
        kind = _END_KINDS.get(text) if isinstance(text, str) else None
        if kind is None:
            raise WireError(f"{what}'s 'kind' must be out, blocked or turn_cap", "kind")
        return cls(
            kind=kind,
            winners=jsonform.wholes(data, "winners", what),
            penalties=jsonform.wholes(data, "penalties", what),
            points=jsonform.wholes(data, "points", what),
            turns=jsonform.whole(data, "turns", what),
            countdown_scores=jsonform.wholes_or_none(data, "countdown_scores", what),
        )


_END_KINDS: Final[dict[str, EndKind]] = {"out": "out", "blocked": "blocked", "turn_cap": "turn_cap"}
"""Each way a hand ends, by its text."""


def card_penalty(card: Card, wild_rank: int) -> int:
    """50 for the wild rank, 10 for J Q K, face value for the rest (A = 1)."""
    return 50 if card.rank_value == wild_rank else card.rank.penalty


def score(
    kind: EndKind,
    winners: tuple[int, ...],
    penalties: list[int],
    *,
    scores: list[int],
    turns: int,
    countdown: bool,
) -> HandResult:
    """The result of a hand that ended by ``kind``, with ``penalties`` the value of the
    cards left in each seat's hand and ``scores`` the seats' running totals (their
    countdown scores in Countdown): ``winners`` is the seat that went out, or empty when
    play stopped otherwise (the winners are then found here)."""
    n = len(penalties)
    if kind != "out":
        # Blocked: the lowest total scores the difference from each opponent (ties all
        # score so). In Countdown the lowest score leads instead.
        keys = scores if countdown else penalties
        low = min(keys)
        winners = tuple(i for i in range(n) if keys[i] == low)
    points = [0] * n
    if not countdown:
        if kind == "out":
            points[winners[0]] = sum(penalties)
        else:
            low = penalties[winners[0]]
            for w in winners:
                points[w] = sum(pen - low for pen in penalties)
    return HandResult(
        kind=kind,
        winners=winners,
        penalties=tuple(penalties),
        points=tuple(points),
        turns=turns,
        countdown_scores=tuple(scores) if countdown else None,
    )
