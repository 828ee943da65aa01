"""The code paths that differ by platform, exercised here.

* Without the POSIX-only modules ``fcntl`` and ``resource`` (as on Windows): the
  command line runs in processes whose ``sitecustomize`` makes importing them fail.
  The external player (and the plugins built on it) loads, an event of built-in bots
  and an external bot runs on worker processes, and the club night of
  docs/club-night.md runs as written.
* The Windows way of talking to a bot: its pipes relayed through sockets by threads
  (``c8league.players.external.windows``), played here through the same checks as the pipes.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_external import bot, each_broken_bot, gone
from test_readme import club_commands, typed_answers

from c8league.engine import Rules, wire
from c8league.players import external
from c8league.players.external import framing, windows
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.runner.loop import play_match

ROOT = Path(__file__).resolve().parents[1]
BOTS = Path(__file__).parent / "bots"

NO_POSIX = """\
import sys

# As on Windows: these modules do not exist.
sys.modules["fcntl"] = None
sys.modules["resource"] = None
"""


@pytest.fixture
def no_posix(tmp_path: Path) -> dict[str, str]:
    """The environment of a process where ``import fcntl`` and ``import resource`` fail."""
    site = tmp_path / "no-posix"
    site.mkdir()
    (site / "sitecustomize.py").write_text(NO_POSIX)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(site), str(ROOT), *filter(None, [env.get("PYTHONPATH")])]
    )
    env["COLUMNS"] = "120"
    return env


def c8league(
    env: dict[str, str], cwd: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "c8league", "--db", str(cwd / "club.db"), *args],
        env=env,
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def test_the_simulation_hides_the_modules(no_posix: dict[str, str]) -> None:
    for module in ("fcntl", "resource"):
        done = subprocess.run(
            [sys.executable, "-c", f"import {module}"], env=no_posix, capture_output=True
        )
        assert done.returncode == 1 and b"ModuleNotFoundError" in done.stderr


def test_the_external_player_loads_without_them(no_posix: dict[str, str], tmp_path: Path) -> None:
    done = c8league(no_posix, tmp_path, "bots", "list", "--json")
    assert done.returncode == 0, done.stderr
    bots = {b["name"]: b for b in json.loads(done.stdout)}
    assert bots["external"]["broken"] is False, bots["external"]["error"]
    # The plugins installed with the project (the Node example speaks through external).
    assert not [b["error"] for b in bots.values() if b["broken"]]


EVENT = """\
name = "cup"
table_size = 3

[[entrants]]
name = "Greedy"
bot = "greedy"

[[entrants]]
name = "Random"
bot = "random"

[[entrants]]
name = "Random II"
bot = "random"
options = {{ playable_first = true }}

[[entrants]]
name = "Outsider"
bot = "external"
options = {{ command = {command} }}

[[events]]
name = "cup"
format = "round_robin"
cycles = 2
seed = 11
"""


def test_an_event_runs_without_them(no_posix: dict[str, str], tmp_path: Path) -> None:
    league = tmp_path / "cup.toml"
    command = json.dumps([sys.executable, str(BOTS / "good.py")])
    league.write_text(EVENT.format(command=command))
    assert c8league(no_posix, tmp_path, "league", "import", str(league)).returncode == 0
    done = c8league(no_posix, tmp_path, "event", "run", "cup", "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "0 forfeits" in done.stderr and "complete" in done.stderr
    status = c8league(no_posix, tmp_path, "event", "status", "cup", "--json")
    state = json.loads(status.stdout)
    assert state["complete"] and state["matches_done"] == state["matches_total"] > 0
    assert not state["forfeits"]


CLUB_NIGHT = """\
import io, json, sys
from c8league.cli.main import main

codes = []
for words, typed in json.loads(sys.argv[1]):
    sys.stdin = io.StringIO(typed)
    codes.append(main(words))
