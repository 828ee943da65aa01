"""Events on a Dask cluster: the same results as the process pool, a worker killed mid-event
changes nothing, and missing plugins, Dask or schedulers are named in one line.

A local cluster of two single-threaded worker processes stands in for the machines;
its workers find the built-in players through their entry points, as a remote worker
would find installed plugins.
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbs import BOT_ENTRANTS, event_state, matches_done, results

from c8league.cli.event import running as event_running
from c8league.cli.main import main
from c8league.cli.playing import cluster_line
from c8league.engine.rules import preset_rules
from c8league.errors import UsageError
from c8league.events.running import run_event
from c8league.players import registry
from c8league.players.external import ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.results import MatchReport, Result
from c8league.runner import dask_executor, interleave
from c8league.runner.base import ClusterEvent, NoWorkers, WorkerJoined, WorkerLost
from c8league.runner.dask_executor import DaskRunner
from c8league.runner.executors import make_runner, resume_command
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart
from c8league.runner.tasks import MatchTask, SeatSpec
from c8league.storage import open_database

distributed = pytest.importorskip("distributed", reason="Dask is not installed (c8league[dask])")

LEAGUE = """
name = "dask-league"
table_size = {table_size}

[rules]
preset = "pagat"

{entrants}{extra}

[[events]]
name = "ev"
format = "{format}"
cycles = {cycles}
rounds = 3
seed = 23
"""


class HereOnly(GreedyPlayer):
    """Registered in this process only: the workers do not have it."""


_PLAYERS = {"greedy": GreedyPlayer, "random": RandomPlayer, "hereonly": HereOnly}


@pytest.fixture(autouse=True)
def builtin_players() -> Iterator[None]:
    with registry.only_registered(_PLAYERS):
        yield


@pytest.fixture(scope="module")
def local_cluster() -> Iterator[distributed.LocalCluster]:
    """A local cluster of two worker processes, one thread each."""
    local = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    )
    try:
        yield local
    finally:
        local.close()


@pytest.fixture
def cluster(local_cluster: distributed.LocalCluster) -> str:
    """The scheduler address of the local cluster, once its two workers are up: a worker
    killed by a test before is started again by its nanny, and on a loaded machine it
    may join the scheduler later than the next test starts."""
    deadline = time.monotonic() + 120
    while not _two_workers_running(local_cluster):
        assert time.monotonic() < deadline, "the local cluster did not get its two workers"
        time.sleep(0.1)
    address: str = local_cluster.scheduler_address
    return address


def _two_workers_running(local_cluster: distributed.LocalCluster) -> bool:
    workers = list(local_cluster.scheduler.workers.values())
    return len(workers) == 2 and all(w.status.name == "running" for w in workers)


def write_league(tmp_path: Path, **values: object) -> Path:
    params: dict[str, object] = {"table_size": 3, "format": "round_robin", "cycles": 2, "extra": ""}
    params.update(values)
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE.format(entrants=BOT_ENTRANTS, **params))
    return path


def imported(tmp_path: Path, name: str, league: Path) -> str:
    url = f"sqlite:///{tmp_path / name}"
    assert main(["--db", url, "league", "import", str(league)]) == 0
    return url


def test_dask_event_equals_the_process_pool(tmp_path: Path, cluster: str) -> None:
    league = write_league(tmp_path)
    pool, dask = imported(tmp_path, "pool.db", league), imported(tmp_path, "dask.db", league)
    assert main(["--db", pool, "event", "run", "ev", "--workers", "2"]) == 0
    assert (
        main(["--db", dask, "event", "run", "ev", "--executor", "dask", "--address", cluster]) == 0
    )
    assert results(dask) == results(pool)
    assert len(results(pool)) > 50


def test_swiss_event_on_a_local_dask_cluster_equals_the_process_pool(tmp_path: Path) -> None:
    league = write_league(tmp_path, format="swiss", table_size=2)
    pool, dask = imported(tmp_path, "pool.db", league), imported(tmp_path, "dask.db", league)
    assert main(["--db", pool, "event", "run", "ev", "--workers", "1"]) == 0
    assert main(["--db", dask, "event", "run", "ev", "--executor", "dask", "--workers", "2"]) == 0
    assert results(dask) == results(pool)


def test_plugin_missing_on_the_workers_is_named(
    tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    league = write_league(tmp_path, extra='[[entrants]]\nname = "H"\nbot = "hereonly"\n')
    url = imported(tmp_path, "missing.db", league)
    code = main(["--db", url, "event", "run", "ev", "--executor", "dask", "--address", cluster])
    err = capsys.readouterr().err
    assert code == 2
    assert "player plugin 'hereonly' is not usable on Dask worker tcp://127.0.0.1:" in err
    assert "no player plugin named 'hereonly'" in err and "Traceback" not in err
    assert matches_done(url) == 0


def test_a_report_error_from_a_worker_names_plugin_and_worker(cluster: str) -> None:
    rules = preset_rules("pagat").to_json()
    task = MatchTask(1, rules, (SeatSpec("hereonly"), SeatSpec("greedy")), seed=1)
    with DaskRunner(cluster) as runner:
        runner._checked.add("hereonly")  # as if the plugin was there when checked
        (report,) = runner.run([task])
    assert report.error is not None
    assert "no player plugin named 'hereonly'" in report.error
    assert "(on Dask worker tcp://127.0.0.1:" in report.error


def test_every_bot_is_started_on_every_worker_before_the_first_match(cluster: str) -> None:
    rules = preset_rules("pagat").to_json()
    good = BotStart("B (greedy)", SeatSpec("greedy"), rules, 2)
    bad = BotStart(
        "A (cmd:/no/such/bot)", SeatSpec("external", '{"command": "/no/such/bot"}'), rules, 2
    )
    with DaskRunner(cluster) as runner:
        assert runner.start([good], 60.0) is None
        problem = runner.start([good, bad], 60.0)
    assert problem is not None
    assert problem.startswith("A (cmd:/no/such/bot) did not start (crash): cannot start")
    assert "(on Dask worker tcp://127.0.0.1:" in problem


def test_a_thread_whose_bots_play_matches_at_once_gets_many_from_its_first_batch(
    cluster: str,
) -> None:
    """Its bots' start says how many matches a worker thread plays at once: before any
    match is measured, a batch holds three times as many, as far as every thread's
    share allows (one match alone would be played a request at a time)."""
    rules = preset_rules("pagat").to_json()
    options = {"command": [sys.executable, str(BOTS / "concurrent.py")]}
    bot = BotStart("the bot", SeatSpec("external", json.dumps(options)), rules, 2)
    with DaskRunner(cluster) as runner:
        assert runner.start([BotStart("B", SeatSpec("greedy"), rules, 2)], 60.0) is None
        assert runner._together == 1
        assert runner.start([bot], 60.0) is None
        assert runner._together == interleave.WIDTH
    assert dask_executor._batch_size([], 200, 2, interleave.WIDTH) == 50
    assert dask_executor._batch_size([], 1000, 1, interleave.WIDTH) == 3 * interleave.WIDTH
    assert dask_executor._batch_size([], 200, 2) == 1


def test_a_batch_keeps_to_its_share_until_the_pace_is_measured_enough() -> None:
    """One fast match measured (two random bots, the rest Monte Carlo ones) must not send
    every match left to one worker: a batch holds at most its share of them until
    TRUSTED_PACE matches are measured; then at least 0.1 s of play."""
    fast = [0.002]
    assert dask_executor._batch_size(fast, 46, 2) == 12  # ceil(46 / (2 * 2))
    assert dask_executor._batch_size(fast * dask_executor.TRUSTED_PACE, 46, 2) == 50
    assert dask_executor._batch_size([0.5], 46, 2) == 2  # about a second of play


def test_reports_come_in_task_order_with_a_bounded_window(cluster: str) -> None:
    def slow_first(task: MatchTask) -> MatchReport:
        time.sleep(0.3 if task.match_id == 0 else 0.0)
        return MatchReport(task.match_id, Result((), (), "test"))

    tasks = [MatchTask(i, "{}", (), seed=i) for i in range(30)]
    with DaskRunner(cluster, window=5, batch=1, play=slow_first) as runner:
        reports = runner.run(tasks)
        assert next(reports).match_id == 0
        assert len(runner.connect().who_has()) <= 5
        assert [r.match_id for r in reports] == list(range(1, 30))
    with DaskRunner(cluster, play=slow_first) as runner:  # fast matches: sent in batches
        assert [r.match_id for r in runner.run(tasks)] == list(range(30))


class _Future:
    def __init__(self, done: bool = False) -> None:
        self._done = done

    def done(self) -> bool:
        return self._done


def test_batches_are_placed_on_the_workers_with_room_for_them() -> None:
    """Each worker holds a batch per thread before any match is measured, two after (one
    playing, the next waiting there), the least loaded first; batches done, or placed on
    a worker that has left, take no room."""
    flight = dask_executor._Flight(DaskRunner(), None, [], {"tcp://b": 2, "tcp://a": 1})

    def place(done: bool = False) -> str | None:
        worker = flight.place()
        if worker is not None:
            flight.pending.append(dask_executor._Batch([], _Future(done), worker))
        return worker

    assert [place() for _ in range(4)] == ["tcp://a", "tcp://b", "tcp://b", None]
    flight.runner._pace.append(0.01)  # a match measured: two a thread
    assert [place() for _ in range(4)] == ["tcp://a", "tcp://b", "tcp://b", None]
    flight.pending[0].future = _Future(done=True)  # a's first batch is played
    assert place() == "tcp://a"
    assert place() is None
    flight.workers = {"tcp://b": 2, "tcp://c": 1}  # a left, c joined
    assert [place() for _ in range(3)] == ["tcp://c", "tcp://c", None]


def test_a_batch_goes_to_the_worker_chosen_or_another_if_it_is_gone(cluster: str) -> None:
    def tagged(task: MatchTask) -> MatchReport:
        return MatchReport(task.match_id, Result((), (), "test"))

    tasks = [MatchTask(i, "{}", (), seed=i) for i in range(6)]
    with DaskRunner(cluster, batch=2, play=tagged) as runner:
        client = runner.connect()
        workers = sorted(client.nthreads())
        futures = [
            runner._submit(client, tasks[:2], workers[1]),
            runner._submit(client, tasks[2:4], workers[1]),
            runner._submit(client, tasks[4:], "tcp://127.0.0.1:9"),  # no such worker
        ]
        played = [pickle.loads(f.result()) for f in futures]
        where = client.who_has(futures)
    assert [r.match_id for batch in played for r in batch] == list(range(6))
    assert [where[f.key] for f in futures[:2]] == [(workers[1],), (workers[1],)]


class _Keyed(_Future):
    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class _Scheduler:
    """What the runner asks of a client when it looks at the workers."""

    def __init__(self, *workers: str) -> None:
        self.workers = list(workers)

    def nthreads(self) -> dict[str, int]:
        return dict.fromkeys(self.workers, 1)


def test_workers_lost_and_joined_are_told_with_the_matches_they_held() -> None:
    told: list[ClusterEvent] = []
    runner = DaskRunner(watch=told.append)
    tasks = [MatchTask(i, "{}", (), seed=i) for i in range(5)]
    pending = [
        dask_executor._Batch(tasks[:3], _Keyed("k1"), "tcp://a:9001"),
        dask_executor._Batch(tasks[3:], _Keyed("k2"), "tcp://b:9001"),
    ]
    client = _Scheduler("tcp://a:9001", "tcp://b:9001")
    assert runner._look(client, pending) and told == []  # the workers at the start
    # a's service restarts it at the same address between two looks: only the
    # scheduler's word says it was lost, and which batch it held.
    lost = {"action": "remove-worker", "worker": "tcp://a:9001", "processing-tasks": ["k1"]}
    runner._cluster_event((0.0, {**lost, "lost-computed-tasks": []}))
    runner._cluster_event((0.0, {"action": "add-worker", "worker": "tcp://a:9001"}))
    assert runner._changed.is_set()
    runner._look(client, pending)
    assert told == [WorkerLost("tcp://a:9001", 3), WorkerJoined("tcp://a:9001")]
    # b leaves unseen by events, c joins: b's batch sent to it is played again.
    told.clear()
    client.workers = ["tcp://a:9001", "tcp://c:9001"]
    runner._look(client, pending)
    assert told == [WorkerLost("tcp://b:9001", 2), WorkerJoined("tcp://c:9001")]


def test_choosing_an_executor() -> None:
    assert isinstance(make_runner("processes", 2, None), MatchRunner)
    assert isinstance(make_runner("dask", 2, None), DaskRunner)
    assert isinstance(make_runner("dask", None, "tcp://127.0.0.1:8786"), DaskRunner)
    with pytest.raises(UsageError, match="unknown executor 'ray'; executors: processes, dask"):
        make_runner("ray", None, None)
    with pytest.raises(UsageError, match="needs the dask executor"):
        make_runner("processes", None, "tcp://127.0.0.1:8786")
    with pytest.raises(UsageError, match="`workers` sets the size of a local Dask cluster"):
        make_runner("dask", 2, "tcp://127.0.0.1:8786")


def test_every_resume_hint_names_where_the_run_played() -> None:
    assert resume_command("event", "ev", "processes", None) == "c8league event resume ev"
    assert (
        resume_command("duel", "duel-1", "dask", "tcp://10.0.0.5:8786", "off")
        == "c8league duel resume duel-1 --executor dask --address tcp://10.0.0.5:8786 "
        "--sandbox off"
    )
    assert (
        resume_command("ladder", "club night", "dask", None, verb="run")
        == "c8league ladder run 'club night' --executor dask"
    )


def test_what_changes_in_the_workers_is_one_line_each() -> None:
    lines = [
        cluster_line(event)
        for event in (
            NoWorkers("tcp://10.0.0.5:8786", 10.02),
            NoWorkers(None, 40.0),
            WorkerLost("tcp://10.0.0.7:40001", 3),
            WorkerLost("tcp://10.0.0.7:40001", 1),
            WorkerLost("tcp://10.0.0.7:40001", 0),
            WorkerJoined("tcp://10.0.0.8:40002"),
        )
    ]
    assert lines == [
        "the Dask scheduler at tcp://10.0.0.5:8786 has had no workers for 10 s: waiting for "
        "one (start one: dask worker tcp://10.0.0.5:8786; Ctrl-C stops)",
        "the local Dask cluster has had no workers for 40 s: waiting for one (Ctrl-C stops)",
        "worker tcp://10.0.0.7:40001 lost: its 3 matches are played again",
        "worker tcp://10.0.0.7:40001 lost: its 1 match is played again",
        "worker tcp://10.0.0.7:40001 lost: it held none of the run's matches",
        "worker tcp://10.0.0.8:40002 joined",
    ]


def test_unreachable_scheduler_is_one_line() -> None:
    runner = DaskRunner("tcp://127.0.0.1:9", connect_seconds=0.5)
    with pytest.raises(
        UsageError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"
    ):
        runner.connect()


def test_without_dask_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UsageError, match=r"pip install 'c8league\[dask\]'"):
        DaskRunner().connect()


def test_the_local_cluster_does_not_profile_its_workers() -> None:
    """Dask's profiler (every thread's stack every 10 ms) takes CPU from the matches."""

    def watching(dask_worker: Any) -> dict[str, Any]:  # (a local function travels by value)
        watches = dask_worker.periodic_callbacks
        return {
            name: watches[name].callback_time for name in ("profile", "tick") if name in watches
        }

    with DaskRunner(None, 1) as runner:
        (found,) = runner.connect(1).run(watching).values()
    assert found == {"tick": 500.0}


@pytest.mark.skipif(os.name != "posix", reason="worker processes elsewhere")
def test_the_local_cluster_plays_in_processes_of_its_own_beside_worker_threads() -> None:
    """The local cluster's workers are threads of this process (a worker process would
    only pass the matches on), each playing its matches in a watched process of its own
    that ends with the cluster."""
    rules = preset_rules("pagat").to_json()
    tasks = [MatchTask(i, rules, (SeatSpec("greedy"), SeatSpec("random")), i) for i in range(9)]
    before = _children()
    with DaskRunner(None, 2) as runner:
        assert set(runner.connect().run(os.getpid).values()) == {os.getpid()}
        reports = list(runner.run(tasks))
        assert len(_children() - before) == 2
    assert [(r.match_id, r.error) for r in reports] == [(i, None) for i in range(9)]
    assert _children() <= before


@pytest.mark.skipif(os.name != "posix", reason="worker processes elsewhere")
def test_closing_the_local_cluster_stops_a_match_in_play_at_once() -> None:
    """Dask waits for its worker threads' tasks when it closes (up to 30 s): a batch in
    play is stopped, its processes killed, rather than played to its end."""
    rules = preset_rules("pagat").to_json()
    options = {"command": [sys.executable, str(BOTS / "slow_move.py")], "move_time": 60}
    slow = MatchTask(1, rules, (SeatSpec("external", json.dumps(options)), SeatSpec("greedy")), 3)
    before = _children()
    runner = DaskRunner(None, 1)
    client = runner.connect()
    (worker,) = client.nthreads()
    future = runner._submit(client, [slow], worker)
    deadline = time.monotonic() + 60
    while not _bots("slow_move.py"):  # its third move takes a minute
        assert time.monotonic() < deadline and not future.done()
        time.sleep(0.05)
    time.sleep(0.5)
    start = time.monotonic()
    runner.close()
    assert time.monotonic() - start < 10
    assert _children() <= before
    deadline = time.monotonic() + 10
    while _bots("slow_move.py"):  # ended by its reaper
        assert time.monotonic() < deadline
        time.sleep(0.05)


def _children() -> set[int]:
    """This process's children."""
    pids: set[int] = set()
    for thread in Path(f"/proc/{os.getpid()}/task").iterdir():
        with contextlib.suppress(OSError):
            pids.update(int(pid) for pid in (thread / "children").read_text().split())
    return pids


