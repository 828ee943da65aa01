"""``c8league games export``: every game of an event, a duel or a league as JSON lines,
each the record ``match show --format json`` prints, valid against the schema in docs/;
read a page at a time; ``--out`` whole or not at all; bad input in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from clis import cli

from c8league.cli.main import main
from c8league.engine import HandRecord, Rules
from c8league.engine.match import MatchRecord
from c8league.reports import export
from c8league.storage import open_database
from c8league.storage import results as stored_results

SCHEMA = json.loads(
    (Path(__file__).parents[1] / "docs" / "game-record.schema.json").read_text(encoding="utf-8")
)

CHEAT = """\
import json, sys
moves = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        moves = 0
        print(json.dumps({"type": "hello", "name": "cheat"}), flush=True)
    elif m["type"] == "move":
        moves += 1
        move = m["legal"][0]
        if moves == 3:
            move = "AS" if "AS" not in m["legal"] else "KS"
        print(json.dumps({"type": "move", "move": move}), flush=True)
    elif m["type"] == "quit":
        break
"""

LEAGUE = """
name = "lg"
table_size = 2
[[entrants]]
name = "Cheat"
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
cycles = 2
[[events]]
name = "second"
format = "round_robin"
cycles = 1
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with a league of two events (an external bot that forfeits with an
    illegal move among them) and a duel, all played."""
    folder = tmp_path_factory.mktemp("export")
    folder.chmod(0o755)  # (readable by the sandboxed bot: see conftest's tmp_path)
    bot = folder / "cheat.py"
    bot.write_text(CHEAT)
    league = folder / "l.toml"
    league.write_text(LEAGUE.format(command=json.dumps(f"{sys.executable} {bot}")))
    db = folder / "e.db"
    assert cli(db, "league", "import", str(league)) == 0
    assert cli(db, "event", "run", "ev", "--workers", "1") == 0
    assert cli(db, "event", "run", "second", "--workers", "1") == 0
    assert cli(db, "duel", "greedy", "random", "--games", "6", "--workers", "1") == 0
    return db


def exported(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert cli(db, "games", "export", *args) == 0
    text = capsys.readouterr().out
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def shown(db: Path, capsys: pytest.CaptureFixture[str], match: str) -> dict[str, Any]:
    capsys.readouterr()
    assert cli(db, "match", "show", match, "--format", "json") == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_an_events_games_are_the_records_match_show_prints(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = exported(played, capsys, "ev", "--format", "jsonl")
    assert len(games) == 6  # three entrants, two cycles of a round-robin at tables of two
    assert [int(g["match"]) for g in games] == sorted(int(g["match"]) for g in games)
    for game in games:
        jsonschema.validate(game, SCHEMA)
        assert game["format"] == "c8league-game" and game["version"] == 1
        assert game["source"]["league"] == "lg" and game["source"]["event"] == "ev"
        assert game == shown(played, capsys, game["match"])  # one record, one function
        rules = Rules.from_json(json.dumps(game["rules"]))
        for hand in game["hands"]:  # each hand replays from the record alone
            HandRecord.from_dict(hand).replay(rules)
        moves = tuple(tuple(line.split()) for line in game["moves"])
        MatchRecord(game["players"], game["seed"], moves).replay(rules)
    forfeits = [g["forfeit"] for g in games if g["forfeit"] is not None]
    assert len(forfeits) == 4 and {f["reason"] for f in forfeits} == {"illegal"}
    assert all(f["move"] == 3 for f in forfeits)
    seated = {s["name"] for g in games for s in g["seats"]}
    assert seated == {"Cheat", "Greedy", "Random"}
    assert exported(played, capsys, "ev", "--league", "lg") == games
    assert exported(played, capsys, "lg/ev") == games


def test_a_duel_and_a_league(played: Path, capsys: pytest.CaptureFixture[str]) -> None:
    duel = exported(played, capsys, "duel-1")
    assert [g["match"] for g in duel] == [f"duel-1:{d}{s}" for d in range(3) for s in "AB"]
    for game in duel:
        jsonschema.validate(game, SCHEMA)
        assert game == shown(played, capsys, game["match"])
        assert game["source"]["duel"] == "duel-1"
    league = exported(played, capsys, "lg")
    assert len(league) == 6 + 3
    assert {g["source"]["event"] for g in league} == {"ev", "second"}
    assert league[:6] == exported(played, capsys, "ev")
    for game in league:
        jsonschema.validate(game, SCHEMA)


def test_an_export_reads_a_page_at_a_time(
    played: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page is read when the lines before it are written: the matches are never
    all in memory at once."""
    monkeypatch.setattr(stored_results, "MATCHES_AT_ONCE", 2)
    pages: list[int] = []
    read = stored_results.finished_matches

    def spy(*args: Any, **kwargs: Any) -> list[stored_results.StoredMatch]:
        page = read(*args, **kwargs)
        pages.append(len(page))
        return page

    monkeypatch.setattr(stored_results, "finished_matches", spy)
    db = open_database(str(played), create=False)
    try:
        lines = export.game_lines(db, export.find_target(db, "lg"))
        first = next(lines)
        assert json.loads(first)["source"]["event"] == "ev" and pages == [2]
        rest = list(lines)
    finally:
        db.close()
    assert len(rest) == 8 and pages == [2, 2, 2, 2, 1, 0]


