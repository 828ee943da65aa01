"""``c8league ladder``: a league that never ends. ``run`` plays the league's active bots
step after step, ``show`` is its table."""

from __future__ import annotations

import time
from typing import Annotated

import typer
from rich.live import Live
from rich.markup import escape
from rich.table import Table

from c8league.cli.db import database
from c8league.cli.options import (
    AddressOpt,
    ClockOpt,
    Every,
    Executor,
    ExecutorOpt,
    JsonOpt,
    MatchSecondsOpt,
    MaxForfeitsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    SandboxOpt,
    WorkersOpt,
)
from c8league.cli.output import err, out, print_json
from c8league.cli.playing import (
    hide_from_bots,
    sandbox_mode,
    say_cluster,
    say_unsandboxed,
    where_played,
)
from c8league.events.ladder import LadderTable, Until, ladder_table, run_ladder
from c8league.runner.clock import MatchClock, one_limit
from c8league.tables import Column, draw_table

app = typer.Typer(
    help="Ladders: a league's bots played step after step, for as long as it runs.",
    no_args_is_help=True,
)

LeagueArg = Annotated[str, typer.Argument(help="The league whose ladder it is.")]


@app.command("run")
def run(
    league: LeagueArg,
    matches: Annotated[
        int | None,
        typer.Option(help="Stop once this run has played this many matches (whole steps).", min=1),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(help="Stop once the ratings are sure enough: 'sigma<1.0' (every bot's σ)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="The ladder's seed, on its first run (default 0).", min=0)
    ] = None,
    same_entrant: Annotated[
        bool,
        typer.Option(
            "--same-entrant",
            help="A bot whose files change keeps its entrant and rating (by default its new "
            "version is rated apart, as NAME@v2).",
        ),
    ] = False,
    workers: WorkersOpt = None,
    executor: ExecutorOpt = Executor.processes,
    address: AddressOpt = None,
    match_seconds: MatchSecondsOpt = 600.0,
    move_seconds: MoveSecondsOpt = None,
    clock: ClockOpt = None,
    max_forfeits: MaxForfeitsOpt = 5,
    sandbox: SandboxOpt = None,
    progress_every: ProgressEveryOpt = "30s",
) -> None:
    """Play the league's ladder: its active bots, 16 tables a step, each step's tables
    chosen from the ratings (newcomers first, then the tables whose outcome is least
    sure), until stopped (Ctrl-C), --matches or --until. Bots entered, withdrawn or
    changed meanwhile (from another terminal) are picked up at the next step; a stopped
    run goes on where it stopped. docs/ladder.md says how tables are chosen."""
    stop = None if until is None else Until.parse(until)
    match_clock = None if clock is None else MatchClock.parse(clock)
    one_limit(move_seconds, match_clock)
    every = Every(progress_every)
    db = database()
    hide_from_bots(db)
    where = where_played(workers, executor, address)
    err.print(f"ladder of {escape(league)}: playing on {where} (Ctrl-C stops it)", highlight=False)
    started = time.monotonic()

    def progress(done: int, goal: int | None) -> None:
        now = time.monotonic()
        if done and every.due(done, now):
            pace = done / (now - started) if now > started else 0.0
            of = f"/{goal}" if goal is not None else ""
            err.print(f"{league}: {done}{of} matches, {pace:.1f}/s", highlight=False)

    done = run_ladder(
        db,
        league,
        matches=matches,
        until=stop,
        seed=seed,
        same_entrant=same_entrant,
        workers=workers,
        executor=executor.value,
        address=address,
        match_seconds=match_seconds,
        move_seconds=move_seconds,
        max_forfeits=max_forfeits,
        sandbox=sandbox_mode(sandbox),
        unsandboxed=say_unsandboxed,
        progress=progress,
        clock=match_clock,
        told=lambda line: err.print(escape(line), highlight=False),
        watch=say_cluster,
    )
    why = {
        "matches": "as many matches as asked",
        "until": f"every bot's σ below {stop.sigma if stop else ''}",
        "entrants": "fewer than two active bots",
    }.get(done.stopped, done.stopped)
    err.print(
        f"ladder of {escape(done.league)}: played {done.played} matches in {done.seconds:.1f} s, "
        f"{done.forfeits} forfeits; stopped: {why}",
        highlight=False,
    )
    _print(ladder_table(db, done.league))


@app.command("show")
def show(
    league: LeagueArg,
    watch: Annotated[
        float | None,
        typer.Option(
            "--watch",
            help="Show it again every N seconds, as a run changes it (Ctrl-C stops).",
            min=0.5,
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The ladder's table: every bot by conservative rating (μ − 3σ), with its matches
    in the ladder and the version it last played as."""
    db = database()
    if as_json:
        print_json(ladder_table(db, league).to_dict())
        return
    if watch is None:
        _print(ladder_table(db, league))
        return
    with Live(_table(ladder_table(db, league)), console=out, auto_refresh=False) as live:
        while True:
            time.sleep(watch)
            live.update(_table(ladder_table(db, league)), refresh=True)


def _print(table: LadderTable) -> None:
    out.print(_table(table))


def _table(table: LadderTable) -> Table:
    return draw_table(
        (
            Column("#", right=True),
            Column("entrant", no_wrap=True),
            Column("μ−3σ", right=True),
            Column("μ", right=True),
            Column("σ", right=True),
            Column("matches", right=True),
            "version",
        ),
        (
            (
                str(number),
                row.name + ("" if row.active else " †") + (" ?" if row.newcomer else ""),
                f"{row.conservative:.2f}",
                f"{row.mu:.2f}",
                f"{row.sigma:.2f}",
                str(row.matches),
                row.version,
            )
            for number, row in enumerate(table.rows, start=1)
        ),
        title=f"{table.title or table.league}: ladder, {table.matches} matches in "
        f"{table.steps} steps ({table.rating_system})",
        caption="Sorted by μ − 3σ. ? a newcomer (fewer than 10 matches: seated first); "
        "† no longer plays (withdrawn, or a new version took its place).",
    )
