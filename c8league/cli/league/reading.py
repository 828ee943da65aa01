"""``c8league league list`` and ``show``: the leagues the database holds."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from c8league.cli.db import database
from c8league.cli.output import out, print_json
from c8league.league.house_rules import rules_line
from c8league.league.reading import list_leagues, show_league
from c8league.tables import draw_table


def list_(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Every league with its rules preset and events."""
    rows = list_leagues(database(read_only=True))
    if as_json:
        print_json(rows)
        return
    table = draw_table(
        ("league", "title", "rules", "tables", "entrants", "events"),
        (
            (
                r["name"],
                r["title"],
                r["preset"],
                ",".join(map(str, r["table_sizes"])),
                str(r["entrants"]),
                ", ".join(r["events"]),
            )
            for r in rows
        ),
        title="Leagues",
    )
    out.print(table)


def show(
    name: Annotated[str, typer.Argument(help="League name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A league's rules, rating settings, entrants and events."""
    data = show_league(database(read_only=True), name)
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
    if data["confirm_reports"] == "second-player":
        out.print(
            "A result reported from a table is final once a second player there confirms it.",
            markup=False,
            highlight=False,
        )
    table = draw_table(
        ("name", "kind", "plugin", "status"),
        ((e["name"], e["kind"], e["plugin"] or "", e["status_text"]) for e in data["entrants"]),
        title="Entrants",
    )
    out.print(table)
    table = draw_table(
        ("event", "format", "table size", "seed", "duplicate", "played by"),
        (
            (
                ev["name"],
                ev["format"],
                str(ev["table_size"]),
                str(ev["seed"]),
                str(ev["duplicate"]).lower(),
                ev["played_by"],
            )
            for ev in data["events"]
        ),
        title="Events",
    )
    out.print(table)