def _bots(name: str) -> list[int]:
    """The processes running the bot ``name``."""
    found = []
    for proc in Path("/proc").iterdir():
        with contextlib.suppress(OSError):
            if proc.name.isdigit() and name.encode() in (proc / "cmdline").read_bytes():
                found.append(int(proc.name))
    return found


def test_dask_is_imported_only_when_used() -> None:
    code = (
        "import sys, c8league.cli.main, c8league.events.running, c8league.runner.dask_executor; "
        "assert 'distributed' not in sys.modules and 'dask' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
def test_worker_killed_mid_event_gives_the_full_identical_results(
    tmp_path: Path, local_cluster: distributed.LocalCluster, cluster: str
) -> None:
    # Long enough that both workers hold matches when one is killed, however fast.
    league = write_league(tmp_path, table_size=2, cycles=48)
    pool, dask = imported(tmp_path, "pool.db", league), imported(tmp_path, "dask.db", league)
    assert main(["--db", pool, "event", "run", "ev", "--workers", "2"]) == 0
    client = distributed.Client(cluster, set_as_default=False)
    before: dict[str, int] = client.run(os.getpid)
    victim = sorted(before.values())[0]
    killed: list[int] = []

    def progress(done: int, total: int) -> None:
        if done == 10 and not killed:
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    told: list[ClusterEvent] = []
    db = open_database(dask)
    summary = run_event(
        db, "ev", executor="dask", address=cluster, progress=progress, watch=told.append
    )
    db.close()
    client.wait_for_workers(2, timeout=60)
    after: dict[str, int] = client.run(os.getpid)
    client.close()
    assert killed and victim not in after.values()
    (lost,) = [
        event
        for _, event in local_cluster.scheduler.get_events("all")
        if isinstance(event, dict) and event.get("action") == "remove-worker"
    ]
    assert lost["processing-tasks"] or lost["lost-computed-tasks"], "matches were played again"
    # The run said so as it happened: the worker lost, with the matches it held.
    (victim_address,) = [worker for worker, pid in before.items() if pid == victim]
    (gone,) = [event for event in told if isinstance(event, WorkerLost)]
    assert gone.worker == victim_address and gone.matches > 0, told
    assert cluster_line(gone) == (
        f"worker {victim_address} lost: its {gone.matches} "
        + ("match is" if gone.matches == 1 else "matches are")
        + " played again"
    )
    assert summary.played == event_state(pool).matches_total
    assert results(dask) == results(pool)


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _cluster_processes(port: int, tmp_path: Path) -> tuple[subprocess.Popen[bytes], ...]:
    """A scheduler on ``port`` and one worker of one thread, as separate processes."""
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    log = (tmp_path / f"cluster-{port}.log").open("ab")
    scheduler = subprocess.Popen([*dask, "--port", str(port), "--dashboard-address", ":0"],
                                 stdout=log, stderr=log)  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", f"tcp://127.0.0.1:{port}",
         "--nthreads", "1", "--nworkers", "1", "--dashboard-address", ":0"],
        stdout=log, stderr=log,
    )  # fmt: skip
    return scheduler, worker


