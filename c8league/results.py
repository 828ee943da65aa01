"""The result of a match as it crosses from whoever played it to storage.

A match is played by bots in the runner (which sends it back in a
:class:`MatchReport`), entered by hand from a score sheet (``c8league.club.entry``) or
played by a person in the terminal (``c8league.runner.loop.MatchOutcome.as_result``).
Each of them makes one frozen :class:`Result`, and storage stores that value
(``c8league.storage.results``); the rating update it causes is the ratings package's
work (``c8league.ratings.update``).

This module is neutral ground: it imports nothing of the project, so the runner, the
club, storage and the ratings can all share it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ENTERED_BY = ("engine", "hand", "play")
"""Who made a result: the runner (bots), a person typing a score sheet, or a person
playing the league's bots in the terminal."""


UNFINISHED = ("unfinished", "places")
"""How a match stopped before anyone reached the target ended: ``unfinished`` (placed
by the scores at the time it stopped) or ``places`` (placements alone, no scores)."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    seat: int
    reason: str
    """``exception``, ``illegal``, ``timeout``, ``crash``, ``protocol``, ``memory``, or
    ``left`` (a person who left the table, entered by hand)."""
    move_number: int
    """The number of the player's decision in the match (1-based) that failed; 0: before
    its first."""
    detail: str
    request: int | None = None
    """For a bot that c8league played forced moves for (an external bot's
    ``skip_forced``): the number of the move request it was answering (1-based; 0:
    before its first), where it differs from ``move_number``; None otherwise."""

    def to_dict(self, *, detail_limit: int | None = None) -> dict[str, object]:
        """The forfeit as JSON values, as a duel's match and a game record keep it
        (``move`` for :attr:`move_number`; the detail cut to ``detail_limit``)."""
        return {
            "seat": self.seat,
            "reason": self.reason,
            "move": self.move_number,
            "request": self.request,
            "detail": self.detail if detail_limit is None else self.detail[:detail_limit],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Forfeit:
        """The forfeit :meth:`to_dict` gave."""
        request = data.get("request")
        return cls(
            int(data["seat"]),
            str(data["reason"]),
            int(data["move"]),
            str(data["detail"]),
            None if request is None else int(request),
        )


def forfeit_at(forfeit: Forfeit) -> str:
    """Where a forfeit happened, as fault lines say it after "at its": ``move 47``, or
    for a bot that c8league played forced moves for, ``request 30 (move 47)``: the bot
    counts the requests it was sent, c8league the moves of its seat."""
    return move_words(forfeit.move_number, forfeit.request)


def move_words(move: int, request: int | None) -> str:
    """:func:`forfeit_at` of a forfeit at ``move`` and ``request``."""
    if request is None or request == move:
        return f"move {move}"
    return f"request {request} (move {move})"


@dataclass(frozen=True, slots=True)
class HandReport:
    kind: str
    winners: tuple[int, ...]
    points: tuple[int, ...]
    penalties: tuple[int, ...]
    record: str
    """The hand record as JSON: replays the hand exactly (``"{}"`` for a hand entered
    by hand)."""


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match: placements and scores in seat order, how it ended, its hands,
    and who forfeited, if anyone."""

    placements: tuple[int, ...]
    scores: tuple[int, ...]
    ended: str
    """``target``, ``countdown``, ``forfeit``, ``hand_cap``, …"""
    hands: tuple[HandReport, ...] = ()
    decisions: int = 0
    forfeit: Forfeit | None = None
    """Who forfeited the match, if anyone. The engine's matches stop at the first
    forfeit; at a table of people several may leave: they share the last place, and
    ``forfeit`` names the first of them (see :attr:`forfeit_seats`)."""
    entered_by: str = "engine"
    """One of :data:`ENTERED_BY`."""
    unfinished: str | None = None
    """The moves of the hand the match stopped in (a forfeit), as in a hand record: the
    finished hands are in ``hands``."""
    versions: tuple[str, ...] = ()
    """Per seat, the digest of the version of the bot that played it ("" for none, a
    person); empty where no seat's version is known (``c8league.players.versions``)."""

    def __post_init__(self) -> None:
        if len(self.scores) != len(self.placements):
            raise ValueError(
                f"a result has {len(self.placements)} placements and {len(self.scores)} scores"
            )
        if self.entered_by not in ENTERED_BY:
            raise ValueError(f"entered_by must be one of {ENTERED_BY}, not {self.entered_by!r}")
        if self.versions and len(self.versions) != len(self.placements):
            raise ValueError(
                f"a result has {len(self.placements)} placements and {len(self.versions)} versions"
            )

    @property
    def forfeit_seats(self) -> tuple[int, ...]:
        """The seats that forfeited: the forfeit's seat and every seat sharing its place
        (those who forfeit share the last place, below everyone who did not)."""
        return forfeit_seats(self.placements, None if self.forfeit is None else self.forfeit.seat)

    @property
    def forfeited(self) -> tuple[bool, ...]:
        """Per seat, whether that seat forfeited the match."""
        lost = self.forfeit_seats
        return tuple(seat in lost for seat in range(len(self.placements)))


def forfeit_seats(placements: Sequence[int], forfeit_seat: int | None) -> tuple[int, ...]:
    """The seats that forfeited a match whose (first) forfeit is ``forfeit_seat``: those
    who forfeit share the last place, below everyone who did not, so they are the seats
    placed as ``forfeit_seat`` is. How stored results are read too."""
    if forfeit_seat is None or not 0 <= forfeit_seat < len(placements):
        return ()
    last = placements[forfeit_seat]
    return tuple(seat for seat, place in enumerate(placements) if place == last)


@dataclass(frozen=True, slots=True)
class Failure:
    """A match that could not be played at all (a plugin missing on the worker, a worker
    that kept dying): why, in words."""

    error: str


@dataclass(frozen=True, slots=True)
class MatchReport:
    """What a worker sends back for one match task: the match's result as storage
    stores it, or why it could not be played (``outcome``), how long it took, and its
    moves."""

    match_id: int
    outcome: Result | Failure
    seconds: float = 0.0
    moves: str = ""
    """Every move of the match, one line per hand (the engine's ``MatchRecord.to_text``),
    the hand it stopped in included: what replays the match from its seed."""
    together: int = 1
    """Up to how many matches the worker played at once with this one, itself included
    (``runner.interleave``)."""

    @classmethod
    def failed(cls, match_id: int, error: str) -> MatchReport:
        """The report of a match that could not be played at all."""
        return cls(match_id, Failure(error))

    @property
    def error(self) -> str | None:
        """Why the match could not be played; None: it was (see :attr:`result`)."""
        return self.outcome.error if isinstance(self.outcome, Failure) else None

    @property
    def result(self) -> Result:
        """The match's result; a match that could not be played has none (look at
        :attr:`error` first)."""
        if isinstance(self.outcome, Failure):
            raise ValueError(f"match {self.match_id} was not played: {self.outcome.error}")
        return self.outcome
