"""The rating-history chart: μ of the top entrants over the league's matches, with a ±2σ
band. Drawn with matplotlib's Agg canvas (no window, no global pyplot state);
matplotlib is imported only when a chart is drawn."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Literal

from c8league.reports.model import HistorySeries, Report

__all__ = ["CHART_ENTRANTS", "MAX_POINTS", "calibration_chart", "rating_chart"]

#: Entrants drawn by default: the top of the leaderboard.
CHART_ENTRANTS = 6

#: Points drawn per entrant at most; longer histories are thinned evenly.
MAX_POINTS = 400


def _thin(count: int, limit: int) -> list[int]:
    """Up to ``limit`` indices spread evenly over ``range(count)``, always with the last."""
    if count <= limit:
        return list(range(count))
    step = (count - 1) / (limit - 1)
    return sorted({round(i * step) for i in range(limit)})


def _steps(
    series: HistorySeries, mu0: float, sigma0: float, last: int
) -> tuple[list[int], list[float], list[float]]:
    """The series as steps: the initial rating up to its first match, then each rating
    until the next match, and the current rating up to the league's last match."""
    keep = _thin(len(series.sequences), MAX_POINTS)
    xs = [series.sequences[0]] + [series.sequences[i] for i in keep]
    mus = [mu0] + [series.mu[i] for i in keep]
    sigmas = [sigma0] + [series.sigma[i] for i in keep]
    if xs[-1] < last:
        xs.append(last)
        mus.append(mus[-1])
        sigmas.append(sigmas[-1])
    return xs, mus, sigmas


