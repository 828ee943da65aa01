"""Game records: every match of duels and events keeps its moves; ``match show`` (terminal,
HTML in headless Chromium, JSON that replays), ``demo`` with any players, and what a bot
author sees of a faulty bot: fail fast, faults explained, --max-forfeits, --move-seconds."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from clis import cli, output
from shown import assert_shown

from c8league.engine import HandRecord, Rules
from c8league.engine.match import MatchRecord
from c8league.players import registry
from c8league.players.base import BasePlayer

CHEAT = """\
import json, sys
moves = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "cheat"}), flush=True)
    elif m["type"] == "move":
        moves += 1
        move = m["legal"][0]
        if moves == 3:
            print("about to cheat", file=sys.stderr, flush=True)
            move = "AS" if "AS" not in m["legal"] else "KS"
        print(json.dumps({"type": "move", "move": move}), flush=True)
    elif m["type"] == "quit":
        break
"""


@pytest.fixture
def cheat(tmp_path: Path) -> str:
    bot = tmp_path / "cheat.py"
    bot.write_text(CHEAT)
    return f"cmd:{sys.executable} {bot}"


def test_a_bot_that_cannot_start_stops_a_duel_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "cmd:/no/such/bot", "greedy", "--workers", "2") == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "error: A (cmd:/no/such/bot) did not start (crash): cannot start /no/such/bot"
    )
    assert err[0].endswith("duel duel-1 has no verdict (c8league duel resume duel-1)")
    data = json.loads(output(capsys, db, "duel", "show", "duel-1", "--json"))
    assert data["decision"] == "undecided" and data["stats"]["games"] == 0
    assert data["stopped"].startswith("A (cmd:/no/such/bot) did not start")
    assert_shown(output(capsys, db, "duel", "show", "duel-1"), "duel-show-not-started")
    assert_shown(output(capsys, db, "duel", "list"), "duel-list-not-started")


def test_duel_summaries_and_the_list_of_duels(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "random", "random:seed=1", "--games", "24", "--workers", "1") == 0
    two = capsys.readouterr().out
    assert_shown(two, "duel-two-players")
    assert cli(db, "duel", "greedy", "random", "-p", "4", "--games", "12", "--workers", "2") == 0
    four = capsys.readouterr().out
    assert_shown(four, "duel-four-players")
    assert output(capsys, db, "duel", "show", "duel-1") == two
    assert output(capsys, db, "duel", "show", "duel-2") == four
    assert_shown(output(capsys, db, "duel", "list"), "duel-list")


def test_the_first_illegal_move_with_its_log_and_the_lost_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cheat: str
) -> None:
    db = tmp_path / "d.db"
    args = ("--games", "4", "--workers", "1", "--max-forfeit-share", "1")
    assert cli(db, "duel", cheat, "greedy", *args) == 0
    out = capsys.readouterr().out
    fault = next(line for line in out.splitlines() if line.startswith("  A illegal: 4"))
    assert "(first: match duel-1:0A, move 3: " in fault
    log = fault.split("(stderr log: ")[1].removesuffix("))")
    assert Path(log).read_text() == "about to cheat\n"
    data = json.loads(output(capsys, db, "duel", "show", "duel-1", "--json"))
    assert data["faults"][0]["first"]["match"] == "duel-1:0A"
    assert data["pairs"][1]["matches"] == ["duel-1:1A", "duel-1:1B"]
    shown = output(capsys, db, "match", "show", "duel-1:0A")
    assert "Hand 1" in shown and "the match stopped in this hand" in shown
    assert "forfeited: illegal at its move 3: " in shown
    replay = next(line for line in shown.splitlines() if line.startswith("replay: "))
    assert "--seed" in replay and "greedy" in replay
    record = json.loads(output(capsys, db, "match", "show", "duel-1:0A", "--format", "json"))
    rules = Rules.from_json(json.dumps(record["rules"]))
    for hand in record["hands"]:  # each hand replays from the engine's record alone
        HandRecord.from_dict(hand).replay(rules)
    whole = MatchRecord(
        record["players"], record["seed"], tuple(tuple(m.split()) for m in record["moves"])
    )
    assert whole.replay(rules).result is None  # stopped by the forfeit
    assert record["forfeit"]["reason"] == "illegal"


def test_demo_replays_a_stored_match_with_any_players(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random:playable_first=true", "--games", "2") == 0
    shown = output(capsys, db, "match", "show", "duel-1:0B")
    replay = next(line for line in shown.splitlines() if line.startswith("replay: "))
    args = replay.removeprefix("replay: c8league demo ").split()
    demo = output(capsys, db, "demo", *[a.strip("'") for a in args])

    def hands(text: str) -> list[str]:
        return re.findall(r"starter \S+  moves \d+|points \[.*", text)

    assert hands(shown) and hands(shown) == hands(demo)


def test_event_matches_keep_their_moves_and_the_hand_a_forfeit_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], cheat: str
) -> None:
    league = tmp_path / "l.toml"
    command = cheat.removeprefix("cmd:")
    league.write_text(
        f"""
