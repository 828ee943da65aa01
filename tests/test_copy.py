"""``c8league copy``: a whole league database copied from SQLite to PostgreSQL and back
reads the same (every report, the record's chain and its head), and a copy refused
changes nothing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_season_record import Club, snapshot

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"
CLUB = LEAGUES / "club-swiss.toml"

Capture = pytest.CaptureFixture[str]

_HEAD = re.compile(r"^head: ([0-9a-f]{64}) \(entry (\d+)\)$", re.MULTILINE)


def club_with_results(url: str, capsys: Capture) -> Club:
    """The club's Thursday evening, two rounds of it played, on the database ``url``."""
    c = Club(url, capsys)
    c.ok("league", "import", str(CLUB))
    c.play_round("thursday")
    c.play_round("thursday")
    return c


def report(c: Club) -> dict[str, Any]:
    data: dict[str, Any] = c.json("report", "club", "--format", "json")
    data["footer"].pop("generated_at")
    return data


def head(c: Club) -> str:
    out, err = c.ok("verify")
    found = _HEAD.search(out + err)
    assert found is not None, out + err
    return found.group(0)


def test_a_league_copied_to_postgresql_and_back_reads_the_same(
    pg_url: str, tmp_path: Path, capsys: Capture
) -> None:
    first = club_with_results(f"sqlite:///{tmp_path / 'first.db'}", capsys)
    _, said = first.ok("copy", "--to", pg_url)
    assert said.startswith(f"copied {tmp_path / 'first.db'} to postgresql://"), said
    assert ":***@" in said and "1 league, 1 event, 8 results;" in said, said
    again = tmp_path / "again.db"
    _, said_back = Club(f"sqlite:///{again}", capsys).ok("copy", "--from", pg_url)
    assert said_back.startswith("copied postgresql://") and str(again) in said_back
    # The digest of the copy, compared with its source's, is the same all the way.
    assert said.split("(digest ")[1] == said_back.split("(digest ")[1]
    server, back = Club(pg_url, capsys), Club(f"sqlite:///{again}", capsys)
    assert report(back) == report(first) == report(server)
    assert head(server) == head(back) == head(first)
    assert snapshot(back.url) == snapshot(first.url)
    # The copy goes on as its source would: the next round's rows take the ids that
    # follow, and its record's chain goes on from the same head.
    for c in (first, server):
        c.play_round("thursday")
    assert report(server) | {"footer": None} == report(first) | {"footer": None}
    head(server)
    (ids,) = {tuple(rows[0] for rows in snapshot(c.url)["match"]) for c in (first, server)}
    assert len(ids) == 12


def test_a_target_that_holds_a_database_is_refused_without_force(
    db_url: str, tmp_path: Path, capsys: Capture
) -> None:
    source = club_with_results(f"sqlite:///{tmp_path / 'source.db'}", capsys)
    target = Club(db_url, capsys)
    target.ok("league", "import", str(LEAGUES / "club-season.toml"))
    bytes_before = (
        Path(db_url.removeprefix("sqlite:///")).read_bytes() if "sqlite" in db_url else b""
    )
    err = source.refused("holds a c8league database already", "copy", "--to", db_url)
    assert "(1 league, 3 events, 0 results): copying replaces everything in it; add --force" in err
    if db_url.startswith("sqlite"):
        assert Path(db_url.removeprefix("sqlite:///")).read_bytes() == bytes_before
    target.refused("holds a c8league database already", "copy", "--from", source.url)
    _, said = source.ok("copy", "--to", db_url, "--force")
    assert "(replacing what it held)" in said
    assert report(target) == report(source)
    assert head(target) == head(source)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--to", "nope://x"], "cannot open database nope://x"),
        (["--to", "/no/such/folder/x.db"], "cannot open database"),
        (["--from", "/no/such/file.db"], "/no/such/file.db"),
        (["--to", "postgresql://someone:secret@127.0.0.1:1/x"], "cannot open database"),
        (["--to", "sqlite://"], "a database in memory"),
        ([], "copy takes --to URL or --from URL"),
        (["--to", "a.db", "--from", "b.db"], "copy takes --to URL or --from URL"),
    ],
)
def test_a_bad_url_is_one_line(
    args: list[str], needle: str, tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    c = Club(f"sqlite:///{tmp_path / 'league.db'}", capsys)
    c.ok("league", "import", str(CLUB))
    err = c.refused(needle, "copy", *args)
    assert "secret" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["league.db"]


def test_a_copy_leaves_its_source_byte_for_byte(tmp_path: Path, capsys: Capture) -> None:
    source = club_with_results(f"sqlite:///{tmp_path / 'source.db'}", capsys)
    before = (tmp_path / "source.db").read_bytes()
    source.ok("copy", "--to", str(tmp_path / "to.db"))
    Club(f"sqlite:///{tmp_path / 'from.db'}", capsys).ok(
        "copy", "--from", str(tmp_path / "source.db")
    )
    assert (tmp_path / "source.db").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["from.db", "source.db", "to.db"]
    assert snapshot(f"sqlite:///{tmp_path / 'from.db'}") == snapshot(source.url)


def test_a_copy_into_itself_is_refused(tmp_path: Path, capsys: Capture) -> None:
    c = Club(f"sqlite:///{tmp_path / 'league.db'}", capsys)
    c.ok("league", "import", str(CLUB))
    c.refused(
        "is the database copied itself", "copy", "--to", str(tmp_path / "league.db"), "--force"
    )


def test_a_copy_into_a_file_that_is_not_a_database_is_refused(
    tmp_path: Path, capsys: Capture
) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a database\n")
    c = Club(f"sqlite:///{tmp_path / 'league.db'}", capsys)
    c.ok("league", "import", str(CLUB))
    c.refused("is not a c8league database", "copy", "--to", str(notes), "--force")
    assert notes.read_text() == "not a database\n"
