"""Tournament speed: an event end to end with 1 and 2 workers, the process pool next to
Dask, and what each executor costs a match.

1. Whole events: matches/s with 1 worker, 2 worker processes and a local Dask cluster of
   2 single-threaded workers (started once beforehand, as a cluster would be), the
   share of wall time spent outside the engine with one worker (storage, scheduling:
   1 − Σ match play time / wall time) and the 2-worker speed-ups. Two events: the
   built-in bots only (fast matches, so overheads show most) and
   ``leagues/bot-cup.toml`` (with the Monte Carlo plugin, if it is installed).
2. Executor overhead, measured with simulated matches that only sleep: a batch of
   matches of a fixed length gives the per-match cost on the workers (wall × workers /
   matches − match length), and a simulated large event of instant matches (10,000 by
   default) gives the per-match cost in the one process that dispatches matches and
   collects the reports.
3. Dask against the process pool on a longer built-in-bot event (``--compare-cycles``,
   100 cycles: 600 matches), interleaved: pool, Dask, pool, … (``--compare-runs`` Dask
   runs), each Dask run's matches/s as a ratio to the mean of the pool runs around it.
   Each pool run starts its 2 processes, as ``event run`` does; the Dask cluster is
   running already, as it is for ``event run --executor dask --address …``.
4. An estimate for a large event of a slow bot on many machines: each match costs its
   length plus the worker overhead, spread over the workers, but the dispatching
   process and the database writer handle every match in turn, so
   wall ≈ matches × max((length + worker overhead) / workers, dispatch + write).

Run: ``python benchmarks/tournament.py [--cycles N] [--simulated N] [--match-seconds S]
[--compare-cycles N] [--compare-runs N] [--no-dask]``
(the Dask figures need ``pip install -e '.[dask]'``).
"""

from __future__ import annotations

import argparse
import importlib.util
import multiprocessing
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from c8league import about
from c8league.events.running import run_event
from c8league.league.files import load_league_file, parse_league
from c8league.league.leagues import import_league
from c8league.results import MatchReport, Result
from c8league.runner import dask_executor, pool
from c8league.runner.dask_executor import DaskRunner
from c8league.runner.executors import Runner
from c8league.runner.tasks import MatchTask, play_task
from c8league.storage import open_database

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

WORKERS = 2
SLEEP_MATCH_SECONDS = 0.02
SLEEP_MATCHES = 400
SLOW_BOT_SECONDS = 2.0
"""A slow bot's match length when the Monte Carlo plugin is not installed to measure one."""
SCALES = (2, 16, 64, 256, 1024)

play_seconds = multiprocessing.RawValue("d", 0.0)
"""Play time summed over matches, in memory shared with the worker processes (forks)."""


def use_play(play: Callable[[MatchTask], MatchReport]) -> None:
    """Make the process pool's workers run ``play`` for each task."""
    vars(pool)["play_task"] = play


def _timed(task: MatchTask) -> MatchReport:
    report = _original(task)
    play_seconds.value += report.seconds
    return report


_original = play_task


def run_once(
    league_data: dict[str, object] | Path,
    workers: int | None,
    address: str | None = None,
) -> tuple[int, float, float]:
    """(matches, wall seconds, summed play seconds) for one fresh run; with ``address``,
    on that Dask scheduler."""
    play_seconds.value = 0.0
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
        if address is None:
            summary = run_event(db, name, workers=workers)
        else:
            summary = run_event(db, name, executor="dask", address=address)
        wall = time.perf_counter() - start
        db.close()
    return summary.played, wall, play_seconds.value


