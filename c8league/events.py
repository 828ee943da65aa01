"""Events: pairing rounds, running bot matches, status and standings.

The flow is one way: stored entrants and results → a schedule (pure functions in
``c8league.schedule``) → match rows → the runner → results and ratings in storage.
Every match's seed is derived from the event seed and the match's identity (round,
table, deal), so an event gives the same results with any number of workers and
after any interruption: finished matches are committed whole (in match order, in
short batches), and a resumed run plays exactly the matches that have no result.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlmodel import Session, col, func, select

from c8league.engine import derive_seed
from c8league.errors import Interrupted, PluginError, UsageError
from c8league.players import registry
from c8league.ratings import RatingModel
from c8league.runner.dask_executor import Runner, make_runner
from c8league.runner.tasks import MatchReport, MatchTask, SeatSpec
from c8league.schedule import BalanceReport, balance_report, round_robin, swiss_round
from c8league.schedule.model import Round as PlannedRound
from c8league.standings import SeatResult as StandingSeat
from c8league.standings import Standing, TableResult, standings
from c8league.storage.database import Database
from c8league.storage.models import Entrant, Event, League, LeagueEntrant, Match, MatchSeat, Round
from c8league.storage.repo import get_event, league_members, rating_settings
from c8league.storage.results import next_sequence, store_result
from c8league.storage.runlock import event_run_lock

COMMIT_SECONDS = 0.5
#: The default time limit of a match of bots: far beyond any sound bot's match (the
#: Monte Carlo bot's take about a second), it stops one stuck in a loop.
MATCH_SECONDS = 600.0
MAX_MATCH_SECONDS = 86_400.0
"""Finished matches are committed at least this often (each match whole)."""

Progress = Callable[[int, int], None]


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

    @property
    def complete(self) -> bool:
        return (
            self.rounds_total > 0
            and self.rounds_complete >= self.rounds_total
            and self.matches_done + self.matches_void >= self.matches_total
        )

    def to_dict(self) -> dict[str, object]:
        return {**self.__dict__, "complete": self.complete}


@dataclass
class RunSummary:
    played: int = 0
    rounds_paired: int = 0
    seconds: float = 0.0
    decisions: int = 0
    forfeits: int = 0


# -- planning ---------------------------------------------------------------------------


def _participants(session: Session, league: League) -> list[Entrant]:
    assert league.id is not None
    return league_members(session, league.id, active_only=True)


def _first_round_field(session: Session, event_id: int) -> list[int]:
    """The entrants of an event's first round (seated or with a bye), in id order."""
    first = session.exec(select(Round).where(Round.event_id == event_id, Round.number == 1)).first()
    if first is None:
        return []
    seated = session.exec(
        select(MatchSeat.entrant_id)
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(Match.round_id == first.id)
    ).all()
    return sorted(set(seated) | set(json.loads(first.byes)))


def planned_rounds(session: Session, league: League, event: Event) -> int:
    """How many rounds the event has in all."""
    if event.format == "swiss":
        return event.rounds
    assert event.id is not None
    ids = _first_round_field(session, event.id) or [
        e.id for e in _participants(session, league) if e.id is not None
    ]
    if len(ids) < 2:
        return 0
    return len(_round_robin(tuple(ids), event.table_size, event.cycles, event.seed))


def _plan_round(session: Session, league: League, event: Event, number: int) -> PlannedRound[int]:
    assert event.id is not None
    ids = [e.id for e in _participants(session, league) if e.id is not None]
    if len(ids) < 2:
        raise UsageError(f"event {event.name!r} needs at least two active entrants")
    if event.format == "round_robin":
        # The schedule is fixed by the entrants of the first round; a withdrawn entrant's
        # seats are left empty (a table left with one player gives that player a bye).
        field = _first_round_field(session, event.id) or ids
        planned = _round_robin(tuple(field), event.table_size, event.cycles, event.seed)
        active = set(ids)
        kept_tables: list[tuple[int, ...]] = []
        kept_byes = [e for e in planned[number - 1].byes if e in active]
        for planned_table in planned[number - 1].tables:
            kept = tuple(e for e in planned_table if e in active)
            if len(kept) >= 2:
                kept_tables.append(kept)
            else:
                kept_byes.extend(kept)
        return PlannedRound(tuple(kept_tables), tuple(kept_byes))
    tables, byes = _event_results(session, event.id)
    table = standings(ids, tables, byes)
    order = [s.entrant for s in table]
    scores = {s.entrant: s.match_points for s in table}
    history = _stored_rounds(session, event.id)
    return swiss_round(
        scores,
        history,
        event.table_size,
        seed=derive_seed(event.seed, "swiss", number),
        order=order,
    )


