"""The report in the terminal, with rich: one table per view, sparklines for the history."""

from __future__ import annotations

from rich import box
from rich.console import Console, Group
from rich.padding import Padding
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from c8league.reports.model import Report
from c8league.reports.text import footer_lines
from c8league.reports.views import MATRIX_SIZE, Cell, TableView, report_sections

__all__ = ["render_terminal", "table_of"]


def table_of(view: TableView) -> Table:
    """A table view as a rich table."""
    table = Table(
        title=view.title,
        title_justify="left",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        show_lines=any(isinstance(cell, Cell) for row in view.rows for cell in row),
        header_style="bold",
        pad_edge=False,
        collapse_padding=True,
    )
    for column in view.columns:
        table.add_column(
            column.narrow, justify="right" if column.numeric else "left", no_wrap=column.numeric
        )
    for row in view.rows:
        cells: list[Text] = []
        for cell in row:
            if isinstance(cell, Cell):
                text = Text(cell.text)
                if cell.sub:
                    text.append("\n" + cell.sub, style="dim")
                cells.append(text)
            else:
                cells.append(Text(cell))
        table.add_row(*cells)
    return table


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
