"""The machine-readable renderings: JSON and CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from c8league.reports.model import Report
from c8league.reports.records import Record, report_document

__all__ = ["render_csv", "render_json"]


def render_json(report: Report) -> str:
    """The report as JSON (the shape of ``docs/report-json.md``)."""
    return json.dumps(report_document(report), indent=2, ensure_ascii=False) + "\n"


def _plain(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(round(value, 6))
    return value


def render_csv(header: Sequence[str], rows: Sequence[Record]) -> str:
    """One table as CSV: a single header row, then plain values (numbers with a dot,
    ``true``/``false``, empty for a missing value)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([_plain(row.get(key)) for key in header])
    return buffer.getvalue()
