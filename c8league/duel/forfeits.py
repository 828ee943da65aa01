"""A duel's forfeited games, by who forfeited, and whether the duel may still give a
verdict.

A bot that crashes, breaks the rules or runs out of time forfeits its match, and the
duel goes on. Each forfeit is counted against who forfeited: ``A``, ``B`` or (at tables
of three or more) ``field``. A verdict over many forfeits would say more about a bot's
faults than about its play, so a duel whose **share of forfeited games exceeds**
``max_forfeit_share`` (5% by default) ends **without a verdict**. The share is judged

* when the duel ends (its test decided, its games played, its cap or its book of deals
  reached): over that share, no verdict;
* and as soon as it is certain: once the forfeited games exceed ``max_forfeit_share``
  of the most games the duel can play (``games``, ``max_games``, or the deals of its
  book), no later game can bring the share back under it, and the duel ends there.
  A test with no cap can always play on, so it is judged when it decides (unless the
  share allowed is 0: then the first forfeit decides).

A streak of forfeits (``runner.streaks``, ``--max-forfeits``) is another thing: it
stops a *run* whose bot keeps failing, to be mended and resumed; the share judges the
*duel as a whole*.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from c8league.errors import RunStopped, UsageError

DEFAULT_MAX_FORFEIT_SHARE = 0.05
"""The largest share of forfeited games over which a duel still gives a verdict."""

Side = Literal["A", "B", "field"]
SIDES: tuple[Side, ...] = ("A", "B", "field")


def check_share(value: float) -> float:
    """``value`` as a share of games allowed to be forfeited (0 to 1), or
    :class:`UsageError`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise UsageError(
            f"`max_forfeit_share` must be from 0 to 1 (0.05: 5% of the games), not {value!r}",
            params=["max_forfeit_share"],
        )
    return float(value)


def forfeiter(players: int, side: str, seat: int, forfeit_seat: int) -> Side:
    """Who forfeited A's match (``side`` ``A``) or B's (``B``) of a deal whose A and B
    sit in ``seat``, when the forfeit was the player's in ``forfeit_seat``: the bot of
    that match, else the other bot (at 2 players) or the field."""
    if forfeit_seat == seat:
        return "A" if side == "A" else "B"
    if players == 2:
        return "B" if side == "A" else "A"
    return "field"


@dataclass(frozen=True, slots=True)
class Forfeits:
    """Forfeited games of a duel, by who forfeited."""

    a: int = 0
    b: int = 0
    field: int = 0

    @property
    def games(self) -> int:
        """Games forfeited (a match stops at its first forfeit: one a game at most)."""
        return self.a + self.b + self.field

    def of(self, side: Side) -> int:
        return {"A": self.a, "B": self.b, "field": self.field}[side]

    def plus(self, side: Side) -> Forfeits:
        if side == "A":
            return replace(self, a=self.a + 1)
        if side == "B":
            return replace(self, b=self.b + 1)
        return replace(self, field=self.field + 1)

    def by_side(self, players: int) -> list[tuple[Side, int]]:
        """(who, forfeits) for A, B and, at tables of three or more, the field."""
        return [(side, self.of(side)) for side in SIDES if side != "field" or players > 2]

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b, "field": self.field}

    @classmethod
    def of_pairs(cls, players: int, pairs: Iterable[tuple[int, str, str]]) -> Forfeits:
        """The forfeits of stored pairs: (the pair's seat, A's match, B's match, each
        match's result as stored, JSON)."""
        counted = cls()
        for seat, match_a, match_b in pairs:
            for side, text in (("A", match_a), ("B", match_b)):
                forfeit = json.loads(text)["forfeit"]
                if forfeit is not None:
                    counted = counted.plus(forfeiter(players, side, seat, int(forfeit["seat"])))
        return counted


def _exact(share: float) -> Fraction:
    """A share as the decimal it was written as (0.05 is 1/20), so that 1 forfeit in 20
    games is exactly 5%, not above it."""
    return Fraction(repr(share))


@dataclass(frozen=True, slots=True)
class ForfeitShare:
    """The forfeits of ``games`` games played, against ``limit``, the largest share of
    forfeited games over which a verdict is given."""

    forfeits: Forfeits
    games: int
    limit: float

    @property
    def share(self) -> float | None:
        """The share of the games forfeited (None before any game)."""
        return None if self.games == 0 else self.forfeits.games / self.games

    @property
    def exceeded(self) -> bool:
        """More than ``limit`` of the games played were forfeited."""
        return self.forfeits.games > _exact(self.limit) * self.games

    def certain(self, most_games: int | None) -> bool:
        """The share will exceed ``limit`` whatever the games still to play, of a duel
        that plays ``most_games`` at most (None: no bound)."""
        forfeited = self.forfeits.games
        if most_games is None:
            return forfeited > 0 and self.limit == 0
        return forfeited > _exact(self.limit) * most_games


def share_words(share: ForfeitShare, players: int) -> str:
    """``11 of 50 games forfeited (22.00 %: A 11, B 0), more than the
    `max_forfeit_share` of 5.00 %`` (the parameter as the caller names it)."""
    sides = ", ".join(f"{side} {count}" for side, count in share.forfeits.by_side(players))
    percent = "-" if share.share is None else f"{100 * share.share:.2f} %"
    return (
        f"{share.forfeits.games} of {share.games} games forfeited ({percent}: {sides}), "
        f"more than the `max_forfeit_share` of {100 * share.limit:.2f} %"
    )


@dataclass(frozen=True, slots=True)
class Withheld:
    """Why one duel has no verdict: its forfeits (``share``, more than its limit), or
    why its run stopped (``stopped``: a bot that cannot start or keeps forfeiting)."""

    duel: str
    players: int
    share: ForfeitShare | None = None
    stopped: str | None = None

    def __str__(self) -> str:
        if self.share is not None:
            return share_words(self.share, self.players)
        return f"stopped: {self.stopped}"


class NoVerdict(RunStopped):
    """A duel, or duels of a gauntlet, ended without a verdict; ``withheld`` says why for
    each. The duels are stored as they ended."""

    def __init__(self, withheld: list[Withheld], *, gauntlet: str | None = None, of: int = 1):
        self.withheld = withheld
        self.gauntlet = gauntlet
        if gauntlet is None:
            (one,) = withheld
            text = f"duel {one.duel} has no verdict: {one}"
        else:
            each = "; ".join(f"{w.duel}: {w}" for w in withheld)
            text = f"gauntlet {gauntlet}: no verdict in {len(withheld)} of {of} duels: {each}"
        super().__init__(text, params=["max_forfeit_share"])
