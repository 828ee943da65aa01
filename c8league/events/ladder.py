"""A league's ladder: an event that never ends (``c8league ladder run``).

The ladder of a league is its event called :data:`LADDER`, of the format ``ladder``,
made on its first run. A run plays it step after step: each step is a round of
:data:`~c8league.schedule.ladder.STEP_TABLES` tables, chosen by the ladder's
matchmaking (``c8league.schedule.ladder``, docs/ladder.md) from the ratings and counts
of the league's active bots as they are when the step begins, and played in parallel;
its results are stored, and the league's ratings updated, as an event's are. What
changes meanwhile is picked up at the next step: a bot entered in the league (``players
add … --league``) or withdrawn (``players withdraw``), and a bot whose files changed (a
new version: rated as a new entrant ``NAME@v2`` that takes its place, unless
``same_entrant``). Every step is seeded from the ladder's seed and its number, so that
the same seed and the same changes give the same matches, on any number of workers,
whatever the interruptions: a run stopped in the middle of a step plays the rest of it
first when it goes on.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from c8league.engine import derive_seed
from c8league.errors import BotStopped, NotFoundError, UsageError
from c8league.events.running import (
    Played,
    RunOptions,
    RunSummary,
    check_match_seconds,
    keep_versions,
    pending_tasks,
    play_tasks,
)
from c8league.interrupts import run_kept
from c8league.league.players import enter_new_version
from c8league.players.versions import Version, version_of
from c8league.ratings import Rating
from c8league.ratings.update import model_for
from c8league.runner.base import Watch
from c8league.runner.clock import MatchClock, one_limit
from c8league.runner.executors import make_runner, resume_command
from c8league.runner.starting import BotStart
from c8league.runner.starting import unsandboxed as runner_unsandboxed
from c8league.runner.streaks import MAX_FORFEITS, ForfeitStreaks
from c8league.runner.tasks import SeatSpec
from c8league.sandbox import Mode, Support
from c8league.schedule.ladder import MIN_MATCHES, STEP_TABLES, Rung, next_step
from c8league.storage import Session
from c8league.storage import ladders as stored_ladders
from c8league.storage import ratings as stored_ratings
from c8league.storage import rounds as stored_rounds
from c8league.storage import versions as stored_versions
from c8league.storage.database import Database
from c8league.storage.leagues import find_event, get_league, league_members
from c8league.storage.models import Entrant, Event, League
from c8league.storage.rounds import NewMatch
from c8league.storage.runlock import event_run_lock

LADDER = "ladder"
"""The name and format of a league's ladder event."""

Progress = Callable[[int, int | None], None]
"""``progress(played, goal)``: matches played by the run, and its goal (None: none)."""


@dataclass(frozen=True)
class Until:
    """When a ladder stops by itself: every active entrant's σ below ``sigma``."""

    sigma: float

    @classmethod
    def parse(cls, text: str, param: str = "until") -> Until:
        """``sigma<1.0``; a :class:`UsageError` naming ``param`` otherwise."""
        found = re.fullmatch(r"\s*sigma\s*<\s*([0-9]*\.?[0-9]+)\s*", text)
        if found is None or float(found[1]) <= 0:
            raise UsageError(
                f"`{param}` takes sigma<X (every active bot's σ below X), not {text!r}",
                params=[param],
            )
        return cls(float(found[1]))


@dataclass
class LadderRun:
    """What a run of a ladder did."""

    league: str
    played: int = 0
    steps: int = 0
    forfeits: int = 0
    seconds: float = 0.0
    stopped: str = ""
    """Why it stopped: ``matches`` (as many as asked), ``until`` (the ratings were sure
    enough), ``entrants`` (fewer than two active bots)."""
    joined: list[str] = field(default_factory=list)
    """New versions entered as entrants of their own during the run (``NAME@v2``)."""
    playing: list[str] = field(default_factory=list)
    """The bots of the last step made, by name."""
    told: Callable[[str], None] | None = field(default=None, repr=False, compare=False)
    """Told, in a line, each change to who plays as a step picks it up: a bot entered or
    withdrawn meanwhile, a new version."""

    def tell(self, line: str) -> None:
        if self.told is not None:
            self.told(line)


