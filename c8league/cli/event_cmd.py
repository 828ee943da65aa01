"""``c8league event``: pair rounds, run and resume bot events, status and standings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from c8league.cli import state
from c8league.cli.options import (
    AddressOpt,
    Every,
    Executor,
    ExecutorOpt,
    JsonOpt,
    MatchSecondsOpt,
    MaxForfeitsOpt,
    MoveSecondsOpt,
    ProgressEveryOpt,
    WorkersOpt,
    where_played,
)
from c8league.cli.output import err, out, print_json
from c8league.cli.result_cmd import ROUND_MAX, TABLE_MAX

if TYPE_CHECKING:
    from c8league.club import Sheet

app = typer.Typer(help="Events: pair, run, resume, status, standings.", no_args_is_help=True)

EventArg = Annotated[str, typer.Argument(help="Event name (or LEAGUE/EVENT).")]
LeagueOpt = Annotated[str | None, typer.Option(help="The league, if the event name is ambiguous.")]
FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        help="terminal, csv, html or json (default: from the --out suffix, .txt .csv .html "
        ".json; else terminal).",
    ),
]
OutOpt = Annotated[str | None, typer.Option("--out", help="Write to this file.")]


@app.command("pair")
def pair(
    event: EventArg,
    league: LeagueOpt = None,
    fmt: FormatOpt = None,
    path: OutOpt = None,
) -> None:
    """Pair the next round of an event and print its pairing sheet."""
    from c8league import events

    chosen = sheet_output(fmt, path)
    paired = events.pair_round(state.database(), event, league)
    err.print(f"{paired.event}: round {paired.round} paired")
    for line in paired.warnings:
        err.print(f"[yellow]warning:[/] {line}", highlight=False)
    show_sheet(paired.event, paired.round, chosen, path)


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
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from c8league import events

    every = Every(progress_every)
    db = state.database()
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
        summary = events.run_event(
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
    status = events.event_status(db, event, league)
    rate = summary.played / summary.seconds if summary.seconds > 0 else 0.0
    err.print(
        f"{status.league}/{status.event}: played {summary.played} matches in "
        f"{summary.seconds:.1f} s ({rate:.1f}/s), {summary.forfeits} forfeits; "
        f"rounds {status.rounds_complete}/{status.rounds_total}"
        + (" — complete" if status.complete else "")
    )
    _print_standings(event, league)


@app.command("run")
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


@app.command("resume")
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


@app.command("status")
def status(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """Rounds and matches played, and forfeits by kind."""
    from c8league import events

    st = events.event_status(state.database(), event, league)
    if as_json:
        print_json(st.to_dict())
        return
    out.print(
        f"[bold]{st.league}/{st.event}[/] {st.format}, tables of {st.table_size}, "
        f"played by {st.played_by}"
    )
    out.print(
        f"rounds: {st.rounds_complete} complete, {st.rounds_paired} paired, "
        f"{st.rounds_total} in all"
    )
    out.print(
        f"matches: {st.matches_done} done, {st.matches_void} void, "
        f"{st.matches_total - st.matches_done - st.matches_void} pending"
    )
    if st.forfeits:
        out.print("forfeits: " + ", ".join(f"{k} {v}" for k, v in sorted(st.forfeits.items())))
        for f in st.faults:
            move = "" if f.move is None else f", move {f.move}"
            out.print(
                f"  {f.reason}: {f.entrant} {f.count} (first: match {f.match_id}{move}: "
                f"{f.detail})",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
    out.print("complete" if st.complete else "not complete")


@app.command("standings")
def standings(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """Standings: match points by placement, with tiebreaks."""
    from c8league import events

    if as_json:
        rows = events.event_standings(state.database(), event, league)
        print_json(
            [
                {
                    "rank": r.standing.rank,
                    "name": r.name,
                    "match_points": r.standing.match_points,
                    "opponents_match_points": r.standing.opponents_points,
                    "game_points": r.standing.game_points,
                    "wins": r.standing.wins,
                    "matches": r.standing.matches,
                    "byes": r.standing.byes,
                    **r.status.to_dict(),
                    "membership": r.note,
                    "absent_rounds": list(r.absent),
                    "opponents_average": r.standing.opponents_average,
                    "game_share": r.standing.game_share,
                    "direct": r.standing.direct,
                }
                for r in rows
            ]
        )
        return
    _print_standings(event, league)


def _print_standings(event: str, league: str | None) -> None:
    from c8league import events
    from c8league.standings import TIEBREAKS, explain_tiebreaks

    db = state.database()
    rows = events.event_standings(db, event, league)
    tiebreaks = events.event_tiebreaks(db, event, league)
    table = Table(title=f"Standings: {event}")
    headings = ["#", "entrant", "points", *(TIEBREAKS[t].heading for t in tiebreaks), "matches"]
    for column in headings:
        table.add_column(column, justify="right" if column != "entrant" else "left")
    for r in rows:
        s = r.standing
        table.add_row(
            str(s.rank),
            r.label,
            f"{s.match_points:.2f}".rstrip("0").rstrip("."),
            *(s.shown(t) for t in tiebreaks),
            str(s.matches + s.byes),
        )
    out.print(table)
    for line in explain_tiebreaks(tiebreaks):
        out.print(line, style="dim", highlight=False)


def _sheet_table(sheet: Sheet) -> Table:
    draft = "" if sheet.published else "DRAFT — "
    table = Table(
        title=f"{draft}{sheet.title}: {sheet.event}, round {sheet.round} of {sheet.rounds}",
        title_style="bold red" if draft else "bold",
        caption=f"seat 1 deals first · {sheet.rules_line}",
    )
    table.add_column("table", justify="right")
    table.add_column("play to", justify="right")
    width = max((len(t.seats) for t in sheet.tables), default=2)
    for seat in range(1, width + 1):
        table.add_column(f"seat {seat}" + (" (deals)" if seat == 1 else ""))
    table.add_column("result")
    for t in sheet.tables:
        table.add_row(
            str(t.table),
            str(t.target),
            *t.seats,
            *[""] * (width - len(t.seats)),
            t.result_text(),
        )
    return table


def _print_sheet(sheet: Sheet, console: Console) -> None:
    """The sheet as the terminal shows it: the tables, byes, the draft warning, and the
    "where do I sit" list."""
    console.print(_sheet_table(sheet))
    if sheet.byes:
        console.print("bye: " + ", ".join(sheet.byes), markup=False, highlight=False)
    if sheet.absent:
        console.print("absent: " + ", ".join(sheet.absent), markup=False, highlight=False)
    if not sheet.published:
        console.print(
            f"[bold red]DRAFT:[/] not published; the tables may still change "
            f"(c8league event publish {sheet.event} fixes them)"
        )
    console.print()
    console.print("[bold]Where do I sit?[/]")
    for w in sheet.where():
        place = f"table {w.table}, seat {w.seat}" if w.table is not None else "bye"
        console.print(f"  {w.name} · {place}", markup=False, highlight=False)


def sheet_output(fmt: str | None, path: str | None) -> str:
    """The format a sheet is written in (``--format``, else the suffix of ``--out``), after
    checking that ``path`` can be written: before anything is stored."""
    from c8league.club import check_out, sheet_format

    if path is not None:
        check_out(path)
    return sheet_format(fmt, path)


def show_sheet(event: str, round_number: int | None, fmt: str, path: str | None) -> None:
    """Print (or write) a round's pairing sheet in ``fmt`` (checked by sheet_output)."""
    import io
    import json
    from pathlib import Path

    from c8league import club
    from c8league.errors import UsageError

    sheet = club.pairing_sheet(state.database(), event, round_number)
    if fmt == "terminal" and path is None:
        _print_sheet(sheet, out)
        return
    if fmt == "terminal":
        buffer = io.StringIO()
        _print_sheet(sheet, Console(file=buffer, width=120, color_system=None))
        text = buffer.getvalue()
    elif fmt == "csv":
        text = club.sheet_csv(sheet)
    elif fmt == "html":
        text = club.sheet_html(sheet)
    else:
        text = json.dumps(sheet.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if path is None:
        out.file.write(text)
        return
    try:
        Path(path).write_text(text, encoding="utf-8-sig" if fmt == "csv" else "utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    err.print(f"pairing sheet written to {path}", highlight=False, markup=False)


@app.command("sheet")
def sheet(
    event: EventArg,
    round_number: Annotated[
        int | None,
        typer.Option("--round", help="Round (default: latest).", min=1, max=ROUND_MAX),
    ] = None,
    fmt: FormatOpt = None,
    path: OutOpt = None,
) -> None:
    """The pairing sheet of a round: tables, seats in order, first dealer, target score,
    where everyone sits, and (HTML) a score sheet per table."""
    show_sheet(event, round_number, sheet_output(fmt, path), path)


@app.command("swap")
def swap(
    event: EventArg,
    first: Annotated[str, typer.Argument(help="An entrant of the draft round.")],
    second: Annotated[str, typer.Argument(help="Another entrant of the draft round.")],
) -> None:
    """Swap two entrants' seats in the draft round (before it is published)."""
    from c8league import club

    result = club.swap(state.database(), event, first, second)
    for line in result.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    err.print(f"swapped {' and '.join(result.names)}", markup=False, highlight=False)
    show_sheet(event, None, "terminal", None)


@app.command("move")
def move(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="An entrant of the draft round.")],
    table: Annotated[
        int, typer.Option("--table", help="The table to move to.", min=1, max=TABLE_MAX)
    ],
) -> None:
    """Move an entrant to another table of the draft round."""
    from c8league import club

    result = club.move(state.database(), event, name, table)
    for line in result.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    err.print(f"moved {result.names[0]} to table {table}", markup=False, highlight=False)
    show_sheet(event, None, "terminal", None)


