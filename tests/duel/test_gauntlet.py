"""Gauntlets: ``c8league duel gauntlet A B C …`` plays A against each opponent, one
stored duel each with the same settings, and prints one table; resumable, and one line
for every mistake."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from clis import cli
from shown import assert_shown

from c8league.cli.main import main
from c8league.players import registry

from .test_duel import dump
from .test_forfeits import Shaky

ROOT = Path(__file__).resolve().parents[2]
OPPONENTS = ["random:playable_first=true", "random", "greedy"]


def output(db: Path, capsys: pytest.CaptureFixture[str], *args: str, code: int = 0) -> str:
    capsys.readouterr()
    assert cli(db, *args) == code
    return capsys.readouterr().out


def shown_json(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    return json.loads(output(db, capsys, *args, "--json"))


def test_a_gauntlet_is_one_duel_per_opponent_and_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    args = ["duel", "gauntlet", "greedy", *OPPONENTS, "--games", "20", "--workers", "2"]
    assert cli(db, *args) == 0
    captured = capsys.readouterr()
    assert_shown(captured.out, "duel-gauntlet")
    said = [line.split(";")[0] for line in captured.err.splitlines() if line.startswith("duel ")]
    assert said == [f"duel gauntlet-1/{n} stored" for n in (1, 2, 3)]
    assert output(db, capsys, "duel", "show", "gauntlet-1") == captured.out
    data = shown_json(db, capsys, "duel", "show", "gauntlet-1")
    assert data["gauntlet"] == "gauntlet-1"
    assert [d["name"] for d in data["duels"]] == ["gauntlet-1/1", "gauntlet-1/2", "gauntlet-1/3"]
    assert [d["b"]["label"] for d in data["duels"]] == OPPONENTS
    assert {d["a"]["label"] for d in data["duels"]} == {"greedy"}
    # Each is a duel of its own, with the figures of the same duel played alone: the
    # same settings, the same deals.
    alone = tmp_path / "alone.db"
    for number, opponent in enumerate(OPPONENTS, start=1):
        assert cli(alone, "duel", "greedy", opponent, "--games", "20", "--workers", "1") == 0
        one = shown_json(alone, capsys, "duel", "show", f"duel-{number}")
        member = shown_json(db, capsys, "duel", "show", f"gauntlet-1/{number}")
        assert member["stats"] == one["stats"] and member["seed"] == one["seed"] == 0
        assert member["pairs"] == [
            {
                **p,
                "matches": [
                    m.replace(f"duel-{number}", f"gauntlet-1/{number}") for m in p["matches"]
                ],
            }
            for p in one["pairs"]
        ]
    listed = [d["name"] for d in shown_json(db, capsys, "duel", "list")]
    assert listed == ["gauntlet-1/1", "gauntlet-1/2", "gauntlet-1/3"]
    assert "gauntlet-1/2:3B" in output(db, capsys, "match", "show", "gauntlet-1/2:3B")
    # Resumed when finished: nothing to play, the same table.
    capsys.readouterr()
    assert cli(db, "duel", "resume", "gauntlet-1") == 0
    captured = capsys.readouterr()
    assert captured.out == output(db, capsys, "duel", "show", "gauntlet-1")
    # The next gauntlet is gauntlet-2; a test at four players counts deals placed
    # better, equal and worse.
    four = ["-p", "4", "--field", "random", "--games", "8", "--sprt", "elo0=0 elo1=50"]
    assert cli(db, "duel", "gauntlet", "greedy", "random", *four) == 2  # --games and --sprt
    assert (
        cli(db, "duel", "gauntlet", "greedy", "random", "greedy", *four[:-4], "--max-games", "8")
        == 0
    )
    assert_shown(capsys.readouterr().out, "duel-gauntlet-four-players")


def test_a_duel_that_stops_without_a_verdict_lets_the_gauntlet_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An opponent that cannot start, and one that forfeits too much: the others are
    played; the gauntlet exits 3 with one line naming both; a resume plays what is left
    (the stopped duel), not the finished ones."""
    db = tmp_path / "d.db"
    registry.register("shaky", Shaky)
    try:
        args = ["greedy", "cmd:/no/such/bot", "shaky", "random", "--games", "20", "--workers", "1"]
        assert cli(db, "duel", "gauntlet", *args, "--name", "g") == 3
    finally:
        registry.unregister("shaky")
    captured = capsys.readouterr()
    err = [line for line in captured.err.splitlines() if line.startswith(("warning", "error"))]
    assert len(err) == 2 and err[0].startswith(
        "warning: B (cmd:/no/such/bot) did not start (crash): cannot start /no/such/bot"
    )
    assert err[0].endswith("duel g/1 has no verdict (c8league duel resume g); the gauntlet goes on")
    assert err[1].startswith(
        "error: gauntlet g: no verdict in 2 of 3 duels: g/1: stopped: B (cmd:/no/such/bot) did "
        "not start (crash): cannot start /no/such/bot"
    )
    assert err[1].endswith(
        "; g/2: 2 of 6 games forfeited (33.33 %: A 0, B 2), more than the "
        "--max-forfeit-share of 5.00 %"
    )
    rows = [line for line in captured.out.splitlines() if line[:4] in ("│ 1 ", "│ 2 ", "│ 3 ")]
    assert [row.split("│")[8].strip() for row in rows] == ["stopped", "no verdict", "played"]
    assert [row.split("│")[9].strip() for row in rows] == ["0/0", "0/2", "0/0"]
    before = dump(db)
    capsys.readouterr()
    assert cli(db, "duel", "resume", "g", "--workers", "1") == 3  # g/1 only: still no start
    said = [line for line in capsys.readouterr().err.splitlines() if line.startswith("duel ")]
    assert said == []  # g/1 stopped before its first game; g/2 and g/3 are finished
    after = {row for row in dump(db) if row[0] in ("duel_pair",)}
    assert after == {row for row in before if row[0] in ("duel_pair",)}


