"""Executors: play match tasks on worker processes watched from this one.

Results are delivered in task order, whatever order the workers finish in, so the
database (and the ratings, which depend on order) end up the same with any number of
workers. The workers (``runner.worker``) live as long as the :class:`MatchRunner`, so
an event of many rounds starts them once; there are never more of them than tasks in
a batch, nor more than :data:`~c8league.runner.executors.MAX_WORKERS_PER_CORE` per core.

No player can take the run down, nor have another seat blamed. A match whose worker
dies (``os._exit``, a crash in native code, the out-of-memory killer, a ``kill``) is
played again alone in a fresh process: if it plays through, its result stands (the
death was not the match's doing). A death is charged by evidence only, read once the
process has exited: the slot shared with it says which seat's call was in progress, at
which call. Only when the match's process dies twice at the same call, with no other
seat's code able to run then (see ``runner.guard``), is that call charged: the match
is replayed once more to just before it, where that seat forfeits with ``crash``.
Deaths at different points, or while no player was being called, are the machine's or
cannot be told: the match is played again, up to :data:`MAX_REPLAYS` times, then it is
an error that stops the run (resumed, it is played again). A worker still inside a
player's call past the match limit (plus a grace period) is killed from outside, and
the match is replayed to that call, where the seat forfeits with ``timeout``, exactly
as the in-process timer would have made it; the limit is on time the worker could
run, and a worker found stopped (``SIGSTOP``) is the machine's doing: its match is
played again. Matches are deterministic, so these results are the same with any
number of workers, on any executor.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import wait
from typing import Any

from c8league.errors import MachineFault
from c8league.runner import tasks as _tasks
from c8league.runner.executors import ClosingRunner, default_workers
from c8league.runner.loop import Forfeit, Stop
from c8league.runner.tasks import (
    IDLE,
    STARTING,
    MatchReport,
    MatchTask,
    error_report,
    forfeit_report,
    play_task,
)
from c8league.runner.worker import (
    CLOSE_SECONDS,
    EXIT_WAIT_SECONDS,
    POLL_SECONDS,
    Snapshot,
    Worker,
    can_fork,
    fork_worker,
    overrun,
    play_match_job,
)

PREFETCH = 2
"""Tasks queued on each worker, so that it starts the next as soon as one ends."""
WINDOW_PER_WORKER = 16
"""How far past the oldest report not yet handed back tasks are sent, per worker: a
long match then holds up its neighbours' workers only after this many quick ones."""
MAX_REPLAYS = 3
"""A match whose process died (or was held up by the machine) is played again alone at
most this many times before it is an error."""


@dataclass(eq=False)
class _Job:
    """One task sent to a worker."""

    key: int
    run: _Run
    index: int
    stage: str = "play"
    """``play`` (a pool worker), ``replay`` (alone, after its worker died), ``rebuild``
    (alone, replayed to the call where it failed, see :class:`~c8league.runner.loop.Stop`)."""
    stop: Stop | None = None
    fallback: Forfeit | None = None
    """For ``rebuild``: the forfeit to record if the replay cannot reach the stop."""
    reported: float | None = None
    """When its report arrived (the worker then closes the players)."""
    deaths: list[tuple[Snapshot, str]] = field(default_factory=list)
    """Where and how its processes died (the evidence), oldest first."""
    held_up: int = 0
    """How often the machine held it up (a process found stopped)."""
    verdict: str = "hung"
    """Why its worker is overdue: ``hung`` (its player's time is out) or ``machine``."""

    @property
    def task(self) -> MatchTask:
        return self.run.tasks[self.index]


@dataclass(eq=False)
class _Run:
    """The state of one call of :meth:`MatchRunner.run`."""

    tasks: Sequence[MatchTask]
    size: int
    window: int
    play: Callable[[MatchTask], MatchReport] | None
    reports: dict[int, MatchReport] = field(default_factory=dict)
    retry: list[int] = field(default_factory=list)
    fresh: int = 0
    yielded: int = 0

    def take(self) -> int | None:
        """The next task to send, if any within the window."""
        if self.retry:
            self.retry.sort()
            if self.retry[0] < self.yielded + self.window:
                return self.retry.pop(0)
        if self.fresh < len(self.tasks) and self.fresh < self.yielded + self.window:
            self.fresh += 1
            return self.fresh - 1
        return None

    def waiting(self) -> bool:
        return bool(self.retry) or self.fresh < len(self.tasks)


