"""``c8league games export``: every game of an event, a duel or a league as JSON lines."""

from __future__ import annotations

import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import err
from c8league.errors import Interrupted, UsageError
from c8league.interrupts import signal_of, stopped_by
from c8league.reports.export import find_target, game_lines, write_atomically

app = typer.Typer(
    help="Games: export the games of an event, a duel or a league.", no_args_is_help=True
)

FORMATS = ("jsonl",)


@app.command("export")
def export(
    target: Annotated[
        str,
        typer.Argument(
            metavar="TARGET",
            help="An event (EVENT or LEAGUE/EVENT), a duel (duel-1) or a league (all its events).",
        ),
    ],
    fmt: Annotated[
        str, typer.Option("--format", help="jsonl: one JSON record a line, a game each.")
    ] = "jsonl",
    path: Annotated[
        Path | None,
        typer.Option("--out", help="Write to this file (whole, or not at all); else stdout."),
    ] = None,
    league: Annotated[
        str | None, typer.Option(help="The league of the event, if its name is ambiguous.")
    ] = None,
) -> None:
    """Every finished game of an event, a duel or a league, one JSON line each: every
    move, the seats, the result and any forfeit, in the record that match show
    --format json prints (docs/games-export.md). Games are read and written a few
    hundred at a time: any number takes little memory."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    db = database(read_only=True)
    found = find_target(db, target, league)
    lines = game_lines(db, found)
    if path is None:
        _to_stdout(lines)
        return
    try:
        count = write_atomically(path, lines)
    except KeyboardInterrupt as exc:
        raise Interrupted(f"{stopped_by(exc)}: nothing written to {path}", signal_of(exc)) from None
    finally:
        lines.close()
    err.print(f"{count} games of {found.kind} {found.name} written to {path}", soft_wrap=True)


def _to_stdout(lines: Generator[str, None, None]) -> None:
    """Write the lines to stdout as they come; a reader that stops reading (``| head``)
    ends the export quietly."""
    write = sys.stdout.write
    try:
        for line in lines:
            write(line)
        sys.stdout.flush()
    except BrokenPipeError:
        # Nothing more can be written: let Python's flush at exit find nowhere to write.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    finally:
        lines.close()
