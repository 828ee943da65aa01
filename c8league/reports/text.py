"""Number formats and sparklines shared by the human-readable renderers."""

from __future__ import annotations

import math
from collections.abc import Sequence

from c8league.ratings.leaderboard import LeaderboardRow
from c8league.reports.model import HistorySeries, PairRecord, Report

__all__ = [
    "SPARK_BLOCKS",
    "fixed",
    "footer_lines",
    "history_by_name",
    "mark",
    "matrix_cell",
    "matrix_names",
    "pair_lookup",
    "percent",
    "results_text",
    "sparkline",
]

SPARK_BLOCKS = "▁▂▃▄▅▆▇█"


def fixed(value: float | None, digits: int = 2) -> str:
    """``value`` with ``digits`` decimals; an en dash for a missing value."""
    if value is None or not math.isfinite(value):
        return "–"
    return f"{value:.{digits}f}"


def percent(value: float | None, digits: int = 0) -> str:
    if value is None or not math.isfinite(value):
        return "–"
    return f"{100.0 * value:.{digits}f}%"


def results_text(results: Sequence[float] | None) -> str:
    """A cross-table cell: ``1 ½ 0`` (one result per meeting)."""
    if results is None:
        return "×"
    return " ".join("1" if r == 1 else "½" if r == 0.5 else "0" for r in results)


def sparkline(values: Sequence[float], width: int = 24) -> str:
    """``values`` as at most ``width`` block characters (each the last value of its
    stretch), scaled from their own minimum to maximum."""
    if not values:
        return ""
    if len(values) > width:
        step = len(values) / width
        values = [values[min(len(values) - 1, math.ceil((i + 1) * step) - 1)] for i in range(width)]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        return SPARK_BLOCKS[3] * len(values)
    top = len(SPARK_BLOCKS) - 1
    return "".join(SPARK_BLOCKS[round((v - low) / (high - low) * top)] for v in values)


def history_by_name(report: Report) -> dict[str, HistorySeries]:
    return {series.name: series for series in report.history}


def matrix_names(report: Report, size: int) -> list[str]:
    """The entrants of the head-to-head matrix: the top ``size`` of the leaderboard
    who met someone in the report's scope."""
    met = {p.a for p in report.head_to_head} | {p.b for p in report.head_to_head}
    names = [row.name for row in report.leaderboard if row.name in met]
    extra = sorted(met - set(names))
    return (names + extra)[:size]


def pair_lookup(report: Report) -> dict[tuple[str, str], PairRecord]:
    """Every pair under both orders of its names."""
    lookup: dict[tuple[str, str], PairRecord] = {}
    for pair in report.head_to_head:
        lookup[(pair.a, pair.b)] = pair
        lookup[(pair.b, pair.a)] = pair
    return lookup


def matrix_cell(
    lookup: dict[tuple[str, str], PairRecord], row: str, column: str
) -> tuple[str, float | None]:
    """The row entrant's meetings against the column entrant as ``ahead–behind`` (and
    ``=level`` when some were level), with the predicted chance to finish ahead."""
    pair = lookup.get((row, column))
    if pair is None:
        return "", None
    if pair.a == row:
        ahead, behind, chance = pair.a_ahead, pair.b_ahead, pair.a_ahead_predicted
    else:
        ahead, behind, chance = pair.b_ahead, pair.a_ahead, 1.0 - pair.a_ahead_predicted
    text = f"{ahead}–{behind}" + (f" ={pair.level}" if pair.level else "")
    return text, chance


def mark(row: LeaderboardRow) -> str:
    """``?`` for a provisional rating, ``†`` for an entrant who no longer plays."""
    return ("?" if row.provisional else "") + ("" if row.active else "†")


def footer_lines(report: Report) -> list[str]:
    """The footer as short lines: what reproduces the numbers."""
    f = report.footer
    params = ", ".join(
        f"{k}={fixed(v, 4) if isinstance(v, float) else v}"
        for k, v in f.parameters.items()
        if k not in ("system", "version") and v is not None
    )
    lines = [
        f"Ratings: {f.rating_system} {f.rating_version} ({params})",
        f"Matches rated in league {report.league}: {f.matches}",
    ]
    if f.last_match is not None:
        when = f.last_match.finished_at
        at = f" at {when:%Y-%m-%d %H:%M} UTC" if when is not None else ""
        lines.append(f"Last match: #{f.last_match.sequence} ({f.last_match.event}){at}")
    lines.append(
        f"Generated {f.generated_at:%Y-%m-%d %H:%M:%S} UTC by c8league {f.c8league_version}"
    )
    return lines
