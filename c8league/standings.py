"""Event standings: match points by placement, with tie-breaks chosen per league;
season standings over a league's events.

At a table of k players a result is worth, for each seat, the share of its opponents
it finished ahead of (a tie counts half): 1 for a win, 0 for last, the same scale at
every table size. A bye is worth 1 match point (like a win) and no game points.

Ties in match points are broken by the league's ``tiebreaks``, in order (see
:data:`TIEBREAKS` for each one's name and the line that explains it under standings).
Entrants still tied after every tie-break share a rank.
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from c8league.errors import UsageError

BYE_POINTS = 1.0


@dataclass(frozen=True, slots=True)
class Tiebreak:
    """A tie-break: its name in the league file, its column heading and the one line
    that explains it under standings."""

    name: str
    heading: str
    explanation: str


TIEBREAKS: dict[str, Tiebreak] = {
    t.name: t
    for t in (
        Tiebreak(
            "opponents",
            "opp. avg",
            "average match points of opponents met (fair at any table size)",
        ),
        Tiebreak(
            "game-share",
            "game %",
            "points as a share of the table's target, averaged per match",
        ),
        Tiebreak("wins", "wins", "matches won (first places)"),
        Tiebreak(
            "direct",
            "direct",
            "places among those still tied, where they met (– unless all met)",
        ),
        Tiebreak(
            "opponents-total",
            "opp. points",
            "opponents' match points, added up once per meeting",
        ),
        Tiebreak(
            "game-points",
            "game points",
            "points scored, added up (in Countdown, the points shed)",
        ),
        Tiebreak(
            "sonneborn-berger",
            "S-B",
            "opponents' match points, of each finished ahead of (half for a tie)",
        ),
    )
}
"""Every tie-break a league may list, by name."""

DEFAULT_TIEBREAKS = ("opponents", "game-share", "wins", "direct")
LEGACY_TIEBREAKS = ("opponents-total", "game-points", "wins")
"""The tie-breaks of the first releases, which leagues created by them keep."""


def check_tiebreaks(names: Sequence[str]) -> tuple[str, ...]:
    """The tie-breaks as given, or a :class:`UsageError` naming an unknown or repeated
    one and the known ones."""
    seen: set[str] = set()
    for name in names:
        if name not in TIEBREAKS:
            raise UsageError(f"unknown tie-break {name!r}; tie-breaks: " + ", ".join(TIEBREAKS))
        if name in seen:
            raise UsageError(f"tie-break {name!r} is listed twice")
        seen.add(name)
    return tuple(names)


def explain_tiebreaks(names: Sequence[str], points: str = "match points") -> list[str]:
    """The lines shown under standings: the order, then one line per tie-break.
    ``points`` names what entrants are ordered by (season standings: ``season
    points``), and what the tie-breaks that add up opponents' points add up."""
    if not names:
        return [f"Order: {points}; entrants with the same {points} share a rank."]
    lines = [f"Order: {points}, then the tie-breaks below, in turn."]
    for number, name in enumerate(names, start=1):
        t = TIEBREAKS[name]
        lines.append(f"{number}. {t.heading}: {t.explanation.replace('match points', points)}.")
    return lines


@dataclass(frozen=True, slots=True)
class SeatResult:
    entrant: int
    place: int
    score: int


@dataclass(frozen=True, slots=True)
class TableResult:
    seats: tuple[SeatResult, ...]
    countdown: bool = False
    target: int = 0
    """The table's target score (0 when unknown: the table counts no game share)."""
    unfinished: bool = False
    """Stopped before anyone reached the target (placed by the scores at the time, or
    by placements alone)."""
    scored: bool = True
    """False for placements alone: the table counts no game points."""


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
    opponents_average: float = 0.0
    game_share: float = 0.0
    direct: float | None = None
    """Direct encounter with those tied with the entrant, when it was applied (None
    when the entrant was not tied, or not every two of those tied met)."""
    sonneborn_berger: float = 0.0
    played: bool = True
    """False for an entrant seated in no round of the event (absent all along, or in
    the league after its last round): listed apart, after the ranked ones, rank 0."""

    def value(self, tiebreak: str) -> float:
        """The entrant's value for the tie-break ``tiebreak``."""
        return float(
            {
                "opponents": self.opponents_average,
                "game-share": self.game_share,
                "wins": self.wins,
                "direct": self.direct or 0.0,
                "opponents-total": self.opponents_points,
                "game-points": self.game_points,
                "sonneborn-berger": self.sonneborn_berger,
            }[tiebreak]
        )

    def shown(self, tiebreak: str) -> str:
        """The value as standings show it."""
        if tiebreak in ("wins", "game-points"):
            return str(int(self.value(tiebreak)))
        if tiebreak == "game-share":
            return f"{self.game_share * 100:.0f}%"
        if tiebreak == "direct" and self.direct is None:
            return "–"
        return f"{self.value(tiebreak):.2f}"


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


