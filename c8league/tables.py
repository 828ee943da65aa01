"""Tables in the terminal: the one function that draws them, for every command and the
terminal report.

``draw_table(["name", Column("points", right=True)], rows, title="Standings")`` gives a
rich table. Its look is named, not rebuilt at each call: :data:`BOXED` (rich's own box,
the listings of the commands) or :data:`LIGHT` (a rule under the headings only, no outer
edge, the title on the left: the report's tables and the ratings).

Kept light: it imports rich's table and nothing of c8league, so that a command that reads
the database and prints a table loads nothing more for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box as boxes
from rich.box import Box
from rich.table import Table
from rich.text import Text

__all__ = ["BOXED", "LIGHT", "Column", "Look", "draw_table"]


@dataclass(frozen=True)
class Look:
    """How a table is drawn, apart from what it holds."""

    box: Box
    edge: bool
    """An outer border, and padding at the outer cells."""
    title_left: bool
    """The title on the left (else centred)."""
    title_style: str
    compact: bool
    """Adjacent cells share their padding: one space less between columns."""


BOXED = Look(box=boxes.HEAVY_HEAD, edge=True, title_left=False, title_style="", compact=False)
"""rich's own table: a box around every cell, a heavy rule under the headings."""

LIGHT = Look(box=boxes.SIMPLE_HEAD, edge=False, title_left=True, title_style="bold", compact=True)
"""A rule under the headings only, no outer edge, the title on the left in bold."""


@dataclass(frozen=True)
class Column:
    """A column: its heading, and how its cells are set."""

    heading: str
    right: bool = False
    """Aligned right (numbers), else left."""
    style: str = ""
    no_wrap: bool = False


def draw_table(
    columns: Iterable[str | Column],
    rows: Iterable[Sequence[str | Text]],
    *,
    title: str | None = None,
    caption: str | None = None,
    look: Look = BOXED,
    title_style: str | None = None,
    lines: bool = False,
) -> Table:
    """A table of ``columns`` (a heading, or a :class:`Column`) and ``rows`` of cells,
    drawn in ``look``; ``title_style`` replaces the look's, and ``lines`` rules a line
    between the rows."""
    table = Table(
        title=title,
        caption=caption,
        box=look.box,
        show_edge=look.edge,
        pad_edge=look.edge,
        title_justify="left" if look.title_left else "center",
        title_style=title_style or look.title_style or None,
        collapse_padding=look.compact,
        show_lines=lines,
    )
    for column in columns:
        c = Column(column) if isinstance(column, str) else column
        table.add_column(
            c.heading,
            justify="right" if c.right else "left",
            style=c.style or None,
            no_wrap=c.no_wrap,
        )
    for row in rows:
        table.add_row(*row)
    return table
