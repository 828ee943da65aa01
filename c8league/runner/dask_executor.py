"""Playing match tasks on a Dask cluster, and choosing an executor.

:class:`DaskRunner` sends each match to a Dask worker and yields the reports in task
order, exactly as :class:`~c8league.runner.pool.MatchRunner` does, so an event gives
the same results on a laptop and on a cluster: the workers only play, and the one
process that runs the event writes every result. A bounded window of matches is in
flight at a time, sent in batches when matches are fast, each batch to a worker this
runner chooses, as the process pool chooses (see :class:`_Flight`). A match whose
worker dies is played again on another worker (Dask reschedules it; after repeated
deaths it is submitted afresh), and each match's report is taken once, so nothing is
lost or counted twice. What changes in the workers (one lost, one joined, none at all
for a while) is told as it happens to the runner's ``watch``. On each worker the
matches are played in a process of their own, watched as the process pool watches its
workers (``runner.pool``): a player that ends its process or hangs forfeits there with
the same result as on the process pool, and the Dask worker never notices.

Workers need c8league and every player plugin of the event installed; before playing,
the runner asks each connected worker, and a missing or different plugin is an error
that names it and the worker. Dask is an optional dependency
(``pip install 'c8league[dask]'``), imported only when a :class:`DaskRunner` connects.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import pickle
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from c8league.errors import C8LeagueError, ExecutorLost, PluginError, UsageError
from c8league.players import registry
from c8league.results import MatchReport
from c8league.runner.base import (
    ClosingRunner,
    ClusterEvent,
    NoWorkers,
    Watch,
    WorkerJoined,
    WorkerLost,
    default_workers,
)
from c8league.runner.pool import TOGETHER_CHUNKS, MatchRunner
from c8league.runner.starting import BotStart, Started
from c8league.runner.tasks import MatchTask, play_task
from c8league.runner.worker import exec_worker

RETRIES = 3
"""How often a match is played again after an error or after killing its workers."""
CONNECT_SECONDS = 20.0
NO_WORKERS_SECONDS = 10.0
"""How long the cluster may have no worker at all before the run says it waits for one
(:class:`~c8league.runner.base.NoWorkers`); it waits until one joins, or it is stopped."""
NO_WORKERS_AGAIN_SECONDS = 30.0
"""How often a run that waits for a worker says so again."""
POLL_SECONDS = 2.0
BATCH_SECONDS = 1.0
"""Matches are sent to a worker in batches of about this much play time: a batch costs
the cluster a few milliseconds (tens on a busy machine) however many matches it holds."""
MIN_BATCH_SECONDS = 0.1
"""The least play time of a batch (when the matches left are shared out)."""
MAX_BATCH = 512
TRUSTED_PACE = 8
"""Matches measured before a batch may exceed its share of the matches left to reach
:data:`MIN_BATCH_SECONDS`: the first match played may be far faster than the rest (two
random bots, where the others are Monte Carlo ones), and all the matches left would
then go to one worker."""
QUEUED_PER_THREAD = 2
"""Batches placed on a worker per thread: one playing, the next waiting there."""
WINDOW_PER_THREAD = 4
"""Batches sent and not yet handed back per worker thread (at least 4 in all): those
placed, and those played while an older one is still being played."""
START_SECONDS = 600.0
"""How long starting the players may take on a worker."""
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
    "distributed.worker.memory.monitor-interval": "500ms",
    "distributed.admin.system-monitor.interval": "2s",
}
"""Dask settings of the local cluster: Dask's statistical profiler (every thread's
stack every 10 ms, for the dashboard's profile page) is off, and its watch of each event
loop (every 20 ms), of each worker's memory (every 100 ms) and of the system (every
500 ms) are less frequent. An idle worker's process then uses about 4 ms of CPU a second
instead of 30-35, the process with the scheduler 11 instead of 35-55 (measured on 2
workers), which is CPU taken from the matches. Workers started by hand take the same
settings from the environment (docs/scaling.md)."""

Play = Callable[[MatchTask], MatchReport]


def local_cluster(workers: int) -> Any:
    """A Dask cluster of ``workers`` single-threaded workers on this machine, with the
    :data:`QUIET` settings (Dask must be installed). Where each Dask worker thread plays
    its matches in a process of its own (POSIX, see :func:`_sandbox`), the workers are
    threads of this process, beside the scheduler: a worker process would only pass the
    matches on, for its own CPU time (a duel of 2,000 games on 2 workers: 0.94 of the
    process pool's games/s against 0.90 with worker processes, medians of 14 rounds in
    one run). Elsewhere they are processes."""
    distributed = _distributed()
    where: dict[str, Any] = (
        {"processes": False, "memory_limit": 0}  # (the matches' processes have their own)
        if os.name == "posix"
        else {"processes": True, "host": "127.0.0.1"}
    )
    with importlib.import_module("dask.config").set(QUIET):
        return distributed.LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
            **where,
        )


def close_cluster(cluster: Any) -> None:
    """Close a cluster of :func:`local_cluster`, and the processes that play its worker
    threads' matches (stopped if they are playing)."""
    _retire(cluster.scheduler_info.get("workers", {}))
    cluster.close()


