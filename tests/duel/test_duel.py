"""``c8league duel``: specs, stopping, storing, resuming, and one line for every mistake."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clis import cli as run_cli

from c8league.cli.exits import status_of_kind
from c8league.cli.main import main
from c8league.duel.plan import DuelSettings
from c8league.duel.specs import Bot, parse_spec
from c8league.errors import BusyError, UsageError
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.storage import duels as stored_duels
from c8league.storage import open_database
from c8league.storage.runlock import event_run_lock

ROOT = Path(__file__).resolve().parents[2]


def show(db: Path, name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert run_cli(db, "duel", "show", name, "--json") == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def dump(db: Path) -> list[tuple[Any, ...]]:
    """Every row of every table, to see that a refused command changed nothing."""
    if not db.exists():
        return []
    con = sqlite3.connect(db)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    rows = [(t, *row) for t in sorted(tables) for row in con.execute(f"SELECT * FROM {t}")]
    con.close()
    return sorted(rows, key=repr)


# -- specs ----------------------------------------------------------------------------------


def test_specs_as_written() -> None:
    spec = parse_spec("montecarlo:playouts=200, seed=3", "A")
    assert (spec.plugin, spec.options) == ("montecarlo", {"playouts": "200", "seed": "3"})
    assert parse_spec("greedy", "A").options == {}
    cmd = parse_spec("cmd:node my bot.js", "A")
    assert (cmd.plugin, cmd.options) == ("external", {"command": "node my bot.js"})
    entrant = parse_spec("@bot-cup/Monte Carlo", "B")
    assert (entrant.plugin, entrant.league, entrant.entrant) == (None, "bot-cup", "Monte Carlo")
    assert parse_spec("@Greedy", "B").league is None


@pytest.mark.parametrize(
    "text", ["", "  ", "two words", "greedy:", "greedy:depth", "a:x=1,x=2", "cmd:", "@", "@lg/"]
)
def test_a_bad_spec_is_one_line(text: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_spec(text, "A")
    assert "\n" not in str(info.value) and str(info.value).startswith("A")


def test_the_seats_of_a_deal() -> None:
    a, b, g, r = Bot("A", "a"), Bot("B", "b"), Bot("g", "g"), Bot("r", "r")
    two = DuelSettings(a, b, (), 2, "{}", "pagat", 0, 10, None, None, None)
    assert two.seatings(0) == ((a, b), (b, a))
    assert two.seatings(1) == ((b, a), (a, b))
    four = DuelSettings(a, b, (g, r), 4, "{}", "pagat", 0, 10, None, None, None)
    assert four.seatings(2) == ((g, r, a, g), (g, r, b, g))  # seat 2; the field in order
    assert four.seatings(4)[0][0] == a
    task_a, task_b = four.tasks(5)
    assert task_a.seed == task_b.seed and (task_a.match_id, task_b.match_id) == (10, 11)
    assert DuelSettings.from_json(four.to_json()) == four


# -- mistakes: one line, a non-zero exit, the database unchanged ------------------------------

MISTAKES = [
    (["nosuch", "greedy"], "no player plugin named 'nosuch'"),
    (["greedy:depth=3", "random"], "has no option 'depth'"),
    (["greedy", "random:playable_first=maybe"], "playable_first"),
    (["greedy:", "random"], "has no options after ':'"),
    (["greedy", "@Nobody"], "no player named 'Nobody'"),
    (["greedy", "random", "--sprt", "elo0=5 elo1=0"], "elo0 (5) must be less than elo1 (0)"),
    (["greedy", "random", "--sprt", "elo0=0 elo1=5 alpha=1.5"], "alpha must lie strictly"),
    (["greedy", "random", "--sprt", "elo1=5"], "elo0 must be given"),
    (["greedy", "random", "--sprt", "elo0=0 elo1=5 depth=2"], "unknown setting 'depth'"),
    (["greedy", "random", "--games", "7"], "--games must be an even number"),
    (["greedy", "random", "--max-games", "9"], "--max-games must be an even number"),
    (["greedy", "random", "--games", "10", "--sprt", "elo0=0 elo1=5"], "not both"),
    (["greedy", "random", "--players", "9"], "--players"),
    (["greedy", "random", "--field", "random"], "--field fills the other seats"),
    (["greedy", "random", "-p", "3", "--field", "nosuch"], "--field"),
    (["greedy", "random", "--rules", "nosuch"], "nosuch"),
    (["greedy", "random", "--set", "draw=sometimes"], "draw"),
    (["greedy", "random", "--name", "a/b"], "duel name"),
    (["greedy", "random", "--name", "first"], "a duel named 'first' exists"),
    (["greedy", "random", "--workers", "999"], "--workers 999"),
]


@pytest.mark.parametrize(("args", "message"), MISTAKES, ids=[" ".join(m[0]) for m in MISTAKES])
def test_a_mistake_is_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "d.db"
    assert run_cli(db, "duel", "greedy", "random", "--games", "2", "--name", "first") == 0
    before = dump(db)
    capsys.readouterr()
    assert run_cli(db, "duel", *args) != 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    assert message in lines[0], lines[0]
    assert "Traceback" not in captured.err + captured.out
    assert dump(db) == before


def test_show_and_resume_of_an_unknown_duel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert run_cli(db, "init") == 0
    for command in ("show", "resume"):
        assert run_cli(db, "duel", command, "nosuch") == 2
        assert "no duel named 'nosuch'" in capsys.readouterr().err


# -- playing ---------------------------------------------------------------------------------


def test_a_bot_against_itself_does_not_accept_h1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Deterministic twins split every pair: the test accepts H0 (or stays undecided)."""
    db = tmp_path / "d.db"
    assert run_cli(db, "duel", "greedy", "greedy", "--max-games", "600", "--workers", "1") == 0
    data = show(db, "duel-1", capsys)
    assert data["decision"] in ("H0", "undecided")
    assert data["status"] == "finished"
    stats = data["stats"]
    assert stats["pentanomial"][0] == stats["pentanomial"][4] == 0
    # A seeded random bot against itself, at 3-player tables, within a cap.
    args = ["random:playable_first=true", "random:playable_first=true", "-p", "3"]
    assert run_cli(db, "duel", *args, "--max-games", "300", "--seed", "5") == 0
    assert show(db, "duel-2", capsys)["decision"] in ("H0", "undecided")