def measure(
    label: str, league: dict[str, object] | Path, address: str | None
) -> tuple[float, float]:
    """One row of the events table; returns the seconds a match spends outside the engine
    and in it, with one worker."""
    use_play(_timed)
    n1, wall1, play1 = run_once(league, 1)
    use_play(_original)
    n2, wall2, _ = run_once(league, WORKERS)
    dask_rate, dask_speedup = "-", "-"
    if address is not None:
        n3, wall3, _ = run_once(league, None, address)
        dask_rate, dask_speedup = f"{n3 / wall3:.1f}", f"{wall1 / wall3:.2f}x"
    outside = 1 - play1 / wall1
    print(
        f"{label:<26} {n1:>7} {n1 / wall1:>10.1f} {n2 / wall2:>10.1f} {dask_rate:>10} "
        f"{outside:>8.1%} {wall1 / wall2:>8.2f}x {dask_speedup:>8}"
    )
    return (wall1 - play1) / n1, play1 / n1


def compare(address: str, cycles: int, runs: int) -> None:
    """Dask's matches/s over the process pool's on the built-in-bot event of ``cycles``
    cycles, 2 workers each, interleaved (pool, Dask, pool, …)."""
    event = dict(BUILTINS["events"][0], cycles=cycles)  # type: ignore[index]
    league: dict[str, object] = {**BUILTINS, "events": [event]}

    def rate(address: str | None) -> tuple[int, float]:
        matches, wall, _ = run_once(league, WORKERS if address is None else None, address)
        return matches, matches / wall

    rate(None)  # warm: imports, and the processes of the Dask workers' threads
    rate(address)
    print(f"\nDask over the process pool, {WORKERS} workers, built-in bots, {cycles} cycles:")
    pool_rates = [rate(None)[1]]
    ratios = []
    for _ in range(runs):
        matches, dask_rate = rate(address)
        pool_rates.append(rate(None)[1])
        ratios.append(dask_rate / ((pool_rates[-2] + pool_rates[-1]) / 2))
        print(
            f"  {matches} matches: Dask {dask_rate:7.1f}/s, the pool before and after it "
            f"{pool_rates[-2]:7.1f}/s and {pool_rates[-1]:7.1f}/s: ratio {ratios[-1]:.2f}"
        )
    print(f"  ratio: lowest {min(ratios):.2f}, median {sorted(ratios)[len(ratios) // 2]:.2f}")


# -- simulated matches ----------------------------------------------------------------------


def sleep_match(task: MatchTask) -> MatchReport:
    """A simulated match: sleeps ``task.seed`` microseconds and reports a fixed result."""
    seconds = task.seed / 1_000_000
    if seconds:
        time.sleep(seconds)
    return MatchReport(task.match_id, Result((1, 2), (0, 0), "simulated"), seconds)


def simulated(count: int, seconds: float) -> list[MatchTask]:
    return [MatchTask(i, "{}", (), round(seconds * 1_000_000)) for i in range(count)]


def drain(runner: Runner, tasks: Sequence[MatchTask]) -> float:
    start = time.perf_counter()
    for _ in runner.run(tasks):
        pass
    return time.perf_counter() - start


def overheads(runner: Runner, large: int) -> tuple[float, float, float]:
    """(matches/s of sleeping matches, worker seconds over the match length a match,
    dispatch seconds a match from a simulated large event of instant matches)."""
    # Workers started and warm, and the pace the batches are sized by (kept between runs)
    # that of the matches measured next.
    drain(runner, simulated(WORKERS * 8, SLEEP_MATCH_SECONDS))
    wall = drain(runner, simulated(SLEEP_MATCHES, SLEEP_MATCH_SECONDS))
    worker = wall * WORKERS / SLEEP_MATCHES - SLEEP_MATCH_SECONDS
    dispatch = drain(runner, simulated(large, 0.0)) / large
    return SLEEP_MATCHES / wall, max(worker, 0.0), dispatch


def estimate(matches: int, length: float, worker: float, serial: float, workers: int) -> float:
    return matches * max((length + worker) / workers, serial)


def hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f} h" if seconds >= 3600 else f"{seconds / 60:.1f} min"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=20, help="cycles of the built-in event")
    parser.add_argument(
        "--simulated", type=int, default=10_000, help="matches of the simulated large event"
    )
    parser.add_argument(
        "--match-seconds",
        type=float,
        default=None,
        help="the slow bot's match length in the estimate (default: the bot cup's, measured)",
    )
    parser.add_argument(
        "--compare-cycles", type=int, default=100, help="cycles of the Dask-to-pool comparison"
    )
    parser.add_argument(
        "--compare-runs", type=int, default=3, help="Dask runs of the comparison (0: none)"
    )
    parser.add_argument("--no-dask", action="store_true", help="measure the process pool only")
    args = parser.parse_args()
    print(about.header(), flush=True)
    BUILTINS["events"][0]["cycles"] = args.cycles  # type: ignore[index]

    cluster: Any = None
    address: str | None = None
    if not args.no_dask:
        if importlib.util.find_spec("distributed") is None:
            print("Dask not installed (pip install -e '.[dask]'): process pool only")
        else:
            start = time.perf_counter()
            cluster = dask_executor.local_cluster(WORKERS)
            address = cluster.scheduler_address
            print(
                f"local Dask cluster of {WORKERS} workers started in "
                f"{time.perf_counter() - start:.1f} s (not counted below)"
            )

    print(
        f"\n{'event':<26} {'matches':>7} {'1 worker/s':>10} {'2 procs/s':>10} "
        f"{'2 dask/s':>10} {'outside':>8} {'procs':>9} {'dask':>8}"
    )
    write, _ = measure("built-in bots, 4-player", BUILTINS, address)
    length = SLOW_BOT_SECONDS
    try:
        from c8league.players.registry import get

        get("montecarlo")
    except Exception as exc:
        print(f"bot-cup skipped: {exc}")
    else:
        _, length = measure("leagues/bot-cup.toml", ROOT / "leagues" / "bot-cup.toml", address)

    if address is not None and args.compare_runs > 0:
        compare(address, args.compare_cycles, args.compare_runs)

    print(
        f"\nexecutor overhead: {SLEEP_MATCHES} matches of {SLEEP_MATCH_SECONDS * 1000:.0f} ms, "
        f"then a simulated event of {args.simulated:,} instant matches, {WORKERS} workers"
    )
    print(f"{'executor':<22} {'matches/s':>10} {'on workers':>12} {'dispatch':>10}")
    figures: dict[str, tuple[float, float]] = {}
    use_play(sleep_match)
    try:
        with pool.MatchRunner(WORKERS) as processes:
            rate, worker, dispatch = overheads(processes, args.simulated)
    finally:
        use_play(_original)
    figures["processes"] = worker, dispatch
    print(f"{'process pool':<22} {rate:>10.1f} {worker * 1e3:>9.2f} ms {dispatch * 1e3:>7.3f} ms")
    if address is not None:
        for label, batch in (("Dask, one match a task", 1), ("Dask, batched", None)):
            with DaskRunner(address, play=sleep_match, batch=batch) as dask:
                rate, worker, dispatch = overheads(dask, args.simulated)
            figures["dask"] = worker, dispatch
            print(f"{label:<22} {rate:>10.1f} {worker * 1e3:>9.2f} ms {dispatch * 1e3:>7.3f} ms")
        dask_executor.close_cluster(cluster)

    if args.match_seconds is not None:
        length = args.match_seconds
    print(
        f"\nestimate: an event of {args.simulated:,} matches of {length:.2f} s "
        f"(a slow bot), {write * 1e3:.1f} ms a match outside the engine (storage, pairing)"
    )
    print(f"{'workers':>8} {'process pool':>14} {'Dask':>14}")
    for workers in SCALES:
        cells = []
        for name in ("processes", "dask"):
            if name not in figures or (name == "processes" and workers > WORKERS):
                cells.append("-")
                continue
            worker, dispatch = figures[name]
            cells.append(hours(estimate(args.simulated, length, worker, dispatch + write, workers)))
        print(f"{workers:>8} {cells[0]:>14} {cells[1]:>14}")
    if "dask" in figures:
        worker, dispatch = figures["dask"]
        limit = (length + worker) / (dispatch + write)
        print(
            f"Dask keeps every worker busy up to about {limit:,.0f} workers; past that the "
            "one process that dispatches and writes results sets the pace"
        )


if __name__ == "__main__":
    main()
