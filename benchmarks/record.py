"""The record's chain: what it costs where results are stored, and how long checking it
takes.

1. An event of the built-in bots (``--cycles`` round-robin cycles of 10 greedy and 10
   random bots at 4-player tables: 3,500 matches by default) is run on ``--workers``
   worker processes into a fresh SQLite database. The processor time the runner's
   process spends storing results (each batch's transaction) is measured (its thread's
   own time, the same on a busy machine), and within it the time spent on the chain:
   reading each match's rows before its result is stored (which replaces the read of
   its seats the store needed anyway, so this counts more than the chain adds),
   checking them against their latest entries, hashing each result as written, and
   appending the entries. The same for the rounds paired.
2. On the event's league: ``c8league verify`` (every record and every link),
   ``verify LEAGUE``, and the quick look that ``event status``, ``report`` and
   ``event publish`` make (:func:`c8league.integrity.check`), each the median of
   ``--repeat`` runs, next to ``event status`` itself (in the same process: no start-up).

Run: ``python benchmarks/record.py [--cycles 100] [--workers 2] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from c8league import about, integrity
from c8league.cli.main import main
from c8league.events import running
from c8league.events.running import run_event
from c8league.league.files import parse_league
from c8league.league.leagues import import_league
from c8league.storage import chain, open_database

ENTRANTS = 10
"""Greedy bots, and as many random ones."""


def league(cycles: int) -> dict[str, object]:
    return {
        "name": "bench",
        "table_size": 4,
        "rules": {"preset": "pagat"},
        "entrants": [{"name": f"Greedy {i}", "bot": "greedy"} for i in range(ENTRANTS)]
        + [
            {"name": f"Random {i}", "bot": "random", "options": {"playable_first": True}}
            for i in range(ENTRANTS)
        ],
        "events": [{"name": "bench", "format": "round_robin", "cycles": cycles, "seed": 1}],
    }


class Timers:
    """Processor seconds spent in functions, by name, counted while they run in this
    process's thread (the thread's own time: the same on a busy machine)."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._active: set[str] = set()

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original: Callable[..., Any] = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            if label in self._active:  # (nested: counted once, by the outer call)
                return original(*args, **kwargs)
            self._active.add(label)
            start = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                self._active.discard(label)
                self.seconds[label] = self.seconds.get(label, 0.0) + time.thread_time() - start

        setattr(owner, name, timed)


def median_seconds(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        yield


def main_() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100, help="round-robin cycles")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each check")
    args = parser.parse_args()
    print(about.header(), flush=True)
    timers = Timers()
    timers.wrap(running, "_store_batch", "store")
    for name in ("match_rows", "expect", "match_stamp", "_match_digest", "row_stamp", "seal"):
        timers.wrap(chain, name, "chain")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        db = open_database(str(path))
        import_league(db, parse_league(league(args.cycles)))
        start, cpu = time.perf_counter(), time.thread_time()
        summary = run_event(db, "bench", workers=args.workers)
        wall, cpu = time.perf_counter() - start, time.thread_time() - cpu
        db.close()
        matches = summary.played
        store, chained = timers.seconds["store"], timers.seconds["chain"]
        print(
            f"\nevent of {matches:,} matches on {args.workers} workers: {wall:.2f} s "
            f"({matches / wall:.0f} matches/s); the runner's process (its main thread): "
            f"{cpu * 1e3 / matches:.3f} ms of processor time a match"
        )
        print(f"  storing results: {store * 1e3 / matches:.3f} ms a match")
        print(
            f"  the chain (pairing and results): {chained * 1e3 / matches:.3f} ms a match, "
            f"{chained / store:.1%} of storing, {chained / cpu:.1%} of the process's time"
        )

        db = open_database(str(path))
        with db.session() as session:
            entries = session.connection().exec_driver_sql("SELECT count(*) FROM chain").scalar()
        full = median_seconds(lambda: integrity.verify(db), args.repeat)
        scoped = median_seconds(lambda: integrity.verify(db, "bench"), args.repeat)
        quick = median_seconds(lambda: integrity.check(db, event="bench"), args.repeat)
        report = median_seconds(lambda: integrity.check(db, league="bench"), args.repeat)
        db.close()

        def status() -> None:
            with quiet():
                assert main(["--db", str(path), "event", "status", "bench"]) == 0

        with_check = median_seconds(status, args.repeat)
        from c8league.cli import db as cli_db  # (the command's module, to time it without)

        original = cli_db.warn_if_changed
        cli_db.warn_if_changed = lambda *a, **k: None  # type: ignore[assignment]
        from c8league.cli.event import reading

        reading.warn_if_changed = cli_db.warn_if_changed
        without = median_seconds(status, args.repeat)
        reading.warn_if_changed = original
        print(f"\nchecking the record: {matches:,} matches, {entries:,} entries in the chain")
        print(f"{'c8league verify':<32} {full * 1e3:>8.0f} ms")
        print(f"{'c8league verify bench':<32} {scoped * 1e3:>8.0f} ms")
        print(f"{'the look of event status':<32} {quick * 1e3:>8.0f} ms")
        print(f"{'the look of report (the league)':<32} {report * 1e3:>8.0f} ms")
        print(
            f"{'event status, with the look':<32} {with_check * 1e3:>8.0f} ms "
            f"(without: {without * 1e3:.0f} ms, in-process, no start-up)"
        )


if __name__ == "__main__":
    main_()
