"""The database file is whole whenever no command runs: a plain copy of ``c8league.db``
(no ``-wal`` beside it) holds everything, after every kind of command, after an error
and after Ctrl-C. And ``c8league backup`` / ``restore``, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dbs import matches_done_meanwhile
from sqlalchemy import make_url
from test_season_record import SEASON, Club, scores_for, snapshot

from c8league.cli.main import main
from c8league.storage.models import SCHEMA_VERSION

Capture = pytest.CaptureFixture[str]

BOTS = """
name = "bots"
table_size = 2
entrants = [
    {{ name = "Greedy", bot = "greedy" }},
    {{ name = "Random", bot = "random" }},
    {{ name = "Random II", bot = "random" }},
    {{ name = "Greedy II", bot = "greedy" }},
    {{ name = "Greedy III", bot = "greedy" }},
    {{ name = "Random III", bot = "random" }},
]
[rules]
preset = "basic"
[[events]]
name = "cup"
format = "round_robin"
cycles = {cycles}
"""


def facts(con: sqlite3.Connection) -> list[Any]:
    """What a database holds, in a comparable form (every row of every table)."""
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    return [
        (table, sorted(map(repr, con.execute(f'SELECT * FROM "{table}"').fetchall())))
        for table in sorted(tables)
    ]


def copy_is_whole(db: Path, tmp_path: Path) -> int:
    """Copy ``db`` alone (as a person backs it up, mails or syncs it) and check that the
    copy holds what the database holds; returns the copy's count of results."""
    wal = Path(f"{db}-wal")
    assert not wal.exists() or wal.stat().st_size == 0, "the write-ahead log was left behind"
    copy = tmp_path / "copy" / "c8league.db"
    copy.parent.mkdir(exist_ok=True)
    copy.unlink(missing_ok=True)
    shutil.copyfile(db, copy)
    live, alone = sqlite3.connect(db), sqlite3.connect(copy)
    try:
        assert facts(alone) == facts(live)
        return int(alone.execute("SELECT count(*) FROM match WHERE status='done'").fetchone()[0])
    finally:
        live.close()
        alone.close()


def test_a_copy_of_the_file_is_whole_after_every_kind_of_command(
    tmp_path: Path, capsys: Capture
) -> None:
    db = tmp_path / "c8league.db"
    c = Club(f"sqlite:///{db}", capsys)
    steps: list[tuple[str, Callable[[], object]]] = [
        ("import", lambda: c.ok("league", "import", str(SEASON))),
        ("pair", lambda: c.ok("event", "pair", "evening-1")),
        ("swap", lambda: c.ok("event", "swap", "evening-1", "Ada", "Ben")),
        ("unpair", lambda: c.ok("event", "unpair", "evening-1")),
        ("pair again", lambda: c.ok("event", "pair", "evening-1")),
        ("publish", lambda: c.ok("event", "publish", "evening-1")),
    ]
    for _, step in steps:
        step()
        copy_is_whole(db, tmp_path)
    tables = c.sheet("evening-1")["tables"]
    for t in tables:
        c.ok("result", "add", "evening-1", "--table", str(t["table"]), "--scores", scores_for(t))
        assert copy_is_whole(db, tmp_path) == t["table"]
    more: list[Callable[[], object]] = [
        lambda: c.ok("result", "void", "evening-1", "--table", "1"),
        lambda: c.ok(
            "result", "add", "evening-1", "--table", "1", "--scores", scores_for(tables[0])
        ),
        lambda: c.ok("players", "withdraw", "Ada"),
        lambda: c.ok("players", "reinstate", "Ada"),
        lambda: c.ok("players", "add", "Zoë", "--league", "season"),
        lambda: c.ok("players", "rename", "Zoë", "Zoe"),
        lambda: c.ok("players", "remove", "Zoe"),
        lambda: c.ok("ratings", "rebuild", "season"),
        lambda: c.ok("report", "evening-1", "--format", "html", "--out", str(tmp_path / "e1.html")),
        lambda: c.ok("backup", str(tmp_path / "copy.db")),
        lambda: c.refused(
            "nobody reached the target",
            "result",
            "edit",
            "evening-1",
            "--table",
            "1",
            "--scores",
            ",".join(f"{n}=1" for n in tables[0]["seats"]),
        ),
    ]
    for step in more:
        step()
        copy_is_whole(db, tmp_path)
    assert copy_is_whole(db, tmp_path) == len(tables)