def run_ladder(
    db: Database,
    league_name: str,
    *,
    matches: int | None = None,
    until: Until | None = None,
    seed: int | None = None,
    same_entrant: bool = False,
    workers: int | None = None,
    executor: str = "processes",
    address: str | None = None,
    match_seconds: float | None = 600.0,
    move_seconds: float | None = None,
    max_forfeits: int | None = MAX_FORFEITS,
    sandbox: Mode | None = None,
    unsandboxed: Callable[[Support], None] | None = None,
    progress: Progress | None = None,
    clock: MatchClock | None = None,
    told: Callable[[str], None] | None = None,
    watch: Watch | None = None,
) -> LadderRun:
    """Play the ladder of the league ``league_name`` (made on the first run, seeded
    with ``seed``, 0 by default) step after step until ``matches`` matches are played by
    this run (then at the end of that step), ``until`` holds, or it is stopped (Ctrl-C:
    the steps' matches stored stay; the next run plays the rest of a step first).
    The messages that say how the ladder goes on name the command that runs it where it
    ran (``runner.executors.resume_command``); ``told`` is told each change to who
    plays, in a line, as the step that picks it up is made; ``watch``, what changes in
    a cluster's workers (``runner.executors.make_runner``)."""
    if matches is not None and matches < 1:
        raise UsageError("`matches` must be at least 1", params=["matches"])
    check_match_seconds(match_seconds)
    check_match_seconds(move_seconds, "move_seconds")
    one_limit(move_seconds, clock)
    run = LadderRun(league_name, told=told)
    started = time.perf_counter()
    with db.writing() as session:
        league = get_league(session, league_name)
        event = _ladder_event(session, league, seed)
        event_id, league_name = event.id, league.name
        run.league = league_name
    assert event_id is not None
    options = RunOptions(match_seconds, move_seconds, max_forfeits, sandbox, clock=clock)
    summary = RunSummary()
    again = resume_command("ladder", league_name, executor, address, sandbox, verb="run")
    with (
        run_kept(
            lambda: f"{summary.played} matches stored by this run",
            goes_on="the ladder goes on with",
            again=again,
        ),
        event_run_lock(db, event_id, f"{league_name}'s ladder"),
        make_runner(executor, workers, address, watch=watch) as runner,
    ):
        runner.prepare()
        starts, found = _starts(db, league_name, options)
        options = replace(options, versions=keep_versions(db, found))
        missing = runner_unsandboxed(starts)
        if missing is not None and unsandboxed is not None:
            unsandboxed(missing)
        problem = runner.start(starts, match_seconds)
        if problem is not None:
            raise BotStopped(f"{problem}; nothing was played (mend the bot, then: {again})")
        streaks = ForfeitStreaks(max_forfeits)
        while True:
            with db.session() as session:
                pending, seated = pending_tasks(session, event_id, options)
            if not pending:
                stop = _stop(db, league_name, summary.played, matches, until)
                if stop:
                    run.stopped = stop
                    break
                stepped = _next_step(db, league_name, event_id, options, same_entrant, run)
                if stepped is None:
                    run.stopped = "entrants"
                    break
                options = stepped
                run.steps += 1
                continue
            played = Played(summary, streaks, seated, again)
            play_tasks(
                db,
                _league(db, league_name),
                tasks=pending,
                runner=runner,
                played=played,
                progress=None if progress is None else _towards(progress, matches),
                done_before=summary.played,
                total=summary.played + len(pending),
            )
    run.played, run.forfeits = summary.played, summary.forfeits
    run.seconds = time.perf_counter() - started
    return run


def _towards(progress: Progress, goal: int | None) -> Callable[[int, int], None]:
    """A run's progress as an event's reports it (matches done and in all), as the
    ladder's: matches done and the run's goal."""
    return lambda done, _total: progress(done, goal)


def _league(db: Database, name: str) -> League:
    with db.session() as session:
        return get_league(session, name)


def _ladder_event(session: Session, league: League, seed: int | None) -> Event:
    """The league's ladder, made now if it has none (its seed ``seed``, 0 by default);
    a different seed for one that exists is refused."""
    assert league.id is not None
    event = find_event(session, league.id, LADDER)
    if event is None:
        sizes = [int(size) for size in league.table_sizes.strip("[]").split(",") if size]
        event = Event(
            league_id=league.id,
            name=LADDER,
            format=LADDER,
            seed=0 if seed is None else seed,
            table_size=sizes[0] if sizes else 2,
            rounds=0,
        )
        session.add(event)
        session.flush()
        return event
    if event.format != LADDER:
        raise UsageError(
            f"league {league.name!r} has an event called {LADDER!r} that is no ladder: rename "
            "it to run the league's ladder"
        )
    if seed is not None and seed != event.seed:
        raise UsageError(
            f"the ladder of {league.name!r} plays with seed {event.seed}; its seed cannot "
            "change (leave `seed` out)",
            params=["seed"],
        )
    return event


