"""``c8league league``: import league files, list and show leagues."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from c8league.cli import state
from c8league.cli.output import err, out, print_json
from c8league.cli.trail import show_trail
from c8league.club.corrections import league_trail
from c8league.events.season import season_table
from c8league.league import load_league_file
from c8league.league.house_rules import rules_line
from c8league.league.leagues import import_league, list_leagues, show_league
from c8league.reports.terminal import table_of
from c8league.reports.views import season_view

app = typer.Typer(help="Leagues: import league files, list and show them.", no_args_is_help=True)


@app.command("import")
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
    db = state.database(create=True)
    summary = import_league(db, league_file, source=str(file), update=update)
    for line in summary.warnings:
        err.print(f"[yellow]warning:[/] {line}")
    if summary.created or summary.updated:
        changed = ", ".join(summary.created + summary.updated)
        err.print(f"league [bold]{summary.league}[/]: {changed}")
    else:
        err.print(f"league [bold]{summary.league}[/]: up to date")


@app.command("list")
def list_(as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False) -> None:
    """Every league with its rules preset and events."""

    rows = list_leagues(state.database())
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


@app.command("standings")
def standings(
    name: Annotated[str, typer.Argument(help="League name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Season standings over all the league's events, by the league's season rule
    (total, best-of:N or points:25,18,15,...)."""

    season = season_table(state.database(), name)
    if as_json:
        print_json(season.to_dict())
        return
    view = season_view(season)
    view.title = f"{season.title}: season standings"
    out.print(table_of(view))
    for line in view.notes:
        out.print(line, style="dim", markup=False, highlight=False)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="League name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A league's rules, rating settings, entrants and events."""

    data = show_league(state.database(), name)
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


@app.command("history")
def history(
    name: Annotated[
        str | None, typer.Argument(help="The league (default: the database's only one).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The league's audit trail: every change after the fact, in every event (results,
    draft rounds) and of its members (withdrawals, returns, late entries, renames,
    merges, removals), oldest first."""

    rows = league_trail(state.database(), name)
    show_trail(rows, f"{name or 'league'}: audit trail", as_json)
