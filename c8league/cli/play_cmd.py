"""``c8league play``: a person plays one match in the terminal against bots."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated

import typer
from rich.text import Text

from c8league.cli.output import err, out
from c8league.engine import Rules
from c8league.engine.rules import parse_assignments
from c8league.errors import UsageError
from c8league.players import registry
from c8league.players.base import Player
from c8league.players.terminal import TerminalPlayer
from c8league.runner.loop import play_match

input_function: Callable[[str], str] | None = None
"""How the person's answers are read (the terminal when None)."""


def parse_bots(specs: list[str]) -> list[tuple[str, dict[str, str]]]:
    """Read ``--vs`` values: bots separated by commas, each ``name`` or
    ``name:key=value,key=value``. An item with ``=`` and no ``:`` is another option of
    the bot before it, so ``random:seed=3,playable_first=true,greedy`` is two bots."""
    bots: list[tuple[str, dict[str, str]]] = []
    for spec in specs:
        for raw in spec.split(","):
            item = raw.strip()
            if not item:
                continue
            if "=" in item and ":" not in item:
                if not bots:
                    raise UsageError(f"--vs: option {item!r} comes before any bot name")
                bots[-1][1].update(registry.parse_options([item]))
                continue
            name, _, options = item.partition(":")
            if not name.strip():
                raise UsageError(f"--vs: {item!r} has no bot name")
            bots.append((name.strip(), registry.parse_options([options]) if options else {}))
    if not bots:
        raise UsageError("--vs needs at least one bot, e.g. --vs greedy")
    return bots


def seat_names(person: str, bots: list[tuple[str, dict[str, str]]]) -> list[str]:
    """The person first, then the bots; a bot named twice gets a number."""
    names = [person]
    for name, _ in bots:
        label = name
        count = 2
        while label in names:
            label = f"{name}-{count}"
            count += 1
        names.append(label)
    return names


def play(
    rules: Annotated[str, typer.Option(help="Rule preset.")] = "pagat",
    assignments: Annotated[
        list[str] | None, typer.Option("--set", help="Override a rule: --set draw=up_to.")
    ] = None,
    vs: Annotated[
        list[str] | None,
        typer.Option(
            "--vs",
            help="The bots at the table, comma-separated: greedy,random or "
            "random:seed=3,playable_first=true (repeatable).",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Match seed: the same seed deals the same cards.")
    ] = None,
    name: Annotated[str, typer.Option(help="Your name at the table.")] = "you",
) -> None:
    """Play one match in the terminal against bots, to the target score (you sit in seat 0)."""
    rule_set = Rules.from_options(rules, parse_assignments(assignments or []))
    bots = parse_bots(vs or ["greedy"])
    rule_set.check_table(1 + len(bots))
    opponents = [registry.create(bot, options) for bot, options in bots]
    names = seat_names(name, bots)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    person = TerminalPlayer(
        player_name=name, seat_names=",".join(names), console=out, input=input_function
    )
    seats: list[Player] = [person, *opponents]
    target = "first to 0" if rule_set.countdown else f"target {rule_set.target_for(len(seats))}"
    out.print(
        Text.assemble(
            ("Crazy Eights", "bold"),
            f" · rules {rules} · {target} · seed {seed}\n",
            f"{name} (seat 0) against {', '.join(names[1:])}. Type ? for help.",
        )
    )
    try:
        outcome = play_match(rule_set, seats, seed)
    except KeyboardInterrupt:
        err.print(Text("match abandoned", style="bold red"))
        raise typer.Exit(130) from None
    if outcome.forfeit is not None:
        f = outcome.forfeit
        out.print(
            Text(
                f"{names[f.seat]} forfeited ({f.reason} at its move {f.move_number}: {f.detail})",
                style="red",
            )
        )