@functools.lru_cache(maxsize=32)
def _round_robin(
    ids: tuple[int, ...], table_size: int, cycles: int, seed: int
) -> tuple[PlannedRound[int], ...]:
    return tuple(round_robin(list(ids), table_size, cycles=cycles, seed=seed))


def pair_next_round(
    session: Session, league: League, event: Event, *, ahead: bool = False
) -> Round:
    """Create the next round of ``event``: its tables as match rows (not committed).
    With ``ahead``, a round-robin round may be paired before the one before it is
    complete (its tables do not depend on results)."""
    assert event.id is not None and league.id is not None
    rounds = list(
        session.exec(select(Round).where(Round.event_id == event.id).order_by(col(Round.number)))
    )
    needs_results = event.format != "round_robin" or not ahead
    if rounds and needs_results and not _round_complete(session, rounds[-1]):
        raise UsageError(
            f"round {rounds[-1].number} of {event.name!r} is not complete; finish it first"
        )
    number = len(rounds) + 1
    total = planned_rounds(session, league, event)
    if number > total:
        raise UsageError(f"event {event.name!r} has all its {total} rounds")
    plan = _plan_round(session, league, event, number)
    round_row = Round(
        event_id=event.id,
        number=number,
        byes=json.dumps(list(plan.byes)),
        published=event.played_by == "bots",
    )
    session.add(round_row)
    session.flush()
    assert round_row.id is not None
    rules = league.rules
    for table_no, table in enumerate(plan.tables, start=1):
        seed = derive_seed(event.seed, "round", number, "table", table_no)
        deals = len(table) if event.duplicate else 1
        for deal in range(deals):
            seats = list(table[deal:]) + list(table[:deal])
            match = Match(
                event_id=event.id,
                round_id=round_row.id,
                table_no=table_no,
                deal=deal,
                rules=rules,
                seed=seed,
            )
            session.add(match)
            session.flush()
            assert match.id is not None
            for seat, entrant_id in enumerate(seats):
                session.add(MatchSeat(match_id=match.id, seat=seat, entrant_id=entrant_id))
    return round_row


def _round_complete(session: Session, round_row: Round) -> bool:
    pending = session.exec(
        select(func.count())
        .select_from(Match)
        .where(Match.round_id == round_row.id, Match.status == "pending")
    ).one()
    return pending == 0


def _stored_rounds(session: Session, event_id: int) -> list[PlannedRound[int]]:
    rounds = session.exec(
        select(Round).where(Round.event_id == event_id).order_by(col(Round.number))
    ).all()
    result: list[PlannedRound[int]] = []
    for r in rounds:
        tables: dict[int, list[int]] = {}
        rows = session.exec(
            select(Match.table_no, MatchSeat.entrant_id)
            .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
            .where(Match.round_id == r.id, Match.deal == 0)
            .order_by(col(Match.table_no), col(MatchSeat.seat))
        ).all()
        for table_no, entrant_id in rows:
            tables.setdefault(table_no, []).append(entrant_id)
        result.append(
            PlannedRound(
                tables=tuple(tuple(t) for _, t in sorted(tables.items())),
                byes=tuple(json.loads(r.byes)),
            )
        )
    return result


