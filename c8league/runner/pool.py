"""Executors: play match tasks on worker processes watched from this one.

Results are delivered in task order, whatever order the workers finish in, so the
database (and the ratings, which depend on order) end up the same with any number of
workers. The workers (``runner.worker``) live as long as the :class:`MatchRunner`, so
an event of many rounds starts them once; there are never more of them than tasks in
a batch, nor more than :data:`~c8league.runner.executors.MAX_WORKERS_PER_CORE` per core.
Matches go to the workers in chunks of consecutive tasks, sized to about
:data:`CHUNK_SECONDS` of play, and each chunk's reports come back in one message: the
process that runs the event then wakes once a chunk, not twice a match.

No player can take the run down, nor have another seat blamed. The reports of a chunk
that a worker took down with it are not lost results but matches to play again (they
are deterministic). A match whose worker dies (``os._exit``, a crash in native code,
the out-of-memory killer, a ``kill``) is played again alone in a fresh process: if it
plays through, its result stands (the death was not the match's doing). A death is
charged by evidence only, read once the process has exited: the slot shared with it
says which match of the chunk was being played, which seat's call was in progress, at
which call. Only when the match's process dies twice at the same call, with no other
seat's code able to run then (see ``runner.guard``), is that call charged: the match
is replayed once more to just before it, where that seat forfeits with ``crash``.
Deaths at different points, or while no player was being called, are the machine's or
cannot be told: the match is played again, up to :data:`MAX_REPLAYS` times, then it is
an error that stops the run (resumed, it is played again). A worker whose players left
threads running ends its chunk after that match (the rest are played elsewhere) and
exits. A worker still inside a player's call past the match limit (plus a grace
period) is killed from outside, and the match is replayed to that call, where the seat
forfeits with ``timeout``, exactly as the in-process timer would have made it; the
limit is on time the worker could run, and a worker found stopped (``SIGSTOP``) is the
machine's doing: its match is played again. Matches are deterministic, so these
results are the same with any number of workers, on any executor.
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
from c8league.results import Forfeit, MatchReport
from c8league.runner import tasks as _tasks
from c8league.runner.base import ClosingRunner, default_workers
from c8league.runner.loop import Stop
from c8league.runner.starting import BotStart, Started, ready, start_bots, start_here
from c8league.runner.tasks import (
    CLOSING,
    IDLE,
    STARTING,
    MatchTask,
    forfeit_report,
    play_task,
)
from c8league.runner.worker import (
    CLOSE_SECONDS,
    EXIT_WAIT_SECONDS,
    POLL_SECONDS,
    JobEnd,
    Snapshot,
    Worker,
    can_fork,
    fork_worker,
    overrun,
    play_match_job,
    supervise,
)

PREFETCH = 2
"""Chunks queued on each worker at least, so that it starts the next as soon as one ends."""
QUEUE_SECONDS = 0.5
"""And about this much play time queued on each worker (up to :data:`MAX_QUEUED`
chunks), so that it keeps playing while this process stores a batch of results; but
not once the matches left to send would take the workers less than that: the last
ones then wait here for whichever worker runs out first, so that the workers end
together, whatever their speeds (a lone worker is sent them as before)."""
MAX_QUEUED = 8
CHUNK_SECONDS = 0.1
"""Matches go to a worker in chunks of about this much play time (measured on the
matches played so far), and their reports come back together: fast matches then cost
the process that runs the event one message a chunk, not two a match."""
MAX_CHUNK = 128
TOGETHER_CHUNKS = 3
"""A worker that plays matches at once (``runner.interleave``) gets at least this many
times as many as it plays at once in a chunk: few of them are then played with fewer
beside them, at the chunk's end."""
WINDOW_PER_WORKER = 16
"""How far past the oldest report not yet handed back tasks are sent, per worker (at
least two chunks each): a long match then holds up its neighbours' workers only after
this many quick ones."""
MAX_REPLAYS = 3
"""A match whose process died (or was held up by the machine) is played again alone at
most this many times before it is an error."""


class Interrupted(Exception):
    """A run stopped by :meth:`MatchRunner.interrupt`."""


