"""A league's season standings: every event's standings added up by the league's
``season`` rule (:class:`c8league.standings.SeasonRule`), read from storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from c8league.events.status import event_results, standings_in
from c8league.standings import (
    EventScore,
    SeasonRule,
    Standing,
    StandingRules,
    TableResult,
    explain_tiebreaks,
    season_standings,
)
from c8league.storage import Session
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_league, league_events, league_members
from c8league.storage.models import League


@dataclass(frozen=True, slots=True)
class SeasonRow:
    rank: int
    name: str
    points: float
    events: tuple[EventScore | None, ...]
    """One per event of the season, in order; None where the member did not play."""
    wins: int
    matches: int
    standing: Standing | None = None
    """The member's values for the season's tie-breaks (see
    :func:`c8league.standings.season_standings`)."""

    def shown(self, tiebreak: str) -> str:
        """The member's value for ``tiebreak`` as standings show it."""
        return "" if self.standing is None else self.standing.shown(tiebreak)


@dataclass(frozen=True, slots=True)
class SeasonTable:
    """The season standings of a league: its events in order and one row per member."""

    league: str
    title: str
    rule: SeasonRule
    events: tuple[str, ...]
    rows: tuple[SeasonRow, ...]
    tiebreaks: tuple[str, ...] = ("wins",)
    """The league's tie-breaks (its events' too), over the whole season."""

    def lines(self) -> list[str]:
        """The lines shown under the season standings: the rule, the order and each
        tie-break in a line, the events."""
        numbered = ", ".join(f"{i}. {name}" for i, name in enumerate(self.events, start=1))
        return [
            self.rule.explanation(),
            *explain_tiebreaks(self.tiebreaks, points="season points"),
            f"Events: {numbered} (–: did not play it)." if self.events else "No events yet.",
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "league": self.league,
            "rule": str(self.rule),
            "explanation": self.lines(),
            "events": list(self.events),
            "tiebreaks": list(self.tiebreaks),
            "standings": [
                {
                    "rank": r.rank,
                    "name": r.name,
                    "points": r.points,
                    "wins": r.wins,
                    "matches": r.matches,
                    "tiebreaks": [
                        None if r.standing is None else _value(r.standing, t)
                        for t in self.tiebreaks
                    ],
                    "events": [
                        None
                        if s is None
                        else {
                            "event": event,
                            "rank": s.rank,
                            "match_points": s.match_points,
                            "points": s.points,
                            "counted": s.counted,
                        }
                        for event, s in zip(self.events, r.events, strict=True)
                    ],
                }
                for r in self.rows
            ],
        }


def _value(standing: Standing, tiebreak: str) -> float | None:
    """A tie-break's value as JSON gives it (None for a direct encounter not applied)."""
    if tiebreak == "direct":
        return standing.direct
    value = standing.value(tiebreak)
    return int(value) if tiebreak in ("wins", "game-points") else value


def season_in(session: Session, league: League) -> SeasonTable:
    """The league's season standings, in the caller's session: each event's standings
    as the event shows them (its field as the membership history has it), added up."""
    assert league.id is not None
    events = league_events(session, league.id)
    tables = []
    everyone: list[int] = []
    played: list[TableResult] = []
    byes: list[int] = []
    for event in events:
        rows = [r.standing for r in standings_in(session, league, event)]
        everyone += [r.entrant for r in rows if r.entrant not in everyone]
        tables.append(rows)
        event_tables, event_byes = event_results(session, event.id or 0)
        played += event_tables
        byes += event_byes
    rules = StandingRules.from_json(league.standing)
    field = everyone or [e.id for e in league_members(session, league.id, active_only=True) if e.id]
    season = season_standings(
        field, tables, rules.season, tables=played, byes=byes, tiebreaks=rules.tiebreaks
    )
    names = entrant_names(session, [r.entrant for r in season])
    return SeasonTable(
        league=league.name,
        title=league.title or league.name,
        rule=rules.season,
        events=tuple(e.name for e in events),
        tiebreaks=rules.tiebreaks,
        rows=tuple(
            SeasonRow(
                rank=r.rank,
                name=names[r.entrant],
                points=r.points,
                events=r.events,
                wins=r.wins,
                matches=r.matches,
                standing=r.standing,
            )
            for r in season
        ),
    )


def season_table(db: Database, league: str) -> SeasonTable:
    """The season standings of the league named ``league``."""
    with db.session() as session:
        return season_in(session, get_league(session, league))