def _event_results(session: Session, event_id: int) -> tuple[list[TableResult], list[int]]:
    """Finished tables (every deal of a duplicate table counts) and byes of an event."""
    countdown = False
    rows = session.exec(
        select(Match.rules, MatchSeat)
        .join(MatchSeat, col(MatchSeat.match_id) == col(Match.id))
        .where(Match.event_id == event_id, Match.status == "done")
        .order_by(col(Match.sequence), col(MatchSeat.seat))
    ).all()
    grouped: dict[int, list[StandingSeat]] = {}
    for rules, seat in rows:
        countdown = countdown or '"countdown":true' in rules
        grouped.setdefault(seat.match_id, []).append(
            StandingSeat(seat.entrant_id, seat.place or 0, seat.score or 0)
        )
    tables = [TableResult(tuple(seats), countdown) for seats in grouped.values()]
    byes: list[int] = []
    for text in session.exec(select(Round.byes).where(Round.event_id == event_id)).all():
        byes.extend(json.loads(text))
    return tables, byes


# -- running -----------------------------------------------------------------------------


def run_event(
    db: Database,
    name: str,
    *,
    league: str | None = None,
    workers: int | None = None,
    rounds: int | None = None,
    progress: Progress | None = None,
    executor: str = "processes",
    address: str | None = None,
    match_seconds: float | None = MATCH_SECONDS,
) -> RunSummary:
    """Pair and play the event's rounds until it is complete (or ``rounds`` more rounds
    have been played); resumes where an earlier run stopped. A round-robin's rounds do
    not depend on results, so they are paired ahead and played as one batch; a Swiss
    round is paired when the one before it is complete. ``executor`` and ``address``
    choose where the matches are played (see ``runner.dask_executor.make_runner``). A
    player still deciding when its match passes ``match_seconds`` forfeits it (see
    ``runner.loop``)."""
    summary = RunSummary()
    started = time.perf_counter()
    check_match_seconds(match_seconds)
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        event_id, event_name = ev.id, ev.name
        if ev.played_by != "bots":
            raise UsageError(
                f"event {ev.name!r} is played by people: pair rounds and enter results"
            )
        _check_players(session, lg, ev)
    assert event_id is not None
    try:
        _run_rounds(
            db,
            name,
            league,
            event_id,
            event_name,
            summary,
            rounds,
            progress,
            executor,
            workers,
            address,
            match_seconds,
        )
    except KeyboardInterrupt:
        raise Interrupted(
            f"interrupted: {summary.played} matches stored by this run, each whole; "
            f"the rest are played by: c8league event resume {event_name}"
        ) from None
    summary.seconds = time.perf_counter() - started
    return summary


def _run_rounds(
    db: Database,
    name: str,
    league: str | None,
    event_id: int,
    event_name: str,
    summary: RunSummary,
    rounds: int | None,
    progress: Progress | None,
    executor: str,
    workers: int | None,
    address: str | None,
    match_seconds: float | None,
) -> None:
    with (
        event_run_lock(db, event_id, event_name),
        make_runner(executor, workers, address) as runner,
    ):
        runner.prepare()  # an unreachable cluster stops the run before anything is paired
        while True:
            ahead = 0
            with db.session() as session:
                lg, ev = get_event(session, name, league)
                assert ev.id is not None
                pending = _pending_tasks(session, ev.id, match_seconds)
                if pending:
                    total = status_total(session, ev.id)
                    done_before = total - len(pending)
                else:
                    if rounds is not None and summary.rounds_paired >= rounds:
                        break
                    status = event_status_in(session, lg, ev)
                    if status.rounds_paired >= status.rounds_total:
                        break
                    ahead = status.rounds_total - status.rounds_paired
                    if ev.format != "round_robin":
                        ahead = 1
                    if rounds is not None:
                        ahead = min(ahead, rounds - summary.rounds_paired)
            if ahead:
                with db.writing() as session:
                    lg, ev = get_event(session, name, league)
                    for _ in range(ahead):
                        pair_next_round(session, lg, ev, ahead=True)
                summary.rounds_paired += ahead
                continue
            _play(db, lg, pending, runner, summary, progress, done_before, total)
            if rounds is not None and summary.rounds_paired >= rounds:
                break