class DaskRunner(ClosingRunner):
    """Plays batches of match tasks on a Dask cluster and yields reports in task order.

    ``address`` is a running scheduler (``tcp://host:8786``); without one, a local
    cluster of ``workers`` single-threaded workers (default: all cores; see
    :func:`local_cluster`) is started on the first batch and closed with the runner.

    Consecutive matches go to a worker together, as many as take about
    :data:`BATCH_SECONDS` (measured on the matches played so far; ``batch`` fixes the
    number), so that fast matches do not pay the cluster's per-task cost each; each
    worker holds :data:`QUEUED_PER_THREAD` batches per thread, and at most ``window``
    batches (default: :data:`WINDOW_PER_THREAD` per worker thread) are sent and not yet
    handed back. ``play`` is what a worker runs for each task
    (:func:`~c8league.runner.tasks.play_task` by default).

    ``watch`` is told what changes in the cluster's workers while the runner plays or
    waits: a worker that joins or is lost (with the matches it held, played again
    elsewhere), and a cluster without a worker (after :data:`NO_WORKERS_SECONDS`, then
    every :data:`NO_WORKERS_AGAIN_SECONDS` while the run waits for one).
    """

    def __init__(
        self,
        address: str | None = None,
        workers: int | None = None,
        *,
        retries: int = RETRIES,
        window: int | None = None,
        batch: int | None = None,
        play: Play = play_task,
        connect_seconds: float = CONNECT_SECONDS,
        watch: Watch | None = None,
    ) -> None:
        self.address = address
        self.watch = watch
        self.workers = workers
        self.retries = max(0, retries)
        self.window = window
        self.batch = batch
        self.play = play
        self.connect_seconds = connect_seconds
        self._client: Any = None
        self._cluster: Any = None
        self._checked: set[str] = set()
        self._pace: deque[float] = deque(maxlen=256)
        """The play time of the last matches reported, over runs."""
        self._together = 1
        """Up to how many matches a worker thread plays at once, as its bots' start said."""
        self._logs: list[tuple[logging.Logger, int]] = []
        self._known: set[str] | None = None
        """The workers the scheduler named when last asked (None: not asked yet)."""
        self._changed = threading.Event()
        """Set (by Dask's thread for events) when a worker joins or leaves the cluster."""
        self._woken: threading.Event | None = None
        """Set too then: what the run in progress waits on."""
        self._held: dict[str, set[str]] = {}
        """The batches (their keys) each worker that left held, as the scheduler said."""
        self._held_lock = threading.Lock()
        self._idle_since: float | None = None
        """Since when the cluster has had no worker, as last asked."""
        self._idle_told: float | None = None

    @property
    def where(self) -> str:
        """The cluster in words, for messages."""
        if self.address is not None:
            return f"the Dask scheduler at {self.address}"
        return "the local Dask cluster"

    def connect(self, matches: int | None = None) -> Any:
        """The client, connecting (or starting the local cluster, of no more workers than
        ``matches``) on first use."""
        if self._client is not None:
            return self._client
        dask = _distributed()
        if self.address is None:
            count = default_workers() if self.workers is None else max(1, self.workers)
            count = count if matches is None else max(1, min(count, matches))
            self._cluster = local_cluster(count)
            self._client = dask.Client(self._cluster, set_as_default=False)
            self._client.subscribe_topic("all", self._cluster_event)
            return self._client
        try:
            self._client = dask.Client(
                self.address, timeout=self.connect_seconds, set_as_default=False
            )
        except (OSError, ValueError, TypeError) as exc:
            raise UsageError(f"cannot reach the Dask scheduler at {self.address}: {exc}") from None
        self._logs = _quiet_logs()  # a lost scheduler is said in one line, not logged too
        self._client.subscribe_topic("all", self._cluster_event)
        return self._client

    def _cluster_event(self, event: tuple[float, Any]) -> None:
        """A worker joined or left (Dask's thread for events): the run looks at once,
        the batches the worker held kept to say how many matches are played again."""
        _, message = event
        if not isinstance(message, dict):
            return
        action = message.get("action")
        if action == "remove-worker":
            keys = [*message.get("processing-tasks", ()), *message.get("lost-computed-tasks", ())]
            with self._held_lock:
                self._held.setdefault(str(message.get("worker")), set()).update(map(str, keys))
        elif action != "add-worker":
            return
        self._changed.set()
        woken = self._woken
        if woken is not None:
            woken.set()

    def prepare(self) -> None:
        """Connect to the scheduler (or start the local cluster) now."""
        self.connect()

    def start(self, bots: Sequence[BotStart], seconds: float | None = None) -> str | None:
        """Start every bot once on each Dask worker, in the process of its own that plays
        its matches (see ``runner.starting``): why one cannot start, in one line, or
        None. The workers are first asked for the bots' plugins."""
        if not bots:
            return None
        client = self.connect()
        with self._watching():
            self._check_plugins(client, sorted({bot.seat.plugin for bot in bots}))
            futures = [
                client.submit(
                    _start_on_worker,
                    list(bots),
                    key=f"c8league-start-{uuid.uuid4().hex[:12]}",
                    workers=[address],
                    allow_other_workers=False,
                    pure=False,
                )
                for address in sorted(client.nthreads())
            ]
            started: list[Started] = client.gather(futures)
        self._together = max([self._together, *(s.together for s in started)])
        return next((s.problem for s in started if s.problem is not None), None)

    def close(self) -> None:
        client, cluster = self._client, self._cluster
        self._client = self._cluster = None
        try:
            if client is not None:
                with contextlib.suppress(OSError, _distributed().TimeoutError):
                    client.close()
            if cluster is not None:
                close_cluster(cluster)
        finally:
            for logger, level in self._logs:
                logger.setLevel(level)
            self._logs = []

    def run(self, tasks: Sequence[MatchTask]) -> Iterator[MatchReport]:
        """Play ``tasks`` on the cluster and yield their reports in the order of ``tasks``."""
        if not tasks:
            return
        client = self.connect(len(tasks))
        with self._watching():
            self._check_workers(client, tasks)
            flight = _Flight(self, client, tasks, self._wait_for_workers(client))
        try:
            while flight.pending or flight.submitted < len(tasks):
                with self._watching():
                    reports = flight.next_batch()
                yield from reports
        finally:
            self._woken = None
            if flight.pending:
                with contextlib.suppress(Exception):
                    client.cancel([batch.future for batch in flight.pending])

    @contextlib.contextmanager
    def _watching(self) -> Iterator[None]:
        """Turn the loss of the scheduler, whatever Dask raises for it, into one line."""
        try:
            yield
        except TimeoutError:  # (an OSError too)
            raise ExecutorLost(f"lost {self.where}: it stopped answering") from None
        except OSError:
            raise ExecutorLost(f"lost {self.where}: the connection to it closed") from None

    # -- one batch of matches -------------------------------------------------------------

    def _submit(self, client: Any, chunk: Sequence[MatchTask], worker: str | None) -> Any:
        """Send ``chunk`` to ``worker`` (or where the scheduler likes): if the worker is
        gone before playing it, another plays it."""
        first, last = chunk[0].match_id, chunk[-1].match_id
        return client.submit(
            _play_on_worker,
            self.play,
            _pack(list(chunk)),
            key=f"c8league-matches-{first}-{last}-{uuid.uuid4().hex[:12]}",
            pure=False,
            retries=self.retries,
            workers=None if worker is None else [worker],
            allow_other_workers=True,
        )

    # -- before playing -------------------------------------------------------------------

    def _wait_for_workers(self, client: Any) -> dict[str, int]:
        """The cluster's workers and their threads, once it has any (waiting, and saying
        so, while it has none)."""
        while True:
            workers = self._look(client)
            if workers:
                return workers
            time.sleep(0.2)

    def _look(self, client: Any, pending: Iterable[_Batch] = ()) -> dict[str, int]:
        """The cluster's workers and their threads, as the scheduler says now; the watch
        told of the workers lost (with the matches of ``pending`` they held) or joined
        since the last look, and of a cluster without a worker for a while."""
        self._changed.clear()
        workers = _workers(client)
        now = time.monotonic()
        with self._held_lock:
            said, self._held = self._held, {}
        if self._known is not None:
            # A worker restarted at the same address (its port fixed) between two looks
            # is seen in the scheduler's word only: lost, then joined again.
            back = said.keys() & self._known & workers.keys()
            for worker in sorted((self._known - workers.keys()) | back):
                # The batches the scheduler said the worker held; else those sent to it
                # and not yet played.
                keys = said.get(worker)
                mine = [
                    batch
                    for batch in pending
                    if batch.reports is None
                    and (batch.worker == worker if keys is None else batch.future.key in keys)
                ]
                for batch in mine:
                    if batch.worker == worker:
                        batch.worker = None
                self._tell(WorkerLost(worker, sum(len(batch.tasks) for batch in mine)))
            for worker in sorted((workers.keys() - self._known) | back):
                self._tell(WorkerJoined(worker))
        self._known = set(workers)
        if workers:
            self._idle_since = self._idle_told = None
        elif self._idle_since is None:
            self._idle_since = now
        elif now - self._idle_since >= NO_WORKERS_SECONDS and (
            self._idle_told is None or now - self._idle_told >= NO_WORKERS_AGAIN_SECONDS
        ):
            self._idle_told = now
            self._tell(NoWorkers(self.address, now - self._idle_since))
        return workers

    def _tell(self, event: ClusterEvent) -> None:
        if self.watch is not None:
            self.watch(event)

    def _check_workers(self, client: Any, tasks: Sequence[MatchTask]) -> None:
        """Ask every connected worker for the event's plugins: a missing one, or one of
        another version than here (its matches could differ), stops the run before any
        match is played."""
        self._check_plugins(client, sorted({seat.plugin for task in tasks for seat in task.seats}))

    def _check_plugins(self, client: Any, wanted: Sequence[str]) -> None:
        names = sorted(set(wanted) - self._checked)
        if not names:
            return
        self._wait_for_workers(client)
        try:
            found: dict[str, dict[str, tuple[str | None, str | None]]] = client.run(
                _worker_plugins, names
            )
        except OSError:
            raise  # the scheduler is gone (see _watching)
        except Exception as exc:
            detail = str(exc) if type(exc) is Exception else f"{type(exc).__name__}: {exc}"
            raise PluginError(
                f"c8league cannot run on the workers of {self.where}: {detail}; "
                "install c8league and the player plugins on every worker"
            ) from None
        here = _local_versions(names)
        for worker, plugins in sorted(found.items()):
            mine, theirs = here.get("c8league"), plugins.get("c8league", (None, None))[0]
            if mine and theirs and mine != theirs:
                raise PluginError(
                    f"Dask worker {worker} has c8league {theirs}, this machine {mine}: "
                    "install the same version everywhere"
                )
            for name in names:
                version, error = plugins[name]
                if error is not None:
                    raise PluginError(
                        f"player plugin {name!r} is not usable on Dask worker {worker}: "
                        f"{error}; install it on every worker"
                    )
                if name in here and version != here[name]:
                    raise PluginError(
                        f"player plugin {name!r} is version {version} on Dask worker {worker} "
                        f"but {here[name]} here: install the same version everywhere"
                    )
        self._checked.update(names)


