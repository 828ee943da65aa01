"""``c8league players list`` and ``show``: the players the database holds, and a
player's versions."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.text import Text

from c8league.cli.db import database
from c8league.cli.output import out, print_json
from c8league.league.reading import list_players, show_player
from c8league.tables import Column, draw_table


def list_(
    league: Annotated[str | None, typer.Option(help="Only the members of this league.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every registered player (or a league's members), with its status: active,
    withdrawn or retired, and the round it started."""
    rows = list_players(database(read_only=True), league)
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


def show(
    name: Annotated[str, typer.Argument(help="The player's name.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A player, and for a bot every version of it that played, oldest first: when it
    was first seen, its first and last match, and its results."""
    shown = show_player(database(read_only=True), name)
    if as_json:
        print_json(shown)
        return
    options = ", ".join(f"{k}={v}" for k, v in shown["options"].items())
    kind = shown["kind"] if shown["plugin"] is None else f"{shown['kind']} ({shown['plugin']})"
    leagues = "; ".join(
        f"{m['league']}: {'withdrawn' if m['withdrawn'] else 'plays'}" for m in shown["leagues"]
    )
    out.print(
        Text.assemble(
            (shown["name"], "bold"),
            f"  {kind}, {shown['status']}" + (f" · {leagues}" if leagues else ""),
        )
    )
    if options:
        out.print(Text(options), soft_wrap=True)
    versions = shown["versions"]
    if shown["plugin"] is None:
        return
    if not versions:
        out.print("No match played with a recorded version yet.")
        return
    table = draw_table(
        (
            Column("v", right=True),
            "version",
            Column("since", no_wrap=True),
            Column("played", right=True),
            Column("win%", right=True),
            Column("place", right=True),
            Column("forfeits", right=True),
            Column("matches", no_wrap=True),
        ),
        (
            (
                str(v["number"]),
                v["label"],
                v["first_seen"][:10],
                str(v["matches"]),
                f"{100 * v['wins'] / v['matches']:.0f}%",
                f"{v['mean_place']:.2f}",
                str(v["forfeits"]),
                f"{v['first_match']}–{v['last_match']}",
            )
            for v in versions
        ),
        title=f"Versions of {shown['name']}",
        caption="since: first seen; place: mean place; matches: the ids of its first and "
        "last (c8league match show ID)",
    )
    out.print(table)