@dataclass
class _Tally:
    points: float = 0.0
    games: int = 0
    share: float = 0.0
    wins: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    ahead: list[tuple[int, float]] = field(default_factory=list)
    """Each opponent met, with the share of it finished ahead of (1, ½ for a tie, 0)."""


def standings(
    entrants: Sequence[int],
    tables: Sequence[TableResult],
    byes: Sequence[int] = (),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    seated: Collection[int] | None = None,
    points: Mapping[int, float] | None = None,
) -> list[Standing]:
    """Standings of ``entrants`` (ids) from finished tables and byes (one id per bye),
    ties in match points broken by ``tiebreaks`` in order (names of :data:`TIEBREAKS`).

    ``seated`` names who was seated at a table (played or not) or had a bye in any
    round paired so far: an entrant of none of them, once someone is, did not play the
    event and is listed apart, after the ranked ones (``played`` false, rank 0).

    ``points`` (season standings) gives each entrant's points in place of the match
    points of these tables: entrants are ordered by them, and the tie-breaks that add
    up opponents' points add up these (an entrant not in it has 0)."""
    tally: dict[int, _Tally] = defaultdict(_Tally)
    for table in tables:
        shares = match_points([s.place for s in table.seats])
        for seat, share in zip(table.seats, shares, strict=True):
            t = tally[seat.entrant]
            t.points += share
            scored = (8 - seat.score) if table.countdown else seat.score
            if table.scored:
                t.games += scored
                if table.target > 0:
                    t.share += scored / table.target
            t.wins += seat.place == 1
            t.played += 1
            t.opponents.extend(s.entrant for s in table.seats if s is not seat)
            t.ahead.extend(
                (s.entrant, 1.0 if seat.place < s.place else 0.5 if seat.place == s.place else 0.0)
                for s in table.seats
                if s is not seat
            )
    for entrant in byes:
        tally[entrant].points += BYE_POINTS
        tally[entrant].byes += 1

    def points_of(e: int) -> float:
        return tally[e].points if points is None else points.get(e, 0.0)

    rows = {}
    for e in entrants:
        t = tally[e]
        opponents = sum(points_of(o) for o in t.opponents)
        rows[e] = Standing(
            rank=0,
            entrant=e,
            match_points=round(points_of(e), 6),
            opponents_points=round(opponents, 6),
            game_points=t.games,
            wins=t.wins,
            matches=t.played,
            byes=t.byes,
            opponents_average=round(opponents / len(t.opponents), 6) if t.opponents else 0.0,
            game_share=round(t.share / t.played, 6) if t.played else 0.0,
            sonneborn_berger=round(sum(share * points_of(o) for o, share in t.ahead), 6),
        )
    apart = [
        e for e in entrants if seated and e not in seated and not tally[e].played + tally[e].byes
    ]
    for e in apart:
        rows[e] = _with(rows[e], played=False)
    ranked = sorted(set(rows) - set(apart))
    groups = _split([ranked], lambda e: rows[e].match_points)
    for name in tiebreaks:
        if name == "direct":
            for group in groups:
                if len(group) > 1:
                    for e, score in _direct(group, tables).items():
                        rows[e] = _with(rows[e], direct=score)
        groups = _split(groups, functools.partial(_value, rows, name))
    result: list[Standing] = []
    for group in groups:
        rank = len(result) + 1
        result.extend(_with(rows[e], rank=rank) for e in sorted(group))
    return result + [rows[e] for e in apart]


