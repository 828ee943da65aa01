"""Processes: no bot takes a run down, and no process outlives a run, however it ends.

One repro per fault of the processes group found by the fault campaign:

* ``--workers`` far above the cores is refused, and no batch starts more workers than
  it has matches;
* Python bots that call ``sys.exit``, ``os._exit``, raise ``KeyboardInterrupt``, sleep
  for ever in one C call, loop in C, or swallow every interruption forfeit, the event
  goes on, and the results are the same with one worker or two (and on Dask);
  ``bots check`` says what each did;
* after a run ends in any way (normally, on an error, Ctrl-C, SIGTERM, ``kill -9`` of
  its main process or of its whole process group, a worker killed) no process of it
  is left: the run is a real ``python -m c8league`` whose processes carry a marker in
  their environment, looked for in ``/proc``;
* ``bots check`` of a crashing external bot reports a crash, not non-determinism, and
  keeps its logs in one folder it names;
* a bot's standard error log is capped, head and tail kept;
* the match time limit never leaves a match half-applied (the ``zip()`` error).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from dbs import event_state, games, results

import c8league
from c8league.cli.main import main
from c8league.engine import Move, Observation, Rules
from c8league.engine import match as engine_match
from c8league.players import registry
from c8league.players.external import LOG_HEAD, LOG_TAIL, ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.executors import max_workers
from c8league.runner.loop import MatchTimeout, play_match
from c8league.runner.pool import MatchRunner
from c8league.runner.tasks import MatchTask, SeatSpec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = Path(c8league.__file__).resolve().parents[1]
BOTS = Path(__file__).parent / "bots"

# -- faulty Python bots, as an installable plugin (entry points) ------------------------------

FAULTY = '''
"""Python bots that fault in ways a player can."""
import itertools
import os
import subprocess
import sys
import threading
import time

from c8league.players.base import BasePlayer


class Faulty(BasePlayer):
    at = 3
    """The decision (in the match) that faults."""
    seat = None
    """Fault only in this seat (None: in any)."""

    def __init__(self):
        self.count, self.sitting = 0, -1

    def start_match(self, seat, players, seed):
        self.count, self.sitting = 0, seat

    def choose(self, observation, legal):
        self.count += 1
        if self.count == self.at and self.seat in (None, self.sitting):
            self.fault()
        return legal[0]


class SysExit(Faulty):
    def fault(self):
        sys.exit(3)


class OsExit(Faulty):
    def fault(self):
        os._exit(7)


class Interrupt(Faulty):
    def fault(self):
        raise KeyboardInterrupt


class Sleeper(Faulty):
    at, seat = 2, 0

    def fault(self):
        time.sleep(1e6)


class CLoop(Faulty):
    at, seat = 2, 0

    def fault(self):
        sum(itertools.repeat(1, 10**13))  # one C call: no signal handler runs in it


class Swallower(Faulty):
    at, seat = 2, 0

    def fault(self):
        while True:
            try:
                time.sleep(0.01)
            except BaseException:
                pass


class DoubleFork(Faulty):
    """Leaves a process behind at its third decision: a grandchild adopted elsewhere."""

    def fault(self):
        if os.fork() == 0:
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", "300"])
            os._exit(0)
        os.wait()


class Setsid(Faulty):
    """Leaves a process behind at its third decision, in a session of its own."""

    def fault(self):
        subprocess.Popen(["sleep", "300"], start_new_session=True)


class ClosesFds(Faulty):
    """Closes every file descriptor from 3 up at its third decision: the worker's too."""

    def fault(self):
        os.closerange(3, 65536)


class ExitsLater(Faulty):
    """Ends the process 5 ms after its third decision, from a thread of its own."""

    def fault(self):
        threading.Timer(0.005, os._exit, (5,)).start()


class Lingers(Faulty):
    """Leaves a thread running for a second at its third decision (it does no harm)."""

    def fault(self):
        threading.Thread(target=time.sleep, args=(1.0,)).start()


class Ponder(BasePlayer):
    """Plays well, slowly: 10 ms a decision."""

    def choose(self, observation, legal):
        time.sleep(0.01)
        return legal[0]


