"""A duel resumed with a changed bot: refused in one line, or, with ``--new-version``,
played on with the new version after the pairs its old version forfeited are played
again; ``duel show`` names the versions that played."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from clis import cli

BOT = """\
import json, sys
BROKEN = {broken}
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "hello":
        print(json.dumps({{"type": "hello", "name": "mine"}}), flush=True)
    elif kind == "move":
        legal = message["legal"]
        if BROKEN and len(legal) > 9:  # some deals only: the same every run
            raise SystemExit("too many choices")
        print(json.dumps({{"type": "move", "move": legal[0]}}), flush=True)
    elif kind == "quit":
        break
"""


def write_bot(folder: Path, *, broken: bool) -> str:
    folder.mkdir(exist_ok=True)
    (folder / "bot.py").write_text(BOT.format(broken=broken))
    return f"cmd:{sys.executable} {folder / 'bot.py'}"


def shown(db: Path, capsys: pytest.CaptureFixture[str], name: str) -> Any:
    capsys.readouterr()
    assert cli(db, "duel", "show", name, "--json") == 0
    return json.loads(capsys.readouterr().out)


def rows(db: Path) -> list[Any]:
    with sqlite3.connect(db) as con:
        return [
            con.execute("SELECT * FROM duel ORDER BY id").fetchall(),
            con.execute("SELECT * FROM duel_pair ORDER BY 1, 2").fetchall(),
            con.execute("SELECT count(*) FROM chain").fetchall(),
        ]


GAMES = ["--games", "40", "--max-forfeits", "0", "--max-forfeit-share", "1", "--workers", "1"]


def test_a_mended_bot_is_refused_then_taken_with_new_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    bot = write_bot(tmp_path / "bot", broken=True)
    assert cli(db, "duel", "run", bot, "greedy", *GAMES) == 0
    before = shown(db, capsys, "duel-1")
    forfeited = before["forfeits"]["A"]
    assert 0 < forfeited < 40, "some deals forfeited, not all"
    ((old,),) = [[v["label"] for v in before["versions"]["A"]]]
    assert old.startswith("bot.py ")

    write_bot(tmp_path / "bot", broken=False)  # mended: a new version
    # (The same deals played by the mended bot from the start, to compare with below.)
    assert cli(db, "duel", "run", bot, "greedy", *GAMES, "--name", "fresh") == 0
    fresh = shown(db, capsys, "fresh")
    assert fresh["forfeits"]["A"] == 0

    # A finished duel has nothing to play, whatever its bots became; with --new-version
    # the pairs its old version forfeited are played again.
    assert cli(db, "duel", "resume", "duel-1", "--workers", "1") == 0
    assert "duel duel-1 was already finished: nothing to play" in capsys.readouterr().err
    assert cli(db, "duel", "resume", "duel-1", "--workers", "1", "--new-version") == 0
    after = shown(db, capsys, "duel-1")
    assert after["forfeits"] == {"A": 0, "B": 0, "field": 0}
    versions = after["versions"]["A"]
    assert len(versions) == 2 and old in {v["label"] for v in versions}, "both named"
    assert versions[0]["deals"] + versions[1]["deals"] == 20
    # The old version's pairs that it did not forfeit are as the new version plays them
    # (it differs only where it crashed): the duel equals one played by the new version.
    assert after["stats"] == fresh["stats"]
    # Each game's record names the version of each seat (games export, match show).
    capsys.readouterr()
    assert cli(db, "games", "export", "duel-1") == 0
    games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    played = {seat["version"] for game in games for seat in game["seats"]}
    assert played == {v["label"] for v in versions} | {f"greedy {version('c8league')}"}

    # Stopped duels are what a resume goes on with: one stopped by its streak of forfeits.
    streak = ["--games", "40", "--max-forfeit-share", "1", "--max-forfeits", "2", "--name", "s"]
    b2 = write_bot(tmp_path / "b2", broken=True)
    assert cli(db, "duel", "run", b2, "greedy", *streak, "--workers", "1") == 3
    stopped = shown(db, capsys, "s")
    assert stopped["status"] == "playing" and stopped["stopped"] is not None
    write_bot(tmp_path / "b2", broken=False)
    unchanged = rows(db)
    capsys.readouterr()
    assert cli(db, "duel", "resume", "s", "--workers", "1") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: A (cmd:"), err
    assert "is a new version (bot.py " in err
    assert "c8league duel resume s --new-version goes on with the new one" in err
    assert rows(db) == unchanged, "a refused resume changes nothing"

    assert cli(db, "duel", "resume", "s", "--workers", "1", "--new-version") == 0
    err = capsys.readouterr().err
    assert "is a new version" in err and "the duel goes on with it" in err
    found = re.search(
        r"(\d+) pairs? the old version forfeited (?:are|is) played again: deal \d", err
    )
    assert found is not None, err
    assert 0 < int(found[1]) <= stopped["forfeits"]["A"]
    after = shown(db, capsys, "s")
    assert after["forfeits"] == {"A": 0, "B": 0, "field": 0} and after["status"] == "finished"
    # Its versions are kept: a later resume goes on without --new-version.
    assert cli(db, "duel", "resume", "s", "--workers", "1") == 0
    assert cli(db, "verify") == 0


def test_a_finished_duel_without_a_verdict_says_how_to_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    bot = write_bot(tmp_path / "bot", broken=True)
    args = ["--games", "40", "--max-forfeits", "0", "--workers", "1"]
    assert cli(db, "duel", "run", bot, "greedy", *args) == 3
    out = capsys.readouterr().out
    assert "mend the bot, then c8league duel resume duel-1 --new-version plays again" in out
    write_bot(tmp_path / "bot", broken=False)
    assert cli(db, "duel", "resume", "duel-1", "--new-version", "--workers", "1") == 0
    after = shown(db, capsys, "duel-1")
    assert (
        after["forfeits"] == {"A": 0, "B": 0, "field": 0} and after["forfeit_share"]["games"] == 40
    )
