"""``c8league games export``: its peak memory and its rate on a large event.

1. An event of the built-in bots (``--cycles`` round-robin cycles of 8 greedy and 8
   random bots at 2-player tables: 120 matches a cycle, 10,080 matches by default) is run
   into a SQLite database (``--db`` keeps it, and a later run with the same ``--db``
   reuses it).
2. ``c8league games export EVENT --out FILE`` runs ``--repeat`` times as a command of its
   own (``python -m c8league``); each time its peak resident memory (``os.wait4``'s
   ``ru_maxrss``: the process's own, not this one's) and its wall time are measured.
   Beside it, for reference, the peak memory of a command that opens the same database
   and reads one match (``match show ID --format json``): what any command of the
   database costs, before the export's own.

Run: ``python benchmarks/export.py [--cycles 84] [--repeat 3] [--db FILE]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from c8league import about
from c8league.events.running import run_event
from c8league.league.files import parse_league
from c8league.league.leagues import import_league
from c8league.storage import open_database

ENTRANTS = 8
"""Greedy bots, and as many random ones."""


def league(cycles: int) -> dict[str, object]:
    return {
        "name": "bench",
        "table_size": 2,
        "rules": {"preset": "pagat"},
        "entrants": [{"name": f"Greedy {i}", "bot": "greedy"} for i in range(ENTRANTS)]
        + [{"name": f"Random {i}", "bot": "random"} for i in range(ENTRANTS)],
        "events": [{"name": "bench", "format": "round_robin", "cycles": cycles, "seed": 1}],
    }


def build(path: Path, cycles: int) -> None:
    if path.exists():
        print(f"reusing {path}", flush=True)
        return
    db = open_database(str(path))
    try:
        import_league(db, parse_league(league(cycles)))
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            summary = run_event(db, "bench")
        print(
            f"played {summary.played} matches in {time.perf_counter() - start:.0f} s into {path}",
            flush=True,
        )
    finally:
        db.close()


def measured(args: list[str]) -> tuple[float, float]:
    """Run ``python -m c8league ARGS``: (its peak resident memory in MB, its wall time)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "c8league", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"c8league {' '.join(args)} failed: {errors.decode()}")
    return usage.ru_maxrss / 1024, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=84, help="round-robin cycles")
    parser.add_argument("--repeat", type=int, default=3, help="exports measured")
    parser.add_argument("--db", type=Path, help="the database (kept; reused if it exists)")
    args = parser.parse_args()
    print(about.header(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = args.db or Path(folder) / "bench.db"
        build(path, args.cycles)
        db = ["--db", str(path)]
        out = Path(folder) / "games.jsonl"
        base, _ = measured([*db, "match", "show", "1", "--format", "json"])
        peaks, times = [], []
        for _ in range(args.repeat):
            peak, seconds = measured([*db, "games", "export", "bench", "--out", str(out)])
            peaks.append(peak)
            times.append(seconds)
        with out.open(encoding="utf-8") as lines:
            games = sum(1 for _ in lines)
        size = out.stat().st_size / 1e6
    best = min(times)
    print(f"games exported: {games} ({size:.0f} MB of JSON lines)")
    runs = ", ".join(f"{p:.0f}" for p in peaks)
    print(f"peak memory of the export: {max(peaks):.0f} MB (runs: {runs})")
    print(f"peak memory of match show --format json on the same database: {base:.0f} MB")
    print(
        f"time: {statistics.median(times):.1f} s median, {best:.1f} s best: "
        f"{games / best:,.0f} games/s, {size / best:.1f} MB/s (whole command, start-up included)"
    )


if __name__ == "__main__":
    main()