@app.command("unpair")
def unpair(event: EventArg) -> None:
    """Discard the draft round, to pair it again with event pair (after a withdrawal, a
    late entry or a no-show)."""
    from c8league import club

    number = club.unpair(state.database(), event)
    err.print(f"round {number} of {event} discarded: c8league event pair {event} pairs it again")


@app.command("publish")
def publish(event: EventArg) -> None:
    """Publish the draft round: its tables are fixed and results may be entered."""
    from c8league import club

    number = club.publish(state.database(), event)
    err.print(f"round {number} of {event} published")


@app.command("absent")
def absent(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="A member of the event's league.")],
    round_number: Annotated[
        int | None,
        typer.Option(
            "--round",
            help="Only this round (default: every round from the next one, until event present).",
            min=1,
            max=ROUND_MAX,
        ),
    ] = None,
) -> None:
    """A member will not come: not paired this evening (or in one round), still a member."""
    from c8league import club

    done = club.absent(state.database(), event, name, round_number)
    for line in done.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)
    err.print(f"{done.name} {done.text}", highlight=False, markup=False)


@app.command("present")
def present(
    event: EventArg,
    name: Annotated[str, typer.Argument(help="A member said to be absent.")],
) -> None:
    """A member said to be absent comes after all: paired again from the next round."""
    from c8league import club

    done = club.present(state.database(), event, name)
    for line in done.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)
    err.print(f"{done.name} {done.text}", highlight=False, markup=False)


