"""``c8league play``: a person plays one match in the terminal against bots."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer
from rich.text import Text

from c8league import club
from c8league.cli.db import database
from c8league.cli.output import err, out
from c8league.cli.playing import hide_from_bots
from c8league.engine.rules import Rules, parse_assignments
from c8league.errors import UsageError
from c8league.interrupts import exit_status, signal_of
from c8league.names import check_name
from c8league.players import registry
from c8league.players.containment import kept
from c8league.players.terminal import TerminalPlayer
from c8league.results import forfeit_at
from c8league.runner.loop import play_match

if TYPE_CHECKING:
    from c8league.players.base import Player

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
    league: Annotated[
        str | None, typer.Option(help="With --event: the league of the event.")
    ] = None,
    event: Annotated[
        str | None,
        typer.Option(
            help="Play your table of this event's current round against its bots (--name is "
            "your registered name); the result is stored in the event."
        ),
    ] = None,
) -> None:
    """Play one match in the terminal against bots, to the target score (you sit in seat 0).
    With --event, play your seat of a league event's table of bots; the result is stored."""
    try:
        name = check_name(name)
    except ValueError as exc:
        raise UsageError(f"--name {name!r}: {exc}") from None
    hide_from_bots()
    if event is not None:
        _play_event(f"{league}/{event}" if league else event, name)
        return
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
        with kept():
            outcome = play_match(rule_set, seats, seed)
    except KeyboardInterrupt as exc:
        err.print(Text("match abandoned", style="bold red"))
        raise typer.Exit(exit_status(signal_of(exc))) from None
    if outcome.forfeit is not None:
        f = outcome.forfeit
        out.print(
            Text(
                f"{names[f.seat]} forfeited ({f.reason} at its {forfeit_at(f)}: {f.detail})",
                style="red",
            )
        )


def _play_event(event: str, name: str) -> None:
    """Play the person's table of an event against the league's bots and store it."""
    db = database()
    seated = club.person_match(db, event, name)
    rule_set = Rules.from_json(seated.rules)
    players: list[Player] = []
    for spec in seated.plugins:
        if spec is None:
            players.append(
                TerminalPlayer(
                    player_name=name,
                    seat_names=",".join(seated.names),
                    console=out,
                    input=input_function,
                )
            )
        else:
            plugin, options = spec
            players.append(registry.create(plugin, json.loads(options)))
    out.print(
        Text.assemble(
            ("Crazy Eights", "bold"),
            f" · {event}, round {seated.round}, table {seated.table} · seed {seated.seed}\n",
            "seats: " + ", ".join(seated.names) + ". Type ? for help.",
        )
    )
    try:
        with kept():
            outcome = play_match(rule_set, players, seated.seed)
    except KeyboardInterrupt as exc:
        err.print(Text("match abandoned: nothing stored", style="bold red"))
        raise typer.Exit(exit_status(signal_of(exc))) from None
    club.store_played(db, seated, outcome.as_result(entered_by="play", stopped_hand=False))
    order = sorted(range(len(seated.names)), key=lambda i: outcome.result.placements[i])
    out.print(
        "stored in the event: "
        + " · ".join(
            f"{outcome.result.placements[i]}. {seated.names[i]} {outcome.result.scores[i]}"
            for i in order
        )
    )
