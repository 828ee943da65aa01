"""What a bot author types and reads: specs with options and commas, bots check of any
spec with the failing column marked, progress lines in a log, the 4-player histogram and
the variance saved by duplicate deals, random's seed, a failing event bot."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from clis import cli

from c8league.cli.main import main
from c8league.duel.specs import parse_spec, resolve, spec_text
from c8league.engine import Rules
from c8league.engine.match import MatchRecord
from c8league.errors import RecordError, UsageError
from c8league.events.status import event_status
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.random_player import RandomPlayer
from c8league.results import Forfeit
from c8league.runner.loop import play_match
from c8league.runner.streaks import ForfeitStreaks
from c8league.storage import open_database

FIRST_LEGAL = """\
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "first"}), flush=True)
    elif m["type"] == "move":
        print(json.dumps({"type": "move", "move": m["legal"][0]}), flush=True)
    elif m["type"] == "quit":
        break
"""


@pytest.mark.parametrize(
    "text,plugin,options",
    [
        ("cmd:./bot --weights a,b", "external", {"command": "./bot --weights a,b"}),
        (
            "cmd[move_time=0.05,memory_mb=512]:./bot --fast",
            "external",
            {"command": "./bot --fast", "move_time": "0.05", "memory_mb": "512"},
        ),
        (
            'external:command="./bot a,b",move_time=2',
            "external",
            {"command": "./bot a,b", "move_time": "2"},
        ),
        ("random:seed=3,playable_first=true", "random", {"seed": "3", "playable_first": "true"}),
    ],
)
def test_specs_with_options_and_commas(text: str, plugin: str, options: dict[str, str]) -> None:
    parsed = parse_spec(text, "A")
    assert (parsed.plugin, parsed.options) == (plugin, options)
    bot = resolve(None, parsed, "A")
    again = resolve(None, parse_spec(spec_text(bot.plugin, bot.options), "A"), "A")
    assert (again.plugin, again.options) == (bot.plugin, bot.options)


@pytest.mark.parametrize(
    "text,needle",
    [
        ("cmd[move_time=1:./bot", "options of a command go in cmd[key=value,…]:COMMAND"),
        ("cmd[command=x]:./bot", "goes after ']:'"),
        ('external:command="./bot a,b', "a quote is not closed"),
        ("cmd[move_time=1]:", "cmd: needs a command"),
    ],
)
def test_bad_specs_are_one_line(text: str, needle: str) -> None:
    with pytest.raises(UsageError, match=r"^A: ") as caught:
        parse_spec(text, "A")
    assert needle in str(caught.value)


def test_streaks_count_each_bots_forfeits_in_a_row() -> None:
    streaks = ForfeitStreaks(3)
    crash = Forfeit(0, "crash", 1, "gone")
    assert streaks.add(["x", "y"], crash, "1") is None
    assert streaks.add(["y", "x"], None, "2") is None  # x played through: its streak ends
    assert streaks.add(["x", "y"], crash, "3") is None
    assert streaks.add(["x", "y"], crash, "4") is None
    streak = streaks.add(["x", "y"], crash, "5")
    assert streak is not None and str(streak).startswith("x forfeited 3 matches in a row")
    assert ForfeitStreaks(0).add(["x"], crash, "1") is None


def test_a_match_record_replays_and_refuses_what_does_not_fit() -> None:
    rules = Rules.from_options("pagat")
    outcome = play_match(rules, [RandomPlayer(), RandomPlayer()], 11)
    assert outcome.moves is not None
    text = outcome.moves.to_text()
    record = MatchRecord.from_text(2, 11, text)
    assert record.replay(rules).result == outcome.result
    assert [len(h.moves) for h in record.hand_records(rules)] == [len(h) for h in record.hands]
    with pytest.raises(RecordError, match="does not replay"):
        MatchRecord.from_text(2, 12, text).replay(rules)
    with pytest.raises(RecordError, match="after the end of the match"):
        MatchRecord.from_text(2, 11, text + "\ndraw").replay(rules)


def test_randoms_seed_is_mixed_with_the_match_seed() -> None:
    rules = Rules.from_options("pagat")

    def moves(seed: int) -> str:
        outcome = play_match(rules, [RandomPlayer(seed=seed), RandomPlayer()], 5)
        assert outcome.moves is not None
        return outcome.moves.to_text()

    assert moves(3) == moves(3) and moves(3) != moves(4) and moves(0) != moves(3)


def test_bots_check_takes_a_command_and_marks_the_failing_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "first.py"
    bot.write_text(FIRST_LEGAL)
    spec = f"cmd:{sys.executable} {bot}"
    assert main(["bots", "check", spec, "--games", "1", "--presets", "pagat"]) == 0
    assert f"{spec}: all checks passed." in capsys.readouterr().out
    slow = tmp_path / "slow.py"
    slow.write_text(
        FIRST_LEGAL.replace("import json, sys", "import json, sys, time").replace(
            'elif m["type"] == "move":', 'elif m["type"] == "move":\n        time.sleep(0.05)'
        )
    )
    spec = f"cmd:{sys.executable} {slow}"
    args = ["bots", "check", spec, "move_time=0.01", "--games", "1", "--presets", "pagat"]
    assert main(args) == 1
    out = capsys.readouterr().out
    rows = {
        cells[0]: cells[1]
        for line in out.splitlines()
        if line.startswith("│ ") and (cells := [c.strip() for c in line.strip("│").split("│")])
    }
    assert rows["in time"] == "✗ 1"  # the in-time row
    assert rows["legal moves"] == rows["no crash"] == rows["same play"] == "✓"
    assert "replay: c8league demo " in out and "--rules pagat" in out


def test_progress_lines_in_a_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d.db"
    args = ["duel", "greedy", "random", "--games", "8", "--workers", "1", "--progress-every", "2"]
    assert cli(db, *args) == 0
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("duel-1: ")]
    assert [x.split(",")[0] for x in lines] == [f"duel-1: {n} games of 8" for n in (2, 4, 6, 8)]
    assert cli(db, "duel", "greedy", "random", "--progress-every", "soon") == 2


def test_the_four_player_summary_shows_its_histogram_and_variance_ratio(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "duel", "greedy", "random", "-p", "4", "--games", "40", "--workers", "1") == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("Deals by paired difference"))
    assert line.startswith("Deals by paired difference (-1 to +1 in steps of 1/6): [")
    counts = json.loads(line.split(": ", 1)[1])
    assert len(counts) == 13 and sum(counts) == 20
    ratio = next(x for x in out.splitlines() if x.startswith("Duplicate deals: variance "))
    assert ratio.endswith("× that of independent deals")
    data = json.loads(_show(db, capsys))
    assert 0 < data["stats"]["variance_ratio"] < 2
    assert "inf" not in out


def _show(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert cli(db, "duel", "show", "duel-1", "--json") == 0
    return capsys.readouterr().out


class Boom(BasePlayer):
    def choose(self, observation: Any, legal: Any) -> Any:
        raise RuntimeError("boom")


LEAGUE = """
name = "lg"
table_size = 2
[[entrants]]
name = "Bad"
bot = "external"
options = {{ command = {command} }}
[[entrants]]
name = "Greedy"
bot = "greedy"
[[entrants]]
name = "Random"
bot = "random"
[[events]]
name = "ev"
format = "round_robin"
cycles = 4
"""


def test_an_event_stops_for_a_bot_that_cannot_start_or_keeps_failing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "l.toml"
    league.write_text(LEAGUE.format(command=json.dumps("/no/such/bot")))
    db = tmp_path / "e.db"
    assert cli(db, "league", "import", str(league)) == 0
    capsys.readouterr()
    assert cli(db, "event", "run", "ev", "--workers", "1") == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: entrant 'Bad' did not start (crash)")
    assert "nothing was played" in err[0]
    stored = open_database(str(db))
    try:
        status = event_status(stored, "ev")
    finally:
        stored.close()
    assert (status.rounds_paired, status.matches_total) == (0, 0)  # nothing was written
    registry.register("boom", Boom)
    try:
        other = tmp_path / "m.toml"
        text = LEAGUE.format(command='"x"').replace('bot = "external"', 'bot = "boom"')
        other.write_text(text.replace('options = { command = "x" }\n', "").replace('"lg"', '"m"'))
        db2 = tmp_path / "f.db"
        assert cli(db2, "league", "import", str(other)) == 0
        capsys.readouterr()
        assert cli(db2, "event", "run", "ev", "--workers", "1", "--max-forfeits", "3") == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("error: entrant 'Bad' forfeited 3 matches in a row")
        assert "the matches before are stored" in err[-1]
    finally:
        registry.unregister("boom")