def rating_chart(
    report: Report,
    *,
    entrants: int = CHART_ENTRANTS,
    image: Literal["svg", "png"] = "svg",
    narrow: bool = False,
) -> bytes | None:
    """The league's rating-history chart as SVG or PNG bytes (``None`` without history).

    ``narrow`` draws it for a phone's width: one small panel per entrant, stacked,
    each with its own name and current μ, so that no band hides another and the text
    stays readable when the page shrinks it. The same report always gives the same
    bytes: no dates or random ids are embedded.
    """
    chosen: Sequence[HistorySeries] = [h for h in report.history if h.sequences][:entrants]
    if not chosen or entrants < 1:
        return None
    import matplotlib  # matplotlib: only to draw a chart
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # matplotlib: only to draw a chart
    from matplotlib.figure import Figure  # matplotlib: only to draw a chart

    last = max(h.sequences[-1] for h in report.history if h.sequences)
    with matplotlib.rc_context(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "c8league",
            "font.family": ["DejaVu Sans", "sans-serif"],
            "font.size": 10,
        }
    ):
        palette = matplotlib.colormaps["tab10"]
        if narrow:
            return _panels(report, chosen, last=last, palette=palette, image=image)
        figure = Figure(figsize=(8.0, 4.4), dpi=100, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        for index, series in enumerate(chosen):
            xs, mus, sigmas = _steps(series, report.initial_mu, report.initial_sigma, last)
            colour = palette(index % palette.N)
            low = [m - 2.0 * s for m, s in zip(mus, sigmas, strict=True)]
            high = [m + 2.0 * s for m, s in zip(mus, sigmas, strict=True)]
            axes.fill_between(xs, low, high, step="post", color=colour, alpha=0.12, linewidth=0)
            axes.step(xs, mus, where="post", color=colour, linewidth=1.6, label=series.name)
        axes.set_xlabel("league match number")
        axes.set_ylabel("μ (band: μ ± 2σ)")
        axes.set_title(f"Top {len(chosen)} of {len(report.history)}")
        axes.grid(True, alpha=0.3)
        axes.margins(x=0.01)
        columns = min(3, len(chosen))
        figure.legend(loc="outside lower center", frameon=False, ncols=columns)
        buffer = io.BytesIO()
        metadata = {"Date": None} if image == "svg" else {"Software": None}
        figure.savefig(buffer, format=image, metadata=metadata, dpi=100 if image == "svg" else 150)
    return buffer.getvalue()


PANEL_HEIGHT = 1.05
"""Inches per entrant in the narrow chart."""


def _panels(
    report: Report,
    chosen: Sequence[HistorySeries],
    *,
    last: int,
    palette: Any,
    image: str,
) -> bytes:
    """The narrow chart: one panel per entrant, sharing both axes."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # matplotlib: only to draw a chart
    from matplotlib.figure import Figure  # matplotlib: only to draw a chart

    figure = Figure(figsize=(4.2, 0.7 + PANEL_HEIGHT * len(chosen)), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(len(chosen), 1, sharex=True, sharey=True, squeeze=False)
    for index, series in enumerate(chosen):
        axes = grid[index][0]
        xs, mus, sigmas = _steps(series, report.initial_mu, report.initial_sigma, last)
        colour = palette(index % palette.N)
        low = [m - 2.0 * s for m, s in zip(mus, sigmas, strict=True)]
        high = [m + 2.0 * s for m, s in zip(mus, sigmas, strict=True)]
        axes.fill_between(xs, low, high, step="post", color=colour, alpha=0.18, linewidth=0)
        axes.step(xs, mus, where="post", color=colour, linewidth=1.8)
        axes.set_title(
            f"{index + 1}. {series.name}   μ {mus[-1]:.1f}", loc="left", fontsize=10, pad=2
        )
        axes.grid(True, alpha=0.3)
        axes.margins(x=0.01)
        axes.tick_params(labelsize=8)
    grid[-1][0].set_xlabel("league match number (band: μ ± 2σ)")
    buffer = io.BytesIO()
    metadata = {"Date": None} if image == "svg" else {"Software": None}
    figure.savefig(buffer, format=image, metadata=metadata, dpi=100 if image == "svg" else 150)
    return buffer.getvalue()


def calibration_chart(report: Report, *, image: Literal["svg", "png"] = "svg") -> bytes | None:
    """The league's calibration as a reliability diagram (``None`` without one): for each
    bin of the favourite's predicted chance, how often it came true, against the
    diagonal of perfect calibration; the dots' areas are the bins' pairs."""
    fit = report.calibration
    if fit is None or not any(b.pairs for b in fit.bins):
        return None
    import matplotlib  # matplotlib: only to draw a chart
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # matplotlib: only to draw a chart
    from matplotlib.figure import Figure  # matplotlib: only to draw a chart

    bins = [b for b in fit.bins if b.pairs]
    most = max(b.pairs for b in bins)
    with matplotlib.rc_context(
        {
            "svg.fonttype": "none",
            "svg.hashsalt": "c8league",
            "font.family": ["DejaVu Sans", "sans-serif"],
            "font.size": 10,
        }
    ):
        figure = Figure(figsize=(4.2, 4.0), dpi=100, layout="constrained")
        FigureCanvasAgg(figure)
        axes = figure.add_subplot()
        axes.plot([0.5, 1.0], [0.5, 1.0], color="0.6", linewidth=1, linestyle="--")
        axes.plot(
            [b.predicted for b in bins], [b.observed for b in bins], color="C0", linewidth=1.4
        )
        axes.scatter(
            [b.predicted for b in bins],
            [b.observed for b in bins],
            s=[20 + 200 * b.pairs / most for b in bins],
            color="C0",
            zorder=3,
        )
        axes.set_xlim(0.48, 1.02)
        axes.set_ylim(min(0.48, *(b.observed - 0.02 for b in bins)), 1.02)
        axes.set_xlabel("favourite's predicted chance")
        axes.set_ylabel("came true")
        axes.set_title(f"β {fit.beta:.3g}: calibration error {fit.calibration_error:.3f}")
        axes.grid(True, alpha=0.3)
        buffer = io.BytesIO()
        metadata = {"Date": None} if image == "svg" else {"Software": None}
        figure.savefig(buffer, format=image, metadata=metadata, dpi=100 if image == "svg" else 150)
    return buffer.getvalue()
