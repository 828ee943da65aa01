"""No bot can harm a seat other than its own, or outlive its match.

* Containment: a bot's processes end with its match however they leave it (a double
  fork, ``setsid``), for external bots and for Python bots in a worker, by each means
  this machine offers (a cgroup per bot, or the subreaper fallback): the tests of a
  means this machine lacks are skipped, saying so.
* Blame by evidence: a Python bot that closes the worker's files or ends the worker's
  process 5 ms after its move forfeits itself, the same way in each of 20 runs; the
  external bots of the same kinds are blamed by seat the same in each run.
* Time that was not the bot's: a worker (or a bot's process, or the whole run)
  stopped longer than the match limit costs no one a match.
* Signals: ``timeout -s TERM`` and ``-s HUP`` stop an event with one line (exit 143,
  129), and resuming gives the results of an uninterrupted run.

The processes of a test carry a marker in their environment, looked for in ``/proc``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from dbs import matches_done_meanwhile, results
from test_faults_processes import BOT_CLASSES, FAULTY, _worker_children, eventually, marked

from c8league.cli.main import main
from c8league.engine import Rules
from c8league.interrupts import Stopped, exit_status, signal_of, stop_signals, stopped_by
from c8league.players import registry
from c8league.players.containment import Keeper, children, ready_moves
from c8league.players.external import ExternalPlayer, keep
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.results import MatchReport
from c8league.runner import starting
from c8league.runner.loop import play_match
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart
from c8league.runner.tasks import MatchTask, SeatSpec, create_player, play_task

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = Path(__file__).resolve().parents[1]
BOTS = Path(__file__).parent / "bots"
RUNS = 20
"""How often a blame is checked: it must be the same every time."""


# -- the means of containment --------------------------------------------------------------


@pytest.fixture(params=["cgroup", "subreaper"])
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Containment by one means, in this process and the processes it starts."""
    wanted = str(request.param)
    if wanted == "cgroup":
        monkeypatch.delenv("C8LEAGUE_CGROUPS", raising=False)
    else:
        monkeypatch.setenv("C8LEAGUE_CGROUPS", "0")
    Keeper.discard()
    here = Keeper.here().mode
    if here != wanted:
        Keeper.discard()
        pytest.skip(f"no {wanted} containment on this machine (it offers {here})")
    yield wanted
    Keeper.discard()


