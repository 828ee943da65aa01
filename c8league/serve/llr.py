"""A duel's log-likelihood ratio after each pair, and its graph against the SPRT's
bounds as an inline SVG (drawn here, so the page needs no script)."""

from __future__ import annotations

from dataclasses import dataclass

from c8league.duel.reading import DuelReport, count_pair

POINTS = 400
"""At most this many points are drawn; a longer duel is sampled evenly (the last kept)."""


@dataclass(frozen=True)
class LlrPath:
    """The LLR after each counted pair (``points``: (pairs, llr)) and the bounds."""

    points: tuple[tuple[int, float], ...]
    lower: float
    upper: float


def llr_path(report: DuelReport) -> LlrPath | None:
    """The path of the duel's LLR over its pairs, in the order they were stored (the LLR
    of the test that decides: on the luck-adjusted scores for a duel that adjusts for
    luck); None for a duel without a sequential test."""
    spec = report.settings.spec
    if spec is None:
        return None
    steps = 2 * (report.settings.players - 1)
    tally = report.settings.tally()  # (luck-adjusted, as the duel's own test, if it is)
    every = max(1, len(report.pairs) // POINTS)
    points = [(0, 0.0)]
    for n, pair in enumerate(report.pairs, 1):
        count_pair(tally, pair, steps)
        if n % every == 0 or n == len(report.pairs):
            points.append((n, tally.sprt(spec).llr))
    return LlrPath(tuple(points), spec.lower, spec.upper)


def llr_svg(path: LlrPath, *, width: int = 360, height: int = 200) -> str:
    """The LLR against the pairs played, with the bounds as dashed lines: H1 is accepted
    above the upper one, H0 below the lower one."""
    pad = 28
    pairs = max(path.points[-1][0], 1)
    values = [v for _, v in path.points]
    top = max(path.upper, *values) * 1.1
    bottom = min(path.lower, *values) * 1.1

    def x(n: float) -> float:
        return pad + (width - pad - 6) * n / pairs

    def y(v: float) -> float:
        return 6 + (height - 24) * (top - v) / (top - bottom)

    line = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in path.points)
    parts = [
        f'<svg class="llr" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="LLR {values[-1]:.2f} after {path.points[-1][0]} pairs, bounds '
        f'{path.lower:.2f} and {path.upper:.2f}" xmlns="http://www.w3.org/2000/svg">',
        f'<rect x="{pad}" y="6" width="{width - pad - 6}" height="{height - 24}" '
        'fill="none" stroke="#ccc"/>',
    ]
    for bound, label in ((path.upper, "H1"), (path.lower, "H0"), (0.0, "")):
        dash = ' stroke-dasharray="5 4"' if label else ""
        colour = "#b00020" if label else "#bbb"
        parts.append(
            f'<line x1="{pad}" x2="{width - 6}" y1="{y(bound):.1f}" y2="{y(bound):.1f}" '
            f'stroke="{colour}"{dash}/>'
        )
        parts.append(f'<text x="2" y="{y(bound) + 4:.1f}" font-size="10">{bound:.2f}</text>')
    parts.append(f'<polyline points="{line}" fill="none" stroke="#0b57d0" stroke-width="2"/>')
    parts.append(
        f'<text x="{width - 6}" y="{height - 6}" font-size="10" text-anchor="end">'
        f"{path.points[-1][0]} pairs</text>"
    )
    parts.append("</svg>")
    return "".join(parts)