sys.stdout.write("\\n" + json.dumps(codes))
"""


def test_the_club_night_runs_without_them(no_posix: dict[str, str], tmp_path: Path) -> None:
    """docs/club-night.md's walk-through as written, with the answers its transcripts
    show typed at the prompts: every command through the command line's ``main``, one
    after the other in one such process (each gets a fresh standard input)."""
    shutil.copytree(ROOT / "leagues", tmp_path / "leagues")
    answers = typed_answers()
    commands = club_commands()
    assert len(commands) >= 30
    script = []
    for line in commands:
        words = shlex.split(line, comments=True)
        typed = answers.get(" ".join(words))
        script.append((["--db", str(tmp_path / "club.db"), *words[1:]],
                       "" if typed is None else "\n".join(typed) + "\n"))  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", CLUB_NIGHT, json.dumps(script)],
        env=no_posix, cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    codes = json.loads(done.stdout.splitlines()[-1])
    failed = [c for c, code in zip(commands, codes, strict=True) if code]
    assert not failed, failed
    page = (tmp_path / "thursday.html").read_text(encoding="utf-8")
    assert all(f"Round {number} of 4</caption>" in page for number in (1, 2, 3, 4))
    trail = json.loads(
        c8league(no_posix, tmp_path, "result", "history", "thursday", "--json").stdout
    )
    assert [(r["round"], r["table"], r["action"]) for r in trail].count((1, 4, "add")) == 2


# -- the Windows way of talking to a bot, played here -----------------------------------


@pytest.fixture
def relayed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Bots' streams relayed through sockets, as on Windows."""
    monkeypatch.setattr(framing, "_io", windows)
    yield
    assert not windows._sockets, "a relayed stream was left open"


def test_relayed_streams_play_the_same_match(relayed: None) -> None:
    rules = Rules.from_options("pagat")
    outcomes = []
    for io in (windows, os):
        framing._io = io
        player = bot("good.py", "--new-history")
        outcome = play_match(rules, [GreedyPlayer(), player, RandomPlayer()], seed=5)
        assert outcome.forfeit is None, outcome.forfeit
        assert player.returncode == 0 and gone(player.pid)
        outcomes.append((outcome.result.placements, outcome.result.scores, len(outcome.records)))
    framing._io = windows
    assert outcomes[0] == outcomes[1]


@each_broken_bot
def test_relayed_broken_bots_forfeit(
    relayed: None,
    script: str,
    args: tuple[str, ...],
    options: dict[str, Any],
    reason: str,
    number: int,
    words: str,
    tmp_path: Path,
) -> None:
    player = bot(script, *args, log_dir=str(tmp_path), **options)
    outcome = play_match(Rules.from_options("pagat"), [player, GreedyPlayer(), RandomPlayer()], 3)
    forfeit = outcome.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.reason, forfeit.move_number) == (0, reason, number)
    assert words in forfeit.detail
    assert gone(player.pid)


class _Big:
    """An encoder whose every view is ``text``."""

    def __init__(self, text: str, form: str) -> None:
        self.text, self.form = text, form

    def view(self, observation: object, *, whole: bool = False) -> str:
        return '"observation":' + self.text


DEAF = """\
import json, sys, time
sys.stdin.readline()
print(json.dumps({"type": "hello", "name": "deaf"}), flush=True)
time.sleep(60)
"""


def test_a_relayed_bot_that_stops_reading_times_out(
    relayed: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = tmp_path / "deaf.py"
    script.write_text(DEAF)
    player = external.ExternalPlayer([sys.executable, str(script)], move_time=0.5)
    # Messages larger than the sockets and the pipe hold together.
    big = json.dumps({"pad": "x" * 4_000_000})
    monkeypatch.setattr(wire, "ObservationEncoder", lambda form="full": _Big(big, form))
    outcome = play_match(Rules.from_options("pagat"), [player, GreedyPlayer()], 1)
    assert outcome.forfeit is not None and outcome.forfeit.reason == "timeout"
    assert "did not read" in outcome.forfeit.detail
    assert gone(player.pid)
