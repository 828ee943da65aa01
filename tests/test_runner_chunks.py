"""The process pool sends matches in chunks and takes their reports back in chunks: the
reports are those of matches played one by one, in task order, with any number of
workers; a worker lost in the middle of a chunk costs nothing but time."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from typing import Any

import pytest

from c8league.engine import Rules
from c8league.players import registry
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.results import MatchReport
from c8league.runner import pool
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart
from c8league.runner.tasks import MatchTask, SeatSpec, play_task
from c8league.runner.worker import Worker, fork_worker, play_match_job

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="worker processes are forks")

RULES = Rules.from_options("pagat").to_json()


@pytest.fixture(autouse=True)
def builtin_players() -> Iterator[None]:
    with registry.only_registered({"greedy": GreedyPlayer, "random": RandomPlayer}):
        yield


def tasks(count: int) -> list[MatchTask]:
    seats = (SeatSpec("greedy"), SeatSpec("random", '{"playable_first": true}'))
    return [MatchTask(i, RULES, seats if i % 2 else seats[::-1], seed=i) for i in range(count)]


def same(report: MatchReport) -> tuple[Any, ...]:
    """A report without its time."""
    return (
        report.match_id,
        report.result.placements,
        report.result.scores,
        report.result.ended,
        report.result.hands,
    )


class Spying:
    """Starts workers as the pool does and keeps each job sent to them."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Any, ...]] = []
        self.workers: list[Worker] = []

    def __call__(self) -> Worker:
        worker = fork_worker(play_match_job)
        send = worker.send

        def spy(job: object) -> bool:
            if job is not None:
                self.jobs.append(job)  # type: ignore[arg-type]
            return send(job)

        worker.send = spy  # type: ignore[method-assign]
        self.workers.append(worker)
        return worker


@pytest.mark.parametrize("workers", [1, 2])
def test_chunks_give_the_reports_of_matches_played_one_by_one(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Chunks as large as each worker's share of the matches left allows, whatever the
    # pace of this machine (a loaded one plays slowly, and would be sent small chunks).
    monkeypatch.setattr(pool, "CHUNK_SECONDS", 1e6)
    batch = tasks(120)
    alone = [same(play_task(task)) for task in batch]
    spy = Spying()
    with MatchRunner(workers, spawn=spy) as runner:
        reports = [same(r) for r in runner.run(batch)]
    assert reports == alone
    sizes = [len(job[1]) for job in spy.jobs]
    assert sum(sizes) == len(batch)  # each match sent once
    assert max(sizes) > 1
    assert len(spy.jobs) < len(batch) // 2


def test_a_worker_killed_in_the_middle_of_a_chunk_costs_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool, "CHUNK_SECONDS", 10.0)  # every chunk as large as it may be
    batch = tasks(80)
    alone = [same(play_task(task)) for task in batch]
    spy = Spying()
    reports = []
    with MatchRunner(2, spawn=spy) as runner:
        for report in runner.run(batch):
            reports.append(same(report))
            if len(reports) == 3:  # the first workers are now deep in their chunks
                for worker in spy.workers[:2]:
                    os.kill(worker.pid, signal.SIGKILL)
    assert reports == alone
    assert len(spy.workers) > 2  # the lost chunks were played by new workers


def test_chunks_get_smaller_towards_the_end_so_that_every_worker_has_a_share() -> None:
    batch = tasks(100)
    spy = Spying()
    with MatchRunner(2, spawn=spy) as runner:
        assert len(list(runner.run(batch))) == len(batch)
    sizes = [len(job[1]) for job in spy.jobs]
    assert sizes[-1] <= 2 and sizes[-2] <= 2