name = "lg"
table_size = 2
[[entrants]]
name = "Cheat"
bot = "external"
options = {{ command = {json.dumps(command)} }}
[[entrants]]
name = "Greedy"
bot = "greedy"
[[events]]
name = "ev"
format = "round_robin"
cycles = 2
"""
    )
    db = tmp_path / "e.db"
    assert cli(db, "league", "import", str(league)) == 0
    assert cli(db, "event", "run", "ev", "--workers", "1") == 0
    status = output(capsys, db, "event", "status", "ev")
    line = next(x for x in status.splitlines() if x.startswith("  illegal:"))
    assert line.startswith("  illegal: Cheat 2 (first: match ")
    assert ", move 3: " in line and "(stderr log: " in line
    number = line.split("match ")[1].split(",")[0]
    assert_shown(status, "event-status-illegal", log=line.split("(stderr log: ")[1][:-2])
    assert_shown(output(capsys, db, "result", "list", "ev"), "result-list-illegal")
    shown = output(capsys, db, "match", "show", number)
    assert "the match stopped in this hand" in shown
    data = json.loads(output(capsys, db, "event", "status", "ev", "--json"))
    assert data["faults"][0]["kind"] == "illegal" and data["faults"][0]["count"] == 2


class Slow(BasePlayer):
    def choose(self, observation: Any, legal: Any) -> Any:
        time.sleep(0.05)
        return legal[0]


class Explodes(BasePlayer):
    def choose(self, observation: Any, legal: Any) -> Any:
        raise RuntimeError("boom")


def test_move_seconds_and_max_forfeits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    registry.register("slow", Slow)
    registry.register("explodes", Explodes)
    try:
        db = tmp_path / "d.db"
        args = ("--games", "4", "--workers", "1", "--max-forfeits", "0", "--max-forfeit-share", "1")
        assert cli(db, "duel", "slow", "greedy", "--move-seconds", "0.01", *args) == 0
        out = capsys.readouterr().out
        assert "  A timeout: 4 (first: match duel-1:0A, move 1: took 0." in out
        assert "over the limit of 0.01 s a move)" in out
        args = ("--games", "20", "--workers", "1", "--max-forfeit-share", "1")
        assert cli(db, "duel", "explodes", "greedy", *args) == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("error: A (explodes) forfeited 6 matches in a row (the last,")
        data = json.loads(output(capsys, db, "duel", "show", "duel-2", "--json"))
        assert data["stats"]["games"] == 6 and data["outcome"].startswith("stopped, no verdict")
        assert data["stopped"].startswith("A (explodes) forfeited 6 matches in a row")
    finally:
        registry.unregister("slow")
        registry.unregister("explodes")


def test_unknown_match_ids_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "--games", "2") == 0
    for bad, needle in (
        ("xyz", "is not a match id"),
        ("999", "no match 999"),
        ("duel-1:7A", "duel duel-1 has no deal 7 stored"),
        ("duel-9:0A", "no duel named 'duel-9'"),
    ):
        capsys.readouterr()
        assert cli(db, "match", "show", bad) == 2
        err = capsys.readouterr().err.strip()
        assert needle in err and err.count("\n") == 0
    capsys.readouterr()
    assert cli(db, "match", "show", "duel-1:0A", "--format", "pdf") == 2
    assert cli(db, "match", "show", "duel-1:0A", "--out", str(tmp_path / "x")) == 2
