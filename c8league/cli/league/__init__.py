"""``c8league league``: import league files, list and show leagues.

The group; each command is in the module of what it needs (``files``: importing a
league file; ``reading``: listing and showing leagues; ``season``: the season
standings; ``history``: the audit trail), registered in ``c8league.cli.main``."""

from __future__ import annotations

import typer

app = typer.Typer(help="Leagues: import league files, list and show them.", no_args_is_help=True)
