"""Reports: leaderboards, standings, cross-tables, head-to-head, statistics and rating
history, built from storage as plain values and rendered for the terminal, as CSV,
JSON, Markdown or a self-contained HTML page.

``build_report(db, "bot-cup")`` gives a :class:`Report`; ``render(report, "html")``
turns it into text. matplotlib and jinja2 are imported only to draw a chart or a page.
"""

from c8league.reports.build import build_report
from c8league.reports.model import Report
from c8league.reports.records import CSV_TABLES, JSON_FORMAT, JSON_VERSION, report_document
from c8league.reports.render import FORMATS, format_for, render, write_report

__all__ = [
    "CSV_TABLES",
    "FORMATS",
    "JSON_FORMAT",
    "JSON_VERSION",
    "Report",
    "build_report",
    "format_for",
    "render",
    "report_document",
    "write_report",
]