@pytest.mark.slow
def test_a_lost_scheduler_is_one_line_with_the_resume_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Long enough that the batches in flight when the first is reported are a small part
    # of the event.
    league = write_league(tmp_path, table_size=2, cycles=48)
    pool, dask = imported(tmp_path, "pool.db", league), imported(tmp_path, "dask.db", league)
    assert main(["--db", pool, "event", "run", "ev", "--workers", "2"]) == 0
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = _cluster_processes(port, tmp_path)

    # The scheduler is killed when the first match is reported, from the run's own
    # progress callback: whatever the machine's speed, most matches are still to play.
    killed = []

    def run_event_killing(*args: Any, progress: Any, **kwargs: Any) -> Any:
        def kill_first(done: int, total: int) -> None:
            if not killed:
                killed.append(done)
                processes[0].kill()
            progress(done, total)

        return run_event(*args, progress=kill_first, **kwargs)

    monkeypatch.setattr(event_running, "run_event", run_event_killing)
    try:
        capsys.readouterr()
        code = main(
            ["--db", dask, "event", "run", "ev", "--executor", "dask", "--address", address]
        )
        err = capsys.readouterr().err
        assert killed and code == 1, err
        monkeypatch.undo()
        (line,) = [line for line in err.splitlines() if line.startswith("error:")]
        assert "Traceback" not in err and "CommClosedError" not in err
        assert line.startswith("error: ") and "matches stored by this run, each whole" in line
        assert "Dask scheduler at" in line
        assert line.endswith(f"c8league event resume ev --executor dask --address {address}")
    finally:
        for process in processes:
            process.kill()
            process.wait()
    processes = _cluster_processes(port, tmp_path)
    try:
        resumed = ["event", "resume", "ev", "--executor", "dask", "--address", address]
        assert main(["--db", dask, *resumed]) == 0
    finally:
        for process in processes:
            process.kill()
            process.wait()
    assert results(dask) == results(pool)