GAUNTLET_MISTAKES = [
    (["greedy"], "Missing argument 'OPPONENT...'"),
    (["greedy", "random", "nosuch"], "opponent 2 (nosuch): no player plugin named 'nosuch'"),
    (["greedy", "random", "random:depth=2"], "has no option 'depth'"),
    (["nosuch", "random"], "A (nosuch): no player plugin named 'nosuch'"),
    (["greedy", "random", "--name", "a/b"], "gauntlet name 'a/b'"),
    (["greedy", "random", "--name", "taken"], "a duel or gauntlet named 'taken' exists"),
    (["greedy", "random", "--name", "both"], "a duel or gauntlet named 'both' exists"),
    (["greedy", "random", "--max-forfeit-share", "2"], "--max-forfeit-share"),
    (["greedy", "random", "--deals", "nosuch.json"], "nosuch.json: no such file"),
]


@pytest.mark.parametrize(
    ("args", "message"), GAUNTLET_MISTAKES, ids=[" ".join(m[0]) for m in GAUNTLET_MISTAKES]
)
def test_a_gauntlet_mistake_is_one_line_and_stores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "--games", "2", "--name", "taken") == 0
    assert cli(db, "duel", "gauntlet", "greedy", "random", "--games", "2", "--name", "both") == 0
    before = dump(db)
    capsys.readouterr()
    assert cli(db, "duel", "gauntlet", *args) != 0
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1 and message in lines[0], captured.err
    assert "Traceback" not in captured.err + captured.out
    assert dump(db) == before
    # A duel cannot take a gauntlet's name either.
    assert cli(db, "duel", "greedy", "random", "--name", "both") == 1
    assert "a duel named 'both' exists" in capsys.readouterr().err
    assert dump(db) == before


