"""``c8league league import``: a league file into the database."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import err
from c8league.league.files import load_league_file
from c8league.league.leagues import import_league


def import_(
    file: Annotated[Path, typer.Argument(help="A league file, e.g. leagues/bot-cup.toml.")],
    update: Annotated[
        bool,
        typer.Option(
            "--update",
            help="Also change the options of bots already registered to the file's. "
            "Their stored results stay and count for their ratings; pending matches use "
            "the new options.",
        ),
    ] = False,
) -> None:
    """Create or update a league from its file (importing twice changes nothing).

    A bot already registered with other options is refused (a changed bot needs a new
    name), unless --update: then its options become the file's. It stays the same
    entrant: its stored results stay and keep counting for its rating, and matches not
    yet played use the new options. This mends an event stopped by a bad option.
    """
    league_file = load_league_file(file)
    db = database(create=True)
    summary = import_league(db, league_file, source=str(file), update=update)
    for line in summary.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    if summary.created or summary.updated:
        changed = ", ".join(summary.created + summary.updated)
        err.print(f"league [bold]{summary.league}[/]: {changed}")
    else:
        err.print(f"league [bold]{summary.league}[/]: up to date")
