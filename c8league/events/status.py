"""An event's status, standings and balance, read from storage.

Standings are computed from the event's finished matches as storage reads them
(``storage.results.played``), the same reading the reports use, by the pure
functions of ``c8league.standings``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from c8league.engine import Rules
from c8league.engine.rules import COUNTDOWN_START
from c8league.league.status import ACTIVE, EventMembers, MemberStatus, event_members
from c8league.results import UNFINISHED
from c8league.schedule import BalanceReport, balance_report, cycle_length
from c8league.schedule.model import Round as PlannedRound
from c8league.standings import (
    SeatResult,
    Standing,
    StandingRules,
    TableResult,
    field_of,
    standings,
)
from c8league.storage import Session, schedules
from c8league.storage import results as stored_results
from c8league.storage import rounds as stored_rounds
from c8league.storage.database import Database
from c8league.storage.leagues import entrant_names, get_event, league_members
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
                "first": {
                    "match": f.match_id,
                    "move": f.move,
                    "request": f.request,
                    "detail": f.detail,
                },
            }
            for f in self.faults
        ]
        return {**self.__dict__, "faults": faults, "complete": self.complete}


def event_status(db: Database, name: str, league: str | None = None) -> EventStatus:
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        return event_status_in(session, lg, ev)


def active_ids(session: Session, league: League) -> list[int]:
    """The ids of the league's active members."""
    assert league.id is not None
    members = league_members(session, league.id, active_only=True)
    return [e.id for e in members if e.id is not None]


def planned_rounds(session: Session, league: League, event: Event) -> int:
    """How many rounds the event has in all: a round-robin's stored schedule, or before
    its first round is paired, the length of the schedule of its active entrants (a
    number of cycles, counted without computing the schedule)."""
    if event.format == "swiss":
        return event.rounds
    assert event.id is not None
    if event.format == "ladder":  # (its steps: as many as were played)
        return stored_rounds.round_count(session, event.id)
    stored = schedules.round_count(session, event.id)
    if stored:
        return stored
    ids = stored_rounds.first_round_field(session, event.id) or active_ids(session, league)
    if len(ids) < 2:
        return 0
    return event.cycles * cycle_length(len(ids), event.table_size)


def event_status_in(session: Session, league: League, event: Event) -> EventStatus:
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
        rounds_complete=len(rounds) - stored_rounds.incomplete_rounds(session, event.id),
        matches_total=sum(counts.values()),
        matches_done=counts.get("done", 0),
        matches_void=counts.get("void", 0),
        forfeits=stored_results.forfeit_counts(session, event.id),
        faults=stored_results.forfeit_groups(session, event.id),
    )


# -- standings ---------------------------------------------------------------------------


def played_rules(session: Session, event_id: int) -> Rules | None:
    """The rules the event's results were played under (one set: a league's rules cannot
    change once it has results), or None before its first result."""
    found = stored_results.played_rules(session, event_id)
    return Rules.from_json(found[0]) if found else None


def table_results(played: Sequence[PlayedMatch], rules: Rules | None) -> list[TableResult]:
    """Finished matches as the standings read them (every deal of a duplicate table),
    each with its target (in Countdown the points to shed, 8) and whether it stopped
    unfinished."""
    countdown = rules is not None and rules.countdown
    result = []
    for p in played:
        target = 0
        if rules is not None:
            target = COUNTDOWN_START if countdown else rules.target_for(len(p.seats))
        result.append(
            TableResult(
                tuple(SeatResult(e, place, score) for _, e, place, score in p.seats),
                countdown,
                target,
                p.ended in UNFINISHED,
                scored=p.ended != "places",
            )
        )
    return result


def event_results(session: Session, event_id: int) -> tuple[list[TableResult], list[int]]:
    """The event's finished tables and its byes (one entrant id per bye)."""
    played = stored_results.played(session, [event_id])
    tables = table_results(played, played_rules(session, event_id))
    return tables, stored_rounds.byes(session, [event_id])[event_id]


def tiebreaks_of(league: League) -> tuple[str, ...]:
    """The league's tie-breaks, in order."""
    return StandingRules.from_json(league.standing).tiebreaks


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str
    status: MemberStatus = ACTIVE
    """What changed for the entrant while the event ran (a withdrawal, a late entry)."""
    absent: tuple[int, ...] = ()
    """The rounds paired without the entrant, who said they would not come."""
    note: str = ""
    """What to tell of the entrant in this event, in words (``withdrew after round 2 of
    evening-2; absent in round 1 of evening-2``); empty when nothing."""

    @property
    def label(self) -> str:
        """The name, with what to tell: ``Ada (absent in round 2 of evening-1)``, ``Ben
        (did not play)``."""
        notes = [*([] if self.standing.played else [DID_NOT_PLAY]), *filter(None, [self.note])]
        return self.name + (f" ({'; '.join(notes)})" if notes else "")


DID_NOT_PLAY = "did not play"
"""Said of an entrant listed apart in an event's standings (see
:attr:`c8league.standings.Standing.played`)."""


def event_tiebreaks(db: Database, name: str, league: str | None = None) -> tuple[str, ...]:
    """The tie-breaks the event's standings are ordered by (its league's), in order."""
    with db.session() as session:
        lg, _ = get_event(session, name, league)
        return tiebreaks_of(lg)


def event_standings(db: Database, name: str, league: str | None = None) -> list[StandingRow]:
    """The event's standings: match points by placement, with tiebreaks. The field is
    the league's members during the event (see :func:`c8league.league.status.event_members`)
    and anyone else who played in it."""
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        return standings_in(session, lg, ev)


def standings_in(session: Session, lg: League, ev: Event) -> list[StandingRow]:
    """:func:`event_standings` in the caller's session."""
    assert ev.id is not None and lg.id is not None
    during = event_members(session, lg, ev, planned_rounds(session, lg, ev))
    tables, byes = event_results(session, ev.id)
    entrants = field_of(during.members, (), tables, byes)
    names = entrant_names(session, entrants)
    return [
        standing_row(r, names[r.entrant], during)
        for r in standings(
            entrants, tables, byes, tiebreaks_of(lg), seated=seated_in(session, ev.id)
        )
    ]


def seated_in(session: Session, event_id: int) -> set[int]:
    """Who was seated at a table (played or still to play) or had a bye in any round
    of the event paired so far."""
    rounds = stored_rounds.seatings(session, event_id).values()
    seated = {e for tables in rounds for seats in tables.values() for e in seats}
    return seated | set(stored_rounds.byes(session, [event_id])[event_id])


def standing_row(standing: Standing, name: str, during: EventMembers) -> StandingRow:
    """A line of the standings with what the event's membership tells of the entrant."""
    entrant = standing.entrant
    return StandingRow(
        standing=standing,
        name=name,
        status=during.statuses.get(entrant, ACTIVE),
        absent=during.absent.get(entrant, ()),
        note=during.note(entrant),
    )


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