def test_every_opponent_meets_the_same_deals_of_a_book(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.json"
    assert (
        cli(tmp_path / "d.db", "duel", "book", "--seed", "5", "--deals", "6", "--out", str(book))
        == 0
    )
    db = tmp_path / "d.db"
    assert cli(db, "duel", "gauntlet", "greedy", *OPPONENTS[:2], "--deals", str(book)) == 0
    out = capsys.readouterr().out
    assert "Gauntlet gauntlet-1: greedy (A) against 2 opponents (pagat, 2 players, book" in out
    seeds = []
    for number in (1, 2):
        capsys.readouterr()
        assert cli(db, "match", "show", f"gauntlet-1/{number}:4A", "--format", "json") == 0
        seeds.append(json.loads(capsys.readouterr().out)["seed"])
        data = shown_json(db, capsys, "duel", "show", f"gauntlet-1/{number}")
        assert data["stats"]["games"] == 12 and data["outcome"].startswith("undecided after 12")
    assert seeds[0] == seeds[1]


# -- interrupted, and resumed: what is left is played ------------------------------------------

BLOCKER = """\
import json, os, sys, time
counter, gate, marker = sys.argv[1:4]
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "blocker"}), flush=True)
    elif m["type"] == "move" and not os.path.exists(gate):
        n = int(open(counter).read()) + 1 if os.path.exists(counter) else 1
        with open(counter, "w") as f:
            f.write(str(n))
        if n >= 300:
            open(marker, "w").close()
            while not os.path.exists(gate):
                time.sleep(0.02)
        print(json.dumps({"type": "move", "move": m["legal"][0]}), flush=True)
    elif m["type"] == "move":
        print(json.dumps({"type": "move", "move": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""


def pairs_of(db: Path) -> dict[str, list[int]]:
    con = sqlite3.connect(db, timeout=30)
    rows = con.execute(
        "SELECT duel.name, duel_pair.deal FROM duel LEFT JOIN duel_pair "
        "ON duel_pair.duel_id = duel.id ORDER BY duel.id, duel_pair.deal"
    ).fetchall()
    con.close()
    found: dict[str, list[int]] = {}
    for name, deal in rows:
        found.setdefault(name, [])
        if deal is not None:
            found[name].append(deal)
    return found


@pytest.mark.slow
def test_an_interrupted_gauntlet_resumes_what_is_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second opponent stops moving (a bot that waits for a file) in the middle of
    its duel: Ctrl-C then says in one line how to resume the gauntlet, exit 130; the
    first duel is finished, the second holds whole pairs from deal 0, the third none.
    The resume plays what is left and gives the figures of an uninterrupted run."""
    (tmp_path / "bot").mkdir()  # (a folder of its own: the files it writes are not its code)
    bot = tmp_path / "bot" / "blocker.py"
    bot.write_text(BLOCKER)

    def gauntlet(run: str) -> list[str]:
        blocker = f"cmd[move_time=600]:{sys.executable} {bot} {tmp_path / run}.count "
        blocker += f"{tmp_path / run}.gate {tmp_path / run}.blocked"
        return ["duel", "gauntlet", "greedy", OPPONENTS[0], blocker, "random", "--games", "40"]

    (tmp_path / "whole.gate").touch()
    whole = tmp_path / "whole.db"
    assert cli(whole, *gauntlet("whole"), "--workers", "1", "--sandbox", "off") == 0
    expected = shown_json(whole, capsys, "duel", "show", "gauntlet-1")

    cut = tmp_path / "cut.db"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    command = [sys.executable, "-m", "c8league", "--db", str(cut), *gauntlet("cut")]
    proc = subprocess.Popen(
        [*command, "--workers", "1", "--sandbox", "off"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    blocked = tmp_path / "cut.blocked"
    waited = 0.0
    while not blocked.exists():  # the bot waits for its gate: no machine is too fast
        assert proc.poll() is None, "the gauntlet ended before the bot waited"
        assert waited < 600, "the bot never waited"
        time.sleep(0.05)
        waited += 0.05
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.stderr is not None
    said = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, said
    proc.stderr.close()
    last = said.strip().splitlines()[-1]
    assert last.startswith("interrupted: ") and last.endswith(
        "pairs of duel gauntlet-1/2 stored by this run, each whole; the gauntlet goes on "
        "with: c8league duel resume gauntlet-1 --sandbox off"
    ), said
    assert sum(line.startswith("interrupted") for line in said.splitlines()) == 1
    stored = pairs_of(cut)
    assert stored["gauntlet-1/1"] == list(range(20))
    assert stored["gauntlet-1/2"] == list(range(len(stored["gauntlet-1/2"]))) != list(range(20))
    assert stored["gauntlet-1/3"] == []
    statuses = [d["status"] for d in shown_json(cut, capsys, "duel", "show", "gauntlet-1")["duels"]]
    assert statuses == ["finished", "playing", "playing"]

    (tmp_path / "cut.gate").touch()
    assert cli(cut, "duel", "resume", "gauntlet-1", "--workers", "2", "--sandbox", "off") == 0
    resumed = shown_json(cut, capsys, "duel", "show", "gauntlet-1")
    for got, want in zip(resumed["duels"], expected["duels"], strict=True):
        assert got["stats"] == want["stats"] and got["status"] == "finished"
    assert pairs_of(cut) == pairs_of(whole)


def test_a_gauntlet_on_each_database(
    db_kind: str, new_database: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stored, listed, shown and resumed alike on SQLite and PostgreSQL; a gauntlet's
    name with the characters LIKE reads specially is its own."""
    url = new_database(db_kind)
    args = ["--db", url, "duel", "gauntlet", "greedy", "random", "greedy", "--games", "4"]
    assert main([*args, "--name", "g_%", "--workers", "1"]) == 0
    assert main(["--db", url, "duel", "greedy", "random", "--games", "2", "--name", "gx%"]) == 0
    capsys.readouterr()
    assert main(["--db", url, "duel", "show", "g_%", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in data["duels"]] == ["g_%/1", "g_%/2"]
    assert main(["--db", url, "duel", "resume", "g_%"]) == 0
    capsys.readouterr()
    assert main(["--db", url, "duel", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in listed] == ["g_%/1", "g_%/2", "gx%"]
    assert [d["forfeits"] for d in listed] == [{"A": 0, "B": 0, "field": 0}] * 3
    assert main(["--db", url, "duel", "show", "g"]) == 2
