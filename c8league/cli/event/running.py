"""``c8league event run`` and ``resume``: play an event's bot matches."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from c8league.cli.db import database
from c8league.cli.event import EventArg, LeagueOpt
from c8league.cli.event.reading import print_standings
from c8league.cli.options import (
    AddressOpt,
    Every,
    Executor,
    ExecutorOpt,
    MatchSecondsOpt,
    MaxForfeitsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    WorkersOpt,
)
from c8league.cli.output import err
from c8league.cli.playing import where_played
from c8league.events.running import run_event
from c8league.events.status import event_status


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
) -> None:

    every = Every(progress_every)
    db = database()
    where = where_played(workers, executor, address)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]:>7} matches/s"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    # The bar appears when play begins: a run that stops first (another run holds the
    # event, a bad plugin) prints only its error.
    bar = Progress(*columns, console=err, transient=False)
    task = bar.add_task(f"{event} ({where})", total=None, rate="")
    lines = not err.is_terminal  # a log: lines, not a bar
    started = time.monotonic()

    def progress(done: int, total: int) -> None:
        if lines:
            now = time.monotonic()
            if every.due(done, now) and done:
                pace = done / (now - started) if now > started else 0.0
                err.print(f"{event}: {done}/{total} matches, {pace:.1f}/s", highlight=False)
            return
        if not bar.live.is_started:
            bar.start()
        elapsed = bar.tasks[0].elapsed or 0.0
        rate = f"{bar.tasks[0].completed / elapsed:.1f}" if elapsed > 0 else ""
        bar.update(task, completed=done, total=total, rate=rate)

    try:
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
        )
    finally:
        if bar.live.is_started:
            bar.stop()
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
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
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
    )


def resume(
    event: EventArg,
    league: LeagueOpt = None,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    progress_every: ProgressEveryOpt = "30s",
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
    )
