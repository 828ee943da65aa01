"""An event's status, standings and balance, read from storage.

Standings are computed from the event's finished matches as storage reads them
(``storage.results.played``), the same reading the reports use, by the pure
functions of ``c8league.standings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from c8league.engine import Rules
from c8league.league.status import ACTIVE, MemberStatus, event_members
from c8league.schedule import BalanceReport, balance_report
from c8league.schedule.model import Round as PlannedRound
from c8league.standings import SeatResult, Standing, TableResult, field_of, standings
from c8league.storage import Session
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_event
from c8league.storage.models import Event, League
from c8league.storage.results import ForfeitGroup, PlayedMatch


@dataclass
class EventStatus:
    league: str
    event: str
    format: str
    table_size: int
    played_by: str
    rounds_total: int
    rounds_paired: int
    rounds_complete: int
    matches_total: int
    matches_done: int
    matches_void: int
    forfeits: dict[str, int] = field(default_factory=dict)
    faults: list[ForfeitGroup] = field(default_factory=list)
    """The forfeits by kind and entrant, each with its first (match, move, detail)."""

    @property
    def complete(self) -> bool:
        return (
            self.rounds_total > 0
            and self.rounds_complete >= self.rounds_total
            and self.matches_done + self.matches_void >= self.matches_total
        )

    def to_dict(self) -> dict[str, object]:
        faults = [
            {
                "kind": f.reason,
                "entrant": f.entrant,
                "count": f.count,
                "first": {"match": f.match_id, "move": f.move, "detail": f.detail},
            }
            for f in self.faults
        ]
        return {**self.__dict__, "faults": faults, "complete": self.complete}


def event_status(db: Database, name: str, league: str | None = None) -> EventStatus:
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        return event_status_in(session, lg, ev)


def event_status_in(session: Session, league: League, event: Event) -> EventStatus:
    from c8league.events.pairing import planned_rounds

    assert event.id is not None
    rounds = stored_rounds.event_rounds(session, event.id)
    counts = {
        status: n for (_, status), n in stored_results.status_counts(session, [event.id]).items()
    }
    return EventStatus(
        league=league.name,
        event=event.name,
        format=event.format,
        table_size=event.table_size,
        played_by=event.played_by,
        rounds_total=planned_rounds(session, league, event),
        rounds_paired=len(rounds),
        rounds_complete=sum(1 for r in rounds if stored_rounds.round_complete(session, r.id)),
        matches_total=sum(counts.values()),
        matches_done=counts.get("done", 0),
        matches_void=counts.get("void", 0),
        forfeits=stored_results.forfeit_counts(session, event.id),
        faults=stored_results.forfeit_groups(session, event.id),
    )


# -- standings ---------------------------------------------------------------------------


def is_countdown(session: Session, event_id: int) -> bool:
    """Whether the event's results were played under Countdown rules (scores count down,
    so game points are the points shed)."""
    return any(
        Rules.from_json(rules).countdown for rules in stored_results.played_rules(session, event_id)
    )


def table_results(played: Sequence[PlayedMatch], countdown: bool) -> list[TableResult]:
    """Finished matches as the standings read them (every deal of a duplicate table)."""
    return [
        TableResult(tuple(SeatResult(e, place, score) for _, e, place, score in p.seats), countdown)
        for p in played
    ]


def event_results(session: Session, event_id: int) -> tuple[list[TableResult], list[int]]:
    """The event's finished tables and its byes (one entrant id per bye)."""
    played = stored_results.played(session, [event_id])
    tables = table_results(played, is_countdown(session, event_id))
    return tables, stored_rounds.byes(session, [event_id])[event_id]


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str
    status: MemberStatus = ACTIVE
    """What changed for the entrant while the event ran (a withdrawal, a late entry)."""


def event_standings(db: Database, name: str, league: str | None = None) -> list[StandingRow]:
    """The event's standings: match points by placement, with tiebreaks. The field is
    the league's members during the event (see :func:`c8league.league.status.event_members`)
    and anyone else who played in it."""
    from c8league.events.pairing import planned_rounds

    with db.session() as session:
        lg, ev = get_event(session, name, league)
        assert ev.id is not None and lg.id is not None
        during = event_members(session, lg, ev, planned_rounds(session, lg, ev))
        tables, byes = event_results(session, ev.id)
        entrants = field_of(during.members, (), tables, byes)
        names = entrant_names(session, entrants)
        return [
            StandingRow(r, names[r.entrant], during.statuses.get(r.entrant, ACTIVE))
            for r in standings(entrants, tables, byes)
        ]


def event_balance(db: Database, name: str, league: str | None = None) -> BalanceReport[str]:
    """How often each pair met and each seat was taken in the rounds paired so far."""
    with db.session() as session:
        _, ev = get_event(session, name, league)
        assert ev.id is not None
        rounds = stored_rounds.stored_rounds(session, ev.id)
        ids = sorted(
            {e for tables, byes in rounds for e in [*byes, *(x for t in tables for x in t)]}
        )
        names = entrant_names(session, ids)
        named = [
            PlannedRound(
                tables=tuple(tuple(names[e] for e in t) for t in tables),
                byes=tuple(names[e] for e in byes),
            )
            for tables, byes in rounds
        ]
        return balance_report(named, [names[e] for e in ids])