def _value(rows: dict[int, Standing], tiebreak: str, entrant: int) -> float:
    return rows[entrant].value(tiebreak)


def _with(row: Standing, **changes: float | bool | None) -> Standing:
    values = {name: getattr(row, name) for name in Standing.__slots__}
    values.update(changes)
    return Standing(**values)


def _split(groups: list[list[int]], key: Callable[[int], float]) -> list[list[int]]:
    """Each group cut by ``key`` (higher first), order kept."""
    result: list[list[int]] = []
    for group in groups:
        ordered = sorted(group, key=lambda e: -key(e))
        current: list[int] = []
        last: float | None = None
        for e in ordered:
            value = key(e)
            if current and value != last:
                result.append(current)
                current = []
            current.append(e)
            last = value
        if current:
            result.append(current)
    return result


def _direct(group: Sequence[int], tables: Sequence[TableResult]) -> dict[int, float | None]:
    """For each entrant of ``group``, the share of the others of the group it finished
    ahead of (ties half) at the tables where it met them; all None (the tie stands)
    unless every two of the group met."""
    members = set(group)
    pairs: set[frozenset[int]] = set()
    ahead: dict[int, float] = dict.fromkeys(group, 0.0)
    met: dict[int, int] = dict.fromkeys(group, 0)
    for table in tables:
        seated = [s for s in table.seats if s.entrant in members]
        for a in seated:
            for b in seated:
                if a is b:
                    continue
                met[a.entrant] += 1
                pairs.add(frozenset((a.entrant, b.entrant)))
                ahead[a.entrant] += 1.0 if a.place < b.place else 0.5 if a.place == b.place else 0.0
    if len(pairs) < len(group) * (len(group) - 1) // 2:
        return dict.fromkeys(group, None)
    return {e: round(ahead[e] / met[e], 6) for e in group}


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


# -- a league's rules for standings and the season ----------------------------------------

