"""Choosing a report format and writing it to a file or a string."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from c8league.errors import UsageError
from c8league.reports.charts import CHART_ENTRANTS, rating_chart
from c8league.reports.formats import render_csv, render_json
from c8league.reports.html import render_html
from c8league.reports.markdown import render_markdown
from c8league.reports.model import Report
from c8league.reports.records import CSV_TABLES, csv_rows
from c8league.reports.terminal import render_terminal
from c8league.reports.views import MATRIX_SIZE

__all__ = ["FORMATS", "TERMINAL_WIDTH", "format_for", "render", "write_report"]

FORMATS = ("terminal", "csv", "json", "md", "html")
_SUFFIXES = {".txt": "terminal", ".csv": "csv", ".json": "json", ".md": "md", ".html": "html",
             ".htm": "html"}  # fmt: skip

CSV_ENCODING = "utf-8-sig"
"""CSV files start with a byte-order mark, so that a spreadsheet reads "Zoë" as written."""

#: The width of a terminal report written to a file.
TERMINAL_WIDTH = 120


def format_for(out: Path | None, given: str | None) -> str:
    """The format to write: ``given``, else the one ``out``'s suffix names, else terminal."""
    if given is not None:
        if given not in FORMATS:
            raise UsageError(
                f"unknown report format {given!r}; expected one of {', '.join(FORMATS)}"
            )
        return given
    if out is not None and out.suffix.lower() in _SUFFIXES:
        return _SUFFIXES[out.suffix.lower()]
    if out is not None and out.is_dir():
        return "csv"
    return "terminal"


def render(
    report: Report,
    fmt: str,
    *,
    table: str = "leaderboard",
    matrix: int = MATRIX_SIZE,
    chart_entrants: int = CHART_ENTRANTS,
    chart_link: str | None = None,
    width: int = TERMINAL_WIDTH,
) -> str:
    """The report in one format as text (for CSV, one ``table`` of ``CSV_TABLES``)."""
    if fmt == "json":
        return render_json(report)
    if fmt == "csv":
        if table not in CSV_TABLES:
            raise UsageError(f"unknown table {table!r}; expected one of {', '.join(CSV_TABLES)}")
        header, rows = csv_rows(report, table)
        return render_csv(header, rows)
    if fmt == "md":
        return render_markdown(report, matrix=matrix, chart=chart_link)
    if fmt == "html":
        return render_html(report, matrix=matrix, chart_entrants=chart_entrants)
    if fmt == "terminal":
        buffer = io.StringIO()
        console = Console(file=buffer, width=width, color_system=None, highlight=False)
        render_terminal(report, console, matrix=matrix)
        return buffer.getvalue()
    raise UsageError(f"unknown report format {fmt!r}; expected one of {', '.join(FORMATS)}")


def write_report(
    report: Report,
    fmt: str,
    out: Path,
    *,
    table: str = "leaderboard",
    matrix: int = MATRIX_SIZE,
    chart_entrants: int = CHART_ENTRANTS,
) -> list[Path]:
    """Write the report to ``out`` and return the files written.

    CSV with ``table="all"`` writes every table into the directory ``out`` as
    ``<table>.csv``. Markdown also writes the rating chart beside the document
    as ``<name>-ratings.svg`` and links it.
    """
    if fmt == "csv" and table == "all":
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for name in CSV_TABLES:
            path = out / f"{name}.csv"
            path.write_text(render(report, "csv", table=name), encoding=CSV_ENCODING)
            written.append(path)
        return written
    if out.is_dir():
        raise UsageError(
            f"{out} is a directory; give a file name (or `table` all for CSV)", params=["table"]
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    written = []
    link = None
    if fmt == "md":
        chart = rating_chart(report, entrants=chart_entrants, image="svg")
        if chart is not None:
            chart_path = out.with_name(f"{out.stem}-ratings.svg")
            chart_path.write_bytes(chart)
            written.append(chart_path)
            link = chart_path.name
    text = render(
        report, fmt, table=table, matrix=matrix, chart_entrants=chart_entrants, chart_link=link
    )
    out.write_text(text, encoding=CSV_ENCODING if fmt == "csv" else "utf-8")
    return [out, *written]
