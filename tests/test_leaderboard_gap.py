"""A leaderboard gap the ratings cannot tell from noise is marked."""

from __future__ import annotations

import math

from c8league.ratings.leaderboard import LeaderboardRow
from c8league.reports.views import leaderboard_view


def row(rank: int, name: str, p: float | None) -> LeaderboardRow:
    return LeaderboardRow(rank, rank, name, 25.0, 1.0, 22.0, 100, 30, 0.3, 2.0, 0.5, False, True, p)


def test_a_gap_within_noise_is_marked() -> None:
    rows = [row(1, "Close", 0.68), row(2, "Clear", 0.99), row(3, "Odd", 0.02), row(4, "Last", None)]
    assert [r.gap_is_noise for r in rows] == [True, False, False, False]
    view = leaderboard_view(rows, 10)
    cells = [r[-1] for r in view.rows]
    assert cells == ["68% ≈", "99%", "2%", ""]
    assert "≈ marks a gap the ratings cannot tell from noise" in (view.caption or "")
    assert not math.isnan(rows[0].mu)
