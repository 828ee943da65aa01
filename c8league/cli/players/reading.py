"""``c8league players list``: the players the database holds."""

from __future__ import annotations

from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import out, print_json
from c8league.league.reading import list_players
from c8league.tables import draw_table


def list_(
    league: Annotated[str | None, typer.Option(help="Only the members of this league.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every registered player (or a league's members), with its status: active,
    withdrawn or retired, and the round it started."""
    rows = list_players(database(), league)
    if as_json:
        print_json(rows)
        return
    table = draw_table(
        ("name", "kind", "plugin", "version", "options", "status"),
        (
            (
                r["name"],
                r["kind"],
                r["plugin"] or "",
                r["plugin_version"] or "",
                ", ".join(f"{k}={v}" for k, v in r["options"].items()),
                r["status_text"],
            )
            for r in rows
        ),
        title="Players" + (f" of {league}" if league else ""),
    )
    out.print(table)
