"""``c8league league list`` and ``show``: the leagues the database holds."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from c8league.cli.db import database
from c8league.cli.output import out, print_json
from c8league.league.house_rules import rules_line
from c8league.league.leagues import list_leagues, show_league


def list_(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Every league with its rules preset and events."""
    rows = list_leagues(database())
    if as_json:
        print_json(rows)
        return
    table = Table(title="Leagues")
    for column in ("league", "title", "rules", "tables", "entrants", "events"):
        table.add_column(column)
    for r in rows:
        table.add_row(
            r["name"],
            r["title"],
            r["preset"],
            ",".join(map(str, r["table_sizes"])),
            str(r["entrants"]),
            ", ".join(r["events"]),
        )
    out.print(table)


def show(
    name: Annotated[str, typer.Argument(help="League name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A league's rules, rating settings, entrants and events."""
    data = show_league(database(), name)
    if as_json:
        print_json(data)
        return
    out.print(f"[bold]{escape(data['name'])}[/] {escape(data['title'])}")
    out.print(rules_line(data["preset"], data["house_rules"]), markup=False)
    out.print(
        f"Swiss round 1: {data['first_round']} · tie-breaks: {', '.join(data['tiebreaks'])} · "
        f"season: {data['season']}",
        markup=False,
        highlight=False,
    )
    table = Table(title="Entrants")
    for column in ("name", "kind", "plugin", "status"):
        table.add_column(column)
    for e in data["entrants"]:
        table.add_row(e["name"], e["kind"], e["plugin"] or "", e["status_text"])
    out.print(table)
    table = Table(title="Events")
    for column in ("event", "format", "table size", "seed", "duplicate", "played by"):
        table.add_column(column)
    for ev in data["events"]:
        table.add_row(
            ev["name"],
            ev["format"],
            str(ev["table_size"]),
            str(ev["seed"]),
            str(ev["duplicate"]).lower(),
            ev["played_by"],
        )
    out.print(table)
