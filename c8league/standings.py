"""Event standings: match points by placement, with tiebreaks.

At a table of k players a result is worth, for each seat, the share of its opponents
it finished ahead of (a tie counts half): 1 for a win, 0 for last, the same scale at
every table size. A bye is worth 1 match point (like a win) and no game points.

Tiebreaks, in order: opponents' match points (the sum of the final match points of
every opponent met, once per meeting), total game points (points scored; in
Countdown the points shed, 8 minus the final score), wins (first places).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass

BYE_POINTS = 1.0

TIEBREAKS = ("match points", "opponents' match points", "game points", "wins")


@dataclass(frozen=True, slots=True)
class SeatResult:
    entrant: int
    place: int
    score: int


@dataclass(frozen=True, slots=True)
class TableResult:
    seats: tuple[SeatResult, ...]
    countdown: bool = False


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    entrant: int
    match_points: float
    opponents_points: float
    game_points: int
    wins: int
    matches: int
    byes: int


def match_points(places: Sequence[int]) -> list[float]:
    """Each seat's share of opponents finished ahead of (ties count half)."""
    n = len(places)
    if n < 2:
        return [BYE_POINTS] * n
    result = []
    for mine in places:
        beaten = sum(1.0 if mine < other else 0.5 if mine == other else 0.0 for other in places)
        result.append((beaten - 0.5) / (n - 1))  # the seat itself counted as a tie
    return result


def standings(
    entrants: Sequence[int],
    tables: Sequence[TableResult],
    byes: Sequence[int] = (),
) -> list[Standing]:
    """Standings of ``entrants`` (ids) from finished tables and byes (one id per bye)."""
    points: dict[int, float] = defaultdict(float)
    games: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    bye_count: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    for table in tables:
        shares = match_points([s.place for s in table.seats])
        for seat, share in zip(table.seats, shares, strict=True):
            points[seat.entrant] += share
            games[seat.entrant] += (8 - seat.score) if table.countdown else seat.score
            wins[seat.entrant] += seat.place == 1
            played[seat.entrant] += 1
            opponents[seat.entrant].extend(s.entrant for s in table.seats if s is not seat)
    for entrant in byes:
        points[entrant] += BYE_POINTS
        bye_count[entrant] += 1
    rows = [
        (
            round(points[e], 6),
            round(sum(points[o] for o in opponents[e]), 6),
            games[e],
            wins[e],
            e,
        )
        for e in entrants
    ]
    rows.sort(key=lambda r: (-r[0], -r[1], -r[2], -r[3], r[4]))
    result: list[Standing] = []
    for index, (mp, op, gp, w, e) in enumerate(rows):
        key = (mp, op, gp, w)
        rank = index + 1
        if (
            result
            and (
                result[-1].match_points,
                result[-1].opponents_points,
                result[-1].game_points,
                result[-1].wins,
            )
            == key
        ):
            rank = result[-1].rank
        result.append(Standing(rank, e, mp, op, gp, w, played[e], bye_count[e]))
    return result


def field_of(
    members: Sequence[int],
    inactive: Collection[int],
    tables: Sequence[TableResult],
    byes: Sequence[int] = (),
) -> list[int]:
    """Who stands in an event's standings: the league's ``members`` (in order) who have
    played, had a bye or are still active (not in ``inactive``), then anyone else who
    played or had a bye (a former member), by id."""
    seated = {s.entrant for t in tables for s in t.seats} | set(byes)
    entrants = [e for e in members if e in seated or e not in inactive]
    known = set(members)
    entrants += sorted(e for e in seated if e not in known)
    return entrants
