"""Duel and event speed: are fast bots bound by play, or by storage?

1. What the machine gives: the speed-up of two bare busy loops of Python side by side
   over one alone, measured again before each row. On a shared machine two processes
   do not always get two cores; the speed-ups are to be judged against this figure
   (their ratio is printed), not against 2.
2. Duels of ``greedy`` against ``random:playable_first=true`` at 2 and 4 players, on 1
   and 2 workers: matches/s, the share of the workers' time spent inside matches
   (Σ match time / (workers × wall time)), and the 2-worker speed-up beside the busy
   loops' (their ratio is what is judged).
3. The same for an event of the built-in bots (``benchmarks/tournament.py``'s, 4-player
   round-robin): its time also holds pairing the rounds, storing every result and its
   rating update; the time spent storing results is shown per match.

Run: ``python benchmarks/duel.py [--games N] [--cycles N]``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tournament

from c8league import about
from c8league.duel.running import DuelRequest, create_duel, run_duel
from c8league.events import running as event_running
from c8league.league.files import parse_league
from c8league.league.leagues import import_league
from c8league.storage import open_database

BUSY_SECONDS = 1.0
REPEATS = 3
"""Each figure is the best of this many runs (other processes come and go on a shared
machine; the best run is the one they disturbed least)."""


def _busy(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i % 7
    return total


def _busy_timed(n: int, out: Any) -> None:
    start = time.perf_counter()
    _busy(n)
    out.value = time.perf_counter() - start


def busy_loop_speedup() -> tuple[float, float]:
    """(seconds of one loop alone, speed-up of two loops side by side), each loop in a
    process of its own (forked, as the workers are)."""
    n = 1_000_000
    start = time.perf_counter()
    _busy(n)
    n = int(n * BUSY_SECONDS / (time.perf_counter() - start))
    context = multiprocessing.get_context("fork")
    alone = context.RawValue("d", 0.0)
    process = context.Process(target=_busy_timed, args=(n, alone))
    process.start()
    process.join()
    values = [context.RawValue("d", 0.0) for _ in range(2)]
    start = time.perf_counter()
    pair = [context.Process(target=_busy_timed, args=(n, v)) for v in values]
    for p in pair:
        p.start()
    for p in pair:
        p.join()
    both = time.perf_counter() - start
    return alone.value, 2 * alone.value / both


def duel(players: int, workers: int, games: int) -> tuple[int, float, float]:
    """(matches, wall seconds, summed match seconds) of one fresh duel."""
    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(str(Path(tmp) / "duel.db"))
        request = DuelRequest(
            "greedy", "random:playable_first=true", players=players, games=games, seed=1
        )
        name = create_duel(db, request)
        start = time.perf_counter()
        summary = run_duel(db, name, workers=workers)
        wall = time.perf_counter() - start
        db.close()
    return 2 * summary.pairs, wall, summary.play_seconds


def event(workers: int, cycles: int) -> tuple[int, float, float, float, float]:
    """(matches, wall seconds, summed match seconds, seconds storing results, seconds
    pairing: the round-robin's schedule and its rounds) of one fresh event of the
    built-in bots."""
    tournament.BUILTINS["events"][0]["cycles"] = cycles  # type: ignore[index]
    spent = {"_store_batch": 0.0, "pair_rounds_ahead": 0.0, "event_status_in": 0.0}
    originals: dict[str, Callable[..., Any]] = {n: vars(event_running)[n] for n in spent}

    def timed(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return originals[name](*args, **kwargs)
            finally:
                spent[name] += time.perf_counter() - start

        return call

    for name in spent:
        vars(event_running)[name] = timed(name)
    tournament.use_play(tournament._timed)
    tournament.play_seconds.value = 0.0
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db = open_database(str(Path(tmp) / "event.db"))
            import_league(db, parse_league(tournament.BUILTINS))
            start = time.perf_counter()
            summary = event_running.run_event(db, "bench", workers=workers)
            wall = time.perf_counter() - start
            db.close()
    finally:
        vars(event_running).update(originals)
        tournament.use_play(tournament._original)
    pairing = spent["pair_rounds_ahead"] + spent["event_status_in"]
    return summary.played, wall, tournament.play_seconds.value, spent["_store_batch"], pairing


def best(runs: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The run with the most matches a second (the least disturbed)."""
    return max(runs, key=lambda r: r[0] / r[1])


def row(label: str, runs: dict[int, tuple[int, float, float]], machine: float) -> None:
    cells = []
    for workers in (1, 2):
        matches, wall, play = runs[workers]
        cells.append(f"{matches / wall:>9.1f} {play / (workers * wall):>7.1%}")
    speedup = (runs[2][0] / runs[2][1]) / (runs[1][0] / runs[1][1])
    print(
        f"{label:<24} {cells[0]} {cells[1]} {speedup:>8.2f}x {machine:>5.2f}x "
        f"{speedup / machine:>6.2f}"
    )


def what_the_machine_gives() -> float:
    """The best of :data:`REPEATS` speed-ups of two busy loops over one."""
    return max(busy_loop_speedup()[1] for _ in range(REPEATS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games of each duel")
    parser.add_argument("--cycles", type=int, default=20, help="cycles of the event")
    args = parser.parse_args()
    print(about.header(), flush=True)
    print(
        "\nloops: what the machine gives just before each row, the speed-up of two bare "
        f"busy loops side by side over one (best of {REPEATS})\n"
    )
    print(
        f"{'':<24} {'1 worker':>17} {'2 workers':>17} {'speed-up':>9} {'loops':>6} "
        f"{'ratio':>6}\n{'':<24} {'matches/s':>9} {'inside':>7} {'matches/s':>9} {'inside':>7}"
    )
    for players in (2, 4):
        machine = what_the_machine_gives()
        runs = {w: best([duel(players, w, args.games) for _ in range(REPEATS)]) for w in (1, 2)}
        row(f"duel, {players} players", runs, machine)
    event_runs: dict[int, tuple[int, float, float, float, float]] = {}
    machine = what_the_machine_gives()
    for workers in (1, 2):
        event_runs[workers] = best([event(workers, args.cycles) for _ in range(REPEATS)])
    row("event, 4 players", {w: r[:3] for w, r in event_runs.items()}, machine)
    matches, wall, play, stored, pairing = event_runs[1]
    print(
        f"\nthe event on 1 worker, {matches} matches in {wall:.2f} s: {play / wall:.0%} inside "
        f"the matches, {pairing / wall:.0%} pairing (the round-robin's schedule, computed "
        f"once, and its {matches // 2} rounds), {stored / wall:.0%} storing the results "
        f"with their rating updates ({stored / matches * 1e3:.2f} ms a match), "
        f"{1 - (play + pairing + stored) / wall:.0%} the rest (starting the worker, "
        "sending matches and reports); without the pairing, "
        f"{1 - play / (wall - pairing):.0%} of the time is outside the matches"
    )


if __name__ == "__main__":
    main()
