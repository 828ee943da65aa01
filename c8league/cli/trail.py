"""The audit trail as ``result history`` and ``league history`` show it."""

from __future__ import annotations

import textwrap
from typing import Any

from c8league.cli.output import out, print_json


def show_trail(rows: list[dict[str, Any]], title: str, as_json: bool) -> None:
    """Print the trail's rows, or JSON (times to the second, with their offset). Each
    change is a line (when, to the minute, in UTC; where; what; who or what), then its
    previous and new values and its note, each on lines of their own, wrapped to the
    terminal: it reads at 80 columns."""
    if as_json:
        print_json(rows)
        return
    out.print(title, style="bold", highlight=False, markup=False)
    if not rows:
        out.print("nothing changed yet", highlight=False, markup=False)
    width = max(40, out.width)
    for r in rows:
        head = [r["at"][:16].replace("T", " "), _where(r), r["action"], r["subject"]]
        out.print(
            textwrap.fill("  ".join(p for p in head if p), width, subsequent_indent=" " * 4),
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        for label, value in (
            ("before", values_text(r["before"])),
            ("after", values_text(r["after"])),
            ("note", r["note"]),
        ):
            if value:
                out.print(
                    textwrap.fill(
                        value,
                        width,
                        initial_indent=f"    {label:<7} ",
                        subsequent_indent=" " * 12,
                        break_on_hyphens=False,
                    ),
                    highlight=False,
                    markup=False,
                    soft_wrap=True,
                )


def _where(row: dict[str, Any]) -> str:
    """``evening-1 r2 t3``: the event, round and table a change was made in."""
    parts = [row["event"] or ""]
    if row["round"] is not None:
        parts.append(f"r{row['round']}")
    if row["table"] is not None:
        parts.append(f"t{row['table']}")
    return " ".join(p for p in parts if p)


def values_text(values: dict[str, Any] | None) -> str:
    """Values of the trail in words: a result as ``Ada 150, Ben 100, Max 40 (forfeit)``
    (``Ada 90, Ben 60 (unfinished)``, ``placed 1. Ada, 2. Ben (unfinished)``),
    tables as ``1: Ada, Ben · 2: Cy, Dev``, a name as it was."""
    if not values:
        return ""
    if values.get("ended") == "places" and isinstance(values.get("placements"), dict):
        placed = sorted(values["placements"].items(), key=lambda item: item[1])
        return "placed " + ", ".join(f"{p}. {name}" for name, p in placed) + " (unfinished)"
    if isinstance(values.get("scores"), dict):
        lost = values.get("forfeit")
        left = {lost} if isinstance(lost, str) else set(lost or [])
        return ", ".join(
            f"{name} {score}" + (" (forfeit)" if name in left else "")
            for name, score in values["scores"].items()
        ) + (" (unfinished)" if values.get("ended") == "unfinished" else "")
    if isinstance(values.get("tables"), dict):
        return " · ".join(f"{t}: {', '.join(names)}" for t, names in values["tables"].items())
    if isinstance(values.get("names"), list):
        return ", ".join(values["names"])
    if "name" in values:
        return str(values["name"])
    return ""