def test_the_test_stops_as_the_stopping_rule_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The duel stops at the first pair after which the LLR leaves its bounds: its stored
    pairs, fed to ``sequential_stats`` in deal order, stop at the last of them."""
    from c8league.duel.stats import SprtSpec, sequential_stats

    db = tmp_path / "d.db"
    args = ["greedy", "random:playable_first=true", "--sprt", "elo0=0 elo1=40", "--workers", "2"]
    assert run_cli(db, "duel", *args, "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == "H1" and data["outcome"] == "H1 accepted"
    database = open_database(str(db))
    with database.session() as session:
        shares = [(a / 2, b / 2) for a, b in stored_duels.shares(session, 1)]
    stopped = sequential_stats(2, iter([*shares, *shares]), SprtSpec.parse("elo0=0 elo1=40"))
    assert stopped.pairs == len(shares) == data["stats"]["pairs"]
    assert stopped.as_dict() == data["stats"]


def test_same_seed_same_duel_on_any_number_of_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["greedy", "random:playable_first=true", "-p", "4", "--max-games", "60", "--seed", "9"]
    assert run_cli(tmp_path / "one.db", "duel", *args, "--workers", "1") == 0
    assert run_cli(tmp_path / "two.db", "duel", *args, "--workers", "2") == 0
    one, two = (
        show(tmp_path / "one.db", "duel-1", capsys),
        show(tmp_path / "two.db", "duel-1", capsys),
    )
    assert one["stats"] == two["stats"] and one["stats"]["games"] == 60

    def pairs(db: Path) -> list[tuple[Any, ...]]:
        con = sqlite3.connect(db)
        rows = list(con.execute("SELECT deal, seat, share_a, share_b FROM duel_pair"))
        con.close()
        return rows

    assert pairs(tmp_path / "one.db") == pairs(tmp_path / "two.db")


class Explodes(BasePlayer):
    """Raises on its first decision."""

    def choose(self, observation: Any, legal: Any) -> Any:
        raise RuntimeError("boom")


def test_a_faulty_bot_forfeits_and_the_duel_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    registry.register("explodes", Explodes)
    try:
        db = tmp_path / "d.db"
        assert (
            run_cli(
                db,
                "duel",
                "explodes",
                "greedy",
                "--games",
                "8",
                "--workers",
                "2",
                "--max-forfeits",
                "0",
                "--max-forfeit-share",
                "1",
            )
            == 0
        )
        out = capsys.readouterr().out
        assert "Forfeits: A 8, B 0 (100.00 % of 8 games; a verdict allows 100.00 % at most)" in out
        assert "  A exception: 8 (first: match duel-1:0A, move 1: RuntimeError: boom)" in out
        data = show(db, "duel-1", capsys)
    finally:
        registry.unregister("explodes")
    assert data["stats"]["pentanomial"] == [4, 0, 0, 0, 0] and data["forfeits"]["A"] == 8


def test_two_runs_of_one_duel_are_kept_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert run_cli(db, "duel", "greedy", "random", "--games", "2") == 0
    database = open_database(str(db))
    with event_run_lock(database, 1, "duel-1", kind="duel"):
        assert run_cli(db, "duel", "resume", "duel-1") == status_of_kind(BusyError)
        assert "duel 'duel-1' is being run by another process" in capsys.readouterr().err
        # an event with the same id is another lock
        with event_run_lock(database, 1, "ev"):
            pass


def test_resume_of_a_finished_duel_plays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert run_cli(db, "duel", "greedy", "random", "--games", "4") == 0
    first = show(db, "duel-1", capsys)
    assert run_cli(db, "duel", "resume", "duel-1") == 0
    assert "already finished" in capsys.readouterr().err
    assert show(db, "duel-1", capsys)["stats"] == first["stats"]
    assert run_cli(db, "duel", "list", "--json") == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["stats"] == first["stats"]


# -- interrupted and resumed: the figures of an uninterrupted run -----------------------------

DUEL = [
    "greedy",
    "random:playable_first=true",
    "--players",
    "4",
    "--sprt",
    "elo0=100 elo1=120",  # about the true difference: the test takes a few hundred pairs
    "--max-games",
    "2000",
    "--seed",
    "3",
]


def stored_pairs(db: Path) -> int:
    try:
        con = sqlite3.connect(db, timeout=30)
        (count,) = con.execute("SELECT count(*) FROM duel_pair").fetchone()
        con.close()
    except sqlite3.Error:
        return 0
    return int(count)


@pytest.mark.slow
@pytest.mark.parametrize("how", ["kill-9", "ctrl-c"])
def test_interrupted_and_resumed_gives_the_uninterrupted_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], how: str
) -> None:
    whole = tmp_path / "whole.db"
    assert run_cli(whole, "duel", *DUEL, "--workers", "2") == 0
    expected = show(whole, "duel-1", capsys)
    assert expected["stats"]["pairs"] > 100  # long enough to be cut

    cut = tmp_path / "cut.db"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    # A progress line (stderr is a pipe) after every pair: the signal goes after the
    # first, while hundreds of pairs are still to play, however fast the machine is.
    command = [sys.executable, "-m", "c8league", "--db", str(cut), "duel", *DUEL]
    proc = subprocess.Popen(
        [*command, "--workers", "2", "--progress-every", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    said = []
    for line in proc.stderr:
        said.append(line)
        if line.startswith("duel-1: "):
            break
    else:
        raise AssertionError(f"the duel ended before its first pair: {''.join(said)}")
    if how == "kill-9":
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    else:
        os.killpg(proc.pid, signal.SIGINT)
        rest = proc.stderr.read()
        assert proc.wait(timeout=60) == 130, rest
        assert "c8league duel resume duel-1" in rest
    proc.stderr.close()
    partial = stored_pairs(cut)
    assert partial < expected["stats"]["pairs"]
    assert show(cut, "duel-1", capsys)["status"] == "playing"
    assert run_cli(cut, "duel", "resume", "duel-1", "--workers", "1") == 0
    resumed = show(cut, "duel-1", capsys)
    assert resumed["stats"] == expected["stats"]
    assert resumed["decision"] == expected["decision"] and resumed["status"] == "finished"


# -- the duels of docs/duels.md, as written ------------------------------------------------


def readme_duels() -> list[list[str]]:
    import re
    import shlex

    text = (ROOT / "docs" / "duels.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [shlex.split(line)[1:] for b in blocks for line in b.splitlines() if line.strip()]


def test_the_documented_duels_are_valid_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each duel of docs/duels.md is accepted as written (checked and stored; the games of
    the Monte Carlo bot, minutes long, are not played here)."""
    from c8league.cli import duel_cmd
    from c8league.duel import running

    try:
        registry.get("montecarlo")
    except Exception:
        pytest.skip("the Monte Carlo plugin is not installed")
    commands = readme_duels()
    assert len(commands) == 2 and all(c[0] == "duel" for c in commands)
    played: list[str] = []

    def run_duel(db: object, name: str, **_: object) -> running.RunSummary:
        played.append(name)
        return running.RunSummary(name)

    monkeypatch.setattr(duel_cmd, "run_duel", run_duel)
    for number, command in enumerate(commands, start=1):
        assert run_cli(tmp_path / "d.db", *command) == 0, capsys.readouterr().err
        assert f"duel-{number}" in capsys.readouterr().out
    assert played == ["duel-1", "duel-2"]  # (stored, and not played)