def test_out_is_written_whole_or_not_at_all(
    played: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    out = tmp_path / "games.jsonl"
    capsys.readouterr()
    assert cli(played, "games", "export", "lg", "--out", str(out)) == 0
    assert capsys.readouterr().err == f"9 games of league lg written to {out}\n"
    whole = out.read_text(encoding="utf-8")
    assert [json.loads(line) for line in whole.splitlines()] == exported(played, capsys, "lg")

    made = 0
    record = export.game_record

    def stopped(game: Any) -> dict[str, Any]:
        nonlocal made
        made += 1
        if made == 4:
            raise KeyboardInterrupt
        return record(game)

    monkeypatch.setattr(export, "game_record", stopped)
    capsys.readouterr()
    assert cli(played, "games", "export", "lg", "--out", str(out)) == 130
    assert capsys.readouterr().err == f"interrupted: nothing written to {out}\n"
    assert out.read_text(encoding="utf-8") == whole  # the file it would have replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]  # no partial file
    made = 0
    fresh = tmp_path / "new.jsonl"
    assert cli(played, "games", "export", "lg", "--out", str(fresh)) == 130
    assert not fresh.exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["nothing"], "no league, duel or event named 'nothing'; leagues: lg; duels: duel-1;"),
        (["ev", "--league", "other"], "no event named 'ev' of league 'other'"),
        (["lg/none"], "no event named 'none' of league 'lg'"),
        (["ev", "--format", "csv"], "unknown format 'csv'; formats: jsonl"),
        (["ev", "--out", "."], ". is a folder: name a file (nothing was written)"),
        (["ev", "--out", "no/such/folder/x.jsonl"], "no/such/folder is not a folder"),
    ],
)
def test_bad_input_is_one_line(
    played: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    capsys.readouterr()
    assert cli(played, "games", "export", *args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert needle in captured.err and captured.err.count("\n") == 1


def test_an_export_on_postgresql(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "l.toml"
    league.write_text(
        LEAGUE.replace(
            'name = "Cheat"\nbot = "external"\noptions = {{ command = {command} }}',
            'name = "Cheat"\nbot = "random"',
        )
        .replace("{{", "{")
        .replace("}}", "}")
    )
    assert main(["--db", pg_url, "league", "import", str(league)]) == 0
    assert main(["--db", pg_url, "event", "run", "ev", "--workers", "1"]) == 0
    assert main(["--db", pg_url, "duel", "greedy", "random", "--games", "4", "--workers", "1"]) == 0
    for target, count in (("lg/ev", 6), ("duel-1", 4)):
        capsys.readouterr()
        assert main(["--db", pg_url, "games", "export", target]) == 0
        games = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert len(games) == count
        for game in games:
            jsonschema.validate(game, SCHEMA)
            capsys.readouterr()
            assert main(["--db", pg_url, "match", "show", game["match"], "--format", "json"]) == 0
            assert json.loads(capsys.readouterr().out) == game


def test_a_reader_that_stops_ends_the_export_quietly(played: Path) -> None:
    """``games export lg | head -c 10``: no traceback when the pipe closes."""
    done = subprocess.run(
        f"{sys.executable} -m c8league --db {played} games export lg | head -c 10",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.stdout == '{"format":'
    assert "Traceback" not in done.stderr and "Error" not in done.stderr
