"""A damaged SQLite file under the commands that read: each page of a club league's
database garbled in turn, every read command gets one line saying the database is
damaged (SQLite's quick check says where) and a non-zero exit, never a listing and
never a traceback, and the file is left byte for byte as it was. The commands that
only read open the file read-only."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from c8league.cli.main import main

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"

Capture = pytest.CaptureFixture[str]

READS = [
    ["league", "list"],
    ["league", "show", "club"],
    ["players", "list"],
    ["players", "show", "Ada"],
    ["ratings", "show", "club"],
    ["event", "status", "thursday"],
    ["event", "standings", "thursday"],
    ["match", "show", "1"],
    ["verify"],
]


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A club league after two rounds of its evening, closed (the file alone)."""
    folder = tmp_path_factory.mktemp("whole")
    db = folder / "club.db"
    url = f"sqlite:///{db}"
    assert main(["--db", url, "league", "import", str(LEAGUES / "club-swiss.toml")]) == 0
    for _ in range(2):
        assert main(["--db", url, "event", "pair", "thursday"]) == 0
        assert main(["--db", url, "event", "publish", "thursday"]) == 0
        for table, scores in enumerate(_scores(db), start=1):
            assert main(["--db", url, "result", "add", "thursday", "--table", str(table),
                         "--scores", scores]) == 0  # fmt: skip
    return db


def _scores(db: Path) -> list[str]:
    """A result for each table of the round paired last: seat 1 wins."""
    con = sqlite3.connect(db)
    try:
        (round_id,) = con.execute("SELECT max(id) FROM round").fetchone()
        tables = con.execute(
            "SELECT m.table_no, e.name FROM match m JOIN match_seat s ON s.match_id = m.id "
            "JOIN entrant e ON e.id = s.entrant_id WHERE m.round_id = ? "
            "ORDER BY m.table_no, s.seat",
            (round_id,),
        ).fetchall()
    finally:
        con.close()
    seats: dict[int, list[str]] = {}
    for table, name in tables:
        seats.setdefault(table, []).append(name)
    return [
        ",".join(f"{name}={200 - 40 * i}" for i, name in enumerate(names))
        for _, names in sorted(seats.items())
    ]


def damaged_copies(whole: Path, folder: Path) -> list[Path]:
    """The database with one page garbled, for each page SQLite's quick check then
    finds damaged (at most a dozen, spread over the file)."""
    data = whole.read_bytes()
    size = int.from_bytes(data[16:18], "big")
    found: list[Path] = []
    for page in range(1, len(data) // size):
        garbled = bytearray(data)
        for i in range(page * size + 8, (page + 1) * size, 5):
            garbled[i] ^= 0x5A
        copy = folder / f"page-{page}.db"
        copy.write_bytes(bytes(garbled))
        con = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True)
        try:
            ok = con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        except sqlite3.DatabaseError:
            ok = False
        finally:
            con.close()
        for suffix in ("-wal", "-shm"):
            Path(f"{copy}{suffix}").unlink(missing_ok=True)
        if ok:
            copy.unlink()
        else:
            found.append(copy)
    step = max(1, len(found) // 12)
    return found[::step]


@pytest.mark.changes_record
def test_every_read_of_a_damaged_file_is_one_line_and_the_file_stays_as_it_was(
    whole: Path, tmp_path: Path, capsys: Capture
) -> None:
    copies = damaged_copies(whole, tmp_path)
    assert len(copies) >= 5
    for copy in copies:
        before = copy.read_bytes()
        for args in [*READS, ["report", "club", "--format", "json"]]:
            capsys.readouterr()
            code = main(["--db", str(copy), *args])
            out, err = capsys.readouterr()
            where = f"{copy.name}: {' '.join(args)}"
            assert code != 0 and out == "", where
            assert err.startswith(f"error: the database {copy} is damaged ("), (where, err)
            assert err.strip().endswith("restore it from a backup (nothing was changed)"), where
            assert len(err.strip().splitlines()) == 1, (where, err)
        assert copy.read_bytes() == before, copy.name
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(copy.name)) == [
            copy.name
        ]


def test_a_read_leaves_a_whole_file_byte_for_byte_and_nothing_beside_it(
    whole: Path, tmp_path: Path, capsys: Capture
) -> None:
    db = tmp_path / "club.db"
    shutil.copyfile(whole, db)
    before = db.read_bytes()
    for args in READS:
        assert main(["--db", str(db), *args]) == 0, args
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.db"]
    capsys.readouterr()
    # A command that writes still does.
    assert main(["--db", str(db), "players", "add", "Zed"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "players", "list", "--json"]) == 0
    assert "Zed" in capsys.readouterr().out
