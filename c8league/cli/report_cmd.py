"""``c8league report``: a league's or an event's report in the terminal or as a file."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from c8league.cli.db import database, warn_if_changed
from c8league.cli.output import err, out
from c8league.errors import UsageError
from c8league.reports import CSV_TABLES, build_report, format_for, render, write_report
from c8league.reports.terminal import render_terminal


class ReportFormat(StrEnum):
    terminal = "terminal"
    csv = "csv"
    json = "json"
    md = "md"
    html = "html"


def report(
    target: Annotated[
        str | None,
        typer.Argument(
            help="A league, or an event (EVENT or LEAGUE/EVENT); default: the only league."
        ),
    ] = None,
    fmt: Annotated[
        ReportFormat | None,
        typer.Option(
            "--format",
            "-f",
            help="Output format: terminal, csv, json, md or html (default: from the --out "
            "suffix, else terminal).",
        ),
    ] = None,
    out_path: Annotated[
        Path | None, typer.Option("--out", "-o", help="Write to this file instead of stdout.")
    ] = None,
    table: Annotated[
        str,
        typer.Option(
            help=f"CSV only: {', '.join(CSV_TABLES)}, or all (one file each in the "
            "directory --out).",
            metavar="TABLE",
        ),
    ] = "leaderboard",
    matrix: Annotated[
        int,
        typer.Option(help="Entrants in the head-to-head matrix (top of the leaderboard).", min=2),
    ] = 16,
    chart: Annotated[
        int, typer.Option(help="Entrants drawn in the rating-history chart.", min=1)
    ] = 6,
    provisional: Annotated[
        int, typer.Option(help="Mark entrants with fewer rated matches as provisional.", min=0)
    ] = 10,
) -> None:
    """Leaderboard, standings, cross-table, head-to-head, statistics and rating history."""
    chosen = format_for(out_path, fmt.value if fmt is not None else None)
    if table != "all" and table not in CSV_TABLES:
        raise UsageError(f"--table {table}: expected one of {', '.join(CSV_TABLES)}, or all")
    if table == "all" and (chosen != "csv" or out_path is None):
        raise UsageError("--table all writes CSV files into a directory: add --out DIR")
    db = database(read_only=True)
    built = build_report(db, target, provisional=provisional)
    if out_path is not None:
        written = write_report(
            built, chosen, out_path, table=table, matrix=matrix, chart_entrants=chart
        )
        for path in written:
            err.print(f"wrote {path}")
    elif chosen == "terminal":
        render_terminal(built, out, matrix=matrix)
    else:
        sys.stdout.write(render(built, chosen, table=table, matrix=matrix, chart_entrants=chart))
    warn_if_changed(db, league=built.league, event=built.event)
