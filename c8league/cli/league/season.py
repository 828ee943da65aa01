"""``c8league league standings``: the season standings over a league's events."""

from __future__ import annotations

from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.output import out, print_json
from c8league.events.season import season_table
from c8league.reports.terminal import table_of
from c8league.reports.views import season_view


def standings(
    name: Annotated[str, typer.Argument(help="League name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Season standings over all the league's events, by the league's season rule
    (total, best-of:N or points:25,18,15,...)."""
    season = season_table(database(read_only=True), name)
    if as_json:
        print_json(season.to_dict())
        return
    view = season_view(season)
    view.title = f"{season.title}: season standings"
    out.print(table_of(view))
    for line in view.notes:
        out.print(line, style="dim", markup=False, highlight=False)