class Gated(BasePlayer):
    """Plays as Ponder does, without its wait; but while the file named by C8FAULT_GATE
    exists, holds at its first decision of a match, having made the file of that name
    and ".held": a run stays in play, however fast it goes."""

    def __init__(self):
        self.playing = False

    def choose(self, observation, legal):
        gate = os.environ.get("C8FAULT_GATE", "")
        if not self.playing and gate and os.path.exists(gate):
            open(gate + ".held", "w").close()
            while os.path.exists(gate):
                time.sleep(0.01)
        self.playing = True
        return legal[0]


class Explodes(BasePlayer):
    """Cannot be built once the file named by C8FAULT_FLAG exists."""

    def __init__(self):
        flag = os.environ.get("C8FAULT_FLAG", "")
        if flag and os.path.exists(flag):
            raise RuntimeError("the flag is up")

    def choose(self, observation, legal):
        return legal[0]
'''

BOT_CLASSES = {
    "sysexit": "SysExit",
    "osexit": "OsExit",
    "interrupt": "Interrupt",
    "sleeper": "Sleeper",
    "cloop": "CLoop",
    "swallower": "Swallower",
    "doublefork": "DoubleFork",
    "setsid": "Setsid",
    "closesfds": "ClosesFds",
    "exitslater": "ExitsLater",
    "lingers": "Lingers",
    "ponder": "Ponder",
    "gated": "Gated",
    "explodes": "Explodes",
}
INSTANT = ("sysexit", "osexit", "interrupt")
"""Fault at their third decision, every match."""
HANGING = ("sleeper", "cloop", "swallower")
"""Hang at their second decision when they sit in seat 0."""
EXPECTED = {
    "sysexit": ("exception", 3, "SystemExit: 3"),
    "osexit": ("crash", 3, "exited with code 7"),
    "interrupt": ("exception", 3, "KeyboardInterrupt"),
    "sleeper": ("timeout", 2, "passed its limit"),
    "cloop": ("timeout", 2, "passed its limit"),
    "swallower": ("timeout", 2, "passed its limit"),
}


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the faulty bots as an installed plugin: put it on the path."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "c8fault_bots.py").write_text(FAULTY)
    info = folder / "c8fault_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: c8fault-bots\nVersion: 0.1\n")
    points = "".join(f"{name} = c8fault_bots:{cls}\n" for name, cls in BOT_CLASSES.items())
    (info / "entry_points.txt").write_text("[c8league.players]\n" + points)
    return folder


@pytest.fixture
def faulty(plugin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The faulty bots installed here (and in processes started from here)."""
    monkeypatch.syspath_prepend(str(plugin_dir))
    paths = [str(plugin_dir), str(ROOT), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    registry.rescan()
    yield
    registry.rescan()


def league(tmp_path: Path, entrants: dict[str, str], *, cycles: int = 1, name: str = "l") -> Path:
    """A round-robin league of two-player tables; ``entrants`` maps names to bots."""
    lines = [f'name = "{name}"\ntable_size = 2\n[rules]\npreset = "pagat"\n']
    for entrant, bot in entrants.items():
        lines.append(f'[[entrants]]\nname = "{entrant}"\nbot = "{bot}"\n')
    lines.append(f'[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = {cycles}\nseed = 5\n')
    path = tmp_path / f"{name}.toml"
    path.write_text("\n".join(lines))
    return path


def imported(tmp_path: Path, file: str, league_file: Path) -> str:
    url = f"sqlite:///{tmp_path / file}"
    assert main(["--db", url, "league", "import", str(league_file)]) == 0
    return url


def forfeits(url: str) -> list[tuple[object, ...]]:
    """(bot, reason, move, detail) of every forfeit, as ``match show`` reads them."""
    return [
        (g.specs[f.seat], f.reason, f.move_number, f.detail)
        for g in games(url)
        if (f := g.forfeit) is not None
    ]


def pending(url: str) -> int:
    state = event_state(url)
    return state.matches_total - state.matches_done


# -- item 4: the number of workers ------------------------------------------------------------


def test_workers_far_above_the_cores_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = imported(tmp_path, "w.db", league(tmp_path, {"G": "greedy", "R": "random"}))
    capsys.readouterr()
    too_many = str(max_workers() + 1)
    for executor in ("processes", "dask"):
        args = ["event", "run", "ev", "--workers", "1000000", "--executor", executor]
        assert main(["--db", url, *args]) == 2
        err = capsys.readouterr().err
        assert "--workers 1000000 is far more than this machine's" in err
        assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert main(["--db", url, "event", "run", "ev", "--workers", too_many]) == 2
    assert "far more than" in capsys.readouterr().err
    assert event_state(url).rounds_paired == 0  # nothing written


def _worker_children() -> list[int]:
    """Child processes of this one that are forks of it (the runner's workers)."""
    me = Path("/proc/self/cmdline").read_bytes()
    pids = []
    for tasks in Path(f"/proc/{os.getpid()}/task").iterdir():
        for pid in (tasks / "children").read_text().split():
            try:
                if Path(f"/proc/{pid}/cmdline").read_bytes() == me:
                    pids.append(int(pid))
            except OSError:
                continue
    return pids


def test_a_batch_starts_no_more_workers_than_matches() -> None:
    rules = Rules.from_options("pagat").to_json()
    seats = (SeatSpec("greedy"), SeatSpec("random"))
    tasks = [MatchTask(i, rules, seats, seed=i) for i in range(3)]
    before = set(_worker_children())
    with (
        registry.only_registered({"greedy": GreedyPlayer, "random": RandomPlayer}),
        MatchRunner(8) as runner,
    ):
        reports = list(runner.run(tasks))
        assert len(set(_worker_children()) - before) == 3
    assert [r.match_id for r in reports] == [0, 1, 2]
    assert set(_worker_children()) <= before  # closed with the runner


def test_a_local_dask_cluster_starts_no_more_workers_than_matches() -> None:
    pytest.importorskip("distributed")
    from c8league.runner.dask_executor import DaskRunner

    rules = Rules.from_options("pagat").to_json()
    task = MatchTask(1, rules, (SeatSpec("greedy"), SeatSpec("random")), seed=1)
    with DaskRunner(None, 2) as runner:
        (report,) = runner.run([task])
        assert report.error is None
        assert len(runner.connect().nthreads()) == 1


# -- item 5: Python bots that take their process down or hang ---------------------------------


def _run_faulty(tmp_path: Path, bots: tuple[str, ...], workers: str, seconds: str) -> str:
    entrants = {"G": "greedy", "R": "random", **{b: b for b in bots}}
    url = imported(tmp_path, f"{workers}-{'-'.join(bots)}.db", league(tmp_path, entrants))
    args = ["event", "run", "ev", "--workers", workers, "--match-seconds", seconds]
    assert main(["--db", url, *args]) == 0
    assert pending(url) == 0
    return url


def _check_forfeits(url: str, bots: tuple[str, ...]) -> None:
    rows = forfeits(url)
    assert {row[0] for row in rows} <= set(bots)
    for bot in bots:
        reason, move, words = EXPECTED[bot]
        mine = [row for row in rows if row[0] == bot]
        assert mine, f"{bot} never forfeited"
        for _, got_reason, got_move, detail in mine:
            assert (got_reason, got_move) == (reason, move), detail
            assert words in str(detail)


@pytest.mark.usefixtures("faulty")
def test_bots_that_end_their_process_forfeit_and_the_event_goes_on(tmp_path: Path) -> None:
    one = _run_faulty(tmp_path, INSTANT, "1", "60")
    two = _run_faulty(tmp_path, INSTANT, "2", "60")
    _check_forfeits(one, INSTANT)
    assert results(one) == results(two)


@pytest.mark.usefixtures("faulty")
def test_bots_deaf_to_the_match_limit_forfeit_and_the_event_goes_on(tmp_path: Path) -> None:
    one = _run_faulty(tmp_path, HANGING, "1", "0.5")
    two = _run_faulty(tmp_path, HANGING, "2", "0.5")
    _check_forfeits(one, HANGING)
    # Each hangs only in seat 0: its other matches are played through.
    for bot in HANGING:
        assert len([row for row in forfeits(one) if row[0] == bot]) < 4
    assert results(one) == results(two)


@pytest.mark.usefixtures("faulty")
@pytest.mark.parametrize("bot", [*INSTANT, *HANGING])
def test_bots_check_says_what_a_faulty_bot_did(
    bot: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["bots", "check", bot, "--games", "1", "--presets", "pagat", "--match-seconds", "0.5"]
    assert main(args) == 1
    text = capsys.readouterr().out
    reason, move, words = EXPECTED[bot]
    assert f"  {reason}: pagat game 1 (seed" in text  # each fault by its kind
    assert f"at its move {move}" in text
    if reason != "timeout":
        assert words in text
    assert "deterministic" not in text and "earlier" not in text


@pytest.mark.usefixtures("faulty")
def test_faulty_bots_on_a_dask_cluster_give_the_process_pool_results(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    bots = ("sysexit", "osexit", "cloop")
    pool = _run_faulty(tmp_path, bots, "2", "0.5")
    entrants = {"G": "greedy", "R": "random", **{b: b for b in bots}}
    url = imported(tmp_path, "dask.db", league(tmp_path, entrants))
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=":0"
    )
    try:
        args = ["event", "run", "ev", "--executor", "dask", "--address", cluster.scheduler_address]
        assert main(["--db", url, *args, "--match-seconds", "0.5"]) == 0
    finally:
        cluster.close()
    assert results(url) == results(pool)


# -- item 6: no process outlives a run ---------------------------------------------------------

SPAWNER = """
import json, os, subprocess, sys, time
child = subprocess.Popen(["sleep", "1000"])
gate = os.environ.get("C8FAULT_GATE", "")
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "name": "spawner"})
    elif message["type"] == "move":
        while gate and not os.path.exists(gate):
            time.sleep(0.01)
        time.sleep(0.002)
        send({"type": "move", "move": message["legal"][0]})
    elif message["type"] == "quit":
        break
"""
"""An external bot that starts a ``sleep`` child, then plays slowly: a run of it leaves
strays unless bots' process groups are killed. While the file named by ``C8FAULT_GATE``
is missing, it waits before each move: a run then cannot end before the test stops it."""


def marked(marker: str) -> list[tuple[int, str]]:
    """Processes whose environment carries ``marker``: (pid, command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if marker.encode() not in (entry / "environ").read_bytes():
                continue
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        found.append((int(entry.name), cmd.strip()))
    return found


def eventually(condition: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.05)


class Run:
    """A real ``python -m c8league event run`` of external bots that start children."""

    def __init__(self, tmp_path: Path, plugin_dir: Path, *, cycles: int = 2) -> None:
        self.marker = f"c8fault-{uuid.uuid4().hex}"
        self.flag = tmp_path / "flag"
        self.gate = tmp_path / "gate"
        bot = tmp_path / "spawner.py"
        bot.write_text(SPAWNER)
        lines = ['name = "strays"\ntable_size = 2\n[rules]\npreset = "basic"\n']
        for i in range(3):
            lines.append(
                f'[[entrants]]\nname = "S{i}"\nbot = "external"\n'
                f"options = {{ command = [{str(sys.executable)!r}, {str(bot)!r}], "
                'sandbox = "off" }\n'  # (its processes are found by their environment)
            )
        lines.append('[[entrants]]\nname = "E"\nbot = "explodes"\n')
        lines.append(f'[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = {cycles}\n')
        (tmp_path / "strays.toml").write_text("\n".join(lines))
        self.env = {
            **os.environ,
            "C8FAULT_MARKER": self.marker,
            "C8FAULT_FLAG": str(self.flag),
            "C8FAULT_GATE": str(self.gate),
            "PYTHONPATH": os.pathsep.join([str(plugin_dir), str(ROOT)]),
        }
        self.db = str(tmp_path / "strays.db")
        self.prefix = [sys.executable, "-m", "c8league", "--db", self.db]
        self.log = tmp_path / "run.log"
        self.command("league", "import", str(tmp_path / "strays.toml"))

    def command(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, *args],
            env=self.env,
            check=True,
            capture_output=True,
        )

    def start(self) -> subprocess.Popen[bytes]:
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [*self.prefix, "event", "run", "ev", "--workers", "2", "--match-seconds", "60"],
                env=self.env,
                stdout=log,
                stderr=log,
                start_new_session=True,  # its own process group, as a shell job would be
            )
        return self.proc

    def bots_running(self) -> bool:
        return any(cmd.startswith("sleep ") for _, cmd in marked(self.marker))

    def workers(self) -> list[int]:
        """The run's worker processes: its children that are forks of it."""
        main_cmd = Path(f"/proc/{self.proc.pid}/cmdline").read_bytes()
        found = []
        for pid, _ in marked(self.marker):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) != self.proc.pid:
                    continue
                if Path(f"/proc/{pid}/cmdline").read_bytes() == main_cmd:
                    found.append(pid)
            except (OSError, ValueError, IndexError):
                continue
        return found

    def none_left(self) -> None:
        eventually(lambda: not marked(self.marker), f"no process left, found {marked(self.marker)}")


@pytest.fixture
def strays(tmp_path: Path, plugin_dir: Path) -> Iterator[Run]:
    run = Run(tmp_path, plugin_dir)
    yield run
    for pid, _ in marked(run.marker):  # whatever a failed test left
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def test_a_run_that_ends_leaves_no_process(strays: Run) -> None:
    strays.env["C8FAULT_FLAG"] = ""
    strays.gate.write_text("open")
    proc = strays.start()
    assert proc.wait(timeout=300) == 0, strays.log.read_text()
    strays.none_left()


def test_a_run_stopped_by_an_error_leaves_no_process(strays: Run) -> None:
    proc = strays.start()
    eventually(strays.bots_running, "bots running")
    strays.flag.write_text("up")  # the next match of E cannot be played: the run stops
    strays.gate.write_text("open")  # (no match could end before: E has matches to play)
    assert proc.wait(timeout=300) == 2
    assert "the flag is up" in strays.log.read_text()
    strays.none_left()


@pytest.mark.parametrize(
    "how",
    ["ctrl-c", "sigterm", "kill-9-main", "kill-9-group"],
)
def test_an_interrupted_run_leaves_no_process(strays: Run, how: str) -> None:
    strays.env["C8FAULT_FLAG"] = ""
    proc = strays.start()  # the gate closed: its matches wait until it is stopped
    eventually(strays.bots_running, "bots running")
    eventually(lambda: len(strays.workers()) == 2, "two workers")
    if how == "ctrl-c":  # what the terminal does: SIGINT to the foreground group
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=60) == 130
        assert "Traceback" not in strays.log.read_text()  # none from the workers either
    elif how == "sigterm":
        os.kill(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    elif how == "kill-9-main":
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    strays.none_left()


def test_a_killed_worker_costs_nothing_and_leaves_no_process(
    strays: Run, tmp_path: Path, plugin_dir: Path
) -> None:
    strays.env["C8FAULT_FLAG"] = ""
    (tmp_path / "whole").mkdir()
    whole = Run(tmp_path / "whole", plugin_dir)
    whole.env["C8FAULT_FLAG"] = ""
    whole.gate.write_text("open")
    assert whole.start().wait(timeout=300) == 0
    proc = strays.start()  # the gate closed: no match ends before the worker is killed
    eventually(strays.bots_running, "bots running")
    eventually(lambda: len(strays.workers()) == 2, "two workers")
    os.kill(strays.workers()[0], signal.SIGKILL)
    strays.gate.write_text("open")
    assert proc.wait(timeout=300) == 0, strays.log.read_text()
    strays.none_left()
    assert results(f"sqlite:///{strays.db}") == results(f"sqlite:///{whole.db}")


# -- item 7: bots check compares play -----------------------------------------------------------


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder that stands for the system's temporary folder."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(folder))
    return folder


def test_bots_check_of_a_crashing_external_bot(
    temp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = f"command={sys.executable} {BOTS / 'exits_mid_match.py'}"
    args = ["bots", "check", "external", "-o", command, "--games", "2", "--presets", "pagat"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "exited with code 3" in out
    assert "deterministic:" not in out  # the two plays differ only in their logs' paths
    (folder,) = temp.iterdir()  # one folder for the check, named
    assert folder.name.startswith("c8league-check-external-") and folder.is_dir()
    text = out.replace("\n", "")
    assert str(folder) in text
    logs = list(folder.iterdir())
    assert logs and all(str(log) in text for log in logs)  # the logs of its faults


def test_bots_check_of_a_quiet_bot_leaves_nothing(
    temp: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = f"command={sys.executable} {BOTS / 'good.py'}"
    args = ["bots", "check", "external", "-o", command, "--games", "1", "--presets", "basic"]
    assert main(args) == 0
    assert list(temp.iterdir()) == []


# -- item 8: capped logs ---------------------------------------------------------------------------

FLOOD = """
import json, sys
def send(message):
    sys.stdout.write(json.dumps(message) + "\\n")
    sys.stdout.flush()
sys.stderr.write("FIRST LINE\\n")
moves = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "hello", "name": "flood"})
    elif message["type"] == "move":
        moves += 1
        sys.stderr.write("x" * (1 << 20) + "\\n")
        sys.stderr.flush()
        send({"type": "move", "move": message["legal"][0]})
    elif message["type"] == "quit":
        sys.stderr.write(f"LAST LINE after {moves} moves\\n")
        break
"""


def test_a_bots_standard_error_log_is_capped_head_and_tail(tmp_path: Path) -> None:
    bot = tmp_path / "flood.py"
    bot.write_text(FLOOD)
    player = ExternalPlayer([sys.executable, str(bot)], log_dir=str(tmp_path))
    outcome = play_match(Rules.from_options("basic"), [player, GreedyPlayer()], seed=4)
    assert outcome.forfeit is None
    assert player.stderr_path is not None
    log = Path(player.stderr_path).read_bytes()
    moves = outcome.decisions  # at least the bot's own
    assert moves > 2
    assert len(log) <= LOG_HEAD + LOG_TAIL + 200
    assert log.startswith(b"FIRST LINE\n")
    assert log.rstrip().endswith(b" moves") and b"LAST LINE after" in log
    assert b"bytes of standard error dropped here" in log


# -- item 11: the match limit inside the engine --------------------------------------------------


def _consistent(outcome: object) -> None:
    from c8league.runner.loop import MatchOutcome

    assert isinstance(outcome, MatchOutcome)
    assert len(outcome.hand_results) == len(outcome.records)
    outcome.hand_reports()  # zip(strict=True): the error the campaign found
    assert outcome.result.hands == len(outcome.hand_results)
    if outcome.forfeit is not None:
        assert outcome.result.placements[outcome.forfeit.seat] == len(outcome.result.placements)


@pytest.mark.parametrize("where", ["main thread", "other thread"])
def test_the_match_limit_never_interrupts_the_engine(
    where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The end of a hand is recorded in steps (result, record, totals): a slow record
    makes the limit all but sure to pass between them."""
    record = engine_match.HandRecord.of

    def slow(hand: object) -> object:
        time.sleep(0.004)
        return record(hand)  # type: ignore[arg-type]

    monkeypatch.setattr(engine_match.HandRecord, "of", staticmethod(slow))
    rules = Rules.from_options("basic")
    outcomes: list[object] = []

    def play() -> None:
        for seed in range(40):
            limit = 0.002 + 0.0005 * (seed % 9)
            outcomes.append(
                play_match(rules, [GreedyPlayer(), RandomPlayer()], seed, match_seconds=limit)
            )

    if where == "main thread":
        play()
    else:
        thread = threading.Thread(target=play)
        thread.start()
        thread.join()
    assert len(outcomes) == 40
    for outcome in outcomes:
        _consistent(outcome)


class _RaisesTimeoutWhenFreed:
    """Its finalizer raises the match timer's timeout, as the timer's signal does when it
    lands in a finalizer (or a weak reference's callback) run in the middle of a call."""

    def __del__(self) -> None:
        raise MatchTimeout


class _FreesInItsCall(RandomPlayer):
    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        _RaisesTimeoutWhenFreed()  # (freed at once: its finalizer runs here)
        return super().choose(observation, legal)


def test_a_timeout_raised_where_it_cannot_be_passed_on_prints_nothing() -> None:
    rules = Rules.from_options("pagat")
    printed: list[object] = []  # what Python would print as "Exception ignored in ..."
    previous = sys.unraisablehook
    sys.unraisablehook = printed.append
    try:
        outcome = play_match(rules, [_FreesInItsCall(), RandomPlayer()], 1, match_seconds=60.0)
        assert outcome.forfeit is None and printed == []
        _RaisesTimeoutWhenFreed()  # outside a timed match: as before
        assert [type(what.exc_value) for what in printed] == [MatchTimeout]  # type: ignore[attr-defined]
    finally:
        sys.unraisablehook = previous


def test_tiny_match_limits_over_many_matches_give_whole_outcomes() -> None:
    rules = Rules.from_options("pagat")
    for seed in range(300):
        limit = 0.0002 * (1 + seed % 25)
        players = [GreedyPlayer(), RandomPlayer(), GreedyPlayer()]
        _consistent(play_match(rules, players, seed, match_seconds=limit))