@pytest.mark.slow
def test_a_scheduler_without_workers_is_waited_for_in_a_line_and_ctrl_c_stops_it(
    tmp_path: Path,
) -> None:
    url = imported(tmp_path, "idle.db", write_league(tmp_path))
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    log = (tmp_path / "scheduler.log").open("ab")
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    scheduler = subprocess.Popen(
        [*dask, "--port", str(port), "--dashboard-address", ":0"], stdout=log, stderr=log
    )
    run = [sys.executable, "-m", "c8league", "--db", url, "event", "run", "ev"]
    command = [*run, "--executor", "dask", "--address", address]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # (The scheduler may take a while to listen: the run waits for it up to 20 s.)
    played = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, cwd=tmp_path, env=env
    )
    try:
        assert played.stderr is not None
        lines: list[str] = []
        waiting = f"the Dask scheduler at {address} has had no workers for"
        deadline = time.monotonic() + 180
        while not any(line.startswith(waiting) for line in lines):
            assert time.monotonic() < deadline and played.poll() is None, lines
            lines.append(played.stderr.readline().decode())
        played.send_signal(signal.SIGINT)
        rest = played.stderr.read().decode()
        assert played.wait(timeout=120) == 130, rest
    finally:
        for process in (played, scheduler):
            process.kill()
            process.wait()
    (line,) = [line for line in lines if line.strip()]
    assert line.endswith(f"waiting for one (start one: dask worker {address}; Ctrl-C stops)\n")
    assert rest == (
        "interrupted: 0 matches stored by this run, each whole; the rest are played by: "
        f"c8league event resume ev --executor dask --address {address}\n"
    )
    assert matches_done(url) == 0