def test_the_last_matches_of_a_run_wait_here_for_the_first_worker_to_need_them() -> None:
    """A worker is sent chunks beyond the two it plays next only while the matches not yet
    sent would keep every worker busy longer than that queue: the last ones then go to
    whichever worker runs out first, and the workers end together. A lone worker keeps
    its queue, to play on while the results are stored."""
    pace = pool._Pace()
    for _ in range(10):
        pace.add(MatchReport(0, play_task(tasks(1)[0]).result, seconds=0.001))
    run = pool._Run(tasks(2000), 2, None, pace)
    queue = pool.deque(pool._Job(k, run, tuple(range(10 * k, 10 * k + 10))) for k in range(2))
    run.fresh = 20
    assert MatchRunner._wants(queue, run)  # 1.98 s of play not sent: queue half a second
    run.fresh = 1600  # 0.4 s not sent, less than the two workers' queues would take
    assert not MatchRunner._wants(queue, run)
    queue.pop()
    assert MatchRunner._wants(queue, run)  # but always the next two chunks
    queue.append(pool._Job(1, run, tuple(range(10, 20))))
    run.size = 1
    assert MatchRunner._wants(queue, run)  # and a lone worker all it can queue


def test_a_worker_is_sent_one_match_at_a_time_until_one_has_been_measured() -> None:
    """Before the pace is known a worker has one chunk of one match queued at most: the
    next chunk is sized by what that match took (a bot that plays matches at once would
    otherwise play a second chunk of one alone, a request at a time)."""
    run = pool._Run(tasks(100), 1, None, pool._Pace())
    queue: pool.deque[pool._Job] = pool.deque()
    assert MatchRunner._wants(queue, run) and run.take() == (0,)
    queue.append(pool._Job(0, run, (0,)))
    assert not MatchRunner._wants(queue, run)
    queue[0].reported = 1.0  # reported: the worker is closing the match's players
    assert MatchRunner._wants(queue, run)
    spy = Spying()
    with MatchRunner(1, spawn=spy) as runner:
        assert len(list(runner.run(tasks(40)))) == 40
    sizes = [len(job[1]) for job in spy.jobs]
    assert sizes[0] == 1 and sizes[1] > 1


@pytest.mark.parametrize(("workers", "first"), [(1, 48), (2, 25)])
def test_a_worker_whose_bots_play_matches_at_once_gets_many_from_the_first_chunk(
    workers: int, first: int
) -> None:
    """Its bots' start said so: a chunk of one match would be played a request at a
    time. The first chunk holds three times as many as it plays at once (16), as far as
    the share of every worker allows (a quarter of the matches left, with two)."""
    pace = pool._Pace(together=16)
    run = pool._Run(tasks(100), workers, None, pace)
    assert run.take() == tuple(range(first))


class SlowToClose(GreedyPlayer):
    """Its match's report is sent before it is closed: the run is over before the
    worker says the job is."""

    def close(self) -> None:
        time.sleep(0.05)


def test_a_runner_whose_bots_are_started_before_each_run_keeps_its_workers() -> None:
    """A Dask worker's runner is asked to start the bots before each event or duel: the
    jobs of the runs before are over by then (a worker runs its jobs in order), and
    none of them may be left counting against the worker's queue, which, once full,
    would have the next run wait for the worker to be killed as hung."""
    seats = (SeatSpec("slow-to-close"), SeatSpec("greedy"))
    start = [BotStart("slow", seats[0], RULES, 2)]
    spy = Spying()
    with (
        registry.only_registered({"greedy": GreedyPlayer, "slow-to-close": SlowToClose}),
        MatchRunner(1, spawn=spy) as runner,
    ):
        for run in range(pool.MAX_QUEUED + 2):
            assert runner.start(start, 60.0) is None
            played = runner.run([MatchTask(run, RULES, seats, seed=run)])
            assert [r.match_id for r in played] == [run]
        assert len(spy.workers) == 1  # never killed as hung, never replaced


def test_a_runner_may_take_longer_chunks() -> None:
    """A Dask worker's runner takes chunks as long as a Dask batch: each chunk wakes the
    Dask worker's process, which the matches share their processor with."""
    pace = pool._Pace()
    pace.times.extend([1 / 1024] * 10)  # (a tenth of a second is 102.4 matches)
    assert pool._Run(tasks(5000), 1, None, pace).chunk_size() == 102
    assert pool._Run(tasks(5000), 1, None, pace, chunks=(0.25, 512)).chunk_size() == 256
    assert pool._Run(tasks(5000), 1, None, pace, chunks=(1.0, 512)).chunk_size() == 512
    assert pool._Run(tasks(600), 1, None, pace, chunks=(1.0, 512)).chunk_size() == 300
