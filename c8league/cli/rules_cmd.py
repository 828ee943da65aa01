"""``c8league rules``: the presets and every option of a rule set."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from c8league.cli.output import out, print_json
from c8league.engine.rules import OPTIONS, PRESETS, Rules, parse_assignments

app = typer.Typer(help="Rule presets and house-rule options.", no_args_is_help=True)


@app.command("list")
def list_presets(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The rule presets, one line each."""
    if as_json:
        print_json([{"name": name, "description": text} for name, (_, text) in PRESETS.items()])
        return
    table = Table(title="Rule presets", show_lines=False)
    table.add_column("preset", style="bold")
    table.add_column("description")
    for name, (_, text) in PRESETS.items():
        table.add_row(name, text)
    out.print(table)


@app.command("show")
def show(
    name: Annotated[str, typer.Argument(help="A preset: pagat, basic, encyclopedia, olsen, …")],
    assignments: Annotated[
        list[str] | None,
        typer.Option("--set", help="Override an option: --set draw=up_to (repeatable)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every option of a rule set, its value and what it means."""
    rules = Rules.from_options(name, parse_assignments(assignments or []))
    base = Rules.from_options(name)
    values = rules.to_options()
    if as_json:
        print_json({"preset": name, "options": values})
        return
    table = Table(title=f"Rules: {name}" + (" (with overrides)" if assignments else ""))
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("value", style="cyan", no_wrap=True)
    table.add_column("values")
    table.add_column("meaning")
    changed = base.to_options()
    for option, spec in OPTIONS.items():
        value = str(values[option]).lower() if isinstance(values[option], bool) else values[option]
        mark = " *" if changed[option] != values[option] else ""
        table.add_row(option, f"{value}{mark}", spec.values, spec.meaning)
    out.print(table)
    if assignments:
        out.print("* changed by --set")
