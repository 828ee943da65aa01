"""What an event needs of an executor, and choosing one.

A :class:`Runner` plays match tasks and yields their reports in task order, whatever
order they finish in; ``processes`` (``runner.pool``: worker processes watched from
this one) and ``dask`` (``runner.dask_executor``: a Dask cluster) give the same results.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Protocol

from c8league.errors import UsageError
from c8league.results import MatchReport
from c8league.runner.base import Watch, default_workers
from c8league.runner.dask_executor import DaskRunner
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart
from c8league.runner.tasks import MatchTask

EXECUTORS = ("processes", "dask")
MAX_WORKERS_PER_CORE = 4
"""More worker processes than this per core are refused: they would only compete for the
cores and the memory (each holds a Python interpreter)."""


class Runner(Protocol):
    """What an event needs of an executor: reports in task order, and closing."""

    def run(self, tasks: Sequence[MatchTask]) -> Iterator[MatchReport]: ...

    def prepare(self) -> None: ...

    def start(self, bots: Sequence[BotStart], seconds: float | None) -> str | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Runner: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


def max_workers() -> int:
    """The most worker processes a run may ask for on this machine."""
    return MAX_WORKERS_PER_CORE * default_workers()


def check_workers(workers: int | None) -> None:
    """Refuse a number of worker processes far above this machine's cores."""
    if workers is None:
        return
    if workers < 1:
        raise UsageError(f"`workers` must be at least 1, not {workers}", params=["workers"])
    cores, limit = default_workers(), max_workers()
    if workers > limit:
        raise UsageError(
            f"`workers` {workers} is far more than this machine's {cores} "
            f"core{'s' if cores > 1 else ''}: use at most {limit} "
            f"({MAX_WORKERS_PER_CORE} per core), or a Dask cluster for more machines",
            params=["workers"],
        )


def resume_command(
    kind: str,
    name: str,
    executor: str,
    address: str | None,
    sandbox: str | None = None,
    *,
    verb: str = "resume",
) -> str:
    """The command that goes on with an event, duel or gauntlet (``kind``), or with a
    ladder (``ladder``, ``verb`` ``run``), where it stopped: on the executor and at the
    address that ran it, with the same sandbox. Every hint a run gives on how it goes on
    is made here, so that none plays elsewhere than where the run played."""
    words = ["c8league", kind, verb, shlex.quote(name)]
    if executor != "processes":
        words += ["--executor", executor]
    if address is not None:
        words += ["--address", shlex.quote(address)]
    if sandbox is not None:
        words += ["--sandbox", sandbox]
    return " ".join(words)


def make_runner(
    executor: str = "processes",
    workers: int | None = None,
    address: str | None = None,
    *,
    watch: Watch | None = None,
) -> Runner:
    """The runner for ``executor``: ``processes`` (a process pool of ``workers``, all
    cores by default) or ``dask`` (the Dask scheduler at ``address``, or a local
    cluster of ``workers`` processes when no address is given; ``watch`` is told what
    changes in its workers, see :class:`~c8league.runner.dask_executor.DaskRunner`).
    ``workers`` far above this machine's cores is refused (see :func:`check_workers`);
    a batch never starts more workers than it has matches."""
    if executor == "processes":
        if address is not None:
            raise UsageError(
                "a scheduler address needs the dask executor (`executor` dask)",
                params=["executor"],
            )
        check_workers(workers)
        return MatchRunner(workers)
    if executor == "dask":
        if address is not None and workers is not None:
            raise UsageError(
                "`workers` sets the size of a local Dask cluster; with `address`, "
                "the cluster's own workers play",
                params=["workers", "address"],
            )
        check_workers(workers)
        return DaskRunner(address, workers, watch=watch)
    raise UsageError(f"unknown executor {executor!r}; executors: {', '.join(EXECUTORS)}")
