"""The report in the terminal, with rich: one table per view, sparklines for the history."""

from __future__ import annotations

from rich.console import Console, Group
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from c8league.reports.model import Report
from c8league.reports.text import footer_lines
from c8league.reports.views import MATRIX_SIZE, Cell, TableView, report_sections
from c8league.tables import LIGHT, Column, draw_table

__all__ = ["render_terminal", "table_of"]


def table_of(view: TableView) -> Table:
    """A table view as a rich table."""
    return draw_table(
        (Column(c.narrow, right=c.numeric, no_wrap=c.numeric) for c in view.columns),
        ([_text(cell) for cell in row] for row in view.rows),
        title=view.title,
        look=LIGHT,
        lines=any(isinstance(cell, Cell) for row in view.rows for cell in row),
    )


def _text(cell: Cell | str) -> Text:
    """A cell as text: a :class:`Cell`'s second line dim under its first."""
    if not isinstance(cell, Cell):
        return Text(cell)
    text = Text(cell.text)
    if cell.sub:
        text.append("\n" + cell.sub, style="dim")
    return text


def render_terminal(report: Report, console: Console, *, matrix: int = MATRIX_SIZE) -> None:
    """Print the report to ``console``."""
    console.print(Rule(Text(report.heading, style="bold")))
    console.print(Text(report.rules_line, style="dim"))
    for section in report_sections(report, matrix=matrix):
        parts: list[Table | Text] = []
        if section.intro:
            parts.append(Text(section.intro, style="dim"))
        for view in section.tables:
            parts.append(table_of(view))
            if view.caption:
                parts.append(Text(view.caption, style="dim"))
            parts.extend(Text(note, style="dim") for note in view.notes)
        console.print(Padding(Group(*parts), (1, 0, 0, 0)))
    console.print()
    for line in footer_lines(report):
        console.print(Text(line, style="dim"))
