"""``c8league bots``: the installed player plugins, their options, and the conformance check."""

from __future__ import annotations

import inspect
import json
import os
import re
import shlex
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from c8league import about, sandbox
from c8league.cli.db import database
from c8league.cli.options import SandboxOpt
from c8league.cli.output import err, out, print_json
from c8league.cli.playing import hide_from_bots, sandbox_mode
from c8league.duel.specs import parse_spec, resolve
from c8league.errors import UsageError
from c8league.players import registry
from c8league.players.external import ExternalPlayer
from c8league.runner.conformance import check_player, game_seed, game_table
from c8league.runner.conformance_defaults import DEFAULT_GAMES, DEFAULT_PRESETS
from c8league.tables import Column, draw_table

if TYPE_CHECKING:
    from c8league.runner.conformance import ConformanceReport, Isolation, PresetReport

app = typer.Typer(
    help="Player plugins: list, show options, check conformance.", no_args_is_help=True
)


@app.command("list")
def list_bots(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every installed player plugin, and where its code runs: in c8league's own process
    (a Python plugin: trusted code) or, for an external bot, in a process of its own,
    sandboxed. Broken ones are listed with the reason."""
    players = registry.discover()
    external = ExternalPlayer.name
    if as_json:
        print_json(
            [
                {
                    "name": info.name,
                    "distribution": info.distribution,
                    "version": info.version,
                    "description": info.description,
                    "broken": info.broken,
                    "error": info.error,
                    "entry_point": info.value,
                    "in_process": info.name != external,
                    "ours": registry.ours(info.name),
                }
                for info in players.values()
            ]
        )
        return
    sandboxed = sandbox.support().available
    table = draw_table(
        (
            Column("name", style="bold", no_wrap=True),
            Column("distribution", no_wrap=True),
            Column("version", no_wrap=True),
            Column("runs", no_wrap=True),
            "description",
        ),
        (
            (
                Text(info.name),
                Text(info.distribution),
                Text(info.version),
                _runs(info.name == external, registry.ours(info.name), sandboxed),
                Text(f"broken: {info.error}", style="red")
                if info.broken
                else Text(info.description),
            )
            for info in players.values()
        ),
        title="Player plugins",
        caption="runs: c8league = c8league's own code, in its process; in process = a "
        "Python plugin's code in c8league's process, trusted; sandboxed = a process of "
        "its own (docs/faults.md)",
    )
    out.print(table)
    if not players:
        out.print("No player plugins are installed.")
    out.print(Text(f"Engine: {about.engine()}", style="dim"))


def _runs(external: bool, ours: bool, sandboxed: bool) -> Text:
    """Where a player's code runs, in a word (see ``bots list``)."""
    if external:
        return Text("sandboxed" if sandboxed else "own process", style="green")
    if ours:
        return Text("c8league")
    return Text("in process", style="yellow")


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="A player plugin name, e.g. greedy.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """A player plugin's description and options (name, default, type)."""
    info = registry.get(name)
    rows = [
        (option, _default(param), _type_name(param.annotation))
        for option, param in info.options().items()
        if param.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    if as_json:
        print_json(
            {
                "name": info.name,
                "distribution": info.distribution,
                "version": info.version,
                "description": info.description,
                "entry_point": info.value,
                "options": [{"name": o, "default": d, "type": t} for o, d, t in rows],
            }
        )
        return
    out.print(Text.assemble((info.name, "bold"), f"  {info.distribution} {info.version}"))
    if info.description:
        out.print(Text(info.description))
    if not rows:
        out.print("No options.")
        return
    table = draw_table(
        (Column("option", style="bold", no_wrap=True), Column("default", style="cyan"), "type"),
        (
            (Text(option), Text("(required)" if default is None else default), Text(kind))
            for option, default, kind in rows
        ),
        title="Options",
    )
    out.print(table)


@app.command("check")
def check(
    spec: Annotated[
        str,
        typer.Argument(
            metavar="PLAYER",
            help="The player to check: a plugin (greedy, montecarlo:playouts=50), a bot in "
            "any language ('cmd:./mybot --fast', 'cmd[move_time=0.05]:./mybot') or a "
            "registered bot (@Name).",
        ),
    ],
    extra: Annotated[
        list[str] | None,
        typer.Argument(metavar="[KEY=VALUE]...", help="Options of the player: move_time=0.05."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="A player option: --option seed=3 (repeatable)."),
    ] = None,
    games: Annotated[
        int, typer.Option(min=1, help="Seeded matches per preset (each played twice).")
    ] = DEFAULT_GAMES,
    presets: Annotated[str, typer.Option(help="Comma-separated rule presets.")] = ",".join(
        DEFAULT_PRESETS
    ),
    seed: Annotated[int, typer.Option(help="Seed of the check's matches.")] = 0,
    time_limit: Annotated[
        float | None, typer.Option(help="Fail if a move takes longer (seconds).")
    ] = None,
    match_seconds: Annotated[
        float,
        typer.Option(
            "--match-seconds",
            min=0.001,
            help="Stop a game still running after this long: the player is stuck (fails).",
        ),
    ] = 60.0,
    sandbox: SandboxOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Play a player through seeded matches under each preset and check that it makes
    legal moves only, keeps to its protocol, never crashes, raises or runs out of memory,
    answers in time, and makes the same choices from the same seed, in a fresh process
    and after other matches in the same one. Each failure names its kind, its game and
    seed, and the demo command that plays that game again; a bot that never announces
    its last card gets a warning. An external bot runs in the sandbox a run gives it, so
    that what it lacks there shows here. Exits with 1 if any check fails."""
    names = [p.strip() for p in presets.split(",") if p.strip()]
    if not names:
        raise UsageError("--presets needs at least one rule preset")
    hide_from_bots()
    parsed = parse_spec(spec, "PLAYER")
    given = registry.parse_options([*(extra or []), *(option or [])])
    if parsed.entrant is not None:
        with database().session() as session:
            bot = resolve(session, parsed, "PLAYER")
    else:
        bot = resolve(None, replace(parsed, options={**parsed.options, **given}), "PLAYER")
    options = {**json.loads(bot.options), **given}
    label = spec
    kwargs: dict[str, Any] = {
        "games": games,
        "presets": names,
        "seed": seed,
        "time_limit": time_limit,
        "match_seconds": match_seconds,
        "sandbox": sandbox_mode(sandbox),
    }
    if as_json:
        report = check_player(bot.plugin, options, **kwargs)
        print_json({**report.to_dict(), "player": label})
    else:
        with err.status(Text(f"Checking {label}…")) as status:

            def progress(preset: str, game: int) -> None:
                status.update(Text(f"Checking {label}: {preset}, game {game + 1} of {games}"))

            report = check_player(bot.plugin, options, progress=progress, **kwargs)
        _print_report(report, label, seed)
    if not report.passed:
        raise typer.Exit(1)


ROWS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("legal moves", ("illegal",), ""),
    ("protocol", ("protocol",), "external"),
    ("no crash", ("crash",), ""),
    ("memory", ("memory",), "external"),
    ("no exception", ("exception",), "python"),
    ("in time", ("timeout", "time"), ""),
    ("same play", ("deterministic",), ""),
    ("no carry-over", ("earlier",), ""),
)
"""The rows of the check's table: a check, the kinds of fault it counts (see
``runner.conformance.CHECKS``), and the players it is shown for (external bots, Python
players, or all)."""


def _print_report(report: ConformanceReport, label: str, seed: int) -> None:
    presets = report.presets
    where = report.isolation
    kind = "" if where is None else ("python" if where.in_process else "external")
    rows: list[tuple[str | Text, ...]] = [
        ("finished", *(f"{p.completed}/{p.games}" for p in presets))
    ]
    for name, checks, shown in ROWS:
        if shown and kind and shown != kind:
            continue
        rows.append((name, *(_cell(p, checks) for p in presets)))
    rows.append(("mean move", *(_ms(p.mean_seconds) for p in presets)))
    rows.append(
        (
            "slowest move",
            *(
                Text(_ms(p.max_seconds), style="red" if p.faults_of("time") else "")
                for p in presets
            ),
        )
    )
    table = draw_table(
        (Column("", style="bold", no_wrap=True), *(Column(p.preset, right=True) for p in presets)),
        rows,
    )
    out.print(
        Text(f"Conformance of {label}: {report.games} game(s) per preset", style="bold"),
        soft_wrap=True,
    )
    out.print(table)
    out.print(
        Text(
            "same play: the same seed gives the same moves in a fresh process; no carry-over: "
            "and again after another match in the same process; in time: no forfeit on "
            "time, no move over --time-limit",
            style="dim",
        ),
        soft_wrap=True,
    )
    for preset in presets:
        if preset.stuck is not None and preset.games < report.games:
            left = report.games - preset.games
            out.print(
                Text(
                    f"{preset.preset}: {left} game(s) not played after game {preset.stuck + 1}, "
                    "stuck past --match-seconds (each would take as long)"
                ),
                soft_wrap=True,
            )
    if report.log_dir is not None:
        out.print(Text(f"The player's logs of this check are kept in {report.log_dir}"))
    if report.isolation is not None:
        out.print(Text(_isolation(report.isolation, label)), soft_wrap=True)
    if report.never_announces:
        out.print(Text(_never_announces(report, label), style="yellow"), soft_wrap=True)
    faults = report.faults
    if not faults:
        out.print(Text(f"{label}: all checks passed.", style="bold green"), soft_wrap=True)
        return

    for fault in faults[:20]:
        out.print(Text(f"  {fault.check}: {fault}", style="red"), soft_wrap=True)
        if fault.game is not None:
            opponents, seat = game_table(fault.game)
            seats = list(opponents)
            seats.insert(seat, label)
            words = [
                "c8league",
                "demo",
                *seats,
                "--seed",
                str(game_seed(seed, fault.preset, fault.game)),
            ]
            words += ["--rules", fault.preset]
            out.print(Text(f"    replay: {shlex.join(words)}"), soft_wrap=True)
    if len(faults) > 20:
        out.print(Text(f"  … and {len(faults) - 20} more", style="red"))
    if report.isolation is not None and report.isolation.sandboxed:
        lacked = next((n for f in faults if (n := sandbox.needs(f.detail)) is not None), None)
        if lacked is not None:
            out.print(Text(_advice(lacked), style="yellow"), soft_wrap=True)
    out.print(Text(f"{label}: {len(faults)} check(s) failed.", style="bold red"), soft_wrap=True)


def _isolation(where: Isolation, label: str) -> str:
    """Where the checked player ran, in one line."""
    if where.in_process:
        return (
            f"{label} runs in c8league's own process, as Python code that c8league trusts; "
            "a bot you did not write runs as an external bot, sandboxed (docs/bots.md)"
        )
    if not where.sandboxed:
        if where.why == "off":
            return f"{label} ran without a sandbox (sandbox off)."
        return f"{label} ran without a sandbox: {where.why} ({where.hint})."
    shown = [f"its folder {where.folder} (read-only)"] if where.folder else []
    shown += [f"/tmp ({where.scratch_mb} MB, writable, its HOME)"]
    shown += [f"{path} (read-only)" for path in where.ro_paths]
    network = "the network" if where.network else "no network"
    return (
        f"{label} ran sandboxed, as every run gives it: {where.tool}. It sees the system's "
        f"programs, {', '.join(shown)}, {network}."
    )


def _advice(lacked: sandbox.Need) -> str:
    """What to change when a sandboxed bot failed for want of ``lacked``."""
    if lacked.kind == "network":
        return (
            "The bot wanted the network, which its sandbox has not: the option "
            "network=true gives it."
        )
    if lacked.kind == "write":
        where = f" ({lacked.path})" if lacked.path else ""
        return (
            f"The bot wrote where its sandbox is read-only{where}: it may write to /tmp (its "
            "HOME), up to the option scratch_mb."
        )
    folder = lacked.path if os.path.isdir(lacked.path) else os.path.dirname(lacked.path)
    return (
        f"The bot looked for {lacked.path}, outside its sandbox: the option "
        f"ro_paths='[\"{folder}\"]' shows it (read-only), or put it in the bot's folder."
    )


def _never_announces(report: ConformanceReport, label: str) -> str:
    """The warning for a player that never announced its last card."""
    presets = ", ".join(p.preset for p in report.presets if p.last_card)
    where = report.isolation
    if where is not None and where.in_process:
        how = "choose the legal move whose announce is true (Move.play(card, announce=True))"
    else:
        how = "answer the move's text with ! after it (5S!, 8H:S!), as legal lists it"
    return (
        f"warning: {label} played down to one card {report.never_announces} time(s) under "
        f"{presets} and never announced its last card: those rules make it draw for that, "
        f"so it can never go out. To announce, {how} (docs/protocol.md)."
    )


def _cell(preset: PresetReport, checks: tuple[str, ...]) -> Text:
    faults = [f for check in checks for f in preset.faults_of(check)]
    games = sorted({f.game + 1 for f in faults if f.game is not None})
    if preset.games == 0:
        return Text("—", style="dim")
    if not games:
        if faults:  # a fault of the preset as a whole (the slowest move over --time-limit)
            return Text("✗", style="red")
        return Text("✓", style="green")
    return Text(f"✗ {','.join(map(str, games))}", style="red")


def _ms(seconds: float) -> str:
    """A time in at most six characters, right-aligned in six: the table keeps its width."""
    if seconds >= 100:
        text = f"{seconds:.0f} s"
    elif seconds >= 10:
        text = f"{seconds:.1f} s"
    elif seconds >= 1:
        text = f"{seconds:.2f} s"
    elif seconds >= 0.01:
        text = f"{seconds * 1000:.0f} ms"
    elif seconds >= 0.001:
        text = f"{seconds * 1000:.1f} ms"
    else:
        text = f"{seconds * 1_000_000:.0f} µs"
    return text.rjust(6)


def _default(param: inspect.Parameter) -> str | None:
    if param.default is inspect.Parameter.empty:
        return None
    return repr(param.default) if isinstance(param.default, str) else str(param.default)


def _type_name(annotation: Any) -> str:
    if annotation is inspect.Parameter.empty:
        return "any"
    if isinstance(annotation, type):
        return annotation.__name__
    return re.sub(r"\b(?:[A-Za-z_]\w*\.)+(\w+)", r"\1", str(annotation))
