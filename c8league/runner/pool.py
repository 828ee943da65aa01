"""Executors: play match tasks on worker processes watched from this one.

Results are delivered in task order, whatever order the workers finish in, so the
database (and the ratings, which depend on order) end up the same with any number of
workers. The workers (``runner.worker``) live as long as the :class:`MatchRunner`, so
an event of many rounds starts them once; there are never more of them than tasks in
a batch, nor more than :data:`~c8league.runner.executors.MAX_WORKERS_PER_CORE` per core.

No player can take the run down. A match whose worker dies (``os._exit``, a crash in
native code, the out-of-memory killer, a ``kill``) is played again alone in a fresh
process: if it plays through, its result stands (the death was not the match's doing);
if that process dies too, the slot shared with it says which seat was being called, at
which call, and the match is replayed once more to just before that call, where that
seat forfeits with ``crash``. A worker still inside a player's call past the match
limit (plus a grace period) is killed from outside, and the match is replayed to that
call, where the seat forfeits with ``timeout``, exactly as the in-process timer would
have made it. Matches are deterministic, so these results are the same with any
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

from c8league.runner import tasks as _tasks
from c8league.runner.executors import ClosingRunner, default_workers
from c8league.runner.loop import Forfeit, Stop
from c8league.runner.starting import BotStart, start_bots
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
    POLL_SECONDS,
    Snapshot,
    Worker,
    can_fork,
    fork_worker,
    overrun,
    play_match_job,
    supervise,
)
from c8league.runner.worker import Result as WorkerResult

PREFETCH = 2
"""Tasks queued on each worker, so that it starts the next as soon as one ends."""
WINDOW_PER_WORKER = 16
"""How far past the oldest report not yet handed back tasks are sent, per worker: a
long match then holds up its neighbours' workers only after this many quick ones."""


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

    def start(self, bots: Sequence[BotStart], seconds: float | None = None) -> str | None:
        """Start every bot once on each worker of the pool (starting the workers), before
        the first match (see ``runner.starting``): why one cannot start, in one line, or
        None. ``seconds`` limits each worker's starts (a factory that hangs)."""
        if not bots:
            return None
        if not self.isolated:
            return start_bots(bots)
        while len(self._pool) < self.workers:
            worker = self._spawn()
            self._pool.append(worker)
            self._jobs[worker] = deque()
        sent = []
        for worker in self._pool:
            key = next(self._keys)
            worker.send((key, tuple(bots), None, start_bots))
            sent.append((worker, key))
        problem: str | None = None
        for worker, key in sent:
            result = supervise(worker, key, seconds)
            if result.kind == "done":
                problem = problem or result.value
                continue
            self._pool.remove(worker)
            del self._jobs[worker]
            if result.kind == "died":  # perhaps not the bots' doing: once more, alone
                result = self._start_alone(bots, seconds)
                if result.kind == "done":
                    problem = problem or result.value
                    continue
            names = ", ".join(bot.label for bot in bots)
            if result.kind == "failed":
                last = str(result.value).strip().splitlines()[-1:] or ["?"]
                problem = problem or f"starting {names} failed: {last[0]}"
            elif result.kind == "hung":
                problem = problem or f"starting {names} took more than {seconds:g} s"
            else:
                problem = problem or f"the process starting {names} {result.how}, twice"
        return problem

    def _start_alone(self, bots: Sequence[BotStart], seconds: float | None) -> WorkerResult:
        """Start ``bots`` in a fresh worker of its own, which exits after."""
        worker = self._spawn()
        key = next(self._keys)
        worker.send((key, tuple(bots), None, start_bots))
        worker.send(None)
        result = supervise(worker, key, seconds)
        if result.kind == "done":
            worker.stop()
        return result

    def run(self, tasks: Sequence[MatchTask]) -> Iterator[MatchReport]:
        """Play ``tasks`` and yield their reports in the order of ``tasks``."""
        if not tasks:
            return
        if not self.isolated:
            for task in tasks:
                yield play_task(task)
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
        workers = {w.conn: w for w in [*self._pool, *self._single]}
        if not workers:  # cannot happen: every task waiting is held by a worker
            raise RuntimeError("no worker process is playing the matches still waiting")
        deadline = self._deadline()
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        for conn in wait(list(workers), timeout):
            worker = workers[conn]  # type: ignore[index]
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
        snapshot = worker.snapshot()
        if not worker.reap(5.0):
            worker.kill()
        if worker in self._single:
            job = self._single.pop(worker)
            if job.reported is None:
                self._failed(job, snapshot, worker.how(), hung=False)
            return
        if worker not in self._pool:
            return
        self._pool.remove(worker)
        for job in self._jobs.pop(worker):
            if job.reported is not None:
                continue  # its result is out: the worker died closing the players
            if snapshot.job == job.key and snapshot.phase != IDLE:
                job.stage = "replay"
                self._alone(job)  # the death may not be the match's doing: play it again
            else:
                job.run.retry.append(job.index)

    def _hung(self, worker: Worker, job: _Job) -> None:
        snapshot = worker.snapshot()
        worker.kill()
        if worker in self._single:
            del self._single[worker]
        else:
            self._pool.remove(worker)
            for other in self._jobs.pop(worker):
                if other is not job and other.reported is None:
                    other.run.retry.append(other.index)
        if job.reported is None:
            self._failed(job, snapshot, "", hung=True)

    def _failed(self, job: _Job, snapshot: Snapshot, how: str, *, hung: bool) -> None:
        """A job's process died (``how``) or hung, twice for a death: find its result."""
        task, run = job.task, job.run
        if job.stage == "rebuild":
            self._accept_fallback(job)
            return
        limit = task.match_seconds or 0.0
        if snapshot.phase == STARTING and 0 <= snapshot.turn < len(task.seats):
            plugin = task.seats[snapshot.turn].plugin
            what = f"did not finish starting within {limit:g} s" if hung else f"{how} starting"
            self._error(job, f"player {plugin!r} {what}")
            return
        if not snapshot.busy and (hung or snapshot.calls == 0):
            what = f"did not end within its limit of {limit:g} s" if hung else how
            self._error(job, f"the process playing it {what} while no player was being called")
            return
        seat = snapshot.seat
        prefix = "" if snapshot.call_name == "choose" else f"{snapshot.call_name}: "
        if hung:
            stop = Stop(snapshot.calls, seat, "timeout")
            detail = f"{prefix}still running when the match passed its limit of {limit:g} s"
            fallback = Forfeit(seat, "timeout", snapshot.move, detail)
        else:
            when = "during its turn" if snapshot.busy else "just after its turn"
            detail = (
                f"{prefix}the process playing the match {how} {when}, "
                "and again when the match was played alone"
            )
            stop = Stop(snapshot.calls, seat, "crash", detail)
            fallback = Forfeit(seat, "crash", snapshot.move, detail)
        rebuild = _Job(next(self._keys), run, job.index, "rebuild", stop, fallback)
        self._alone(rebuild)

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
        late, end = overrun(worker.slot, job.task.match_seconds, now)
        return (job if late else None), end

    def _deadline(self) -> float | None:
        now = time.monotonic()
        times = [self._overdue(w, now)[1] for w in [*self._pool, *self._single]]
        return min((t for t in times if t is not None), default=None)

    def _check_deadlines(self) -> None:
        now = time.monotonic()
        for worker in [*self._pool, *self._single]:
            job, _ = self._overdue(worker, now)
            if job is not None:
                self._hung(worker, job)

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


def run_tasks(tasks: Sequence[MatchTask], workers: int | None = None) -> Iterator[MatchReport]:
    """Play ``tasks`` on a runner of its own and yield the reports in task order."""
    with MatchRunner(workers) as runner:
        yield from runner.run(tasks)
