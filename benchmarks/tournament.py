"""Tournament speed: an event end to end with 1 and 2 workers.

For each run it prints matches/s, the share of wall time spent outside the engine
(storage, scheduling, process overhead: 1 − Σ match play time / wall time, measured
with one worker where play time and wall time are on the same core), and the
2-worker speed-up. Two events are measured: one of the built-in bots only (fast
matches, so overheads show most) and ``leagues/bot-cup.toml`` (with the Monte Carlo
plugin, if it is installed).

Run: ``python benchmarks/tournament.py [--cycles N]``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from c8league import events
from c8league.league import load_league_file, parse_league
from c8league.runner import pool
from c8league.runner.tasks import MatchReport, play_task
from c8league.storage import open_database
from c8league.storage.repo import import_league

ROOT = Path(__file__).resolve().parents[1]

BUILTINS = {
    "name": "bench",
    "table_size": 4,
    "rules": {"preset": "pagat"},
    "entrants": [{"name": f"Greedy {i}", "bot": "greedy"} for i in range(4)]
    + [
        {"name": f"Random {i}", "bot": "random", "options": {"playable_first": True}}
        for i in range(4)
    ],
    "events": [{"name": "bench", "format": "round_robin", "cycles": 20, "seed": 1}],
}

play_seconds = 0.0


def _timed(task: object) -> MatchReport:
    global play_seconds
    report = _original(task)  # type: ignore[arg-type]
    play_seconds += report.seconds
    return report


_original = play_task


def run_once(league_data: dict[str, object] | Path, workers: int) -> tuple[int, float, float]:
    """(matches, wall seconds, summed play seconds) for one fresh run."""
    global play_seconds
    play_seconds = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(str(Path(tmp) / "bench.db"))
        league = (
            load_league_file(league_data)
            if isinstance(league_data, Path)
            else parse_league(league_data)
        )
        import_league(db, league)
        name = league.events[0].name
        start = time.perf_counter()
        summary = events.run_event(db, name, workers=workers)
        wall = time.perf_counter() - start
        db.close()
    return summary.played, wall, play_seconds


def measure(label: str, league: dict[str, object] | Path) -> None:
    pool.play_task = _timed  # type: ignore[assignment]
    n1, wall1, play1 = run_once(league, 1)
    pool.play_task = _original  # type: ignore[assignment]
    n2, wall2, _ = run_once(league, 2)
    outside = 1 - play1 / wall1
    print(
        f"{label:<28} {n1:>7} {n1 / wall1:>12.1f} {n2 / wall2:>12.1f} "
        f"{outside:>9.1%} {wall1 / wall2:>8.2f}x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=20, help="cycles of the built-in event")
    args = parser.parse_args()
    BUILTINS["events"][0]["cycles"] = args.cycles  # type: ignore[index]
    print(
        f"{'event':<28} {'matches':>7} {'1 worker/s':>12} {'2 workers/s':>12} "
        f"{'outside':>9} {'speed-up':>9}"
    )
    measure("built-in bots, 4-player", BUILTINS)
    try:
        from c8league.players.registry import get

        get("montecarlo")
    except Exception as exc:
        print(f"bot-cup skipped: {exc}")
    else:
        measure("leagues/bot-cup.toml", ROOT / "leagues" / "bot-cup.toml")


if __name__ == "__main__":
    main()
