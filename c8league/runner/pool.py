"""Executors: play match tasks in-process or on a pool of processes.

Results are delivered in task order, whatever order the workers finish in, so the
database (and the ratings, which depend on order) end up the same with any number of
workers. A process pool uses all cores by default.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from c8league.runner.tasks import MatchReport, MatchTask, play_task


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_tasks(tasks: Sequence[MatchTask], workers: int | None = None) -> Iterator[MatchReport]:
    """Play ``tasks`` and yield their reports in the order of ``tasks``."""
    workers = default_workers() if workers is None else workers
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_task(task)
        return
    # A bounded window of tasks in flight keeps memory flat for very large events.
    window = max(4 * workers, 8)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[int, Future[MatchReport]] = {}
        submitted = 0
        try:
            for index in range(len(tasks)):
                while submitted < len(tasks) and submitted < index + window:
                    pending[submitted] = pool.submit(play_task, tasks[submitted])
                    submitted += 1
                yield pending.pop(index).result()
        finally:
            for future in pending.values():
                future.cancel()
