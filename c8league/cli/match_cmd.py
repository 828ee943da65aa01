"""``c8league match show ID``: one stored match, hand by hand, as ``demo`` prints it; in a
page with the cards that steps move by move (``--format html``); or as the engine's
replayable record (``--format json``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from c8league.cli.db import database
from c8league.cli.output import err, out, print_json
from c8league.errors import UsageError
from c8league.reports.game_html import render_game
from c8league.reports.games import game_record, read_game
from c8league.results import forfeit_at
from c8league.tables import draw_table

if TYPE_CHECKING:
    from c8league.reports.games import Game

app = typer.Typer(help="Matches: show a stored match, move by move.", no_args_is_help=True)

HOW = {"out": "went out", "blocked": "blocked", "turn_cap": "turn cap"}


@app.command("show")
def show(
    match: Annotated[
        str,
        typer.Argument(
            metavar="ID",
            help="A match of an event (a number: result list, event status) or of a duel "
            "(DUEL:DEAL then A or B, as duel-1:0A: duel show --json, its fault lines).",
        ),
    ],
    fmt: Annotated[
        str, typer.Option("--format", help="terminal, html (cards, step by step) or json.")
    ] = "terminal",
    path: Annotated[str | None, typer.Option("--out", help="Write to this file.")] = None,
) -> None:
    """Show a stored match: its deals, every move, how each hand and the match ended, who
    forfeited and why, and the demo command that plays it again."""
    if fmt not in ("terminal", "html", "json"):
        raise UsageError(f"unknown format {fmt!r}; formats: terminal, html, json")
    game = read_game(database(read_only=True), match)
    if fmt == "terminal":
        if path is not None:
            raise UsageError("--out writes --format html or json")
        print_game(game, moves=True)
        return
    if fmt == "json":
        data = game_record(game)
        if path is None:
            print_json(data)
            return
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    else:
        text = render_game(game)
        if path is None:
            out.file.write(text)
            return
    Path(path).write_text(text, encoding="utf-8")
    err.print(f"match {game.id} written to {path}")


def print_game(game: Game, *, moves: bool) -> None:
    """The match hand by hand: each deal, (with ``moves``) every move, each end; the final
    score; a forfeit; the command that plays it again."""
    label = [f"{seat}:{name}" for seat, name in enumerate(game.players)]
    width = max(10, *(len(x) for x in label))
    rules = " ".join(game.rule_options[1:]).replace("--set ", "")
    out.print(
        Text.assemble(
            ("Match", "bold"),
            f" {game.id}" if game.id else "",
            f" ({game.title})" if game.title else "",
            f" seed {game.seed}, rules {rules}, target {game.rules.target_for(len(game.players))}",
        )
    )
    if game.record is None:
        out.print(Text("(no moves kept: entered by hand, or stored before moves were kept)"))
    for hand in game.hands:
        out.print()
        out.print(
            Text.assemble(
                (f"Hand {hand.number}", "bold"),
                f"  dealer {label[hand.dealer]}  starter {_pretty(hand.starter)}  "
                f"moves {len(hand.steps)}",
            )
        )
        for seat, cards in enumerate(hand.dealt):
            out.print(Text(f"  {label[seat]:<{width}} {' '.join(_pretty(c) for c in cards)}"))
        if moves and hand.steps:
            shown = " ".join(f"{step.seat}:{_pretty(step.move)}" for step in hand.steps)
            out.print(Text(f"  moves: {shown}"), soft_wrap=False)
        result = hand.result
        if result is None:
            out.print(Text("  the match stopped in this hand", style="red"))
        else:
            winners = ", ".join(label[w] for w in result.winners)
            out.print(
                Text(
                    f"  {HOW[result.kind]}: {winners}; points {list(result.points)}; "
                    f"totals {list(hand.totals)}"
                )
            )
    if game.problem is not None:
        out.print(Text(game.problem, style="red"))
    table = draw_table(
        ("place", "seat", "player", "score"),
        (
            (
                str(game.placements[seat]),
                str(seat),
                Text(game.players[seat]),
                str(game.scores[seat]),
            )
            for seat in sorted(range(len(game.players)), key=lambda s: game.placements[s])
        ),
        title="Final score",
    )
    out.print()
    out.print(table)
    f = game.forfeit
    if f is not None:
        out.print(
            Text(
                f"seat {f.seat} ({game.players[f.seat]}) forfeited: {f.reason} at its "
                f"{forfeit_at(f)}: {f.detail}",
                style="red",
            ),
            soft_wrap=True,
        )
    if game.id:
        out.print(Text(f"replay: {game.demo_command}"), soft_wrap=True)


def _pretty(text: str) -> str:
    """A card or move with suit symbols: ``8H:S`` → ``8♥:♠``."""
    symbols = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
    if text in ("draw", "pass") or not text:
        return text
    if text.startswith("nominate:"):
        return "nominate:" + symbols.get(text[-1], text[-1])
    body, colon, suit = text.partition(":")
    bang = "!" if body.endswith("!") or suit.endswith("!") else ""
    body, suit = body.rstrip("!"), suit.rstrip("!")
    cards = "+".join(c[:-1] + symbols.get(c[-1], c[-1]) for c in body.split("+") if c)
    return cards + (f":{symbols.get(suit, suit)}" if colon else "") + bang