@dataclass(eq=False)
class _Job:
    """A chunk of consecutive tasks sent to a worker (one task, for a job alone)."""

    key: int
    run: _Run
    indices: tuple[int, ...]
    stage: str = "play"
    """``play`` (a pool worker), ``replay`` (alone, after its worker died), ``rebuild``
    (alone, replayed to the call where it failed, see :class:`~c8league.runner.loop.Stop`)."""
    stop: Stop | None = None
    fallback: Forfeit | None = None
    """For ``rebuild``: the forfeit to record if the replay cannot reach the stop."""
    reported: float | None = None
    """When its reports arrived (the worker then closes the last match's players)."""
    deaths: list[tuple[Snapshot, str]] = field(default_factory=list)
    """For a job of one task: where and how its processes died (the evidence), oldest
    first."""
    held_up: int = 0
    """For a job of one task: how often the machine held it up (a process found
    stopped)."""
    verdict: str = "hung"
    """Why its worker is overdue: ``hung`` (its player's time is out) or ``machine``."""

    @property
    def tasks(self) -> list[MatchTask]:
        return [self.run.tasks[i] for i in self.indices]

    @property
    def task(self) -> MatchTask:
        """The task of a job of one task."""
        return self.run.tasks[self.indices[0]]


@dataclass(eq=False)
class _Run:
    """The state of one call of :meth:`MatchRunner.run`."""

    tasks: list[MatchTask]
    """The tasks to play, in order (more may be added at the end while it runs)."""
    size: int
    play: Callable[[MatchTask], MatchReport] | None
    pace: _Pace
    reports: dict[int, MatchReport] = field(default_factory=dict)
    retry: list[int] = field(default_factory=list)
    fresh: int = 0
    yielded: int = 0
    chunks: tuple[float, int] | None = None
    """The play time and the number of matches a chunk holds at most (None: the
    module's :data:`CHUNK_SECONDS` and :data:`MAX_CHUNK`)."""

    def chunk_size(self) -> int:
        """Matches in the next chunk: about :data:`CHUNK_SECONDS` of play (or what the
        runner's ``chunks`` says) at the pace measured so far (one until a match has
        been measured), and few enough that every worker still gets a share of the
        matches left; but for a worker that plays matches at once (as its bots' start
        or its reports said),
        :data:`TOGETHER_CHUNKS` times as many as it plays at once (as far as the share
        allows, when there are other workers), from the first chunk on: one match alone
        would be played a request at a time; a lone such worker also takes what would be
        left after the chunk, if that is fewer (they would be played with fewer beside
        them)."""
        seconds, most = self.chunks or (CHUNK_SECONDS, MAX_CHUNK)
        pace = self.pace.seconds()
        size = 1 if pace is None else most if pace <= 0 else int(seconds / pace)
        left = len(self.tasks) - self.fresh
        share = -(-left // (2 * self.size))
        size = min(size, share)
        if self.pace.together > 1:  # (a lone worker need leave no share to another)
            least = TOGETHER_CHUNKS * self.pace.together
            if self.size > 1:
                size = max(size, min(least, share))
            elif left - max(size, least) < least:
                size = left
            else:
                size = max(size, least)
        return max(1, min(size, most))

    def take(self) -> tuple[int, ...]:
        """The next chunk to send (a task to play again goes alone), if any may be sent:
        none starts past the window of the oldest report not yet handed back."""
        size = self.chunk_size()
        pace = self.pace.seconds()
        queued = PREFETCH * size if not pace else max(PREFETCH * size, int(QUEUE_SECONDS / pace))
        window = max(WINDOW_PER_WORKER * self.size, 32, 2 * self.size * queued)
        if self.retry:
            self.retry.sort()
            if self.retry[0] < self.yielded + window:
                return (self.retry.pop(0),)
        first = self.fresh
        if first < len(self.tasks) and first < self.yielded + window:
            self.fresh = min(len(self.tasks), first + size)
            return tuple(range(first, self.fresh))
        return ()

    def waiting(self) -> bool:
        return bool(self.retry) or self.fresh < len(self.tasks)


@dataclass(eq=False)
class _Pace:
    """The play time of the last matches reported (a runner's, over its runs)."""

    times: deque[float] = field(default_factory=lambda: deque(maxlen=256))
    together: int = 1
    """Up to how many matches a worker played at once, the most reported."""

    def add(self, report: MatchReport) -> None:
        if report.error is None:
            self.times.append(report.seconds)
            self.together = max(self.together, report.together)

    def seconds(self) -> float | None:
        """A match's mean play time, None before the first."""
        return sum(self.times) / len(self.times) if self.times else None


class MatchRunner(ClosingRunner):
    """Plays batches of match tasks on ``workers`` processes (default: one per core).

    ``spawn`` starts a worker (default: a fork of this process, see
    :func:`~c8league.runner.worker.fork_worker`). Where processes cannot be forked (not
    POSIX) and no ``spawn`` is given, tasks are played in this process, without the
    protection of the module docstring. ``chunks`` is the play time and the number of
    matches a chunk holds at most (default :data:`CHUNK_SECONDS` and
    :data:`MAX_CHUNK`)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        spawn: Callable[[], Worker] | None = None,
        chunks: tuple[float, int] | None = None,
    ) -> None:
        self.workers = default_workers() if workers is None else max(1, workers)
        self.chunks = chunks
        self.isolated = spawn is not None or can_fork()
        self._spawn = spawn or _fork_matches
        self._pool: list[Worker] = []
        self._jobs: dict[Worker, deque[_Job]] = {}
        """The jobs sent to each pool worker, oldest first, until each is done."""
        self._single: dict[Worker, _Job] = {}
        """Workers started for one job."""
        self._keys = itertools.count(1)
        self._pace = _Pace()
        self._current_run: _Run | None = None
        self._interrupted = False

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

    def interrupt(self) -> None:
        """Stop the run in progress from another thread, the one that closes this runner's
        owner: its worker processes are killed, and the run raises :class:`Interrupted`
        in its own thread instead of playing their matches again (their reports would go
        nowhere). The runner plays no more matches; close it."""
        self._interrupted = True
        for worker in [*self._pool, *self._single]:
            worker.signal_kill()  # (reaped by the run's thread, not this one)

    @property
    def together(self) -> int:
        """Up to how many matches a worker plays at once, as its bots' start or its reports
        said (see ``runner.interleave``); 1 until then."""
        return self._pace.together

    def start(self, bots: Sequence[BotStart], seconds: float | None = None) -> str | None:
        """Start every bot once on each worker of the pool (starting the workers), before
        the first match (see ``runner.starting``): why one cannot start, in one line, or
        None. ``seconds`` limits each worker's starts (a factory that hangs)."""
        return self.starting(bots, seconds)()

    def starting(
        self, bots: Sequence[BotStart], seconds: float | None = None
    ) -> Callable[[], str | None]:
        """:meth:`start`, in two steps: the workers are started and sent the bots to start
        now, and the call returned waits for them and gives what :meth:`start` gives.
        Meanwhile this process may do something else (but play no match)."""
        if not bots:
            return lambda: None
        readied = ready(bots)
        if not self.isolated:
            return lambda: _after(readied, lambda: start_bots(bots))
        while len(self._pool) < self.workers:
            worker = self._spawn()
            self._pool.append(worker)
            self._jobs[worker] = deque()
        sent = []
        for worker in self._pool:
            key = next(self._keys)
            worker.send((key, (tuple(bots),), None, start_here))
            sent.append((worker, key))
        return lambda: _after(readied, lambda: self._await_starts(bots, seconds, sent))

    def _await_starts(
        self, bots: Sequence[BotStart], seconds: float | None, sent: list[tuple[Worker, int]]
    ) -> str | None:
        """Wait for the starts ``sent`` (worker, job key) of ``bots``: see :meth:`start`."""
        problem: str | None = None
        for worker, key in sent:
            result = supervise(worker, key, seconds)
            if result.kind == "done":
                # A worker runs its jobs in order: those sent before the start are over,
                # their last messages read (and passed over) while waiting for it. Left
                # queued, they would count against the worker's queue for good.
                self._jobs[worker].clear()
                problem = problem or self._started(result.value)
                continue
            self._pool.remove(worker)
            del self._jobs[worker]
            if result.kind in ("died", "machine"):  # perhaps not the bots' doing: again
                result = self._start_alone(bots, seconds)
                if result.kind == "done":
                    problem = problem or self._started(result.value)
                    continue
            names = ", ".join(bot.label for bot in bots)
            if result.kind == "failed":
                last = str(result.value).strip().splitlines()[-1:] or ["?"]
                problem = problem or f"starting {names} failed: {last[0]}"
            elif result.kind == "hung":
                problem = problem or f"starting {names} took more than {seconds:g} s"
            elif result.kind == "machine":
                problem = problem or f"starting {names} was held up twice ({result.value})"
            else:
                problem = problem or f"the process starting {names} {result.how}, twice"
        return problem

    def _started(self, value: Any) -> str | None:
        """What a worker's start job sent back (its one report, :class:`Started`): why a
        bot cannot start; how many matches the worker may play at once is kept for the
        size of the first chunks (see :meth:`_Run.chunk_size`)."""
        started = next(iter(value or [None]))
        if not isinstance(started, Started):
            return None
        self._pace.together = max(self._pace.together, started.together)
        return started.problem

    def _start_alone(self, bots: Sequence[BotStart], seconds: float | None) -> JobEnd:
        """Start ``bots`` in a fresh worker of its own, which exits after."""
        worker = self._spawn()
        key = next(self._keys)
        worker.send((key, (tuple(bots),), None, start_here))
        worker.send(None)
        result = supervise(worker, key, seconds)
        if result.kind == "done":
            worker.stop()
        return result

    def run(
        self,
        tasks: Sequence[MatchTask],
        more: Callable[[], Sequence[MatchTask]] | None = None,
    ) -> Iterator[MatchReport]:
        """Play ``tasks`` and yield their reports in the order of ``tasks``.

        ``more``, if given, is called once, as soon as the workers have matches to play
        for a while (the pace of a match is known, and they have theirs queued): the
        tasks it returns are played after ``tasks``, as if they had been given with
        them. The caller spends that time writing them (the next rounds of an event),
        while the workers play."""
        tasks = list(tasks)
        if not self.isolated:
            if more is not None:
                tasks += more()
            for task in tasks:
                yield _play_here(task)
            return
        if not tasks and more is not None:
            tasks, more = list(more()), None
        if not tasks:
            return
        size = self.workers if more is not None else min(self.workers, len(tasks))
        play = None if play_task is _tasks.play_task else play_task  # benchmarks swap it
        run = _Run(tasks, size, play, self._pace, chunks=self.chunks)
        self._current_run = run
        try:
            index = 0
            while index < len(tasks) or more is not None:
                if index == len(tasks):
                    assert more is not None
                    tasks += more()
                    more = None
                    continue
                while index not in run.reports:
                    self._dispatch(run)
                    if more is not None and run.pace.seconds() is not None:
                        tasks += more()
                        more = None
                        self._dispatch(run)
                    self._step(run)
                run.yielded = index + 1
                yield run.reports.pop(index)
                index += 1
        finally:
            self._current_run = None
            self._abandon(run)

    def would_wait(self) -> bool:
        """Whether the next report of the run in progress is not here yet: taking it
        would wait for the workers, so the caller may first spend the time on what it
        has (storing the reports taken so far) without holding the matches up, the
        workers having theirs queued (:data:`QUEUE_SECONDS`). False between runs, after
        the last report, and where the matches are played in this process."""
        run = self._current_run
        return run is not None and run.yielded < len(run.tasks) and run.yielded not in run.reports

    # -- sending --------------------------------------------------------------------------

    def _dispatch(self, run: _Run) -> None:
        while len(self._pool) < run.size and run.waiting():
            worker = self._spawn()
            self._pool.append(worker)
            self._jobs[worker] = deque()
        for worker in self._pool:
            queue = self._jobs[worker]
            while self._wants(queue, run):
                indices = run.take()
                if not indices:
                    return
                job = _Job(next(self._keys), run, indices)
                queue.append(job)
                worker.send((job.key, job.tasks, None, run.play))

    @staticmethod
    def _wants(queue: deque[_Job], run: _Run) -> bool:
        """Whether a worker with ``queue`` should be sent another chunk (see
        :data:`PREFETCH` and :data:`QUEUE_SECONDS`). Before any match has been
        measured a worker is sent one chunk at a time: the next is sized by the pace
        that chunk gives, and a bot that plays matches at once would play a second
        chunk of one match alone, a request at a time."""
        pace = run.pace.seconds()
        if pace is None:
            return all(job.reported is not None for job in queue)
        if len(queue) < PREFETCH:
            return True
        if len(queue) >= MAX_QUEUED or not pace:
            return False
        if run.size > 1 and (len(run.tasks) - run.fresh) * pace < QUEUE_SECONDS * run.size:
            return False  # the last matches wait for whichever worker needs them first
        waiting = sum(len(job.indices) for job in queue if job.reported is None)
        return waiting * pace < QUEUE_SECONDS

    def _rebuild(self, job: _Job, stop: Stop, fallback: Forfeit) -> None:
        """Play ``job``'s match again alone up to ``stop``, the call that failed, to
        rebuild what it stored before; ``fallback`` is the forfeit kept if that fails."""
        self._alone(
            _Job(
                key=next(self._keys),
                run=job.run,
                indices=job.indices,
                stage="rebuild",
                stop=stop,
                fallback=fallback,
            )
        )

    def _alone(self, job: _Job) -> None:
        """Play ``job`` (of one task) in a process of its own."""
        worker = self._spawn()
        self._single[worker] = job
        worker.send((job.key, job.tasks, job.stop, job.run.play))
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
        self._check_interrupted()  # (its workers may be killed before this wait)
        ready = {id(workers[w]): workers[w] for w in wait(list(workers), timeout)}
        self._check_interrupted()
        for worker in ready.values():
            messages, dead = worker.receive()
            for message in messages:
                self._message(worker, message)
            if dead:
                self._died(worker)
        self._check_deadlines()

    def _check_interrupted(self) -> None:
        if self._interrupted:
            raise Interrupted("the run was stopped from another thread")

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
        if kind == "replay":  # the machine held a match up: it is played again
            if worker in self._single:
                del self._single[worker]
            else:
                self._jobs[worker].remove(job)
            why, reports = value
            self._accept(job, reports)
            held = len(reports)
            if len(job.indices) == 1:
                self._again(job, why)
            else:
                alone = _Job(next(self._keys), job.run, (job.indices[held],), "replay")
                self._again(alone, why)
                self._unplayed(job, held + 1)
            return
        if kind == "failed":
            last = str(value).strip().splitlines()[-1:] or ["?"]
            value = [
                MatchReport.failed(task.match_id, f"playing it failed: {last[0]}")
                for task in job.tasks
            ]
        if value is not None and job.reported is None:
            self._accept(job, value)
            self._unplayed(job, len(value))
        job.reported = job.reported or time.monotonic()
        if worker not in self._single:  # (one alone exits by itself: it was sent None)
            self._jobs[worker].remove(job)

    def _accept(self, job: _Job, reports: Sequence[MatchReport]) -> None:
        """Keep the reports of ``job``'s matches, in order. A worker that ended its chunk
        early (see ``runner.worker.play_match_job``) sends those of the first matches
        only: the rest are played again, elsewhere (:meth:`_unplayed`)."""
        run = job.run
        for index, report in zip(job.indices, reports, strict=False):
            run.pace.add(report)
            if job.stage == "rebuild" and report.error is None:
                assert job.stop is not None and job.fallback is not None
                forfeit = report.result.forfeit
                if forfeit is None or (forfeit.seat, forfeit.reason) != (
                    job.stop.seat,
                    job.fallback.reason,
                ):
                    report = self._fallback(job)
            self._keep(run, index, report)

    @staticmethod
    def _unplayed(job: _Job, start: int) -> None:
        """The matches of ``job`` from its ``start``-th on were not played (the worker
        ended the chunk early): play them again."""
        job.run.retry.extend(job.indices[start:])

    @staticmethod
    def _keep(run: _Run, index: int, report: MatchReport) -> None:
        """Keep a task's report, unless one is kept or handed back already."""
        if index >= run.yielded and index not in run.reports:
            run.reports[index] = report

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
        charge the match it was playing by what its slot says once it is gone."""
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
                continue  # its results are out: the worker died closing the players
            current = self._current_index(job, snapshot)
            for index in job.indices:
                if index == current:
                    # The death may not be the match's doing (or it took the report
                    # with it, being closed): play it again alone.
                    alone = _Job(next(self._keys), job.run, (index,), "replay")
                    self._death(alone, snapshot, how)
                else:
                    job.run.retry.append(index)  # its report was lost, not its fault

    @staticmethod
    def _current_index(job: _Job, snapshot: Snapshot) -> int | None:
        """The task of ``job`` its worker was playing (or closing), if any."""
        if snapshot.job != job.key or snapshot.phase == IDLE:
            return None
        if 0 <= snapshot.index < len(job.indices):
            return job.indices[snapshot.index]
        return None

    def _hung(self, worker: Worker, job: _Job, verdict: str) -> None:
        """``worker``, playing ``job``, is overdue (``verdict``, see
        :func:`~c8league.runner.worker.overrun`): kill it, and find the result of the
        match it was playing."""
        snapshot = worker.snapshot()
        worker.kill()
        alone = worker in self._single
        if alone:
            del self._single[worker]
        else:
            self._pool.remove(worker)
            for other in self._jobs.pop(worker):
                if other is not job and other.reported is None:
                    other.run.retry.extend(other.indices)
        if job.reported is not None:
            return  # the results are out: it hung closing the players
        if alone:
            self._overran(job, snapshot, verdict)
            return
        current = self._current_index(job, snapshot)
        for index in job.indices:
            if index != current:
                job.run.retry.append(index)
            elif snapshot.phase == CLOSING:  # its report was held back with the chunk's
                self._alone(_Job(next(self._keys), job.run, (index,), "replay"))
            else:
                self._overran(_Job(job.key, job.run, (index,)), snapshot, verdict)

    def _overran(self, job: _Job, snapshot: Snapshot, verdict: str) -> None:
        """The process playing ``job`` (of one task) was killed, overdue: the machine's
        doing (``verdict`` ``machine``: played again), or a timeout."""
        if verdict == "machine":
            self._again(job, "its process was stopped")
        else:
            self._timeout(job, snapshot)

    def _again(self, job: _Job, why: str) -> None:
        """The machine held ``job`` (of one task) up (``why``): play it again alone, up to
        :data:`MAX_REPLAYS` times."""
        job.held_up += 1
        if job.held_up > MAX_REPLAYS:
            self._error(
                job,
                f"the machine held it up {job.held_up} times ({why}): is something stopping "
                "c8league's processes, or is the machine far too busy?",
            )
            return
        if job.stage != "rebuild":
            job.stage = "replay"
        self._alone(job)

    def _death(self, job: _Job, snapshot: Snapshot, how: str) -> None:
        """A process playing ``job`` (of one task) died: play it again, or, with the
        evidence of two deaths at the same point, charge the call there."""
        if job.stage == "rebuild":
            self._keep(job.run, job.indices[0], self._fallback(job))
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
        self._rebuild(job, stop, fallback)

    def _timeout(self, job: _Job, snapshot: Snapshot) -> None:
        """``job``'s process (of one task) was killed past the match limit: the call in
        progress then forfeits with ``timeout``."""
        task = job.task
        if job.stage == "rebuild":
            self._keep(job.run, job.indices[0], self._fallback(job))
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
        self._rebuild(job, stop, fallback)

    def _error(self, job: _Job, text: str) -> None:
        self._keep(job.run, job.indices[0], MatchReport.failed(job.task.match_id, text))

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
        slot = worker.slot
        if slot.phase == CLOSING:  # a match of the chunk is over, its report held back
            closed = slot.since + CLOSE_SECONDS
            return (job if now > closed else None), min(closed, now + POLL_SECONDS)
        task = job.run.tasks[job.indices[min(max(slot.index, 0), len(job.indices) - 1)]]
        verdict, end = overrun(worker, task.match_seconds, now)
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


def _after(readied: Callable[[], None], starts: Callable[[], str | None]) -> str | None:
    """``starts()``, then ``readied()`` (see ``runner.starting.ready``) whatever happens."""
    try:
        return starts()
    finally:
        readied()


def _fork_matches() -> Worker:
    return fork_worker(play_match_job)


def _play_here(task: MatchTask) -> MatchReport:
    """Play ``task`` in this process (where none can be forked), again if the machine
    held it up, up to :data:`MAX_REPLAYS` times."""
    why = ""
    for _ in range(MAX_REPLAYS):
        try:
            return play_task(task)
        except MachineFault as exc:
            why = str(exc)
    return MatchReport.failed(task.match_id, f"the machine held it up {MAX_REPLAYS} times ({why})")
