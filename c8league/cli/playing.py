"""What the commands that play matches (``event run``, ``duel``) show while they play:
where the matches are played, in words, the sandbox of their bots, and their progress on
stderr."""

from __future__ import annotations

import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

from rich.markup import escape
from rich.progress import Progress, ProgressColumn

from c8league import sandbox
from c8league.cli import state
from c8league.cli.options import Every, Executor, Sandbox
from c8league.cli.output import err
from c8league.interrupts import deferred_interrupts
from c8league.runner.base import (
    ClusterEvent,
    NoWorkers,
    WorkerJoined,
    WorkerLost,
    default_workers,
)
from c8league.sandbox import Mode, Support
from c8league.storage.database import Database, resolve_url, sqlite_path

REDRAW_SECONDS = 0.1
"""The bar is updated at most this often (rich redraws it ten times a second)."""


def where_played(workers: int | None, executor: Executor, address: str | None) -> str:
    """Where the matches are played, in words: ``2 workers``, ``Dask tcp://…``, ``local
    Dask cluster, 2 workers``."""
    count = workers or default_workers()
    where = f"{count} worker{'s' if count != 1 else ''}"
    if executor is Executor.dask:
        where = f"Dask {address}" if address else f"local Dask cluster, {where}"
    return where


def cluster_line(event: ClusterEvent) -> str:
    """What changed in a Dask cluster's workers during a run, in a line."""
    match event:
        case NoWorkers(address=None, seconds=seconds):
            return (
                f"the local Dask cluster has had no workers for {seconds:.0f} s: "
                "waiting for one (Ctrl-C stops)"
            )
        case NoWorkers(address=address, seconds=seconds):
            return (
                f"the Dask scheduler at {address} has had no workers for {seconds:.0f} s: "
                f"waiting for one (start one: dask worker {address}; Ctrl-C stops)"
            )
        case WorkerLost(worker=worker, matches=0):
            return f"worker {worker} lost: it held none of the run's matches"
        case WorkerLost(worker=worker, matches=1):
            return f"worker {worker} lost: its 1 match is played again"
        case WorkerLost(worker=worker, matches=matches):
            return f"worker {worker} lost: its {matches} matches are played again"
        case WorkerJoined(worker=worker):
            return f"worker {worker} joined"


def say_cluster(event: ClusterEvent) -> None:
    """Print, in one line on stderr, what changed in a Dask cluster's workers. A Ctrl-C
    meanwhile waits for the line to be written: raised in the middle of it, the line
    would be written again with the next."""
    with deferred_interrupts():
        err.print(escape(cluster_line(event)), highlight=False)


def sandbox_mode(option: Sandbox | None) -> Mode | None:
    """The run's ``--sandbox`` as the library takes it."""
    return None if option is None else sandbox.check_mode(option.value)


def say_unsandboxed(found: Support) -> None:
    """The one line a run prints when its external bots, which would be sandboxed where
    this machine allowed it, run without one."""
    how = f" ({found.hint})" if found.hint else ""
    err.print(
        f"[yellow]warning:[/] external bots run without a sandbox: {found.problem}{how}; "
        "--sandbox off runs them so without this warning",
        highlight=False,
    )


def hide_from_bots(db: Database | None = None) -> None:
    """Keep the database's files (its journal, copies kept by ``restore``…) out of every
    sandbox this command starts: they are hidden where a bot's folder holds them. The
    database is ``db``, or the one ``--db`` names (opened or not)."""
    path = sqlite_path(db.url if db is not None else resolve_url(state.db_option))
    if path is not None:
        sandbox.hide(path)


class RunProgress:
    """A run's progress on stderr: a bar on a terminal, or in a log (stderr not a
    terminal) a line whenever ``--progress-every`` says one is due; nothing when
    ``quiet``. The bar appears with the first report, so that a run that stops before
    play begins prints only its error; leaving the ``with`` block stops it."""

    def __init__(
        self,
        description: str,
        columns: tuple[ProgressColumn, ...],
        *,
        every: Every,
        quiet: bool = False,
        **fields: Any,
    ) -> None:
        self.every = every
        self.quiet = quiet
        self.lines = not quiet and not err.is_terminal
        self.started = time.monotonic()
        self._bar = Progress(*columns, console=err, transient=False, disable=quiet)
        self._task = self._bar.add_task(description, total=None, **fields)
        self._drawn = 0.0

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar.live.is_started:
            self._bar.stop()

    def pace(self, done: int) -> float:
        """``done`` (games or matches) per second since the run began."""
        seconds = time.monotonic() - self.started
        return done / seconds if seconds > 0 else 0.0

    def report(
        self, done: int, line: Callable[[], str], *, last: bool = False, **update: Any
    ) -> None:
        """``done`` games or matches so far: the bar updated with ``update`` (rich's
        ``completed``, ``total`` and the columns' fields), at most every
        :data:`REDRAW_SECONDS` unless ``last`` (the final figures, drawn where a bar
        shows); in a log, ``line()`` printed when a line
        is due."""
        if self.quiet:
            return
        now = time.monotonic()
        if self.lines:
            if done and not last and self.every.due(done, now):
                err.print(line(), highlight=False)
            return
        if last and not self._bar.live.is_started:
            return  # nothing was shown: no bar for the last figures alone
        if not last and now - self._drawn < REDRAW_SECONDS:
            return
        self._drawn = now
        if not self._bar.live.is_started:
            self._bar.start()
        self._bar.update(self._task, **update)
