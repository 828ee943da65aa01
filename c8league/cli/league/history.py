"""``c8league league history``: the league's audit trail."""

from __future__ import annotations

from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.trail import show_trail
from c8league.club.corrections import league_trail


def history(
    name: Annotated[
        str | None, typer.Argument(help="The league (default: the database's only one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The league's audit trail: every change after the fact, in every event (results,
    draft rounds) and of its members (withdrawals, returns, late entries, renames,
    merges, removals), oldest first."""
    rows = league_trail(database(read_only=True), name)
    show_trail(rows, f"{name or 'league'}: audit trail", as_json)
