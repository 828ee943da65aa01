"""Executors: play match tasks in-process or on a pool of processes.

Results are delivered in task order, whatever order the workers finish in, so the
database (and the ratings, which depend on order) end up the same with any number of
workers. A process pool uses all cores by default and lives as long as the
:class:`MatchRunner`, so an event of many rounds starts its workers once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from types import TracebackType
from typing import Self

from c8league.runner.tasks import MatchReport, MatchTask, play_task


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class ClosingRunner:
    """A runner used as a context manager: leaving the block calls ``close()``."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def prepare(self) -> None:
        """Connect to whatever plays the matches, so that a run that cannot play stops
        before it writes anything (nothing to do by default)."""

    def close(self) -> None:
        """Release workers and connections (nothing by default)."""


class MatchRunner(ClosingRunner):
    """Plays batches of match tasks with ``workers`` processes (1: in this process)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def run(self, tasks: Sequence[MatchTask]) -> Iterator[MatchReport]:
        """Play ``tasks`` and yield their reports in the order of ``tasks``."""
        if self.workers <= 1 or len(tasks) <= 1:
            for task in tasks:
                yield play_task(task)
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        pool = self._pool
        # A bounded window of tasks in flight keeps memory flat for very large events.
        window = max(4 * self.workers, 8)
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


def run_tasks(tasks: Sequence[MatchTask], workers: int | None = None) -> Iterator[MatchReport]:
    """Play ``tasks`` on a runner of its own and yield the reports in task order."""
    with MatchRunner(workers) as runner:
        yield from runner.run(tasks)