@dataclass(eq=False)
class _Batch:
    """Consecutive tasks sent to a Dask worker as one task of the cluster."""

    tasks: Sequence[MatchTask]
    future: Any
    worker: str | None
    """Where it was sent (it may be played elsewhere if that worker goes)."""
    attempts: int = 0
    """How often it was submitted again after killing its workers."""
    reports: list[MatchReport] | None = None
    """Its reports, once it is done."""


class _Flight:
    """The batches of one :meth:`DaskRunner.run` on their way, placed as the process
    pool places its chunks: each worker holds :data:`QUEUED_PER_THREAD` batches per
    thread (one before any match is measured), one playing and the next waiting
    there, so that it goes on at once without asking the scheduler, and the last ones
    go to whichever worker frees up first. Left to the scheduler, a batch could wait
    behind another on a busy worker while another worker idles, until the scheduler
    moves it (work stealing, once a second at best). A batch goes to a worker the
    run chose, but any other may play it if that one leaves the cluster."""

    def __init__(
        self,
        runner: DaskRunner,
        client: Any,
        tasks: Sequence[MatchTask],
        workers: dict[str, int],
    ) -> None:
        self.runner, self.client, self.tasks = runner, client, tasks
        self.pending: deque[_Batch] = deque()
        """Batches sent and not yet handed back, in task order."""
        self.submitted = 0
        self.workers = workers
        """Each worker's threads, as the scheduler last said."""
        self.looked = time.monotonic()
        self.woken = threading.Event()
        """Set when a batch is done (by Dask's thread for callbacks), or a worker joins or
        leaves the cluster."""
        runner._woken = self.woken

    def look(self) -> None:
        """Ask the scheduler for its workers again (joined, or lost): while it has none,
        the run waits for one."""
        self.workers = self.runner._look(self.client, self.pending)
        self.looked = time.monotonic()

    @property
    def threads(self) -> int:
        return sum(self.workers.values())

    def next_batch(self) -> list[MatchReport]:
        """The reports of the oldest batch, sending more while waiting for it."""
        while True:
            self.woken.clear()  # (before looking at the batches: no batch's end is missed)
            if self.runner._changed.is_set() or time.monotonic() - self.looked > POLL_SECONDS:
                self.look()
            self.collect()
            self.fill()
            if not self.pending:  # no worker to send the next batch to
                time.sleep(0.2)
                self.look()
                continue
            head = self.pending[0]
            if head.reports is None and head.future.done():  # (failed, or lost)
                head.reports = self.result(head)
            if head.reports is not None:
                self.pending.popleft()
                return head.reports
            if not self.woken.wait(POLL_SECONDS):
                self.look()

    def collect(self) -> None:
        """Take the reports of every batch played, whatever its place in the order: the
        pace of the matches is then known from the first one played. (A batch that
        failed is left to its turn: what went wrong is said in the order of the tasks.)"""
        for batch in self.pending:
            if batch.reports is None and batch.future.status == "finished":
                batch.reports = self.result(batch)

    def fill(self) -> None:
        """Send batches to the workers that want one, within the window."""
        runner = self.runner
        threads = max(self.threads, 1)
        window = runner.window or max(WINDOW_PER_THREAD * threads, 4)
        while self.submitted < len(self.tasks) and len(self.pending) < window:
            worker = self.place()
            if worker is None:
                return
            size = runner.batch or _batch_size(
                runner._pace, len(self.tasks) - self.submitted, threads, runner._together
            )
            chunk = self.tasks[self.submitted : self.submitted + size]
            self.pending.append(_Batch(chunk, self.submit(chunk, worker), worker))
            self.submitted += len(chunk)

    def submit(self, chunk: Sequence[MatchTask], worker: str | None) -> Any:
        future = self.runner._submit(self.client, chunk, worker)
        future.add_done_callback(self.done)
        return future

    def done(self, _future: Any) -> None:
        self.woken.set()

    def place(self) -> str | None:
        """The worker with the fewest batches placed per thread, if it wants another."""
        if not self.workers:
            return None
        placed: dict[str, int] = dict.fromkeys(self.workers, 0)
        for batch in self.pending:
            if batch.worker in placed and not batch.future.done():
                placed[batch.worker] += 1
        worker = min(placed, key=lambda w: (placed[w] / self.workers[w], w))
        per_thread = QUEUED_PER_THREAD if self.runner._pace else 1
        return worker if placed[worker] < per_thread * self.workers[worker] else None

    def result(self, batch: _Batch) -> list[MatchReport] | None:
        """The reports of ``batch`` (done), their play times kept for the pace; or None
        if it was sent again."""
        dask = _distributed()
        try:
            reports: list[MatchReport] = pickle.loads(batch.future.result())
            self.runner._pace.extend(r.seconds for r in reports if r.error is None)
            return reports
        except dask.KilledWorker as exc:
            batch.attempts += 1
            if batch.attempts > self.runner.retries:
                raise C8LeagueError(
                    f"match {batch.tasks[0].match_id} killed every Dask worker that played it "
                    f"({exc}); the matches before it are stored"
                ) from None
            batch.worker = self.place()
            batch.future = self.submit(batch.tasks, batch.worker)
            return None
        except dask.CancelledError:
            raise ExecutorLost(
                f"match {batch.tasks[0].match_id} was cancelled by {self.runner.where} (was "
                "the scheduler stopped or restarted?)"
            ) from None