def check_match_seconds(match_seconds: float | None) -> None:
    """Refuse a match time limit outside 1 ms … :data:`MAX_MATCH_SECONDS` (or not a
    number) with one line, before anything is written."""
    if match_seconds is None:
        return
    if not 0.001 <= match_seconds <= MAX_MATCH_SECONDS:
        raise UsageError(
            f"--match-seconds must be from 0.001 to {MAX_MATCH_SECONDS:.0f} (a day), "
            f"not {match_seconds:g}"
        )


def _check_players(session: Session, league: League, event: Event) -> None:
    """Every bot that may be seated (the league's active members, and whoever sits at a
    match still to play) has its plugin installed and valid options: checked before a
    round is paired, so that a run that cannot play writes nothing."""
    assert league.id is not None and event.id is not None
    entrants = {e.id: e for e in league_members(session, league.id, active_only=True)}
    seated = session.exec(
        select(Entrant)
        .join(MatchSeat, col(MatchSeat.entrant_id) == col(Entrant.id))
        .join(Match, col(Match.id) == col(MatchSeat.match_id))
        .where(Match.event_id == event.id, Match.status == "pending")
    ).all()
    entrants.update({e.id: e for e in seated})
    for entrant in sorted(entrants.values(), key=lambda e: e.name):
        if entrant.plugin is None:
            continue
        try:
            info = registry.get(entrant.plugin)
            registry.validate_options(info, json.loads(entrant.options or "{}"))
        except PluginError as exc:
            raise PluginError(f"entrant {entrant.name!r}: {exc}") from None


def status_total(session: Session, event_id: int) -> int:
    return int(
        session.exec(
            select(func.count()).select_from(Match).where(Match.event_id == event_id)
        ).one()
    )


def _pending_tasks(
    session: Session, event_id: int, match_seconds: float | None = None
) -> list[MatchTask]:
    matches = session.exec(
        select(Match)
        .where(Match.event_id == event_id, Match.status == "pending")
        .order_by(col(Match.id))
    ).all()
    if not matches:
        return []
    ids = [m.id for m in matches]
    seat_rows = session.exec(
        select(MatchSeat.match_id, MatchSeat.seat, Entrant)
        .join(Entrant, col(Entrant.id) == col(MatchSeat.entrant_id))
        .where(col(MatchSeat.match_id).in_(ids))
        .order_by(col(MatchSeat.match_id), col(MatchSeat.seat))
    ).all()
    seats: dict[int, list[SeatSpec]] = {}
    for match_id, _seat, entrant in seat_rows:
        if entrant.plugin is None:
            raise UsageError(
                f"match {match_id} seats {entrant.name!r}, a person: enter its result by hand"
            )
        seats.setdefault(match_id, []).append(SeatSpec(entrant.plugin, entrant.options))
    return [
        MatchTask(m.id, m.rules, tuple(seats[m.id]), m.seed, match_seconds)
        for m in matches
        if m.id is not None
    ]


def _play(
    db: Database,
    league: League,
    tasks: Sequence[MatchTask],
    runner: Runner,
    summary: RunSummary,
    progress: Progress | None,
    done_before: int,
    total: int,
) -> None:
    """Play ``tasks`` and store their results in batches, each batch one short write
    transaction (at least every :data:`COMMIT_SECONDS`). An interrupt drops the batch
    not yet written: those matches are played again, identically, on resume."""
    assert league.id is not None
    model = RatingModel(rating_settings(league))
    done = done_before
    batch: list[MatchReport] = []
    last_commit = time.perf_counter()
    if progress is not None:
        progress(done, total)
    for report in runner.run(tasks):
        if report.error is not None:
            _store_batch(db, league.id, model, batch, summary)
            raise PluginError(f"match {report.match_id}: {report.error}")
        batch.append(report)
        done += 1
        now = time.perf_counter()
        if now - last_commit >= COMMIT_SECONDS:
            _store_batch(db, league.id, model, batch, summary)
            batch = []
            last_commit = now
        if progress is not None:
            progress(done, total)
    _store_batch(db, league.id, model, batch, summary)