FIRST_ROUNDS = ("random", "rating")


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How a league's events add up to its season standings: ``total`` (every event's
    match points), ``best-of`` (the best ``count`` events' match points) or ``points``
    (each event's rank gives the points listed, e.g. 25, 18, 15; below the list, 0)."""

    kind: str = "total"
    count: int = 0
    points: tuple[int, ...] = ()

    @classmethod
    def parse(cls, text: str) -> SeasonRule:
        """``total``, ``best-of:N`` or ``points:25,18,15,...``; a :class:`UsageError`
        saying what is accepted otherwise."""
        kind, _, rest = text.strip().partition(":")
        try:
            if kind == "total" and not rest:
                return cls()
            if kind == "best-of":
                count = int(rest)
                if count >= 1:
                    return cls("best-of", count=count)
            if kind == "points":
                points = tuple(int(p) for p in rest.split(","))
                if points and all(p >= 0 for p in points):
                    return cls("points", points=points)
        except ValueError:
            pass
        raise UsageError(
            f"season rule {text!r} is not 'total', 'best-of:N' (N at least 1) or "
            "'points:25,18,15,...' (whole numbers, 0 or more)"
        )

    def __str__(self) -> str:
        if self.kind == "best-of":
            return f"best-of:{self.count}"
        if self.kind == "points":
            return "points:" + ",".join(map(str, self.points))
        return "total"

    def explanation(self) -> str:
        """The line shown under season standings."""
        if self.kind == "best-of":
            return (
                f"Season points: the match points of each member's best {self.count} "
                f"event{'s' if self.count != 1 else ''} (the others are in brackets)."
            )
        if self.kind == "points":
            listed = ", ".join(map(str, self.points))
            return (
                f"Season points: each event's rank earns {listed} points for ranks "
                f"1 to {len(self.points)} (shared ranks earn the same), 0 below."
            )
        return "Season points: the match points of every event, added up."


@dataclass(frozen=True, slots=True)
class StandingRules:
    """A league's choices (its file's ``first_round``, ``tiebreaks`` and ``season``)."""

    first_round: str = "random"
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    season: SeasonRule = SeasonRule()

    @classmethod
    def from_json(cls, text: str) -> StandingRules:
        data = json.loads(text or "{}")
        return cls(
            first_round=data.get("first_round", "random"),
            tiebreaks=tuple(data.get("tiebreaks", DEFAULT_TIEBREAKS)),
            season=SeasonRule.parse(data.get("season", "total")),
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "first_round": self.first_round,
                "tiebreaks": list(self.tiebreaks),
                "season": str(self.season),
            },
            separators=(",", ":"),
        )


@dataclass(frozen=True, slots=True)
class EventScore:
    """A member's result in one event of the season: rank, match points, and the season
    points it gives (``counted`` is false for an event left out by ``best-of``)."""

    rank: int
    match_points: float
    points: float
    counted: bool = True


@dataclass(frozen=True, slots=True)
class SeasonStanding:
    rank: int
    entrant: int
    points: float
    events: tuple[EventScore | None, ...]
    """One per event of the season, in order; None where the member did not play."""
    wins: int
    matches: int
    standing: Standing | None = None
    """The member's values for the season's tie-breaks (``match_points`` holding the
    season points)."""


def _exact(points: float) -> Fraction:
    """An event's points as the fraction they stand for: match points are shares of
    opponents (thirds, sixths…) that the standings round to 6 places, and rounded
    values added up would drift apart (1 + 5/3 + 5/3 against 4/3 + 2/3 + 7/3)."""
    return Fraction(points).limit_denominator(1000)


_SeasonRow = tuple[float, int, int, tuple["EventScore | None", ...], int]
"""(season points, wins, entrant index, event scores, matches)."""


def season_standings(
    entrants: Sequence[int],
    events: Sequence[Sequence[Standing]],
    rule: SeasonRule,
    *,
    tables: Sequence[TableResult] = (),
    byes: Sequence[int] = (),
    tiebreaks: Sequence[str] = ("wins",),
) -> list[SeasonStanding]:
    """Season standings of ``entrants`` from each event's standings, by ``rule``.

    Only an event a member played in (a match or a bye) counts for them. Ties in season
    points are broken by ``tiebreaks`` (the league's, as for its events) over the
    season's ``tables`` and ``byes``, the tie-breaks that add up opponents' points adding
    up their season points; still tied, they share a rank."""
    rows: list[_SeasonRow] = []
    for e in entrants:
        scores: list[EventScore | None] = []
        wins = matches = 0
        for table in events:
            row = next((s for s in table if s.entrant == e), None)
            if row is None or row.matches + row.byes == 0:
                scores.append(None)
                continue
            wins += row.wins
            matches += row.matches
            if rule.kind == "points":
                earned = float(rule.points[row.rank - 1]) if row.rank <= len(rule.points) else 0.0
            else:
                earned = row.match_points
            scores.append(EventScore(row.rank, row.match_points, earned))
        if rule.kind == "best-of":
            played = sorted(
                ((s.points, i) for i, s in enumerate(scores) if s is not None),
                key=lambda item: (-item[0], item[1]),
            )
            dropped = {i for _, i in played[rule.count :]}
            scores = [
                EventScore(s.rank, s.match_points, s.points, False)
                if s is not None and i in dropped
                else s
                for i, s in enumerate(scores)
            ]
        total = float(
            round(sum(_exact(s.points) for s in scores if s is not None and s.counted), 6)
        )
        rows.append((total, wins, e, tuple(scores), matches))
    by_entrant = {e: (total, wins, kept, matches) for total, wins, e, kept, matches in rows}
    ordered = standings(
        list(entrants),
        tables,
        byes,
        tiebreaks,
        points={e: row[0] for e, row in by_entrant.items()},
    )
    result: list[SeasonStanding] = []
    for standing in ordered:
        total, wins, kept, matches = by_entrant[standing.entrant]
        result.append(
            SeasonStanding(
                rank=standing.rank,
                entrant=standing.entrant,
                points=total,
                events=kept,
                wins=wins,
                matches=matches,
                standing=standing,
            )
        )
    return result
