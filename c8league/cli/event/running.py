"""``c8league event run`` and ``resume``: play an event's bot matches."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from c8league.cli.db import database
from c8league.cli.event import EventArg, LeagueOpt
from c8league.cli.event.reading import print_standings
from c8league.cli.options import (
    AddressOpt,
    ClockOpt,
    Every,
    Executor,
    ExecutorOpt,
    MatchSecondsOpt,
    MaxForfeitsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    Sandbox,
    SandboxOpt,
    WorkersOpt,
)
from c8league.cli.output import err
from c8league.cli.playing import (
    RunProgress,
    hide_from_bots,
    sandbox_mode,
    say_cluster,
    say_unsandboxed,
    where_played,
)
from c8league.events.running import run_event
from c8league.events.status import event_status
from c8league.runner.clock import MatchClock


def _run(
    event: str,
    league: str | None,
    workers: int | None,
    rounds: int | None,
    executor: Executor = Executor.processes,
    address: str | None = None,
    match_seconds: float = 600.0,
    move_seconds: float | None = None,
    max_forfeits: int = 5,
    progress_every: str = "30s",
    sandbox: Sandbox | None = None,
    clock: str | None = None,
) -> None:
    every = Every(progress_every)
    match_clock = None if clock is None else MatchClock.parse(clock)
    db = database()
    hide_from_bots(db)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>7} matches/s"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    where = where_played(workers, executor, address)
    with RunProgress(f"{event} ({where})", columns, every=every, rate="") as shown:

        def progress(done: int, total: int) -> None:
            pace = shown.pace(done)
            shown.report(
                done,
                lambda: f"{event}: {done}/{total} matches, {pace:.1f}/s",
                completed=done,
                total=total,
                last=done == total,
                rate=f"{pace:.1f}" if done else "",
            )

        summary = run_event(
            db,
            event,
            league=league,
            workers=workers,
            rounds=rounds,
            progress=progress,
            executor=executor.value,
            address=address,
            match_seconds=match_seconds,
            move_seconds=move_seconds,
            max_forfeits=max_forfeits,
            sandbox=sandbox_mode(sandbox),
            unsandboxed=say_unsandboxed,
            clock=match_clock,
            watch=say_cluster,
        )
    status = event_status(db, event, league)
    rate = summary.played / summary.seconds if summary.seconds > 0 else 0.0
    err.print(
        f"{status.league}/{status.event}: played {summary.played} matches in "
        f"{summary.seconds:.1f} s ({rate:.1f}/s), {summary.forfeits} forfeits; "
        f"rounds {status.rounds_complete}/{status.rounds_total}"
        + (" — complete" if status.complete else "")
    )
    print_standings(event, league)


def run(
    event: EventArg,
    league: LeagueOpt = None,
    workers: WorkersOpt = None,
    rounds: Annotated[
        int | None, typer.Option(help="Play at most this many more rounds.", min=1)
    ] = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    clock: ClockOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
) -> None:
    """Play an event's bot matches in parallel until it is complete (resumes if stopped).
    Every bot is started once on every worker first: one that cannot start stops the run
    before its first match."""
    _run(
        event,
        league,
        workers,
        rounds,
        executor,
        address,
        match_seconds,
        move_seconds,
        max_forfeits,
        progress_every,
        sandbox,
        clock,
    )


def resume(
    event: EventArg,
    league: LeagueOpt = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    clock: ClockOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
    sandbox: SandboxOpt = None,
) -> None:
    """Continue an interrupted event: plays exactly the matches without a result."""
    _run(
        event,
        league,
        workers,
        None,
        executor,
        address,
        match_seconds,
        move_seconds,
        max_forfeits,
        progress_every,
        sandbox,
        clock,
    )