def _store_batch(
    db: Database,
    league_id: int,
    model: RatingModel,
    reports: Sequence[MatchReport],
    summary: RunSummary,
) -> None:
    """Store finished matches, each whole with its rating updates, in one transaction.
    Sequence numbers are taken under the write lock, in task order."""
    if not reports:
        return
    with db.writing(wait=None) as session:
        sequence = next_sequence(session, league_id)
        ids = [r.match_id for r in reports]
        matches = {m.id: m for m in session.exec(select(Match).where(col(Match.id).in_(ids)))}
        for report in reports:
            store_result(
                session,
                match=matches[report.match_id],
                league_id=league_id,
                model=model,
                sequence=sequence,
                placements=report.placements,
                scores=report.scores,
                ended=report.ended,
                hands=report.hands,
                decisions=report.decisions,
                forfeit=report.forfeit,
            )
            sequence += 1
    summary.played += len(reports)
    summary.decisions += sum(r.decisions for r in reports)
    summary.forfeits += sum(r.forfeit is not None for r in reports)


# -- status and standings ----------------------------------------------------------------


def event_status(db: Database, name: str, league: str | None = None) -> EventStatus:
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        return event_status_in(session, lg, ev)


def event_status_in(session: Session, league: League, event: Event) -> EventStatus:
    assert event.id is not None
    rounds = session.exec(select(Round).where(Round.event_id == event.id)).all()
    counts = dict(
        session.exec(
            select(Match.status, func.count())
            .where(Match.event_id == event.id)
            .group_by(col(Match.status))
        ).all()
    )
    forfeits = dict(
        session.exec(
            select(Match.forfeit_reason, func.count())
            .where(Match.event_id == event.id, col(Match.forfeit_reason).is_not(None))
            .group_by(col(Match.forfeit_reason))
        ).all()
    )
    return EventStatus(
        league=league.name,
        event=event.name,
        format=event.format,
        table_size=event.table_size,
        played_by=event.played_by,
        rounds_total=planned_rounds(session, league, event),
        rounds_paired=len(rounds),
        rounds_complete=sum(1 for r in rounds if _round_complete(session, r)),
        matches_total=sum(counts.values()),
        matches_done=counts.get("done", 0),
        matches_void=counts.get("void", 0),
        forfeits={str(k): int(v) for k, v in forfeits.items()},
    )


@dataclass(frozen=True)
class StandingRow:
    standing: Standing
    name: str


def event_standings(db: Database, name: str, league: str | None = None) -> list[StandingRow]:
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        assert ev.id is not None and lg.id is not None
        members = league_members(session, lg.id)
        names = {e.id: e.name for e in members if e.id is not None}
        tables, byes = _event_results(session, ev.id)
        seated = {s.entrant for t in tables for s in t.seats} | set(byes)
        entrants = [e for e in names if e in seated or not _is_withdrawn(session, lg.id, e)]
        for e in seated:
            if e not in names:
                names[e] = session.get(Entrant, e).name  # type: ignore[union-attr]
                entrants.append(e)
        rows = standings(entrants, tables, byes)
        return [StandingRow(r, names[r.entrant]) for r in rows]


def _is_withdrawn(session: Session, league_id: int, entrant_id: int) -> bool:
    member = session.get(LeagueEntrant, (league_id, entrant_id))
    entrant = session.get(Entrant, entrant_id)
    return bool((member and member.withdrawn) or (entrant and entrant.retired))


def event_balance(db: Database, name: str, league: str | None = None) -> BalanceReport[str]:
    """How often each pair met and each seat was taken in the rounds paired so far."""
    with db.session() as session:
        _, ev = get_event(session, name, league)
        assert ev.id is not None
        rounds = _stored_rounds(session, ev.id)
        ids = sorted({e for r in rounds for e in r.entrants()})
        names = {e.id: e.name for e in session.exec(select(Entrant)).all() if e.id in set(ids)}
        named = [
            PlannedRound(
                tables=tuple(tuple(names[e] for e in t) for t in r.tables),
                byes=tuple(names[e] for e in r.byes),
            )
            for r in rounds
        ]
        return balance_report(named, [names[e] for e in ids])
