"""``c8league event``: pair rounds, run and resume bot events, status and standings.

The group and the arguments its commands share; each command is in the module of what
it needs (``reading``: status, standings and balance; ``tables``: the pairing sheet and
its changes; ``running``: playing bot matches), registered in ``c8league.cli.main``."""

from __future__ import annotations

from typing import Annotated

import typer

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
