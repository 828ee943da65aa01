"""``c8league players``: register, list, edit and remove entrants.

The group; each command is in the module of what it needs (``reading``: the listing;
``editing``: registering, changing and removing players), registered in
``c8league.cli.main``."""

from __future__ import annotations

import typer

app = typer.Typer(help="Players: people and bots entered in leagues.", no_args_is_help=True)
