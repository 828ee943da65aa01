"""``c8league demo``: one seeded match, hand by hand, between any players (a failing seed
of ``bots check`` or a duel's match, played again with your own bot)."""

from __future__ import annotations

from typing import Annotated

import typer

from c8league.cli.db import database
from c8league.cli.match_cmd import print_game
from c8league.cli.playing import hide_from_bots
from c8league.duel.demo import play_demo
from c8league.errors import UsageError
from c8league.reports.games import demo_game

SPECS = "Players, one per seat: greedy, random:playable_first=true, 'cmd:./mybot', @Entrant."


def demo(
    specs: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PLAYER]...", help=SPECS + " Default: greedy random."),
    ] = None,
    seed: Annotated[int, typer.Option(help="Match seed: the same seed gives the same match.")] = 1,
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "pagat",
    assignments: Annotated[
        list[str] | None, typer.Option("--set", help="Override a rule: --set draw=up_to.")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated plugin names, one per seat (PLAYER... instead takes specs)."
        ),
    ] = None,
    moves: Annotated[bool, typer.Option("--moves", help="List every move of each hand.")] = False,
) -> None:
    """Play one seeded match and print every hand's deal and the final score. The players
    are player specs as ``duel`` takes them, so a seed that failed (``bots check``,
    ``match show``) replays with your own bot."""
    if specs and players is not None:
        raise UsageError("give the players as PLAYER... or as --players, not both")
    given = list(specs or (players.split(",") if players is not None else ["greedy", "random"]))
    names = [text.strip() for text in given if text.strip()]
    hide_from_bots()
    db = None
    if any(name.startswith("@") for name in names):
        db = database()
    played = play_demo(names, seed, preset=rules, assignments=list(assignments or []), db=db)
    game = demo_game(played)
    print_game(game, moves=moves)
