"""``c8league demo``: one seeded match between built-in players, hand by hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from c8league.cli.output import out
from c8league.errors import UsageError

if TYPE_CHECKING:
    from c8league.players.base import Player


def demo(
    seed: Annotated[int, typer.Option(help="Match seed: the same seed gives the same match.")] = 1,
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "pagat",
    assignments: Annotated[
        list[str] | None, typer.Option("--set", help="Override a rule: --set draw=up_to.")
    ] = None,
    players: Annotated[
        str, typer.Option(help="Comma-separated built-in players, one per seat.")
    ] = "greedy,random",
) -> None:
    """Play one seeded match and print every hand's deal and the final score."""
    from c8league.engine.rules import Rules, parse_assignments
    from c8league.players.greedy import GreedyPlayer
    from c8league.players.random_player import RandomPlayer
    from c8league.runner.loop import play_match

    builtin = {"greedy": GreedyPlayer, "random": RandomPlayer}
    rule_set = Rules.from_options(rules, parse_assignments(assignments or []))
    names = [n.strip() for n in players.split(",") if n.strip()]
    unknown = [n for n in names if n not in builtin]
    if unknown:
        raise UsageError(f"unknown player {unknown[0]!r}; built-in players: {', '.join(builtin)}")
    rule_set.check_table(len(names))
    seats: list[Player] = [builtin[n]() for n in names]
    outcome = play_match(rule_set, seats, seed)
    label = [f"{i}:{n}" for i, n in enumerate(names)]
    out.print(
        f"[bold]Match[/] seed {seed}, rules {rules}, target {rule_set.target_for(len(names))}"
    )
    totals = [0] * len(names)
    for number, (record, result) in enumerate(
        zip(outcome.records, outcome.hand_results, strict=True), start=1
    ):
        start = record.start_hand(rule_set)
        out.print(
            f"\n[bold]Hand {number}[/]  dealer {label[start.dealer]}  "
            f"starter {start.discard[0].pretty()}  moves {len(record.moves)}"
        )
        for seat, cards in enumerate(start.hands):
            out.print(f"  {label[seat]:<10} {' '.join(c.pretty() for c in cards)}")
        for seat, pts in enumerate(result.points):
            totals[seat] += pts
        winners = ", ".join(label[w] for w in result.winners)
        how = {"out": "went out", "blocked": "blocked", "turn_cap": "turn cap"}[result.kind]
        out.print(f"  {how}: {winners}; points {list(result.points)}; totals {totals}")
    table = Table(title="Final score")
    for column in ("place", "seat", "player", "score"):
        table.add_column(column)
    order = sorted(range(len(names)), key=lambda s: outcome.result.placements[s])
    for seat in order:
        table.add_row(
            str(outcome.result.placements[seat]),
            str(seat),
            names[seat],
            str(outcome.result.scores[seat]),
        )
    out.print()
    out.print(table)
    if outcome.forfeit is not None:
        f = outcome.forfeit
        out.print(
            f"[red]seat {f.seat} forfeited ({f.reason} at move {f.move_number}: {f.detail})[/]"
        )