def test_a_duel_on_each_database(
    db_kind: str, new_database: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stored, read back and resumed alike on SQLite and PostgreSQL (a 63-bit seed too)."""
    url = new_database(db_kind)
    seed = str(2**63 - 1)
    args = ["--db", url, "duel", "greedy", "random", "-p", "3", "--games", "20", "--seed", seed]
    assert main([*args, "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["--db", url, "duel", "show", "duel-1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seed"] == 2**63 - 1 and data["stats"]["games"] == 20
    assert main(["--db", url, "duel", "resume", "duel-1"]) == 0
    assert main(["--db", url, "duel", "list"]) == 0
    assert "duel-1" in capsys.readouterr().out


class StartsOnce(BasePlayer):
    """Starts once (when its options are checked), then fails to start."""

    built = 0

    def __init__(self) -> None:
        StartsOnce.built += 1
        if StartsOnce.built > 1:
            raise RuntimeError("no start today")


def test_a_bot_that_cannot_start_stops_the_duel_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plugin that fails to start in the workers stops the duel with one line; the duel
    is kept, and resumes once the plugin is mended."""
    db = tmp_path / "d.db"
    StartsOnce.built = 0
    registry.register("flaky", StartsOnce)
    try:
        args = ("--games", "4", "--workers", "1", "--max-forfeit-share", "1")
        assert run_cli(db, "duel", "flaky", "greedy", *args) == 3
        lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert lines == [
            "error: A (flaky) cannot start: player 'flaky' failed to start: RuntimeError: no "
            "start today; duel duel-1 has no verdict (c8league duel resume duel-1)"
        ]
        stopped = show(db, "duel-1", capsys)
        assert stopped["decision"] is None and stopped["stats"]["games"] == 0
        assert stopped["outcome"].startswith("stopped, no verdict: A (flaky) cannot start")
        assert "Traceback" not in "\n".join(lines)
        registry.register("flaky", Explodes)  # mended (now it forfeits every match)
        assert run_cli(db, "duel", "resume", "duel-1", "--workers", "1") == 0
        assert show(db, "duel-1", capsys)["stats"]["games"] == 4
    finally:
        registry.unregister("flaky")


def test_options_may_come_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d.db"
    assert run_cli(db, "duel", "--games", "2", "-p", "3", "greedy", "random") == 0
    assert show(db, "duel-1", capsys)["players"] == 3
    assert run_cli(db, "duel", "run", "greedy", "random", "--games", "2") == 0
