"""Bot versions: every stored match records, per seat, the version of the bot that
played it (c8league.players.versions); ``players show`` lists a bot's versions with
their matches and results; the record's chain covers them."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest

from c8league.cli.main import main
from c8league.players.versions import version_of
from c8league.storage import open_database
from c8league.storage.models import SCHEMA_VERSION

BOTS = Path(__file__).parent / "bots"

LEAGUE = """\
name = "lab"
table_size = 2
[rules]
preset = "basic"
[[entrants]]
name = "Bot"
bot = "external"
options = {{ command = [{python}, "bot.py"], cwd = {folder} }}
[[entrants]]
name = "Greedy"
bot = "greedy"
[[events]]
name = "one"
format = "round_robin"
cycles = 2
seed = 1
[[events]]
name = "two"
format = "round_robin"
cycles = 2
seed = 2
"""


@pytest.fixture
def lab(tmp_path: Path) -> tuple[Path, Path]:
    """A league of an external bot in a folder of its own and greedy; the database."""
    folder = tmp_path / "bot"
    folder.mkdir()
    folder.chmod(0o755)
    shutil.copy(BOTS / "good.py", folder / "bot.py")
    shutil.copy(BOTS / "botlib.py", folder / "botlib.py")
    league = tmp_path / "lab.toml"
    league.write_text(
        LEAGUE.format(python=json.dumps(sys.executable), folder=json.dumps(str(folder)))
    )
    db = tmp_path / "lab.db"
    assert main(["--db", str(db), "league", "import", str(league)]) == 0
    return folder, db


def seat_versions(db: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT m.id, e.name, v.label FROM match_seat s JOIN match m ON m.id = s.match_id "
            "JOIN entrant e ON e.id = s.entrant_id "
            "LEFT JOIN bot_version v ON v.id = s.version_id ORDER BY m.id, s.seat"
        ).fetchall()


def test_a_changed_bot_is_a_new_version_and_players_show_lists_both(
    lab: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, db = lab
    first = version_of("external", {"command": [sys.executable, "bot.py"], "cwd": str(folder)})
    assert main(["--db", str(db), "event", "run", "one", "--workers", "1"]) == 0
    with (folder / "bot.py").open("a") as bot:
        bot.write("# a new version\n")
    second = version_of("external", {"command": [sys.executable, "bot.py"], "cwd": str(folder)})
    assert first.digest != second.digest and first.label != second.label
    assert main(["--db", str(db), "event", "run", "two", "--workers", "1"]) == 0
    rows = seat_versions(db)
    assert {label for _, name, label in rows if name == "Bot"} == {first.label, second.label}
    assert all(label == "greedy 0.1.0" for _, name, label in rows if name == "Greedy")
    capsys.readouterr()
    assert main(["--db", str(db), "players", "show", "Bot", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [v["label"] for v in shown["versions"]] == [first.label, second.label]
    assert [v["matches"] for v in shown["versions"]] == [2, 2]
    one = [m for m, name, label in rows if name == "Bot" and label == first.label]
    assert (shown["versions"][0]["first_match"], shown["versions"][0]["last_match"]) == (
        min(one),
        max(one),
    )
    details = shown["versions"][1]["details"]
    assert details["file"] == str(folder / "bot.py") and details["files"] == 2


def test_what_is_not_a_bots_code_makes_no_new_version(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "bot.py").write_text("print()\n")
    options = {"command": ["python3", "bot.py"], "cwd": str(folder)}
    before = version_of("external", options)
    (folder / "__pycache__" / "bot.cpython-311.pyc").write_bytes(b"\0")
    (folder / "run.log").write_text("what it said\n")
    assert version_of("external", options).digest == before.digest
    assert version_of("external", {**options, "move_time": 9}).digest == before.digest
    assert version_of("external", {**options, "env": {"DEPTH": "3"}}).digest != before.digest
    (folder / "book.txt").write_text("openings\n")
    assert version_of("external", options).digest != before.digest


@pytest.mark.changes_record
def test_a_seat_version_changed_behind_c8leagues_back_is_found(
    lab: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, db = lab
    assert main(["--db", str(db), "event", "run", "one", "--workers", "1"]) == 0
    with sqlite3.connect(db) as con:
        con.execute("UPDATE match_seat SET version_id = NULL WHERE match_id = 1 AND seat = 0")
    capsys.readouterr()
    assert main(["--db", str(db), "verify"]) == 1
    assert "match 1 (lab/one, round 1, table 1): its seats were changed" in capsys.readouterr().err


def test_matches_chained_before_versions_were_recorded_keep_their_digests(
    lab: tuple[Path, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of the schema before versions (9), its matches chained then, upgraded:
    the chain holds as it was, and nothing is chained anew."""
    from c8league.events import running

    _, db = lab
    monkeypatch.setattr(running, "keep_versions", lambda db, found: {})  # as before versions
    assert main(["--db", str(db), "event", "run", "one", "--workers", "1"]) == 0
    with sqlite3.connect(db) as con:  # the database as schema 9 had it
        assert con.execute("SELECT count(*) FROM bot_version").fetchone() == (0,)
        con.execute(  # (its rows as they were: the columns before version_id)
            "CREATE TABLE seats9 AS SELECT match_id, seat, entrant_id, place, score FROM match_seat"
        )
        con.execute("DROP TABLE match_seat")
        con.execute("ALTER TABLE seats9 RENAME TO match_seat")
        con.execute("DROP TABLE bot_version")
        con.execute("ALTER TABLE match DROP COLUMN forfeit_request")  # (schema 11's)
        con.execute("DROP TABLE table_code")  # (schema 12's)
        con.execute("UPDATE meta SET value = '9' WHERE key = 'schema_version'")
        entries = con.execute("SELECT count(*) FROM chain").fetchone()[0]
    open_database(str(db)).close()  # upgrades it
    with sqlite3.connect(db) as con:
        version = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
        assert con.execute("SELECT count(*) FROM chain").fetchone()[0] == entries
    capsys.readouterr()
    assert main(["--db", str(db), "verify"]) == 0