def _bots(session: Session, league: League) -> list[Entrant]:
    """The league's active members that are bots."""
    assert league.id is not None
    return [e for e in league_members(session, league.id, active_only=True) if e.plugin]


def _starts(
    db: Database, league_name: str, options: RunOptions
) -> tuple[list[BotStart], dict[int, Version]]:
    """The league's active bots, to start before the first step (one that cannot start
    stops the run before anything is played; a bot that joins later starts with its
    first match), and the version of each as it is now (the matches of a step stopped
    before are played as these, as are the next step's)."""
    with db.session() as session:
        league = get_league(session, league_name)
        event = find_event(session, league.id or 0, LADDER)
        size = 2 if event is None else event.table_size
        bots = _bots(session, league)
    found = {b.id or 0: _version(b) for b in bots}
    starts = [
        BotStart(
            f"entrant {bot.name!r}",
            SeatSpec(
                bot.plugin or "", bot.options or "{}", options.sandbox, found[bot.id or 0].digest
            ),
            league.rules,
            size,
        )
        for bot in bots
    ]
    return starts, found


def _stop(
    db: Database, league_name: str, played: int, matches: int | None, until: Until | None
) -> str:
    """Why the ladder stops before its next step, the run having played ``played``
    matches ("" to go on)."""
    if matches is not None and played >= matches:
        return "matches"
    if until is None:
        return ""
    with db.session() as session:
        league = get_league(session, league_name)
        assert league.id is not None
        bots = _bots(session, league)
        rated = stored_ratings.current(session, league.id, [b.id or 0 for b in bots])
        initial = model_for(league).initial().sigma
    if bots and all(rated.get(b.id or 0, (0.0, initial, 0))[1] < until.sigma for b in bots):
        return "until"
    return ""


def _next_step(
    db: Database,
    league_name: str,
    event_id: int,
    options: RunOptions,
    same_entrant: bool,
    run: LadderRun,
) -> RunOptions | None:
    """Make the ladder's next step: its bots' versions looked at (a changed bot enters
    as a new version, see :func:`run_ladder`), then its tables, stored as a round.
    Returns the run's options with the bots' versions (None: fewer than two bots)."""
    with db.session() as session:
        league = get_league(session, league_name)
        bots = _bots(session, league)
        last = stored_ladders.last_versions(session, [b.id or 0 for b in bots])
    found = {b.id or 0: _version(b) for b in bots}
    with db.writing() as session:
        league = get_league(session, league_name)
        event = session.get(Event, event_id)
        if event is None:
            raise NotFoundError(f"the ladder of {league_name!r} is gone")
        if not same_entrant:
            found = _new_versions(session, league, found, last, run)
        bots = _bots(session, league)
        if len(bots) < 2:
            return None
        found = {b.id or 0: found.get(b.id or 0) or _version(b) for b in bots}
        step = stored_rounds.round_count(session, event_id) + 1
        _changes(run, [b.name for b in bots], step)
        tables = next_step(
            _rungs(session, league, event_id, bots),
            size=event.table_size,
            step=step,
            seed=event.seed,
            quality=_quality(league),
            initial_sigma=model_for(league).initial().sigma,
            tables=STEP_TABLES,
            min_matches=MIN_MATCHES,
        )
        matches = [
            NewMatch(
                table_no=number,
                deal=0,
                rules=league.rules,
                seed=derive_seed(event.seed, "round", step, "table", number),
                seats=table,
            )
            for number, table in enumerate(tables, start=1)
        ]
        stored_rounds.add_rounds(session, event_id, [(step, (), matches)], published=True)
    versions = keep_versions(db, found)
    return replace(options, versions={**options.versions, **versions})


def _version(bot: Entrant) -> Version:
    return version_of(bot.plugin or "", json.loads(bot.options or "{}"))


def _new_versions(
    session: Session,
    league: League,
    found: dict[int, Version],
    last: Mapping[int, str],
    run: LadderRun,
) -> dict[int, Version]:
    """Enter each bot whose version differs from the one it last played as as a new
    entrant (``NAME@vN``) in its place; the versions found, by entrant, with the new
    entrants'."""
    result = dict(found)
    for entrant_id, version in found.items():
        before = last.get(entrant_id)
        if before is None or before == version.digest:
            continue
        entrant = session.get(Entrant, entrant_id)
        if entrant is None:
            continue
        newer = enter_new_version(session, league, entrant)
        session.flush()
        assert newer.id is not None
        result[newer.id] = version
        del result[entrant_id]
        run.joined.append(newer.name)
        old = stored_versions.by_digest(session, [before])
        found_old = stored_versions.kept(session, old.values())
        label = next((v.label for v in found_old.values()), before[:8])
        run.tell(
            f"{newer.name} joined: a new version of {entrant.name} ({label} → "
            f"{version.label}), rated apart"
        )
        if entrant.name in run.playing:  # (its place is taken, not left)
            run.playing[run.playing.index(entrant.name)] = newer.name
    return result


