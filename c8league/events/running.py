"""Running an event of bots: pairing its rounds as they come, playing their matches on
an executor (``c8league.runner``), and storing the results with their rating updates.

Every match's seed is derived from the event seed and the match's identity, so an
event gives the same results with any number of workers and after any interruption:
finished matches are committed whole (in match order, in short batches), and a resumed
run plays exactly the matches that have no result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from c8league.errors import BotStopped, ExecutorLost, PluginError, UsageError
from c8league.events.pairing import Schedule, pair_rounds_ahead, schedule_ahead
from c8league.events.status import planned_rounds
from c8league.interrupts import run_kept
from c8league.players import registry
from c8league.players.versions import Version, version_of
from c8league.ratings.update import ResultWriter
from c8league.results import MatchReport
from c8league.runner.base import Watch
from c8league.runner.clock import MatchClock, one_limit
from c8league.runner.executors import Runner, make_runner, resume_command
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart
from c8league.runner.starting import unsandboxed as runner_unsandboxed
from c8league.runner.streaks import MAX_FORFEITS, ForfeitStreaks
from c8league.runner.tasks import MatchTask, SeatSpec
from c8league.sandbox import Mode, Support
from c8league.storage import Session
from c8league.storage import rounds as stored_rounds
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database
from c8league.storage.leagues import get_event, league_members
from c8league.storage.models import Event, League
from c8league.storage.runlock import event_run_lock
from c8league.storage.versions import VersionRecord

COMMIT_SECONDS = 0.5
"""Finished matches are committed at least this often (each match whole)."""
#: The default time limit of a match of bots: far beyond any sound bot's match (the
#: Monte Carlo bot's take about a second), it stops one stuck in a loop.
MATCH_SECONDS = 600.0
MAX_MATCH_SECONDS = 86_400.0

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class RunOptions:
    """How a run plays its matches, beyond where: the limits on a match and on each
    decision (or each seat's match clock), how many forfeits in a row of one bot stop it,
    and the sandbox of its bots (None: each bot's own ``sandbox`` option)."""

    match_seconds: float | None = MATCH_SECONDS
    move_seconds: float | None = None
    max_forfeits: int | None = MAX_FORFEITS
    sandbox: Mode | None = None
    versions: Mapping[int, str] = field(default_factory=dict)
    """The digest of each bot's version, by entrant, as the run found it when it began."""
    clock: MatchClock | None = None
    """The match clock of each seat (``--clock``; in place of ``move_seconds``)."""


@dataclass
class RunSummary:
    played: int = 0
    rounds_paired: int = 0
    seconds: float = 0.0
    decisions: int = 0
    forfeits: int = 0


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
    move_seconds: float | None = None,
    max_forfeits: int | None = MAX_FORFEITS,
    sandbox: Mode | None = None,
    unsandboxed: Callable[[Support], None] | None = None,
    clock: MatchClock | None = None,
    watch: Watch | None = None,
) -> RunSummary:
    """Pair and play the event's rounds until it is complete (or ``rounds`` more rounds
    have been played); resumes where an earlier run stopped. A round-robin's rounds do
    not depend on results, so they are paired ahead and played as one batch (on worker
    processes, the first rounds are paired and played while the rest are paired: see
    :data:`FIRST_MATCHES`); a Swiss round is paired when the one before it is complete.
    ``executor`` and ``address`` choose where the matches are played (see
    ``runner.executors.make_runner``; ``watch`` is told what changes in a cluster's
    workers meanwhile). A
    player still deciding when its match passes ``match_seconds`` forfeits it (see
    ``runner.loop``), and one over ``move_seconds`` on a decision, or whose match
    ``clock`` runs out (one or the other: ``runner.clock``).

    Every bot that may be seated is first started once on every worker
    (``runner.starting``): one that cannot start stops the run before any match, and
    one that forfeits ``max_forfeits`` matches in a row (None or 0: never) stops it
    after that match, each with :class:`BotStopped` naming the bot.

    ``sandbox`` (the run's ``--sandbox``) takes the place of each bot's own ``sandbox``
    option; ``unsandboxed`` is told, once, why external bots that would be sandboxed
    where this machine allowed it run without one (``runner.starting.unsandboxed``)."""
    summary = RunSummary()
    started = time.perf_counter()
    check_match_seconds(match_seconds)
    check_match_seconds(move_seconds, "move_seconds")
    one_limit(move_seconds, clock)
    options = RunOptions(match_seconds, move_seconds, max_forfeits, sandbox, clock=clock)
    with db.session() as session:
        lg, ev = get_event(session, name, league)
        event_id, event_name = ev.id, ev.name
        if ev.played_by != "bots":
            raise UsageError(
                f"event {ev.name!r} is played by people: pair rounds and enter results"
            )
        if ev.format == "ladder":
            raise UsageError(f"{lg.name}/{ev.name} is a ladder: c8league ladder run {lg.name}")
        starts, bots = _check_players(session, lg, ev, sandbox)
    assert event_id is not None
    options = replace(options, versions=keep_versions(db, bots))
    missing = runner_unsandboxed(starts)
    if missing is not None and unsandboxed is not None:
        unsandboxed(missing)
    again = resume_command("event", event_name, executor, address, sandbox)
    with run_kept(
        lambda: f"{summary.played} matches stored by this run",
        goes_on="the rest are played by",
        again=again,
    ):
        _run_rounds(
            db,
            name,
            league=league,
            event_id=event_id,
            event_name=event_name,
            summary=summary,
            rounds=rounds,
            progress=progress,
            executor=executor,
            workers=workers,
            address=address,
            options=options,
            starts=starts,
            again=again,
            watch=watch,
        )
    summary.seconds = time.perf_counter() - started
    return summary


def _run_rounds(
    db: Database,
    name: str,
    *,
    league: str | None,
    event_id: int,
    event_name: str,
    summary: RunSummary,
    rounds: int | None,
    progress: Progress | None,
    executor: str,
    workers: int | None,
    address: str | None,
    options: RunOptions,
    starts: Sequence[BotStart],
    again: str,
    watch: Watch | None,
) -> None:
    with (
        event_run_lock(db, event_id, event_name),
        make_runner(executor, workers, address, watch=watch) as runner,
    ):
        runner.prepare()  # an unreachable cluster stops the run before anything is paired
        planned: Schedule | None = None
        if isinstance(runner, MatchRunner):
            # The workers start their bots while this process computes the schedule;
            # nothing is written until every bot has started.
            started = runner.starting(starts, options.match_seconds)
            if rounds is None or rounds > 1:
                with db.session() as session:
                    lg, ev = get_event(session, name, league)
                    planned = schedule_ahead(session, lg, ev)
            problem = started()
        else:
            problem = runner.start(starts, options.match_seconds)
        if problem is not None:
            raise BotStopped(f"{problem}; nothing was played (mend the bot, then: {again})")
        streaks = ForfeitStreaks(options.max_forfeits)
        later = 0
        """Rounds to pair while the first ones are played (see :func:`_first_rounds`)."""
        while True:
            count = 0
            with db.session() as session:
                lg, ev = get_event(session, name, league)
                assert ev.id is not None
                pending, seated = pending_tasks(session, ev.id, options)
                if pending:
                    total = stored_rounds.match_count(session, ev.id)
                    done_before = total - len(pending)
                else:
                    if rounds is not None and summary.rounds_paired >= rounds:
                        break
                    paired = stored_rounds.round_count(session, ev.id)
                    total = planned_rounds(session, lg, ev)
                    if paired >= total:
                        break
                    count = total - paired
                    if ev.format != "round_robin":
                        count = 1
                    if rounds is not None:
                        count = min(count, rounds - summary.rounds_paired)
            if count:
                first = count
                if rounds is None and isinstance(runner, MatchRunner) and runner.isolated:
                    first = _first_rounds(planned, summary.rounds_paired, count)
                with db.writing() as session:
                    lg, ev = get_event(session, name, league)
                    pair_rounds_ahead(session, lg, ev, first, ahead=planned)
                summary.rounds_paired += first
                later = count - first
                continue
            played = Played(summary, streaks, seated, again)
            more = None
            if later:
                more = _Later(db, name, league, later, planned, options, played)
                later = 0
            play_tasks(
                db,
                lg,
                tasks=pending,
                runner=runner,
                played=played,
                progress=progress,
                done_before=done_before,
                total=total,
                more=more,
            )
            if rounds is not None and summary.rounds_paired >= rounds:
                break


FIRST_MATCHES = 64
"""Where a round-robin has more rounds to pair than hold this many matches, the rounds
that do are paired first, and the rest while their matches are played."""


def _first_rounds(planned: Schedule | None, paired: int, count: int) -> int:
    """How many of the ``count`` rounds to pair first, after the ``paired`` this run has
    paired: those that reach :data:`FIRST_MATCHES` matches in the schedule computed ahead
    (all of them without one). A schedule is computed ahead only for an event with no
    round paired before this run, so ``paired`` are its first rounds."""
    if planned is None:
        return count
    matches = 0
    for number, planned_round in enumerate(planned.rounds[paired : paired + count], start=1):
        matches += len(planned_round.tables)
        if matches >= FIRST_MATCHES:
            return number
    return count


@dataclass
class _Later:
    """The rounds left to pair once the first are being played: paired when the runner
    asks for more matches (its workers busy meanwhile), their matches returned to it."""

    db: Database
    name: str
    league: str | None
    count: int
    planned: Schedule | None
    options: RunOptions
    played: Played
    total: int = 0
    """The event's matches once they are paired."""

    def planned_matches(self) -> int:
        """The matches of the rounds to pair, as the schedule plans them (before they
        are paired: for the progress shown meanwhile)."""
        if self.planned is None:
            return 0
        done = self.played.summary.rounds_paired
        return sum(len(r.tables) for r in self.planned.rounds[done : done + self.count])

    def __call__(self) -> list[MatchTask]:
        with self.db.writing() as session:
            lg, ev = get_event(session, self.name, self.league)
            pair_rounds_ahead(session, lg, ev, self.count, ahead=self.planned)
        self.played.summary.rounds_paired += self.count
        with self.db.session() as session:
            lg, ev = get_event(session, self.name, self.league)
            assert ev.id is not None
            pending, seated = pending_tasks(session, ev.id, self.options)
            self.total = stored_rounds.match_count(session, ev.id)
        new = [task for task in pending if task.match_id not in self.played.seated]
        self.played.seated.update(seated)
        return new


def check_match_seconds(seconds: float | None, param: str = "match_seconds") -> None:
    """Refuse a time limit outside 1 ms … :data:`MAX_MATCH_SECONDS` (or not a number)
    with one line naming ``param``, before anything is written."""
    if seconds is None:
        return
    if not 0.001 <= seconds <= MAX_MATCH_SECONDS:
        raise UsageError(
            f"`{param}` must be from 0.001 to {MAX_MATCH_SECONDS:.0f} (a day), not {seconds:g}",
            params=[param],
        )


def _check_players(
    session: Session, league: League, event: Event, sandbox: Mode | None = None
) -> tuple[list[BotStart], dict[int, Version]]:
    """Every bot that may be seated (the league's active members, and whoever sits at a
    match still to play) has its plugin installed and valid options: checked before a
    round is paired, so that a run that cannot play writes nothing. Returns them, to be
    started before the first match, and the version of each (by entrant) as it is now."""
    assert league.id is not None and event.id is not None
    entrants = {e.id: e for e in league_members(session, league.id, active_only=True)}
    entrants.update({e.id: e for e in stored_rounds.pending_entrants(session, event.id)})
    starts = []
    found: dict[int, Version] = {}
    for entrant in sorted(entrants.values(), key=lambda e: e.name):
        if entrant.plugin is None:
            continue
        try:
            info = registry.get(entrant.plugin)
            options = json.loads(entrant.options or "{}")
            registry.validate_options(info, options)
        except PluginError as exc:
            raise PluginError(f"entrant {entrant.name!r}: {exc}") from None
        assert entrant.id is not None
        found[entrant.id] = version_of(entrant.plugin, options)
        seat = SeatSpec(entrant.plugin, entrant.options or "{}", sandbox, found[entrant.id].digest)
        starts.append(BotStart(f"entrant {entrant.name!r}", seat, league.rules, event.table_size))
    return starts, found


def keep_versions(db: Database, found: Mapping[int, Version]) -> dict[int, str]:
    """Keep the versions ``found`` (by entrant) that are not kept yet; the digest of each,
    by entrant."""
    if found:
        with db.writing() as session:
            stored_versions.keep(
                session,
                [VersionRecord(v.digest, v.label, v.details_json()) for v in found.values()],
            )
    return {entrant: version.digest for entrant, version in found.items()}


def pending_tasks(
    session: Session, event_id: int, options: RunOptions | None = None
) -> tuple[list[MatchTask], dict[int, list[str]]]:
    """The matches still to play, and the names of who sits at each."""
    options = options or RunOptions()
    tasks = []
    names: dict[int, list[str]] = {}
    for match in stored_rounds.pending_seatings(session, event_id):
        seats = []
        for entrant in match.seats:
            if entrant.plugin is None:
                raise UsageError(
                    f"match {match.match_id} seats {entrant.name!r}, a person: enter its "
                    "result by hand"
                )
            version = options.versions.get(entrant.entrant_id, "")
            seats.append(SeatSpec(entrant.plugin, entrant.options, options.sandbox, version))
        names[match.match_id] = [f"entrant {e.name!r}" for e in match.seats]
        tasks.append(
            MatchTask(
                match_id=match.match_id,
                rules=match.rules,
                seats=tuple(seats),
                seed=match.seed,
                match_seconds=options.match_seconds,
                move_seconds=options.move_seconds,
                clock=options.clock,
            )
        )
    return tasks, names


@dataclass
class Played:
    """What a run has played so far, and the forfeits in a row of each bot."""

    summary: RunSummary
    streaks: ForfeitStreaks
    seated: dict[int, list[str]]
    again: str
    """The command that goes on with the run."""


def play_tasks(
    db: Database,
    league: League,
    *,
    tasks: Sequence[MatchTask],
    runner: Runner,
    played: Played,
    progress: Progress | None,
    done_before: int,
    total: int,
    more: _Later | None = None,
) -> None:
    """Play ``tasks`` and store their results in batches, each batch one short write
    transaction: at least every :data:`COMMIT_SECONDS`, and towards the end of the run
    whenever the batch holds as many matches as are still to come (on worker
    processes, once the next report is not here yet: the workers play on meanwhile), so
    that the run ends with little left to store. An interrupt drops the batch not yet
    written: those matches are played again, identically, on resume. ``more`` pairs
    the event's next rounds while the workers play: their matches are played after
    ``tasks``, as if they had come with them."""
    writer = ResultWriter(league)
    planned = 0 if more is None else more.planned_matches()
    total += planned
    done = done_before
    batch: list[MatchReport] = []
    last_commit = time.perf_counter()
    if progress is not None:
        progress(done, total)
    summary = played.summary
    idle = runner.would_wait if isinstance(runner, MatchRunner) else None
    left = len(tasks) + planned

    def later() -> list[MatchTask]:
        nonlocal left, total
        assert more is not None
        new = more()
        left, total = left - planned + len(new), more.total
        return new

    reports = (
        runner.run(tasks)
        if more is None or not isinstance(runner, MatchRunner)
        else runner.run(tasks, later)
    )
    try:
        for report in reports:
            if report.error is not None:
                _store_batch(db, writer, batch, summary)
                raise PluginError(f"match {report.match_id}: {report.error}")
            batch.append(report)
            done += 1
            left -= 1
            seats = played.seated[report.match_id]
            streak = played.streaks.add(seats, report.result.forfeit, str(report.match_id))
            if streak is not None:
                _store_batch(db, writer, batch, summary)
                raise BotStopped(
                    f"{streak}; the matches before are stored (mend the bot, then: "
                    f"{played.again}; --max-forfeits 0 never stops)"
                )
            now = time.perf_counter()
            if now - last_commit >= COMMIT_SECONDS or (
                len(batch) >= left and (idle is None or idle())
            ):
                _store_batch(db, writer, batch, summary)
                batch = []
                last_commit = now
            if progress is not None:
                progress(done, total)
    except ExecutorLost:
        _store_batch(db, writer, batch, summary)  # the matches played are whole
        raise
    _store_batch(db, writer, batch, summary)


def _store_batch(
    db: Database, writer: ResultWriter, reports: Sequence[MatchReport], summary: RunSummary
) -> None:
    """Store finished matches, each whole with its rating updates, in one transaction.
    Sequence numbers are taken under the write lock, in task order."""
    if not reports:
        return
    with db.writing(wait=None) as session:
        writer.record(session, [(r.match_id, r.result) for r in reports])
    writer.committed()
    summary.played += len(reports)
    summary.decisions += sum(r.result.decisions for r in reports)
    summary.forfeits += sum(r.result.forfeit is not None for r in reports)
