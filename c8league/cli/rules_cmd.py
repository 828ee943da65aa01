"""``c8league rules``: the presets and every option of a rule set."""

from __future__ import annotations

from typing import Annotated

import typer

from c8league.cli.output import out, print_json
from c8league.engine.rules import OPTIONS, PRESETS, Rules, parse_assignments
from c8league.tables import Column, draw_table

app = typer.Typer(help="Rule presets and house-rule options.", no_args_is_help=True)


@app.command("list")
def list_presets(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The rule presets, one line each."""
    if as_json:
        print_json([{"name": name, "description": text} for name, (_, text) in PRESETS.items()])
        return
    table = draw_table(
        (Column("preset", style="bold"), "description"),
        ((name, text) for name, (_, text) in PRESETS.items()),
        title="Rule presets",
    )
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
    changed = base.to_options()
    rows = []
    for option, spec in OPTIONS.items():
        value = str(values[option]).lower() if isinstance(values[option], bool) else values[option]
        mark = " *" if changed[option] != values[option] else ""
        rows.append((option, f"{value}{mark}", spec.values, spec.meaning))
    table = draw_table(
        (
            Column("option", style="bold", no_wrap=True),
            Column("value", style="cyan", no_wrap=True),
            "values",
            "meaning",
        ),
        rows,
        title=f"Rules: {name}" + (" (with overrides)" if assignments else ""),
    )
    out.print(table)
    if assignments:
        out.print("* changed by --set")
