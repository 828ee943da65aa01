"""``c8league restore`` never destroys: the copy is checked whole before the database is
touched (integrity, schema version, every table and column, its record's chain), a copy
that fails is refused in one line with the database left byte for byte as it was, and
the database a restore replaces is kept beside it, which its line says."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from test_record_chain import behind_our_back
from test_season_record import SEASON, Capture, Club, snapshot

from c8league.storage.models import SCHEMA_VERSION

FIXTURES = Path(__file__).parent / "fixtures"
KEPT = re.compile(r"c8league\.db\.before-restore-\d{8}T\d{6}Z")


@pytest.fixture
def live(tmp_path: Path, capsys: Capture) -> Club:
    """A database with an evening's first round, and a copy of it (``copy.db``) made by
    ``c8league backup``; then a second round played."""
    c = Club(f"sqlite:///{tmp_path / 'c8league.db'}", capsys)
    c.ok("league", "import", str(SEASON))
    c.play_round("evening-1")
    c.ok("backup", str(tmp_path / "copy.db"))
    c.play_round("evening-1")
    return c


def path_of(club: Club) -> Path:
    return Path(club.url.removeprefix("sqlite:///"))


def beside(club: Club) -> list[str]:
    """The files in the database's folder."""
    return sorted(p.name for p in path_of(club).parent.iterdir())


def test_a_good_copy_is_restored_and_the_database_it_replaces_kept(
    live: Club, tmp_path: Path
) -> None:
    before = snapshot(live.url)
    copy = tmp_path / "copy.db"
    _, err = live.ok("restore", str(copy), "--force")
    kept = KEPT.search(err)
    assert kept is not None
    db = path_of(live)
    assert err == (
        f"restored {db} from {copy}: 1 league, 3 events, 3 results (schema version "
        f"{SCHEMA_VERSION}); the database it replaced is kept as {tmp_path / kept.group(0)}\n"
    )
    assert beside(live) == ["c8league.db", kept.group(0), "copy.db"]
    # The database is the copy; the one it replaced, whole, beside it.
    assert len(snapshot(live.url)["match"]) < len(before["match"])
    assert snapshot(f"sqlite:///{tmp_path / kept.group(0)}") == before
    live.ok("verify")
    # Restored again at once: a second file kept, of another name.
    _, err = live.ok("restore", str(copy), "--force")
    assert len([n for n in beside(live) if KEPT.fullmatch(n) or "-2" in n]) == 2


def test_into_a_new_file_nothing_is_kept(live: Club, tmp_path: Path, capsys: Capture) -> None:
    fresh = Club(f"sqlite:///{tmp_path / 'new' / 'c8league.db'}", capsys)
    (tmp_path / "new").mkdir()
    _, err = fresh.ok("restore", str(tmp_path / "copy.db"))
    assert "kept" not in err
    assert beside(fresh) == ["c8league.db"]


def test_an_older_copy_is_upgraded_and_chained(live: Club, tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    con = sqlite3.connect(old)
    con.executescript((FIXTURES / "schema_v4.sql").read_text())
    con.close()
    raw = old.read_bytes()
    _, err = live.ok("restore", str(old), "--force")
    assert f"(schema version 4, upgraded to {SCHEMA_VERSION}); the database it replaced" in err
    assert old.read_bytes() == raw  # the copy given is only read
    live.ok("verify")


def _damaged(copy: Path, folder: Path, how: str) -> Path:
    """A copy of ``copy`` spoilt in one way."""
    bad = folder / f"{how}.db"
    if how == "text":
        bad.write_text("not a database\n" * 100)
        return bad
    if how == "foreign":
        con = sqlite3.connect(bad)
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.commit()
        con.close()
        return bad
    shutil.copyfile(copy, bad)
    if how == "garbled":
        data = bytearray(bad.read_bytes())
        for i in range(8192, len(data), 7):
            data[i] = 0xA5
        bad.write_bytes(bytes(data))
    elif how == "truncated":
        bad.write_bytes(bad.read_bytes()[:20000])
    else:
        statements = {
            "dropped": "DROP TABLE match_seat",
            "column": "ALTER TABLE audit DROP COLUMN note",
            "newer": f"UPDATE meta SET value = '{SCHEMA_VERSION + 1}'",
            "changed": "UPDATE match_seat SET place = 1 WHERE match_id = 2",
        }
        behind_our_back(f"sqlite:///{bad}", statements[how])
    return bad


REFUSALS = {
    "text": "{copy} is not a c8league database (not a SQLite file)",
    "foreign": "{copy} is not a c8league database (no meta table)",
    "garbled": "{copy} is damaged (",
    "truncated": "{copy} is damaged (",
    "dropped": "{copy} lacks what c8league needs (table match_seat): it is damaged",
    "column": "{copy} lacks what c8league needs (audit.note): it is damaged",
    "newer": (
        f"{{copy}} has schema version {SCHEMA_VERSION + 1}, newer than this c8league "
        f"understands ({SCHEMA_VERSION}): upgrade c8league"
    ),
    "changed": (
        "{copy} holds a record changed outside c8league: match 2 (season/evening-1, round 1, "
        "table 2): its seats were changed outside c8league after c8league wrote it "
        "(c8league --db {copy} verify says more)"
    ),
}


@pytest.mark.parametrize(
    "how",
    [
        pytest.param(how, marks=pytest.mark.changes_record) if how == "changed" else how
        for how in REFUSALS
    ],
)
def test_a_bad_copy_is_refused_and_the_database_left_as_it_was(
    live: Club, tmp_path: Path, how: str
) -> None:
    bad = _damaged(tmp_path / "copy.db", tmp_path, how)
    db = path_of(live)
    raw, files = db.read_bytes(), beside(live)
    code, out, err = live.run("restore", str(bad), "--force")
    assert code != 0 and out == ""
    said = REFUSALS[how].format(copy=bad)
    assert err.startswith(f"error: {said}") and err.endswith("; nothing was changed\n"), err
    assert err.count("\n") == 1
    assert db.read_bytes() == raw
    assert beside(live) == files  # nothing kept, nothing left behind
    live.ok("verify")


def test_without_force_an_existing_database_is_not_replaced(live: Club, tmp_path: Path) -> None:
    live.refused(
        "exists: restoring replaces everything in it (it is kept beside it); add --force",
        *("restore", str(tmp_path / "copy.db")),
    )
    assert not [n for n in beside(live) if KEPT.fullmatch(n)]


def test_a_damaged_database_is_replaced_and_kept_byte_for_byte(live: Club, tmp_path: Path) -> None:
    """What a restore is for: the database garbled (or no database at all any more)."""
    db = path_of(live)
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\xa5" * (4096 - 100)
    db.write_bytes(bytes(data))
    _, err = live.ok("restore", str(tmp_path / "copy.db"), "--force")
    kept = KEPT.search(err)
    assert kept is not None and (tmp_path / kept.group(0)).read_bytes() == bytes(data)
    live.ok("verify")
    assert len(snapshot(live.url)["match"]) == 3
