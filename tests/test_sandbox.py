"""External bots in their sandbox (``c8league.sandbox``): hostile bots of our own
do their worst (the database, other processes, other files, processes without end, the
disk, their cgroup, secrets), and a run with each gives the results of a run with a
harmless bot in its seat, charges no one, and leaves nothing of it behind. Then what a
bot author and an organiser see: the sandbox required or not available, a bot that
needs a path, ``bots check``, ``--version``, Python plugins refused.

The bots are copied each into a folder of its own, as a contest's organiser keeps them.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from dbs import results

from c8league import sandbox
from c8league.cli.main import main
from c8league.engine import Rules
from c8league.players.external import ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.runner.loop import play_match

BOTS = Path(__file__).parent / "bots"
HOSTILE = BOTS / "hostile.py"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux sandboxes")


OURS: list[str] = []
"""Where the bots whose processes these tests count live: this test process's own
temporary folder (added below; with pytest-xdist, its worker's). A sandboxed process
whose command line names the bots of a checkout (this one's too: another test may be
running them at the same time) or another temporary folder is not ours (any other is);
a test that counts its bots' processes runs them from its temporary folder."""
FOREIGN = re.compile(
    r"(\S*/(?:tests/bots|plugins/c8league-[\w-]+)/"  # a checkout's bots
    r"|\S*/pytest-of-[^/\s]+/pytest-\d+/(?:popen-gw\d+/)?)"  # a test run's (worker's) folder
)


@pytest.fixture(scope="module", autouse=True)
def available(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The sandbox is there (CI installs bubblewrap: there it must be)."""
    OURS.append(f"{tmp_path_factory.getbasetemp()}/")
    found = sandbox.support()
    if not found.available:
        if os.environ.get("CI"):
            pytest.fail(f"no sandbox in CI: {found.problem}")
        pytest.skip(f"no sandbox here: {found.problem}")


def eventually(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.02)


def sandbox_processes() -> list[tuple[int, str]]:
    """Processes of this test run (see :data:`OURS`) running as a sandbox's own user (run
    by root: user ids from ``sandbox.UID_BASE``), with their command lines."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            uid = int(re.search(r"^Uid:\s+(\d+)", (entry / "status").read_text(), re.M)[1])  # type: ignore[index]
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, TypeError):
            continue
        named = FOREIGN.findall(cmd)
        ours = not named or any(path.startswith(where) for path in named for where in OURS)
        if ours and sandbox.UID_BASE <= uid < sandbox.UID_BASE + (1 << 28):
            found.append((int(entry.name), cmd))
    return found


def named(marker: str) -> list[tuple[int, str]]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd:
            found.append((int(entry.name), cmd))
    return found


# -- a contest's arena ----------------------------------------------------------------------


class Arena:
    """A league of three bots, each in a folder of its own: the one tested (``Attacker``),
    a harmless external bot (``Victim``) and ``greedy``, a round robin of two cycles, run
    with the sandbox required."""

    def __init__(self, root: Path, attack: str, *, database_beside_attacker: bool = False) -> None:
        self.root = root
        self.marker = f"hostile-{uuid.uuid4().hex[:12]}"
        self.folders = {}
        for name in ("attacker", "victim"):
            folder = root / "bots" / name
            folder.mkdir(parents=True)
            shutil.copy(HOSTILE, folder / "bot.py")
            self.folders[name] = folder
        for path in [root, root / "bots", *self.folders.values()]:
            path.chmod(0o755)
        self.logs = root / "logs"
        self.logs.mkdir()
        self.victim = self.folders["victim"] / "bot.py"
        options = {
            "command": [sys.executable, str(self.folders["attacker"] / "bot.py"), attack],
            "log_dir": str(self.logs),
            "move_time": 10,
            # Its attack comes before its hello: walking what it sees (a virtual
            # environment's thousands of files) may take long on a busy machine.
            "startup_time": 600,
            "env": {"HOSTILE_MARKER": self.marker, "HOSTILE_TARGETS": str(self.victim)},
        }
        victim = {"command": [sys.executable, str(self.victim), "harmless"], "move_time": 10}
        lines = ['name = "arena"\ntable_size = 2\n[rules]\npreset = "pagat"\n']
        for entrant, bot, opts in [
            ("Attacker", "external", options),
            ("Victim", "external", victim),
            ("Greedy", "greedy", None),
        ]:
            lines.append(f'[[entrants]]\nname = "{entrant}"\nbot = "{bot}"\n')
            if opts is not None:
                lines.append(f"options = {toml_table(opts)}\n")
        lines.append('[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = 2\nseed = 7\n')
        league = root / "arena.toml"
        league.write_text("\n".join(lines))
        folder = self.folders["attacker"] if database_beside_attacker else root
        self.db = folder / "arena.db"
        self.url = f"sqlite:///{self.db}"
        assert main(["--db", self.url, "league", "import", str(league)]) == 0

    def run(self) -> int:
        return main(
            ["--db", self.url, "event", "run", "ev", "--workers", "2", "--sandbox", "required"]
        )

    def said(self) -> str:
        """What the attacker wrote to its standard error, in every match."""
        return "".join(log.read_text(errors="replace") for log in sorted(self.logs.glob("*.log")))