@app.command("unpublish")
def unpublish(event: EventArg) -> None:
    """Take back the published round while none of its tables has a result: it is a
    draft again (then event unpair, swap or move, and publish)."""
    from c8league import club

    number = club.unpublish(state.database(), event)
    err.print(
        f"round {number} of {event} is a draft again: change it (event swap, move) or "
        f"discard it (c8league event unpair {event}), then publish it"
    )


@app.command("balance")
def balance(event: EventArg, league: LeagueOpt = None, as_json: JsonOpt = False) -> None:
    """How often each pair met and each entrant took each seat, over the rounds so far."""
    from c8league import events

    report = events.event_balance(state.database(), event, league)
    if as_json:
        header, records = report.records()
        print_json(
            {
                "summary": report.summary(),
                "entrants": [dict(zip(header, r, strict=True)) for r in records],
                "pairs": [
                    {"a": a, "b": b, "meetings": m}
                    for (a, b), m in sorted(report.pair_meetings.items())
                ],
            }
        )
        return
    rows = report.rows()
    table = Table(title=f"Balance: {event}")
    for column in rows[0]:
        table.add_column(
            column.replace("_", " "), justify="left" if column == "entrant" else "right"
        )
    for row in rows[1:]:
        table.add_row(*row)
    out.print(table)
    out.print("  ".join(f"{k}: {v}" for k, v in report.summary_rows()))
