"""The report as Markdown (GitHub tables), with the rating chart as a linked image."""

from __future__ import annotations

from c8league.reports.model import Report
from c8league.reports.text import footer_lines
from c8league.reports.views import MATRIX_SIZE, Cell, TableView, report_sections

__all__ = ["render_markdown"]


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _cell(cell: str | Cell) -> str:
    if isinstance(cell, Cell):
        return _escape(f"{cell.text} ({cell.sub})" if cell.sub else cell.text)
    return _escape(cell.strip())


def _table(view: TableView) -> list[str]:
    lines = [f"### {_escape(view.title)}", ""]
    lines.append("| " + " | ".join(_escape(c.header) for c in view.columns) + " |")
    lines.append("| " + " | ".join("---:" if c.numeric else ":---" for c in view.columns) + " |")
    for row in view.rows:
        lines.append("| " + " | ".join(_cell(cell) for cell in row) + " |")
    if view.caption:
        lines += ["", f"*{_escape(view.caption)}*"]
    if view.notes:
        lines += [""] + [f"{_escape(note)}  " for note in view.notes]
    lines.append("")
    return lines


def render_markdown(report: Report, *, matrix: int = MATRIX_SIZE, chart: str | None = None) -> str:
    """The report as a Markdown document; ``chart`` is the path of the rating-history
    image to link (written beside the document by the caller), if any."""
    lines = [f"# {_escape(report.heading)}", "", _escape(report.rules_line), ""]
    for section in report_sections(report, matrix=matrix):
        lines += [f"## {_escape(section.title)}", ""]
        if section.intro:
            lines += [section.intro, ""]
        if section.key == "history" and chart:
            lines += [f"![Rating history: μ with a ±2σ band]({chart})", ""]
        for view in section.tables:
            lines += _table(view)
    lines += ["---", ""]
    lines += [f"{_escape(line)}  " for line in footer_lines(report)]
    return "\n".join(lines).rstrip() + "\n"