def toml_table(options: dict[str, Any]) -> str:
    """``options`` as a TOML inline table."""

    def value(item: Any) -> str:
        return toml_table(item) if isinstance(item, dict) else json.dumps(item)

    return "{ " + ", ".join(f"{key} = {value(item)}" for key, item in options.items()) + " }"


@pytest.fixture(scope="module")
def harmless(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The results of the arena with a harmless bot in the attacker's seat."""
    arena = Arena(tmp_path_factory.mktemp("harmless"), "harmless")
    assert arena.run() == 0
    return results(arena.url)


def forfeits(url: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as con:
        return con.execute(
            "SELECT id, forfeit_seat, forfeit_reason, forfeit_detail FROM match "
            "WHERE forfeit_seat IS NOT NULL"
        ).fetchall()


@pytest.mark.parametrize(
    "attack", ["database", "signals", "overwrite", "forks", "disk", "escape", "secrets"]
)
def test_a_hostile_bot_harms_no_one_and_leaves_nothing(
    tmp_path: Path,
    attack: str,
    harmless: list[tuple[object, ...]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("C8LEAGUE_TEST_SECRET", "hunter2-token")  # c8league's environment
    arena = Arena(tmp_path, attack, database_beside_attacker=attack == "database")
    victim = arena.victim.read_bytes()
    assert arena.run() == 0
    said = arena.said()
    assert forfeits(arena.url) == [], said
    assert results(arena.url) == harmless  # the standings, hand by hand, and the ratings
    assert arena.victim.read_bytes() == victim
    eventually(lambda: not sandbox_processes(), f"no sandboxed process left: {sandbox_processes()}")
    assert not named(arena.marker)
    assert not list(arena.folders["attacker"].glob("fill-*"))
    assert "hunter2-token" not in said and "C8LEAGUE" not in said
    assert " wrote " not in f" {said}" and "\nwrote " not in said, said
    if attack == "database":
        assert "could not write" not in said or "arena.db" not in said
        assert "deleted" not in said
    elif attack == "signals":
        assert "signalled" not in said and "stopped group" not in said, said
    elif attack == "forks":
        forked = [int(n) for n in re.findall(r"forked (\d+)", said)]
        assert forked and max(forked) < 1000
    elif attack == "disk":
        filled = [int(n) for n in re.findall(r"with (\d+) MiB", said)]
        assert filled and max(filled) <= 64
    elif attack == "escape":
        assert "escaped" in said and "moved to" not in said
    elif attack == "secrets":
        environment = re.search(r"environment (\[.*\])", said)
        assert environment is not None
        assert set(eval(environment[1])) <= {
            "HOME",
            "LANG",
            "PATH",
            "PWD",
            "HOSTILE_MARKER",
            "HOSTILE_TARGETS",
        }
        for elsewhere in (arena.logs, arena.db, arena.folders["victim"]):
            assert str(elsewhere) not in said


# -- what the sandbox shows ---------------------------------------------------------------


def spy(folder: Path, code: str) -> Path:
    """A bot that runs ``code`` (its findings to standard error), then plays."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    bot = folder / "spy.py"
    bot.write_text(
        "import json, os, sys\n"
        f"{code}\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': print(json.dumps({'type': 'hello'}), flush=True)\n"
        "    elif m['type'] == 'move':\n"
        "        print(json.dumps({'type': 'move', 'move': m['legal'][0]}), flush=True)\n"
        "    elif m['type'] == 'quit': break\n"
    )
    return bot


def played(bot: Path, tmp_path: Path, **options: Any) -> tuple[Any, str]:
    """One match of the bot against greedy: the outcome and what the bot wrote."""
    logs = tmp_path / f"logs-{uuid.uuid4().hex[:8]}"
    logs.mkdir()
    player = ExternalPlayer([sys.executable, str(bot)], log_dir=str(logs), **options)
    outcome = play_match(Rules.from_options("basic"), [player, GreedyPlayer()], 3)
    player.close()
    return outcome, "".join(log.read_text() for log in logs.glob("*.log"))


def test_a_bot_sees_its_folder_and_scratch_alone(tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("not for bots")
    homes = sorted(str(p) for p in Path.home().iterdir() if p.is_file()) or ["/nonexistent"]
    bot = spy(
        tmp_path / "bot",
        "print(sorted(os.listdir('/')), os.getcwd(), os.environ['HOME'], file=sys.stderr)\n"
        "print([p for p in os.listdir('/proc') if p.isdigit()], file=sys.stderr)\n"
        f"for path in [os.path.abspath('../secret.txt'), {homes[0]!r}]:\n"
        "    print(path, os.path.exists(path), file=sys.stderr)\n"
        "open('/tmp/ok', 'w').write('scratch')\n"
        "try:\n"
        "    open('mine', 'w')\n"
        "except OSError as e:\n"
        "    print('folder', e.strerror, file=sys.stderr)\n",
    )
    outcome, said = played(bot, tmp_path)
    assert outcome.forfeit is None, said
    first, procs, secret, home, folder = said.splitlines()[:5]
    assert first.endswith(f"] {tmp_path / 'bot'} /tmp")  # its folder, and HOME in scratch
    assert procs == "['1', '2']"  # the sandbox's first process and the bot
    assert secret == f"{tmp_path / 'secret.txt'} False"
    assert home.endswith("False")
    assert folder == "folder Read-only file system"


@pytest.mark.parametrize("mode", ["required", "off"])
def test_a_bot_goes_first_when_the_machine_runs_out_of_memory(tmp_path: Path, mode: str) -> None:
    bot = spy(tmp_path / "bot", "print(open('/proc/self/oom_score_adj').read(), file=sys.stderr)")
    outcome, said = played(bot, tmp_path, sandbox=mode)
    assert outcome.forfeit is None and said.split() == ["1000"]


def test_a_bot_that_needs_a_path_is_shown_it_with_ro_paths(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "weights.txt").write_text("42")
    data.chmod(0o755)
    bot = spy(
        tmp_path / "bot", f"print(open({str(data / 'weights.txt')!r}).read(), file=sys.stderr)"
    )
    outcome, said = played(bot, tmp_path)
    assert outcome.forfeit is not None and outcome.forfeit.reason == "crash"
    assert sandbox.needs(outcome.forfeit.detail) == sandbox.Need("read", str(data / "weights.txt"))
    outcome, said = played(bot, tmp_path, ro_paths=[str(data)])
    assert outcome.forfeit is None and said.startswith("42")


def test_a_kept_bot_keeps_its_sandboxed_process_from_match_to_match(tmp_path: Path) -> None:
    """A bot that announces ``match_start`` plays every match of a worker in one sandboxed
    process, and what it started in a match ends with the match."""
    from c8league.players.external import keep

    logs = tmp_path / "logs"
    logs.mkdir()
    for name in ("good.py", "botlib.py"):  # its processes are this test's
        shutil.copy(BOTS / name, tmp_path / name)
    keep.enable()
    try:
        for seed in range(3):
            player = ExternalPlayer(
                [sys.executable, str(tmp_path / "good.py")],
                log_dir=str(logs),
                env={"BOT_MATCHES": "1", "BOT_ECHO": "1"},
            )
            outcome = play_match(Rules.from_options("basic"), [player, GreedyPlayer()], seed)
            assert outcome.forfeit is None
            player.close()
    finally:
        keep.release()
    text = "".join(log.read_text() for log in sorted(logs.glob("*.log")))  # a log a match
    assert text.count('"type":"hello"') == 1, "one process"
    assert text.count('"type":"match_start"') == 2
    eventually(lambda: not sandbox_processes(), "the kept bot gone once released")


def test_a_sandboxed_bot_killed_by_the_kernel_is_out_of_memory(tmp_path: Path) -> None:
    outcome, _ = played(BOTS / "memory_hog.py", tmp_path, memory_mb=200)
    assert outcome.forfeit is not None
    assert outcome.forfeit.reason == "memory", outcome.forfeit.detail


def test_a_bot_that_stops_itself_forfeits_on_time(tmp_path: Path) -> None:
    bot = spy(tmp_path / "bot", "import signal\nos.kill(os.getpid(), signal.SIGSTOP)")
    outcome, _ = played(bot, tmp_path, startup_time=1)
    assert outcome.forfeit is not None and outcome.forfeit.reason == "timeout"
    assert "found stopped" in outcome.forfeit.detail
    eventually(lambda: not sandbox_processes(), "the stopped bot gone")


def test_a_folder_the_bots_user_cannot_read_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only root runs a bot as a user of its own")
    bot = spy(tmp_path / "private", "")
    bot.parent.chmod(0o700)
    outcome, _ = played(bot, tmp_path)
    assert outcome.forfeit is not None and outcome.forfeit.reason == "crash"
    assert f"cannot read {bot.parent} (mode drwx------)" in outcome.forfeit.detail
    assert f"chmod -R a+rX {bot.parent}" in outcome.forfeit.detail


# -- what organisers and authors see ------------------------------------------------------


@pytest.fixture
def no_bubblewrap(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This machine, as one without bubblewrap."""
    missing = sandbox.Support(
        problem="bubblewrap (bwrap) is not installed", hint=sandbox.INSTALL_HINT
    )
    monkeypatch.setattr(sandbox, "support", lambda: missing)
    yield


def duel(tmp_path: Path, *args: str) -> int:
    bot = f"cmd:{sys.executable} {BOTS / 'good.py'}"
    return main(
        [
            "--db",
            str(tmp_path / "d.db"),
            "duel",
            bot,
            "greedy",
            "--games",
            "2",
            "--workers",
            "1",
            *args,
        ]
    )


@pytest.mark.usefixtures("no_bubblewrap")
def test_without_bubblewrap_a_run_says_so_once_and_required_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert duel(tmp_path) == 0
    err = capsys.readouterr().err
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warnings == [
        "warning: external bots run without a sandbox: bubblewrap (bwrap) is not installed "
        f"({sandbox.INSTALL_HINT}); --sandbox off runs them so without this warning"
    ]
    assert duel(tmp_path, "--sandbox", "off") == 0
    assert "warning" not in capsys.readouterr().err
    assert duel(tmp_path, "--sandbox", "required") == 3
    assert capsys.readouterr().err.splitlines() == [
        f"error: A (cmd:{sys.executable} {BOTS / 'good.py'}) cannot start: external player: "
        "the sandbox is required, but bubblewrap (bwrap) is not installed "
        f"({sandbox.INSTALL_HINT}); duel duel-3 has no verdict (c8league duel resume duel-3 "
        "--sandbox required)"
    ]


def plugin_bot() -> GreedyPlayer:
    """A Python plugin not of c8league (its code is this module's)."""
    return GreedyPlayer()


def test_the_sandbox_required_refuses_a_python_plugin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from c8league.players import registry

    registry.register("plugin-bot", plugin_bot)
    try:
        code = main(
            [
                "--db",
                str(tmp_path / "d.db"),
                "duel",
                "plugin-bot",
                "greedy",
                "--games",
                "2",
                "--sandbox",
                "required",
            ]
        )
    finally:
        registry.unregister("plugin-bot")
    assert code == 3
    assert "player 'plugin-bot' is a Python plugin" in capsys.readouterr().err


def test_version_says_how_bots_are_sandboxed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    line = next(text for text in lines if text.startswith("sandbox: "))
    assert line == f"sandbox: {sandbox.support().text()}"
    assert line.startswith("sandbox: bubblewrap ")


def test_bots_check_runs_the_bot_in_its_sandbox_and_says_what_it_lacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "book.txt").write_text("e4")
    bot = spy(tmp_path / "bot", f"open({str(data / 'book.txt')!r}).read()")
    args = ["bots", "check", f"cmd:{sys.executable} {bot}", "--games", "1", "--presets", "basic"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert f"its folder {bot.parent} (read-only)" in out
    assert (
        f"The bot looked for {data / 'book.txt'}, outside its sandbox: the option "
        f"ro_paths='[\"{data}\"]' shows it (read-only), or put it in the bot's folder." in out
    )
    assert main([*args, f'ro_paths=["{data}"]']) == 0
    assert f"{data} (read-only)" in capsys.readouterr().out


def test_bots_check_and_demo_hide_the_database_beside_the_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database kept in the bot's own folder is hidden from it by every command that
    runs bots, not by the runs alone."""
    db = tmp_path / "league.db"
    assert main(["--db", str(db), "init"]) == 0
    bot = spy(
        tmp_path,
        "try:\n"
        f"    seen = open({str(db)!r}, 'rb').read(16)\n"
        "except OSError:\n"
        "    seen = b''\n"
        "if seen.startswith(b'SQLite'): sys.exit('the database is in view')",
    )
    spec = f"cmd:{sys.executable} {bot}"
    capsys.readouterr()
    monkeypatch.delenv(sandbox.HIDE_VAR, raising=False)
    args = ["--db", str(db), "bots", "check", spec, "--games", "1", "--presets", "basic"]
    assert main(args) == 0, capsys.readouterr().out
    capsys.readouterr()
    monkeypatch.delenv(sandbox.HIDE_VAR)  # (as a command of its own)
    assert main(["--db", str(db), "demo", spec, "greedy", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "in view" not in out and "forfeit" not in out, out