def _changes(run: LadderRun, playing: list[str], step: int) -> None:
    """Tell who joins the ladder and who leaves it at ``step`` (the bots of the step
    before this run's first are not compared: they are what the run began with)."""
    if run.playing:
        for name in playing:
            if name not in run.playing:
                run.tell(f"{name} joined the ladder at step {step}")
        for name in run.playing:
            if name not in playing:
                run.tell(f"{name} left the ladder after step {step - 1}")
    run.playing = playing


def _rungs(session: Session, league: League, event_id: int, bots: Sequence[Entrant]) -> list[Rung]:
    """The bots as the matchmaking sees them: rating, matches in the ladder, last step."""
    assert league.id is not None
    ids = [b.id or 0 for b in bots]
    rated = stored_ratings.current(session, league.id, ids)
    played = stored_ladders.played(session, event_id)
    initial = model_for(league).initial()
    rungs = []
    for entrant in ids:
        mu, sigma, _ = rated.get(entrant, (initial.mu, initial.sigma, 0))
        count, last = played.get(entrant, (0, 0))
        rungs.append(Rung(entrant, mu, sigma, count, last))
    return rungs


def _quality(league: League) -> Callable[[Sequence[Rung]], float]:
    model = model_for(league)
    return lambda table: model.quality([Rating(r.mu, r.sigma) for r in table])


@dataclass(frozen=True)
class LadderRow:
    """An entrant of a ladder's table (``ladder show``)."""

    name: str
    mu: float
    sigma: float
    conservative: float
    matches: int
    """Matches played in the ladder."""
    version: str
    """The label of the version it last played as ("" if none recorded)."""
    active: bool
    newcomer: bool
    """Fewer than the matchmaking's minimum matches: it is seated first."""


@dataclass(frozen=True)
class LadderTable:
    """A ladder's table: its league, how far it is, and its entrants best first."""

    league: str
    title: str
    steps: int
    matches: int
    rating_system: str
    rows: tuple[LadderRow, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "league": self.league,
            "title": self.title,
            "steps": self.steps,
            "matches": self.matches,
            "rating_system": self.rating_system,
            "entrants": [
                {
                    "name": r.name,
                    "mu": round(r.mu, 4),
                    "sigma": round(r.sigma, 4),
                    "conservative": round(r.conservative, 4),
                    "matches": r.matches,
                    "version": r.version,
                    "active": r.active,
                    "newcomer": r.newcomer,
                }
                for r in self.rows
            ],
        }


def ladder_table(db: Database, league_name: str) -> LadderTable:
    """The ladder of ``league_name`` as it stands: every bot that played in it or is an
    active member, by conservative rating (μ − 3σ), best first."""
    with db.session() as session:
        league = get_league(session, league_name)
        assert league.id is not None
        event = find_event(session, league.id, LADDER)
        if event is None or event.format != LADDER:
            raise NotFoundError(
                f"league {league.name!r} has no ladder yet: c8league ladder run {league.name}"
            )
        assert event.id is not None
        played = stored_ladders.played(session, event.id)
        active = {b.id or 0 for b in _bots(session, league)}
        members = {e.id or 0: e for e in league_members(session, league.id)}
        ids = sorted(set(played) | active)
        rated = stored_ratings.current(session, league.id, ids)
        versions = stored_ladders.last_labels(session, ids)
        model = model_for(league)
        initial = model.initial()
        rows = []
        for entrant in ids:
            mu, sigma, _ = rated.get(entrant, (initial.mu, initial.sigma, 0))
            count = played.get(entrant, (0, 0))[0]
            found = members.get(entrant)
            name = found.name if found is not None else f"#{entrant}"
            rows.append(
                LadderRow(
                    name=name,
                    mu=mu,
                    sigma=sigma,
                    conservative=mu - 3 * sigma,
                    matches=count,
                    version=versions.get(entrant, ""),
                    active=entrant in active,
                    newcomer=count < MIN_MATCHES,
                )
            )
        rows.sort(key=lambda r: (-r.conservative, r.name))
        return LadderTable(
            league=league.name,
            title=league.title,
            steps=stored_rounds.round_count(session, event.id),
            matches=stored_ladders.done(session, event.id),
            rating_system=model.version(),
            rows=tuple(rows),
        )