def test_a_bot_event_and_its_interruption_leave_the_file_whole(
    tmp_path: Path, capsys: Capture
) -> None:
    league = tmp_path / "bots.toml"
    league.write_text(BOTS.format(cycles=100))  # 1,500 matches
    db = tmp_path / "c8league.db"
    assert main(["--db", str(db), "league", "import", str(league)]) == 0, capsys.readouterr().err
    script = Path(sysconfig.get_path("scripts")) / "c8league"
    proc = subprocess.Popen(
        [str(script), "--db", str(db), "event", "run", "cup", "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if matches_done_meanwhile(str(db), "cup") >= 20:
            break
        time.sleep(0.1)
    assert proc.poll() is None, "the event ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    stored = copy_is_whole(db, tmp_path)
    assert 20 <= stored < 1500
    assert main(["--db", str(db), "event", "resume", "cup"]) == 0
    assert copy_is_whole(db, tmp_path) == 1500


def test_ctrl_c_at_a_score_prompt_says_so_once_and_stores_nothing(
    tmp_path: Path, capsys: Capture
) -> None:
    db = tmp_path / "c8league.db"
    c = Club(f"sqlite:///{db}", capsys)
    c.ok("league", "import", str(SEASON))
    c.ok("event", "pair", "evening-1")
    c.ok("event", "publish", "evening-1")
    before = snapshot(f"sqlite:///{db}")
    script = Path(sysconfig.get_path("scripts")) / "c8league"
    proc = subprocess.Popen(
        [str(script), "--db", str(db), "result", "add", "evening-1", "--table", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdin is not None and proc.stderr is not None
    proc.stdin.write("120\n")
    proc.stdin.flush()
    asked = ""
    while asked.count(":") < 3 and proc.poll() is None:  # the table, then two names asked
        asked += proc.stderr.read(1)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C, as a terminal sends it
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, asked + stderr
    assert stderr.strip() == "interrupted"
    assert snapshot(f"sqlite:///{db}") == before


# -- backup and restore ------------------------------------------------------------------------


def test_backup_and_restore(tmp_path: Path, capsys: Capture) -> None:
    db = tmp_path / "c8league.db"
    c = Club(f"sqlite:///{db}", capsys)
    c.ok("league", "import", str(SEASON))
    c.play_round("evening-1")
    copy = tmp_path / "monday.db"
    _, err = c.ok("backup", str(copy))
    assert (
        err
        == f"backed up to {copy}: 1 league, 3 events, 3 results (schema version {SCHEMA_VERSION})\n"
    )
    assert not Path(f"{copy}-wal").exists() and not Path(f"{copy}.partial").exists()
    # The copy is a database of its own, whole in one file.
    other = Club(f"sqlite:///{copy}", capsys)
    assert other.json("event", "standings", "evening-1", "--json") == c.json(
        "event", "standings", "evening-1", "--json"
    )
    before = snapshot(c.url)
    c.refused(f"{copy} exists already: name a new file", "backup", str(copy))
    # More results, then the copy put back.
    c.play_round("evening-1")
    c.refused(
        "exists: restoring replaces everything in it (it is kept beside it); add --force",
        *("restore", str(copy)),
    )
    _, err = c.ok("restore", str(copy), "--force")
    assert err.startswith(f"restored {db} from {copy}: 1 league, 3 events, 3 results")
    assert snapshot(c.url) == before
    copy_is_whole(db, tmp_path)
    # Into a new file, no --force is needed.
    fresh = Club(f"sqlite:///{tmp_path / 'fresh.db'}", capsys)
    fresh.ok("restore", str(copy))
    assert snapshot(fresh.url) == before
    # A copy of a newer c8league, a file that is no database, a missing file.
    newer = tmp_path / "newer.db"
    shutil.copyfile(copy, newer)
    con = sqlite3.connect(newer)
    con.execute(f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    c.refused(
        f"{newer} has schema version {SCHEMA_VERSION + 1}, newer than this c8league "
        f"understands ({SCHEMA_VERSION}): upgrade c8league; nothing was changed",
        *("restore", str(newer), "--force"),
    )
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    c.refused(f"{junk} is not a c8league database", "restore", str(junk), "--force")
    c.refused("nowhere.db: no such file", "restore", str(tmp_path / "nowhere.db"), "--force")
    c.refused("is the database itself", "restore", str(db), "--force")


def test_backup_while_another_command_writes_is_consistent(tmp_path: Path, capsys: Capture) -> None:
    league = tmp_path / "bots.toml"
    league.write_text(BOTS.format(cycles=40))
    db = tmp_path / "c8league.db"
    assert main(["--db", str(db), "league", "import", str(league)]) == 0, capsys.readouterr().err
    script = Path(sysconfig.get_path("scripts")) / "c8league"
    proc = subprocess.Popen(
        [str(script), "--db", str(db), "event", "run", "cup", "--workers", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        copies = []
        for n in range(3):
            time.sleep(0.5)
            copy = tmp_path / f"copy{n}.db"
            assert main(["--db", str(db), "backup", str(copy)]) == 0
            copies.append(copy)
    finally:
        proc.wait(timeout=300)
    for copy in copies:
        con = sqlite3.connect(copy)
        try:
            # Every result in the copy is whole: its seats placed, its ratings updated.
            done = con.execute("SELECT count(*) FROM match WHERE status='done'").fetchone()[0]
            rated = con.execute("SELECT count(DISTINCT match_id) FROM rating_history").fetchone()[0]
            assert done == rated
        finally:
            con.close()


def test_backup_on_postgresql_says_how_to_use_pg_dump(
    pg_url: str, tmp_path: Path, capsys: Capture
) -> None:
    c = Club(pg_url, capsys)
    c.ok("league", "import", str(SEASON))
    dump = tmp_path / "club night.dump"
    err = c.refused("backup copies a SQLite file", "backup", str(dump))
    password = make_url(pg_url).password
    assert password and f":{password}@" not in err  # the password is not printed
    line = err.split(": use ", 1)[1].split(" (restore it with ", 1)[0]
    assert line.startswith(f"pg_dump --format=custom --file '{dump}' postgresql://")
    assert "$PGPASSWORD or ~/.pgpass" in err and "pg_restore --clean --if-exists" in err
    if shutil.which("pg_dump") is not None:
        # The line runs as printed, the password taken from $PGPASSWORD.
        env = {**os.environ, "PGPASSWORD": password, "PGPASSFILE": os.devnull}
        done = subprocess.run(line, shell=True, env=env, capture_output=True, text=True)
        if "server version mismatch" not in done.stderr:
            assert done.returncode == 0, done.stderr
            assert dump.read_bytes().startswith(b"PGDMP")
            dump.unlink()
    err = c.refused("restore copies a SQLite file", "restore", "x.db")
    assert "pg_restore --clean --if-exists --dbname postgresql://" in err and "x.db;" in err
    assert not Path("x.db").exists()


def test_the_file_is_whole_after_a_command_that_fails(tmp_path: Path, capsys: Capture) -> None:
    """An error after the database was written to in the same process (the command
    line's own error path) leaves no write-ahead log either."""
    db = tmp_path / "c8league.db"
    c = Club(f"sqlite:///{db}", capsys)
    c.ok("league", "import", str(SEASON))
    c.refused("no event named 'nope'", "event", "pair", "nope")
    copy_is_whole(db, tmp_path)
    code = subprocess.run(
        [sys.executable, "-m", "c8league", "--db", str(db), "players", "add", "ada"],
        capture_output=True,
        text=True,
    )
    assert code.returncode == 1 and "already exists" in code.stderr
    copy_is_whole(db, tmp_path)
    data = json.loads(
        subprocess.run(
            [sys.executable, "-m", "c8league", "--db", str(db), "players", "list", "--json"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    assert len(data) == 11
