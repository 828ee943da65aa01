"""``c8league players add``, ``edit``, ``remove``, ``withdraw``, ``reinstate``,
``rename`` and ``merge``: registering, changing and removing players."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape

from c8league.cli.db import database
from c8league.cli.output import err
from c8league.errors import UsageError
from c8league.league import players
from c8league.league.people import merge as merge_players
from c8league.league.people import rename as rename_player
from c8league.league.players import add_player, edit_bot_options, remove_player
from c8league.players.registry import parse_options


def add(
    name: Annotated[str, typer.Argument(help="Display name, unique.")],
    bot: Annotated[
        str | None, typer.Option(help="Player plugin of a bot (omit for a person).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Bot option key=value (repeatable).")
    ] = None,
    league: Annotated[
        str | None, typer.Option(help="Also enter the player in this league.")
    ] = None,
) -> None:
    """Register a person or a bot.

    Names are written as people write them (Zoë, O'Brien, José García, Anne-Marie,
    J. R. R.); refused are the empty name, spaces at either end, a leading '-', the
    characters = , ; : / (they separate names in --scores, --hands and LEAGUE/EVENT),
    [ ] \\ (terminal markup) and control characters. A bot's options are checked now.
    """
    db = database()
    added = add_player(db, name, bot=bot, options=parse_options(option or []), league=league)
    entrant = added.entrant
    what = f"bot {entrant.plugin} {entrant.plugin_version}" if entrant.plugin else "person"
    err.print(f"player [bold]{entrant.name}[/] ({what})" + (f" in {league}" if league else ""))
    for line in added.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)


def edit(
    name: Annotated[str, typer.Argument(help="A registered bot.")],
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Set option key=value (repeatable).")
    ] = None,
    unset: Annotated[
        list[str] | None,
        typer.Option("--unset", help="Drop an option: back to its default (repeatable)."),
    ] = None,
) -> None:
    """Change a bot's options (they are checked as on players add).

    The bot stays the same entrant: matches not yet played, in events already paired
    too, use the new options from the next event run or resume (this mends an event
    stopped by a bad option). Its stored results stay and keep counting for its
    rating; to rate a changed bot apart, register it under a new name instead.
    """
    if not option and not unset:
        raise UsageError("nothing to change: give --option key=value or --unset key")
    change = edit_bot_options(
        database(), name, set_options=parse_options(option or []), unset=unset or []
    )
    if not change.changed:
        err.print(f"player [bold]{change.name}[/]: options unchanged")
        return
    shown = ", ".join(f"{k}={v}" for k, v in change.after.items()) or "defaults"
    err.print(f"player [bold]{change.name}[/] (bot {change.plugin}): options {shown}")
    if change.warning:
        err.print(f"[yellow]warning:[/] {change.warning}")


def remove(name: Annotated[str, typer.Argument(help="Player name.")]) -> None:
    """Remove a player: one without results is deleted, one with results is retired
    (never deleted: the results stay)."""
    what = remove_player(database(), name)
    err.print(f"player [bold]{escape(name)}[/] {what}", highlight=False)


def withdraw(
    name: Annotated[str, typer.Argument(help="Player name.")],
    league: Annotated[
        str | None,
        typer.Option(help="The league to withdraw from (default: the one the player is in)."),
    ] = None,
) -> None:
    """Withdraw from a league: no more pairings; results stay."""
    done = players.withdraw(database(), league, name)
    err.print(
        f"{escape(done.name)} {escape(done.text)} (league {escape(done.league)}): not paired "
        "from the next round",
        highlight=False,
    )
    for line in done.warnings:
        err.print(f"[yellow]warning:[/] {escape(line)}", highlight=False)


def reinstate(
    name: Annotated[str, typer.Argument(help="Player name.")],
    league: Annotated[
        str | None, typer.Option(help="The league (default: the one the player is in).")
    ] = None,
) -> None:
    """Undo a withdrawal: paired again from the next round."""
    done = players.reinstate(database(), league, name)
    err.print(
        f"{escape(done.name)} {escape(done.text)} (league {escape(done.league)}): paired "
        "again from the next round",
        highlight=False,
    )


def rename(
    old: Annotated[str, typer.Argument(help="The player's name now.")],
    new: Annotated[
        str, typer.Argument(help="The new name (unique whatever its case and accents).")
    ],
) -> None:
    """Rename a player everywhere: standings, sheets and reports of every event, past
    ones included (the audit trail keeps the rename)."""
    was, now = rename_player(database(), old, new)
    err.print(f"{escape(was)} is now [bold]{escape(now)}[/]", highlight=False)


def merge(
    keep: Annotated[str, typer.Argument(help="The player to keep.")],
    other: Annotated[str, typer.Argument(help="The same person entered under another name.")],
) -> None:
    """Make two entries one person: every result, seat and membership of OTHER becomes
    KEEP's, and the ratings are computed again. Refused for two people who sat at one
    table or played in the same round."""
    merged = merge_players(database(), keep, other)
    results = "1 result" if merged.results == 1 else f"{merged.results} results"
    err.print(
        f"{escape(merged.other)} merged into [bold]{escape(merged.keep)}[/] ({results} moved; "
        "ratings computed again)",
        highlight=False,
    )