BOTS = Path(__file__).parent / "bots"


@pytest.fixture
def external() -> Iterator[None]:
    """The external player registered too."""
    with registry.only_registered({**_PLAYERS, "external": ExternalPlayer}):
        yield


def _external_league(
    tmp_path: Path, command: list[str], cycles: int = 2, sandbox: str = "auto"
) -> Path:
    words = ", ".join(json.dumps(word) for word in command)
    bot = f"{{ command = [{words}], move_time = 5, sandbox = {json.dumps(sandbox)} }}"
    entrants = (
        '[[entrants]]\nname = "G"\nbot = "greedy"\n'
        '[[entrants]]\nname = "R"\nbot = "random"\n'
        f'[[entrants]]\nname = "X"\nbot = "external"\noptions = {bot}\n'
    )
    path = tmp_path / "external.toml"
    path.write_text(
        LEAGUE.format(
            table_size=2, entrants=entrants, extra="", format="round_robin", cycles=cycles
        )
    )
    return path


@pytest.mark.usefixtures("external")
def test_a_bot_that_cannot_start_on_a_worker_stops_the_run_in_one_line(
    tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    league = _external_league(tmp_path, [sys.executable, "no_such_bot.py"])
    url = imported(tmp_path, "nostart.db", league)
    capsys.readouterr()
    code = main(["--db", url, "event", "run", "ev", "--executor", "dask", "--address", cluster])
    err = capsys.readouterr().err
    (line,) = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 3, err
    assert "entrant 'X' did not start (crash)" in line and "no_such_bot.py" in line
    assert "can't open file" in line  # the end of its standard error
    assert "(on Dask worker tcp://127.0.0.1:" in line and ", started in /" in line
    # Run as printed, the resume plays on the same cluster, not on this machine's pool.
    assert line.endswith(
        f"nothing was played (mend the bot, then: c8league event resume ev --executor dask "
        f"--address {cluster})"
    )
    assert "Traceback" not in err
    assert matches_done(url) == 0


@pytest.mark.usefixtures("external")
def test_a_bot_is_started_once_on_each_worker_and_plays_its_matches_there(
    tmp_path: Path, cluster: str
) -> None:
    starts = tmp_path / "starts"
    command = [sys.executable, str(BOTS / "keeper.py"), "--starts", str(starts)]
    league = _external_league(tmp_path, command, cycles=6, sandbox="off")  # (writes `starts`)
    url = imported(tmp_path, "kept.db", league)
    pool = imported(tmp_path, "kept-pool.db", league)
    with registry.only_registered({**_PLAYERS, "external": ExternalPlayer}):
        assert (
            main(["--db", url, "event", "run", "ev", "--executor", "dask", "--address", cluster])
            == 0
        )
        lines = starts.read_text().splitlines()
        started = [line.split()[1] for line in lines if line.startswith("start ")]
        played = [line.split()[1] for line in lines if line.startswith("match ")]
        # A process on each worker, started before the worker's first match (a slow
        # interpreter may write its line later), and kept from match to match: every match
        # is played by a started process, and processes are few beside matches (on a busy
        # machine a worker's match process may be replaced, and its bot started again).
        assert len(set(started)) >= 2, "\n".join(lines)
        assert played and set(played) <= set(started), "\n".join(lines)
        assert len(started) <= len(played) // 2, "\n".join(lines)
        assert main(["--db", pool, "event", "run", "ev", "--workers", "2"]) == 0
    assert results(url) == results(pool)


@pytest.mark.usefixtures("external")
def test_a_duel_stopped_on_a_cluster_says_to_resume_it_there(
    tmp_path: Path, cluster: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'duel.db'}"
    on = ["--executor", "dask", "--address", cluster]
    capsys.readouterr()
    assert main(["--db", url, "duel", "cmd:/no/such/bot", "greedy", *on]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: A (cmd:/no/such/bot) did not start")
    assert err[0].endswith(
        f"duel duel-1 has no verdict (c8league duel resume duel-1 --executor dask "
        f"--address {cluster})"
    )