def _distributed() -> Any:
    """The ``distributed`` package, imported on first use (its API is not fully typed)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError("the dask executor needs Dask: pip install 'c8league[dask]'") from None


def _quiet_logs() -> list[tuple[logging.Logger, int]]:
    """Keep Dask's client from logging that it lost the scheduler (the run says so in
    one line); the loggers and their levels before."""
    changed = []
    for name in ("distributed", "distributed.client", "distributed.core", "distributed.comm"):
        logger = logging.getLogger(name)
        changed.append((logger, logger.level))
        logger.setLevel(logging.CRITICAL)
    return changed


def _batch_size(pace: Sequence[float], remaining: int, threads: int, together: int = 1) -> int:
    """Matches in the next batch: about :data:`BATCH_SECONDS` of play at the ``pace`` of
    the last matches (one before any was played), and few enough that every worker
    thread still gets a share of the ``remaining`` matches, but never fewer than about
    :data:`MIN_BATCH_SECONDS` of play once :data:`TRUSTED_PACE` matches are measured
    (the last batches would cost the cluster more than their matches take). Before any
    was played, where a thread's bots play ``together`` matches at once (they said so
    when they started), three times as many as that, as far as the share allows: one
    match alone would be played a request at a time."""
    share = -(-remaining // (2 * max(threads, 1)))
    if not pace:
        return 1 if together <= 1 else max(1, min(TOGETHER_CHUNKS * together, share))
    seconds = sum(pace) / len(pace)
    if seconds <= 0:
        return MAX_BATCH
    least = int(MIN_BATCH_SECONDS / seconds) if len(pace) >= TRUSTED_PACE else 0
    size = min(int(BATCH_SECONDS / seconds), max(share, least))
    return max(1, min(size, MAX_BATCH))


def _workers(client: Any) -> dict[str, int]:
    """Each worker of the cluster (its address) and its threads, as the scheduler says."""
    return {str(w): int(n) for w, n in client.nthreads().items() if int(n) > 0}


def _local_versions(names: Sequence[str]) -> dict[str, str]:
    """Versions of c8league and of the installed (not registered in-process) plugins."""
    versions: dict[str, str] = {}
    with contextlib.suppress(metadata.PackageNotFoundError):
        versions["c8league"] = metadata.version("c8league")
    for name in names:
        try:
            info = registry.get(name)
        except PluginError:
            continue
        if info.distribution != "(registered)":
            versions[name] = info.version
    return versions


# -- run on the workers ---------------------------------------------------------------------


def _pack(value: Any) -> bytes:
    """A batch's tasks or reports as one pickle: Dask would pickle a list's items one by
    one, with its bookkeeping for each (370 reports of a duel: 2.0 ms to pickle, 5.1 to
    unpickle, against 1.4 and 1.6 for one pickle of the list)."""
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _play_on_worker(play: Play, packed: bytes) -> bytes:
    """Play the tasks ``packed`` (see :func:`_pack`): their reports, packed."""
    tasks: list[MatchTask] = pickle.loads(packed)
    # In a watched process; a custom play (simulated matches in benchmarks) is trusted.
    if play is play_task:
        with _sandbox() as sandbox:
            reports = list(sandbox.run(tasks))
    else:
        reports = [play(task) for task in tasks]
    if any(report.error is not None for report in reports):
        worker = _distributed().get_worker().address
        reports = [
            r if r.error is None else r.failed(r.match_id, f"{r.error} (on Dask worker {worker})")
            for r in reports
        ]
    return _pack(reports)


_sandboxes: dict[tuple[str, int], MatchRunner] = {}
"""The runner of each Dask worker thread of this process, by (worker, thread)."""
_busy: set[tuple[str, int]] = set()
_retired: set[str] = set()
"""Workers of a closed cluster of this process: their runners close when done."""
_sandboxes_lock = threading.Lock()


@contextlib.contextmanager
def _sandbox() -> Iterator[MatchRunner]:
    """The runner of this Dask worker thread, while in use: one worker process, a fresh
    interpreter (a fork of a Dask worker, with its threads, could inherit a lock held for
    good). Not on Windows, where a new process cannot be handed the worker's pipe and
    shared memory: there the matches are played in the Dask worker itself. A batch goes
    to that process in chunks as long as a batch may be (the process pool's are a tenth
    of a second): each chunk wakes the Dask worker, whose event loop shares its processor
    time with the matches; fewer chunks gave the Dask duel 4-5% more games a second
    here."""
    key = (_distributed().get_worker().address, threading.get_ident())
    with _sandboxes_lock:
        runner = _sandboxes.get(key)
        if runner is None:
            spawn = exec_worker if os.name == "posix" else None
            runner = MatchRunner(1, spawn=spawn, chunks=(BATCH_SECONDS, MAX_BATCH))
            _sandboxes[key] = runner
        _busy.add(key)
    try:
        yield runner
    finally:
        with _sandboxes_lock:
            _busy.discard(key)
            done = key[0] in _retired and _sandboxes.pop(key, None) is runner
        if done:
            runner.close()


def _retire(workers: Iterable[str]) -> None:
    """The cluster of these Dask workers is closing: close their runners in this process
    (those of a local cluster's worker threads), or, one playing a batch, stop it
    (``MatchRunner.interrupt``), its thread closing it, so that Dask does not wait for
    the batch to end."""
    retired = set(workers)
    with _sandboxes_lock:
        _retired.update(retired)
        mine = [key for key in _sandboxes if key[0] in retired]
        idle = [_sandboxes.pop(key) for key in mine if key not in _busy]
        busy = [_sandboxes[key] for key in mine if key in _busy]
    for runner in busy:
        runner.interrupt()
    for runner in idle:
        runner.close()


def _start_on_worker(bots: Sequence[BotStart]) -> Started:
    """What came of starting ``bots`` on this worker: why one cannot start, or how many
    matches this worker thread plays at once with them."""
    with _sandbox() as sandbox:
        problem = sandbox.start(bots, START_SECONDS)
        together = sandbox.together
    if problem is None:
        return Started(None, together)
    worker = _distributed().get_worker().address
    return Started(f"{problem} (on Dask worker {worker}, started in {os.getcwd()})")


def _worker_plugins(names: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
    """For each plugin name: (version, None), or (None, why it cannot be used)."""
    found: dict[str, tuple[str | None, str | None]] = {}
    try:
        found["c8league"] = (metadata.version("c8league"), None)
    except metadata.PackageNotFoundError:
        found["c8league"] = (None, None)
    for name in names:
        try:
            info = registry.get(name)
        except PluginError as exc:
            found[name] = (None, str(exc))
        else:
            found[name] = (info.version, None)
    return found