class MatchRunner(ClosingRunner):
    """Plays batches of match tasks on ``workers`` processes (default: one per core).

    ``spawn`` starts a worker (default: a fork of this process, see
    :func:`~c8league.runner.worker.fork_worker`). Where processes cannot be forked (not
    POSIX) and no ``spawn`` is given, tasks are played in this process, without the
    protection of the module docstring."""

    def __init__(
        self, workers: int | None = None, *, spawn: Callable[[], Worker] | None = None
    ) -> None:
        self.workers = default_workers() if workers is None else max(1, workers)
        self.isolated = spawn is not None or can_fork()
        self._spawn = spawn or _fork_matches
        self._pool: list[Worker] = []
        self._jobs: dict[Worker, deque[_Job]] = {}
        """The jobs sent to each pool worker, oldest first, until each is done."""
        self._single: dict[Worker, _Job] = {}
        """Workers started for one job."""
        self._keys = itertools.count(1)

    def close(self) -> None:
        for worker in list(self._single):
            worker.kill()
        self._single.clear()
        for worker in self._pool:
            worker.send(None)
        for worker in self._pool:
            worker.stop()
        self._pool.clear()
        self._jobs.clear()

    def run(self, tasks: Sequence[MatchTask]) -> Iterator[MatchReport]:
        """Play ``tasks`` and yield their reports in the order of ``tasks``."""
        if not tasks:
            return
        if not self.isolated:
            for task in tasks:
                yield _play_here(task)
            return
        size = min(self.workers, len(tasks))
        play = None if play_task is _tasks.play_task else play_task  # benchmarks swap it
        run = _Run(tasks, size, max(WINDOW_PER_WORKER * size, 32), play)
        try:
            for index in range(len(tasks)):
                while index not in run.reports:
                    self._dispatch(run)
                    self._step(run)
                run.yielded = index + 1
                yield run.reports.pop(index)
        finally:
            self._abandon(run)

    # -- sending --------------------------------------------------------------------------

    def _dispatch(self, run: _Run) -> None:
        while len(self._pool) < run.size and run.waiting():
            worker = self._spawn()
            self._pool.append(worker)
            self._jobs[worker] = deque()
        for worker in self._pool:
            queue = self._jobs[worker]
            while len(queue) < PREFETCH:
                index = run.take()
                if index is None:
                    return
                job = _Job(next(self._keys), run, index)
                queue.append(job)
                worker.send((job.key, job.task, None, run.play))

    def _alone(self, job: _Job) -> None:
        """Play ``job`` in a process of its own."""
        worker = self._spawn()
        self._single[worker] = job
        worker.send((job.key, job.task, job.stop, job.run.play))
        worker.send(None)

    # -- receiving ------------------------------------------------------------------------

    def _step(self, run: _Run) -> None:
        """Wait for messages, deaths or the next deadline, and handle them."""
        workers: dict[Any, Worker] = {}
        for worker in [*self._pool, *self._single]:
            for waitable in worker.waitables():
                workers[waitable] = worker
        if not workers:  # cannot happen: every task waiting is held by a worker
            raise RuntimeError("no worker process is playing the matches still waiting")
        deadline = self._deadline()
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready = {id(workers[w]): workers[w] for w in wait(list(workers), timeout)}
        for worker in ready.values():
            messages, dead = worker.receive()
            for message in messages:
                self._message(worker, message)
            if dead:
                self._died(worker)
        self._check_deadlines()

    def _job(self, worker: Worker, key: int) -> _Job | None:
        if worker in self._single:
            job = self._single[worker]
            return job if job.key == key else None
        for job in self._jobs.get(worker, ()):
            if job.key == key:
                return job
        return None

    def _message(self, worker: Worker, message: tuple[Any, ...]) -> None:
        kind, key, value = message
        job = self._job(worker, key)
        if job is None:
            return
        if kind == "report":
            job.reported = time.monotonic()
            self._accept(job, value)
            return
        if kind == "replay":  # the machine held it up: play it again
            if worker not in self._single:
                self._jobs[worker].remove(job)
            else:
                del self._single[worker]
            self._again(job, str(value))
            return
        if kind == "failed":
            last = str(value).strip().splitlines()[-1:] or ["?"]
            value = error_report(job.task, f"playing it failed: {last[0]}")
        if value is not None and job.reported is None:
            self._accept(job, value)
        job.reported = job.reported or time.monotonic()
        if worker not in self._single:  # (one alone exits by itself: it was sent None)
            self._jobs[worker].remove(job)

    def _accept(self, job: _Job, report: MatchReport) -> None:
        run = job.run
        if job.stage == "rebuild" and report.error is None:
            assert job.stop is not None and job.fallback is not None
            forfeit = report.forfeit
            if forfeit is None or (forfeit.seat, forfeit.reason) != (
                job.stop.seat,
                job.fallback.reason,
            ):
                report = self._fallback(job)
        if job.index >= run.yielded and job.index not in run.reports:
            run.reports[job.index] = report

    def _fallback(self, job: _Job) -> MatchReport:
        assert job.fallback is not None
        forfeit = job.fallback
        detail = (
            f"{forfeit.detail}; the match could not be replayed to that point, so it counts "
            "as forfeited before its first hand"
        )
        return forfeit_report(
            job.task, Forfeit(forfeit.seat, forfeit.reason, forfeit.move_number, detail)
        )

    # -- faults ---------------------------------------------------------------------------

    def _died(self, worker: Worker) -> None:
        """``worker`` has exited (or, where its exit cannot be watched, closed its pipe):
        charge its job by what its slot says once it is gone."""
        if not worker.reap(EXIT_WAIT_SECONDS):
            worker.kill()
        snapshot, how = worker.snapshot(), worker.how()
        if worker in self._single:
            job = self._single.pop(worker)
            if job.reported is None:
                self._death(job, snapshot, how)
            return
        if worker not in self._pool:
            return
        self._pool.remove(worker)
        for job in self._jobs.pop(worker):
            if job.reported is not None:
                continue  # its result is out: the worker died closing the players
            if snapshot.job == job.key and snapshot.phase != IDLE:
                self._death(job, snapshot, how)  # may not be the match's doing: again
            else:
                job.run.retry.append(job.index)

    def _hung(self, worker: Worker, job: _Job, verdict: str) -> None:
        snapshot = worker.snapshot()
        worker.kill()
        if worker in self._single:
            del self._single[worker]
        else:
            self._pool.remove(worker)
            for other in self._jobs.pop(worker):
                if other is not job and other.reported is None:
                    other.run.retry.append(other.index)
        if job.reported is not None:
            return
        if verdict == "machine":
            self._again(job, "its process was stopped")
        else:
            self._timeout(job, snapshot)

    def _again(self, job: _Job, why: str) -> None:
        """The machine held ``job`` up (``why``): play it again alone, up to
        :data:`MAX_REPLAYS` times."""
        job.held_up += 1
        if job.held_up > MAX_REPLAYS:
            self._error(
                job,
                f"the machine held it up {job.held_up} times ({why}): is something stopping "
                "c8league's processes, or is the machine far too busy?",
            )
            return
        job.stage = "replay" if job.stage != "rebuild" else job.stage
        self._alone(job)

    def _death(self, job: _Job, snapshot: Snapshot, how: str) -> None:
        """A process playing ``job`` died: play it again, or, with the evidence of two
        deaths at the same point, charge the call there."""
        if job.stage == "rebuild":
            self._accept_fallback(job)
            return
        job.deaths.append((snapshot, how))
        if len(job.deaths) >= 2:
            (last, last_how), (first, first_how) = job.deaths[-1], job.deaths[-2]
            if last.same_point(first) and last_how == first_how:
                self._charge(job, last, how)
                return
        if len(job.deaths) > MAX_REPLAYS:
            self._error(
                job,
                f"the process playing it ended {len(job.deaths)} times, at different points "
                f"({'; '.join(sorted({h for _, h in job.deaths}))}), and which player ended "
                "it cannot be told",
            )
            return
        job.stage = "replay"
        self._alone(job)

    def _charge(self, job: _Job, snapshot: Snapshot, how: str) -> None:
        """Two deaths of ``job``'s process at the same point: the call in progress there
        ended it (or, none being in progress, the match cannot be played)."""
        task = job.task
        if snapshot.phase == STARTING and 0 <= snapshot.turn < len(task.seats):
            plugin = task.seats[snapshot.turn].plugin
            self._error(job, f"player {plugin!r} {how} starting")
            return
        if not snapshot.busy:
            self._error(job, f"the process playing it {how} while no player was being called")
            return
        seat = snapshot.seat
        prefix = "" if snapshot.call_name == "choose" else f"{snapshot.call_name}: "
        detail = (
            f"{prefix}the process playing the match {how} during its turn, "
            "and again when the match was played alone"
        )
        stop = Stop(snapshot.calls, seat, "crash", detail)
        fallback = Forfeit(seat, "crash", snapshot.move, detail)
        self._alone(_Job(next(self._keys), job.run, job.index, "rebuild", stop, fallback))

    def _timeout(self, job: _Job, snapshot: Snapshot) -> None:
        """``job``'s process was killed past the match limit: the call in progress then
        forfeits with ``timeout``."""
        task = job.task
        if job.stage == "rebuild":
            self._accept_fallback(job)
            return
        limit = task.match_seconds or 0.0
        if snapshot.phase == STARTING and 0 <= snapshot.turn < len(task.seats):
            plugin = task.seats[snapshot.turn].plugin
            self._error(job, f"player {plugin!r} did not finish starting within {limit:g} s")
            return
        if not snapshot.busy and snapshot.calls == 0:
            self._error(
                job,
                f"the process playing it did not end within its limit of {limit:g} s "
                "while no player was being called",
            )
            return
        seat = snapshot.seat
        prefix = "" if snapshot.call_name == "choose" else f"{snapshot.call_name}: "
        stop = Stop(snapshot.calls, seat, "timeout")
        detail = f"{prefix}still running when the match passed its limit of {limit:g} s"
        fallback = Forfeit(seat, "timeout", snapshot.move, detail)
        self._alone(_Job(next(self._keys), job.run, job.index, "rebuild", stop, fallback))

    def _accept_fallback(self, job: _Job) -> None:
        run = job.run
        if job.index >= run.yielded and job.index not in run.reports:
            run.reports[job.index] = self._fallback(job)

    def _error(self, job: _Job, text: str) -> None:
        run = job.run
        if job.index >= run.yielded and job.index not in run.reports:
            run.reports[job.index] = error_report(job.task, text)

    # -- time -----------------------------------------------------------------------------

    def _current(self, worker: Worker) -> _Job | None:
        jobs = [self._single[worker]] if worker in self._single else self._jobs.get(worker, ())
        for job in jobs:
            if job.reported is not None:
                return job  # closing: the worker runs its jobs in order
            slot = worker.slot
            if slot.job == job.key and slot.phase != IDLE:
                return job
            return None
        return None

    def _overdue(self, worker: Worker, now: float) -> tuple[_Job | None, float | None]:
        """The job ``worker`` is running, if it is overdue (to be killed), else None; and
        when to look again (None: nothing to watch)."""
        job = self._current(worker)
        if job is None:  # idle, or about to start a job sent
            queued = worker in self._single or self._jobs.get(worker)
            return None, (now + POLL_SECONDS if queued else None)
        if job.reported is not None:
            closed = job.reported + CLOSE_SECONDS
            return (job if now > closed else None), closed
        verdict, end = overrun(worker, job.task.match_seconds, now)
        if verdict:
            job.verdict = verdict
        return (job if verdict else None), end

    def _deadline(self) -> float | None:
        now = time.monotonic()
        times = [self._overdue(w, now)[1] for w in [*self._pool, *self._single]]
        return min((t for t in times if t is not None), default=None)

    def _check_deadlines(self) -> None:
        now = time.monotonic()
        for worker in [*self._pool, *self._single]:
            job, _ = self._overdue(worker, now)
            if job is not None:
                self._hung(worker, job, job.verdict)

    def _abandon(self, run: _Run) -> None:
        """The caller stopped taking reports (an error, Ctrl-C): stop the run's matches."""
        for worker in list(self._single):
            if self._single[worker].run is run:
                worker.kill()
                del self._single[worker]
        for worker in list(self._pool):
            jobs = self._jobs[worker]
            if any(job.run is run and job.reported is None for job in jobs):
                worker.kill()
                self._pool.remove(worker)
                del self._jobs[worker]


def _fork_matches() -> Worker:
    return fork_worker(play_match_job)


def _play_here(task: MatchTask) -> MatchReport:
    """Play ``task`` in this process (where none can be forked), again if the machine
    held it up, up to :data:`MAX_REPLAYS` times."""
    for _ in range(MAX_REPLAYS):
        try:
            return play_task(task)
        except MachineFault as exc:
            why = str(exc)
    return error_report(task, f"the machine held it up {MAX_REPLAYS} times ({why})")


def run_tasks(tasks: Sequence[MatchTask], workers: int | None = None) -> Iterator[MatchReport]:
    """Play ``tasks`` on a runner of its own and yield the reports in task order."""
    with MatchRunner(workers) as runner:
        yield from runner.run(tasks)