@pytest.fixture
def marker(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A marker in the environment of every process started from here on."""
    value = f"c8contain-{uuid.uuid4().hex}"
    monkeypatch.setenv("C8FAULT_MARKER", value)
    yield value
    for pid, _ in marked(value):  # whatever a failed test left
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def left(marker: str) -> list[tuple[int, str]]:
    """The test's processes still running, but this process's reaper (it lives as long as
    this process, which started bots)."""
    reaper = Keeper.here().reaper_pid()
    return [(pid, cmd) for pid, cmd in marked(marker) if pid != reaper]


def none_left(marker: str, seconds: float = 2.0) -> None:
    """No process of this test is left ``seconds`` after its run."""
    eventually(lambda: not left(marker), f"no process left, found {left(marker)}", seconds)


def test_this_machine_offers_a_means_of_containment() -> None:
    """What the documentation promises for Linux: a cgroup per bot where cgroup v2 is
    writable, else the subreaper (``docs/protocol.md``)."""
    Keeper.discard()
    assert Keeper.here().mode in ("cgroup", "subreaper")
    Keeper.discard()


def external(script: str, **options: object) -> ExternalPlayer:
    """A test bot without a sandbox: this file tests what contains bots whatever the
    sandbox (its processes are found by the marker in their environment, which a sandbox
    does not pass on); tests/test_sandbox.py has sandboxed bots."""
    options.setdefault("sandbox", "off")
    return ExternalPlayer([sys.executable, str(BOTS / script)], **options)  # type: ignore[arg-type]


@pytest.mark.usefixtures("mode")
@pytest.mark.parametrize("script", ["double_fork.py", "setsid_child.py"])
def test_what_an_external_bot_starts_ends_with_its_match(marker: str, script: str) -> None:
    bot = external(script)
    outcome = play_match(Rules.from_options("pagat"), [bot, GreedyPlayer()], seed=5)
    assert outcome.forfeit is None and outcome.decisions > 6
    none_left(marker)


SERVING_BOT = """
import subprocess, sys
subprocess.Popen(["sleep", "300"])  # its own helper, started before any match
for line in sys.stdin:  # a match: it leaves a process that detaches twice over
    subprocess.run(["sh", "-c", "setsid sleep 301 &"])
"""


@pytest.mark.usefixtures("mode")
def test_a_bot_process_that_serves_several_matches_keeps_its_own_and_loses_the_rest(
    marker: str,
) -> None:
    """The enclosure's match boundaries: what the bot started before the match is its
    own; what it started during the match ends with it, however it left; then
    everything ends."""
    enclosure = Keeper.here().enclosure()
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVING_BOT],
        stdin=subprocess.PIPE,
        env={**os.environ, **enclosure.environment},
        preexec_fn=enclosure.enter,
        start_new_session=True,
    )
    enclosure.started(proc.pid)
    assert proc.stdin is not None
    try:
        eventually(lambda: len(enclosure.processes()) == 2, "the bot and its helper")
        for _ in range(2):
            enclosure.mark()  # a match begins
            proc.stdin.write(b"play\n")
            proc.stdin.flush()
            eventually(lambda: len(enclosure.processes()) == 3, "the match's process")
            assert enclosure.sweep() == 1  # the match ends
            eventually(lambda: len(enclosure.processes()) == 2, "the match's process ended")
            assert proc.poll() is None  # the bot itself runs on, with its helper
    finally:
        enclosure.kill()
        proc.wait(timeout=10)
        enclosure.close()
    none_left(marker)


# -- Python bots in a worker ---------------------------------------------------------------


@pytest.fixture
def faulty(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """The faulty Python bots of ``test_faults_processes``, installed as a plugin."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "c8fault_bots.py").write_text(FAULTY)
    info = folder / "c8fault_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: c8fault-bots\nVersion: 0.1\n")
    points = "".join(f"{name} = c8fault_bots:{cls}\n" for name, cls in BOT_CLASSES.items())
    (info / "entry_points.txt").write_text("[c8league.players]\n" + points)
    monkeypatch.syspath_prepend(str(folder))
    paths = [str(folder), str(ROOT), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    registry.rescan()
    yield
    registry.rescan()


def tasks_of(bots: dict[str, SeatSpec]) -> list[tuple[str, MatchTask]]:
    """A match of each bot, in turn in seat 0 against greedy and in seat 1 against
    random: (the bot's name, the task)."""
    rules = Rules.from_options("pagat").to_json()
    tasks = []
    for index, (name, spec) in enumerate(bots.items()):
        seats = (spec, SeatSpec("greedy")) if index % 2 == 0 else (SeatSpec("random"), spec)
        tasks.append((name, MatchTask(index, rules, seats, seed=index, match_seconds=60)))
    return tasks


def blame(report: MatchReport) -> tuple[object, ...]:
    forfeit = report.result.forfeit
    return (report.match_id, None if forfeit is None else (forfeit.seat, forfeit.reason))


def played(tasks: Sequence[tuple[str, MatchTask]], workers: int = 2) -> list[MatchReport]:
    with MatchRunner(workers) as runner:
        return list(runner.run([task for _, task in tasks]))


def bot_seat(task: MatchTask, report: MatchReport) -> str:
    """The plugin of the seat that forfeited."""
    assert report.result.forfeit is not None
    return task.seats[report.result.forfeit.seat].plugin


PYTHON_BLAME = {
    "closesfds": ("crash", 3, "lost its pipe to c8league (a player closed its files)"),
    "exitslater": ("crash", 3, "exited with code 5"),
}


@pytest.mark.usefixtures("faulty", "mode")
def test_what_a_python_bot_starts_ends_with_its_match_and_its_worker(marker: str) -> None:
    reports = played(tasks_of({name: SeatSpec(name) for name in ("doublefork", "setsid")}))
    assert all(r.result.forfeit is None and r.error is None for r in reports)
    none_left(marker)


@pytest.mark.slow
@pytest.mark.usefixtures("faulty", "mode")
def test_python_bots_that_break_their_worker_forfeit_the_same_way_every_run(
    marker: str,
) -> None:
    tasks = tasks_of({name: SeatSpec(name) for name in PYTHON_BLAME})
    first = played(tasks)
    for (bot, task), report in zip(tasks, first, strict=True):
        assert report.error is None, report.error
        assert report.result.forfeit is not None, (bot, report)
        reason, move, words = PYTHON_BLAME[bot]
        assert bot_seat(task, report) == bot
        assert (report.result.forfeit.reason, report.result.forfeit.move_number) == (
            reason,
            move,
        ), report
        assert words in report.result.forfeit.detail
    none_left(marker)
    for _ in range(RUNS - 1):
        again = played(tasks)
        assert [(r.result, r.error) for r in again] == [(r.result, r.error) for r in first]
        none_left(marker)


@pytest.mark.usefixtures("faulty")
def test_a_bot_whose_threads_outlive_its_match_ends_its_workers_chunk() -> None:
    """Its threads must not reach another match: the worker that played it plays no
    other match of the chunk sent with it, and exits; those matches are played
    elsewhere, with the results of matches played one by one in this process."""
    rules = Rules.from_options("pagat").to_json()
    quick, lingers = (
        (SeatSpec("random"), SeatSpec("greedy")),
        (SeatSpec("lingers"), SeatSpec("greedy")),
    )
    tasks = [
        MatchTask(i, rules, lingers if i in (30, 45) else quick, seed=i, match_seconds=60)
        for i in range(60)
    ]
    with MatchRunner(1) as runner:
        reports = list(runner.run(tasks))
    assert [r.match_id for r in reports] == list(range(60))
    assert [(r.error, r.result.forfeit) for r in reports] == [(None, None)] * 60
    by_hand = [play_task(task) for task in tasks]
    assert [r.result for r in reports] == [r.result for r in by_hand]


# -- external bots in a worker -------------------------------------------------------------


def external_spec(name: str) -> SeatSpec:
    command = [sys.executable, str(BOTS / f"{name}.py")]
    return SeatSpec("external", json.dumps({"command": command, "sandbox": "off"}))


@pytest.fixture
def externals() -> Iterator[None]:
    with registry.only_registered(
        {"external": ExternalPlayer, "greedy": GreedyPlayer, "random": RandomPlayer}
    ):
        yield


@pytest.mark.usefixtures("mode", "externals")
def test_what_external_bots_start_ends_with_their_match_in_a_worker(marker: str) -> None:
    bots = ("double_fork", "setsid_child", "closes_fds", "lingers")
    reports = played(tasks_of({name: external_spec(name) for name in bots}))
    assert [(r.error, r.result.forfeit) for r in reports] == [(None, None)] * len(bots)
    none_left(marker)


@pytest.mark.slow
@pytest.mark.usefixtures("mode", "externals")
def test_an_external_bot_that_ends_after_its_move_is_blamed_the_same_every_run(
    marker: str,
) -> None:
    """It forfeits at a move that depends on when its timer fires (its own doing, in its
    own process); the seat and the reason never change."""
    tasks = tasks_of({f"exits_later-{i}": external_spec("exits_later") for i in range(2)})
    first = played(tasks)
    for (_, task), report in zip(tasks, first, strict=True):
        assert report.error is None and report.result.forfeit is not None
        assert report.result.forfeit.reason == "crash" and bot_seat(task, report) == "external"
        assert "exited with code 5" in report.result.forfeit.detail
    none_left(marker)
    for _ in range(RUNS - 1):
        assert [blame(r) for r in played(tasks)] == [blame(r) for r in first]
        none_left(marker)


class Foreign(GreedyPlayer):
    """A player whose code is not c8league's."""


@pytest.mark.usefixtures("mode")
def test_a_worker_holds_only_once_a_bot_not_of_c8league_is_built() -> None:
    """c8league's own players start no process: a worker that plays only them (or
    external bots, each enclosed apart) makes no cgroup and starts no reaper for itself;
    the first foreign bot makes it hold before its factory runs."""
    with registry.only_registered({"greedy": GreedyPlayer, "foreign": Foreign}):
        assert registry.ours("greedy") and not registry.ours("foreign")
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # a worker, as runner.worker.serve makes one
            try:
                keeper = Keeper.here()
                keeper.hold_later()
                seen = [keeper.holding]
                create_player(SeatSpec("greedy"))
                seen += [keeper.holding, keeper.reaper_pid() is not None]
                create_player(SeatSpec("foreign"))
                seen += [keeper.holding, keeper.reaper_pid() is not None or keeper.mode != "cgroup"]
                os.write(write, json.dumps(seen).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as answer:
            seen = json.loads(answer.read())
        os.waitpid(pid, 0)
    assert seen == [False, False, False, True, True]


def test_readying_the_moves_leaves_no_process_and_this_one_where_it_was(
    mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ready_moves`` starts a shell that moves itself where it was born (``cgroup``
    mode; elsewhere nothing): once its call has been made, no process of it is left,
    not even one to be waited for, and this process is in its cgroup as before."""
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def noted(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(popen(*args, **kwargs))
        return started[-1]

    before = Path("/proc/self/cgroup").read_text()
    monkeypatch.setattr(subprocess, "Popen", noted)
    done = ready_moves()
    assert len(started) == (1 if mode == "cgroup" else 0)
    done()
    assert [p.returncode for p in started] == [0] * len(started)
    assert not set(children(os.getpid())) & {p.pid for p in started}
    assert Path("/proc/self/cgroup").read_text() == before


@pytest.mark.usefixtures("externals")
@pytest.mark.parametrize("workers", [1, 2])
def test_a_runner_readies_the_moves_for_bots_that_move_a_process(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots over the protocol (and Python bots not of c8league) move a process into a
    cgroup as they start: the moves are readied once before, and the shell waited for
    once they have started; c8league's own players move none."""
    calls: list[str] = []

    def ready() -> Callable[[], None]:
        calls.append("ready")
        return lambda: calls.append("done")

    monkeypatch.setattr(starting, "ready_moves", ready)
    rules = Rules.from_options("pagat").to_json()
    own = [BotStart("greedy", SeatSpec("greedy"), rules, 2)]
    bot = [BotStart("bot", external_spec("double_fork"), rules, 2)]
    with MatchRunner(workers) as runner:
        assert runner.start(own) is None
        assert calls == []
        waiting = runner.starting(bot + own)
        assert calls == ["ready"]
        assert waiting() is None
        assert calls == ["ready", "done"]


# -- external bots kept between matches (match_start) ------------------------------------------

KEPT = {"BOT_MATCHES": "1"}
"""In a test bot's environment: it announces ``match_start`` (``tests/bots/botlib.py``)."""


def kept_spec(name: str) -> SeatSpec:
    command = [sys.executable, str(BOTS / f"{name}.py")]
    return SeatSpec("external", json.dumps({"command": command, "env": KEPT, "sandbox": "off"}))


@pytest.mark.usefixtures("mode")
@pytest.mark.parametrize("script", ["double_fork.py", "setsid_child.py"])
def test_what_a_kept_bot_starts_ends_with_each_match_while_it_lives_on(
    marker: str, script: str
) -> None:
    """The bot's process plays three matches; after each, only that process is left."""
    keep.enable()
    try:
        pids = []
        for seed in range(3):
            bot = external(script, env=KEPT)
            outcome = play_match(Rules.from_options("pagat"), [bot, GreedyPlayer()], seed=seed)
            assert outcome.forfeit is None and outcome.decisions > 6
            assert bot.kept == (seed > 0)
            pids.append(bot.pid)
            assert [pid for pid, _ in left(marker)] == [bot.pid]
        assert len(set(pids)) == 1
    finally:
        keep.release()
    none_left(marker)


def played_after_start(
    tasks: Sequence[tuple[str, MatchTask]], workers: int = 2
) -> list[MatchReport]:
    """``tasks`` played as a run plays them: every bot started first on every worker
    (so that a bot that plays match after match is kept from its start)."""
    _, first = tasks[0]
    specs = {spec for _, task in tasks for spec in task.seats}
    starts = [BotStart(spec.plugin, spec, first.rules, len(first.seats)) for spec in specs]
    with MatchRunner(workers) as runner:
        assert runner.start(starts) is None
        return list(runner.run([task for _, task in tasks]))


@pytest.mark.slow
@pytest.mark.usefixtures("mode", "externals")
def test_kept_bots_are_blamed_the_same_every_run_and_leave_nothing(marker: str) -> None:
    """A kept bot that ends its process 5 ms after its third move, against kept bots that
    leave processes behind at each match: the first forfeits, the same every run; the
    others play on in their processes, and nothing is left."""
    rules = Rules.from_options("pagat").to_json()
    exits = kept_spec("exits_later")
    tasks = []
    for index, other in enumerate(["double_fork", "setsid_child"] * 2):
        seats = (exits, kept_spec(other)) if index % 2 == 0 else (kept_spec(other), exits)
        tasks.append(("exits_later", MatchTask(index, rules, seats, index, match_seconds=60)))
    first = played_after_start(tasks)
    for (_, task), report in zip(tasks, first, strict=True):
        assert report.error is None and report.result.forfeit is not None
        assert task.seats[report.result.forfeit.seat] == exits
        assert (
            report.result.forfeit.reason == "crash"
            and "exited with code 5" in report.result.forfeit.detail
        )
    none_left(marker)
    for _ in range(RUNS - 1):
        assert [blame(r) for r in played_after_start(tasks)] == [blame(r) for r in first]
        none_left(marker)


@pytest.mark.slow
@pytest.mark.usefixtures("faulty", "mode")
def test_python_bots_that_break_their_worker_are_blamed_beside_kept_bots(marker: str) -> None:
    """The Python bots that close the worker's files or end it after their move, against
    a kept external bot that leaves processes behind: the Python bot forfeits, the same
    every run, and nothing is left (the kept bots end with their worker)."""
    rules = Rules.from_options("pagat").to_json()
    tasks = []
    for index, name in enumerate(PYTHON_BLAME):
        spec, other = SeatSpec(name), kept_spec("double_fork")
        seats = (spec, other) if index % 2 == 0 else (other, spec)
        tasks.append((name, MatchTask(index, rules, seats, index, match_seconds=60)))
    first = played_after_start(tasks)
    for (bot, task), report in zip(tasks, first, strict=True):
        assert report.error is None and report.result.forfeit is not None, report
        assert bot_seat(task, report) == bot
        reason, move, words = PYTHON_BLAME[bot]
        assert (report.result.forfeit.reason, report.result.forfeit.move_number) == (reason, move)
        assert words in report.result.forfeit.detail
    none_left(marker)
    for _ in range(RUNS - 1):
        again = played_after_start(tasks)
        assert [(r.result, r.error) for r in again] == [(r.result, r.error) for r in first]
        none_left(marker)


# -- time that was not the bot's -------------------------------------------------------------


def ponder_task(seconds: float) -> MatchTask:
    """A match of a bot that takes 10 ms a decision against greedy, limited to
    ``seconds``."""
    rules = Rules.from_options("basic").to_json()
    return MatchTask(1, rules, (SeatSpec("ponder"), SeatSpec("greedy")), 7, seconds)


def stopped_in_play(
    pids: Callable[[], list[int]], stop: float, after: float = 0.3
) -> threading.Thread:
    """A thread that stops the processes ``pids()`` names (once there are some) ``after``
    seconds into their play, for ``stop`` seconds."""

    def pause() -> None:
        eventually(lambda: bool(pids()), "a process to stop")
        time.sleep(after)
        found = pids()
        for pid in found:
            os.kill(pid, signal.SIGSTOP)
        time.sleep(stop)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)

    thread = threading.Thread(target=pause, daemon=True)
    thread.start()
    return thread


@pytest.mark.usefixtures("faulty")
@pytest.mark.parametrize("stop", [2.0, 7.0], ids=["resumed-in-time", "found-stopped"])
def test_a_worker_stopped_longer_than_the_match_limit_costs_no_one_the_match(
    stop: float,
) -> None:
    """Stopped for 2 s of a 2.5 s limit, after its bot used some: its clock left the stop
    out. Stopped for 7 s: its supervisor found it stopped, and the match was played
    again. Either way, the result of a match never stopped, and no timeout."""
    task = ponder_task(2.5)
    (reference,) = played([("ponder", task)], workers=1)
    assert reference.result.forfeit is None and reference.error is None
    thread = stopped_in_play(_worker_children, stop, after=0.6)
    (report,) = played([("ponder", task)], workers=1)
    thread.join()
    assert (report.error, report.result.forfeit) == (None, None)
    assert report.result == reference.result


@pytest.mark.usefixtures("faulty")
def test_the_move_limit_is_read_on_the_match_clock() -> None:
    """``--move-seconds`` 1 for a bot that takes 10 ms a decision, its worker stopped for
    2 s in the middle of a move: that move took 10 ms of the match's clock, not 2 s."""
    task = dataclasses.replace(ponder_task(60), move_seconds=1.0)
    (reference,) = played([("ponder", task)], workers=1)
    assert reference.result.forfeit is None and reference.error is None
    thread = stopped_in_play(_worker_children, 2.0, after=0.6)
    (report,) = played([("ponder", task)], workers=1)
    thread.join()
    assert (report.error, report.result.forfeit) == (None, None)
    assert report.result == reference.result


@pytest.mark.usefixtures("externals")
def test_a_bot_process_stopped_past_its_move_time_forfeits_on_time(
    marker: str, tmp_path: Path
) -> None:
    """Stopped in the middle of its match for 3 s, three times its time for a move: no
    machine stops a bot's process alone (a machine suspended stops every process), so
    it is charged, as one that stopped itself is, with a detail that says so (blame
    outside a sandbox assumes that bots do not stop one another: docs/faults.md)."""
    rules = Rules.from_options("basic").to_json()
    options = {
        "command": [sys.executable, str(BOTS / "ponder.py")],
        "move_time": 1,
        "log_dir": str(tmp_path),
        "env": {"BOT_ECHO": "1"},  # it copies what it reads to its log
        "sandbox": "off",
    }
    task = MatchTask(
        1, rules, (SeatSpec("external", json.dumps(options)), SeatSpec("greedy")), 3, 60
    )
    (reference,) = played([("ponder", task)], workers=1)
    assert (reference.error, reference.result.forfeit) == (None, None)

    def playing() -> list[int]:
        """The bot's process, once it has been asked for a move."""
        asked = any(
            b'"type": "move"' in log.read_bytes() or b'"type":"move"' in log.read_bytes()
            for log in tmp_path.glob("*.log")
        )
        return [pid for pid, cmd in marked(marker) if "ponder.py" in cmd] if asked else []

    for log in tmp_path.glob("*.log"):
        log.unlink()
    thread = stopped_in_play(playing, 3.0, after=0.1)
    (report,) = played([("ponder", task)], workers=1)
    thread.join()
    forfeit = report.result.forfeit
    assert report.error is None and forfeit is not None
    assert (forfeit.seat, forfeit.reason) == (0, "timeout")
    assert "(its process was found stopped, as by SIGSTOP)" in forfeit.detail
    none_left(marker)


@pytest.mark.slow
def test_a_whole_run_stopped_and_continued_costs_no_one_a_match(
    tmp_path: Path, faulty: None
) -> None:
    """What Ctrl-Z then ``fg`` does: the run's whole process group stopped for longer
    than the match limit, then continued."""
    league = tmp_path / "slow.toml"
    league.write_text(
        'name = "slow"\ntable_size = 2\n[rules]\npreset = "basic"\n'
        '[[entrants]]\nname = "P"\nbot = "ponder"\n[[entrants]]\nname = "G"\nbot = "greedy"\n'
        '[[entrants]]\nname = "R"\nbot = "random"\n'
        '[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = 2\nseed = 5\n'
    )
    whole, stopped = tmp_path / "whole.db", tmp_path / "stopped.db"
    for db in (whole, stopped):
        assert main(["--db", str(db), "league", "import", str(league)]) == 0
    run = ["event", "run", "ev", "--workers", "2", "--match-seconds", "2.5"]
    assert main(["--db", str(whole), *run]) == 0
    proc = subprocess.Popen(
        [sys.executable, "-m", "c8league", "--db", str(stopped), *run],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    eventually(
        lambda: matches_done_meanwhile(str(stopped)) >= 1,
        "a match stored: the next ones are playing",
    )
    os.killpg(proc.pid, signal.SIGSTOP)
    time.sleep(6)
    os.killpg(proc.pid, signal.SIGCONT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert results(f"sqlite:///{stopped}") == results(f"sqlite:///{whole}")


# -- signals ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(("name", "status"), [("TERM", 143), ("HUP", 129)])
def test_timeout_on_an_event_stops_it_in_one_line_and_resume_gives_the_whole_results(
    tmp_path: Path, faulty: None, name: str, status: int
) -> None:
    """The signal ``timeout(1)`` sends (SIGTERM, or SIGHUP as a closed terminal does), sent
    while the run plays: once a bot holds a match of the run in play (the gated bot,
    behind a file the test removes only after the signal), so that however fast or slow
    the machine, the run has begun and cannot have ended before the signal."""
    from test_faults_data import write_league

    league = write_league(tmp_path, cycles=3, preset="pagat", pairs=4)
    league.write_text(
        league.read_text().replace('name = "G1"\nbot = "greedy"', 'name = "G1"\nbot = "gated"')
    )
    whole, stopped = tmp_path / "whole.db", tmp_path / "stopped.db"
    for db in (whole, stopped):
        assert main(["--db", str(db), "league", "import", str(league)]) == 0
    assert main(["--db", str(whole), "event", "run", "ev", "--workers", "2"]) == 0
    gate = tmp_path / "gate"
    held = Path(f"{gate}.held")
    gate.touch()
    proc = subprocess.Popen(
        [sys.executable, "-m", "c8league", "--db", str(stopped), "event", "run", "ev",
         "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "C8FAULT_GATE": str(gate)},
    )  # fmt: skip
    try:
        eventually(
            lambda: held.exists() or proc.poll() is not None,
            "the gated bot holding one of the run's matches",
            seconds=300,
        )
        assert proc.poll() is None, proc.communicate()[1]
        proc.send_signal(getattr(signal, f"SIG{name}"))
        _, err = proc.communicate(timeout=600)
    finally:
        gate.unlink(missing_ok=True)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, err
    lines = [line for line in err.splitlines() if line.strip() and "━" not in line]
    assert lines[-1].startswith(f"interrupted by SIG{name}"), err
    assert "Traceback" not in err
    if "stored by this run" in lines[-1]:
        assert lines[-1].endswith("the rest are played by: c8league event resume ev")
        assert not [line for line in lines[:-1] if line.startswith("interrupted")]
    assert main(["--db", str(stopped), "event", "resume", "ev", "--workers", "2"]) == 0
    assert results(f"sqlite:///{stopped}") == results(f"sqlite:///{whole}")


@pytest.mark.parametrize(
    ("stop", "status", "words"),
    [
        (KeyboardInterrupt(), 130, "interrupted: "),
        (Stopped(signal.SIGTERM), 143, "interrupted by SIGTERM: "),
        (Stopped(signal.SIGHUP), 129, "interrupted by SIGHUP: "),
    ],
    ids=["ctrl-c", "sigterm", "sighup"],
)
def test_a_stopped_run_says_so_in_one_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stop: BaseException,
    status: int,
    words: str,
) -> None:
    from test_faults_data import write_league

    from c8league.events import running

    db = str(tmp_path / "x.db")
    assert main(["--db", db, "league", "import", str(write_league(tmp_path, cycles=1))]) == 0

    def stopped(*args: object, **kwargs: object) -> None:
        raise stop

    monkeypatch.setattr(running, "_run_rounds", stopped)
    capsys.readouterr()
    assert main(["--db", db, "event", "run", "ev"]) == status
    err = capsys.readouterr().err
    assert err == (
        f"{words}0 matches stored by this run, each whole; the rest are played by: "
        "c8league event resume ev\n"
    )


def test_sigterm_and_sighup_raise_where_ctrl_c_does() -> None:
    with stop_signals():
        for number in (signal.SIGTERM, signal.SIGHUP):
            with pytest.raises(Stopped) as caught:
                os.kill(os.getpid(), number)
                time.sleep(1)  # the handler runs first
            assert isinstance(caught.value, KeyboardInterrupt)
            assert signal_of(caught.value) == number
            assert stopped_by(caught.value) == f"interrupted by {signal.Signals(number).name}"
            assert exit_status(number) == 128 + number
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


@pytest.mark.usefixtures("faulty", "mode")
def test_bots_check_of_a_python_bot_that_leaves_processes_leaves_none(
    marker: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for bot in ("doublefork", "setsid"):
        args = ["bots", "check", bot, "--games", "1", "--presets", "basic"]
        main(args)
        assert "Traceback" not in capsys.readouterr().err
        none_left(marker)
