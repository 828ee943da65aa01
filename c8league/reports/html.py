"""The report as one self-contained HTML page: styles inline, the rating chart inlined as
an SVG data URI, no scripts and nothing fetched, so the file opens offline and reads
on a phone. jinja2 is imported only when a page is rendered."""

from __future__ import annotations

import base64

from c8league.reports.charts import (
    CHART_ENTRANTS,
    PANEL_HEIGHT,
    calibration_chart,
    rating_chart,
)
from c8league.reports.model import Report
from c8league.reports.text import footer_lines
from c8league.reports.views import MATRIX_SIZE, Cell, Column, report_sections

__all__ = ["render_html"]

TEMPLATE = "report.html.j2"


def _column_class(column: Column) -> str:
    """The cells' class: how they align, and which screens leave them out (``p2``,
    ``p3``: secondary columns a phone's page drops; see the template's styles)."""
    kind = "num" if column.numeric else "text"
    base = "name" if column.header in ("entrant", "player", "member") else kind
    return base if column.priority <= 1 else f"{base} p{column.priority}"


def _data_uri(svg: bytes | None) -> str | None:
    if svg is None:
        return None
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")


def render_html(
    report: Report, *, matrix: int = MATRIX_SIZE, chart_entrants: int = CHART_ENTRANTS
) -> str:
    """The report as an HTML page (a complete document, UTF-8)."""
    import jinja2  # jinja2: only for the HTML page

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("c8league.reports", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    wide = rating_chart(report, entrants=chart_entrants, image="svg")
    narrow = rating_chart(report, entrants=chart_entrants, image="svg", narrow=True)
    shown = min(chart_entrants, sum(1 for h in report.history if h.sequences))
    template = environment.get_template(TEMPLATE)
    return template.render(
        report=report,
        heading=report.heading,
        sections=report_sections(report, matrix=matrix),
        chart=_data_uri(wide),
        chart_narrow=_data_uri(narrow),
        chart_narrow_size=(420, round(100 * (0.7 + PANEL_HEIGHT * max(shown, 1)))),
        chart_entrants=shown,
        calibration=_data_uri(calibration_chart(report, image="svg")),
        footer=footer_lines(report),
        column_class=_column_class,
        is_cell=lambda value: isinstance(value, Cell),
    )
