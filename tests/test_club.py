"""A club evening driven through the command line: the 13-person Swiss night from the
league file to published standings, with every kind of bad entry and corrections."""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from clis import cli as run
from shown import WHEN, assert_shown

from c8league.events.status import event_status
from c8league.storage.database import open_database

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"


def digest(db: Path) -> str:
    con = sqlite3.connect(db)
    rows = []
    for table in (
        "match",
        "match_seat",
        "hand",
        "rating",
        "rating_history",
        "round",
        "audit",
        "membership_change",
        "league_entrant",
        "entrant",
    ):
        rows.append(con.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall())
    con.close()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def sheet(db: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, object]:
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--format", "json", *extra) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def scores_for(table: dict[str, object], winner_points: int | None = None) -> str:
    """A valid final result: seat 1 reaches the target, the others a little less each."""
    seats = table["seats"]
    assert isinstance(seats, list)
    target = int(table["target"])  # type: ignore[call-overload]
    values = [winner_points or target] + [
        max(0, target - 40 - 10 * i) for i in range(len(seats) - 1)
    ]
    return ",".join(f"{n}={v}" for n, v in zip(seats, values, strict=True))


def enter_round(db: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    data = sheet(db, capsys)
    for table in data["tables"]:  # type: ignore[attr-defined]
        assert (
            run(
                db,
                "result",
                "add",
                "thursday",
                "--table",
                str(table["table"]),
                "--scores",
                scores_for(table),
            )
            == 0
        )
    return data


@pytest.fixture
def club(tmp_path: Path) -> Path:
    db = tmp_path / "club.db"
    assert run(db, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    return db


def test_the_whole_evening(club: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = club
    assert run(db, "event", "run", "thursday") == 2
    assert "played by people" in capsys.readouterr().err
    assert run(db, "event", "pair", "thursday") == 0
    first = sheet(db, capsys)
    sizes = sorted(len(t["seats"]) for t in first["tables"])  # type: ignore[attr-defined]
    assert sizes == [3, 3, 3, 4] and first["published"] is False
    assert [t["target"] for t in first["tables"]] == [  # type: ignore[attr-defined]
        50 * len(t["seats"])
        for t in first["tables"]  # type: ignore[attr-defined]
    ]
    # Results cannot be entered before the round is published (a state refused: 1).
    assert run(db, "result", "add", "thursday", "--table", "1", "--scores", "A=1") == 1
    assert "not published" in capsys.readouterr().err
    assert run(db, "event", "publish", "thursday") == 0
    enter_round(db, capsys)
    # Round 2: a swap that creates a repeat meeting warns but is allowed.
    assert run(db, "event", "pair", "thursday") == 0
    second = sheet(db, capsys)
    top = second["tables"][0]["seats"]  # type: ignore[index]
    met = next(
        (a, b)
        for t in first["tables"]  # type: ignore[attr-defined]
        for a in t["seats"]
        for b in t["seats"]
        if a != b and a in top and b not in top
    )
    capsys.readouterr()
    assert run(db, "event", "swap", "thursday", met[1], next(n for n in top if n != met[0])) == 0
    assert "have met before" in capsys.readouterr().err
    # Moving a player leaves the four-player table with three and makes another four.
    before = sheet(db, capsys)["tables"]
    full = next(i for i, t in enumerate(before) if len(t["seats"]) == 4)  # type: ignore[arg-type]
    other = (full + 1) % len(before)  # type: ignore[arg-type]
    mover = before[full]["seats"][0]  # type: ignore[index]
    assert run(db, "event", "move", "thursday", mover, "--table", str(other + 1)) == 0
    moved = sheet(db, capsys)
    sizes_after = [len(t["seats"]) for t in moved["tables"]]  # type: ignore[attr-defined]
    assert sizes_after[full] == 3 and sizes_after[other] == 4
    assert sorted(sizes_after) == [3, 3, 3, 4]
    assert mover in moved["tables"][other]["seats"]  # type: ignore[index]
    assert run(db, "event", "publish", "thursday") == 0
    assert run(db, "event", "swap", "thursday", "Ada", "Ben") == 2  # published: fixed
    enter_round(db, capsys)
    # A correction of round 1 after round 2: standings and ratings follow it.
    capsys.readouterr()
    assert run(db, "ratings", "show", "club", "--json") == 0
    before = json.loads(capsys.readouterr().out)
    table1 = first["tables"][0]  # type: ignore[index]
    seats = table1["seats"]
    swapped = ",".join(
        f"{n}={v}" for n, v in zip(seats, [10, 200] + [0] * (len(seats) - 2), strict=True)
    )
    assert (
        run(
            db,
            "result",
            "edit",
            "thursday",
            "--round",
            "1",
            "--table",
            str(table1["table"]),
            "--scores",
            swapped,
            "--note",
            "misread",
        )
        == 0
    )
    capsys.readouterr()
    assert run(db, "ratings", "show", "club", "--json") == 0
    after = json.loads(capsys.readouterr().out)
    assert before != after
    assert run(db, "ratings", "rebuild", "club") == 0
    capsys.readouterr()
    assert run(db, "ratings", "show", "club", "--json") == 0
    assert json.loads(capsys.readouterr().out) == after  # rebuild equals the correction
    assert run(db, "result", "history", "thursday", "--json") == 0
    trail = json.loads(capsys.readouterr().out)
    assert trail[-1]["action"] == "edit" and trail[-1]["note"] == "misread"
    assert trail[-1]["before"]["scores"][seats[0]] == table1["target"]
    # Publishing: the public page.
    page = tmp_path / "thursday.html"
    assert run(db, "report", "thursday", "--format", "html", "--out", str(page)) == 0
    html = page.read_text()
    assert "Standings" in html or "standings" in html
    assert (
        run(
            db,
            "event",
            "sheet",
            "thursday",
            "--format",
            "html",
            "--out",
            str(tmp_path / "sheet.html"),
        )
        == 0
    )
    assert "deals first" in (tmp_path / "sheet.html").read_text()
    capsys.readouterr()
    assert run(db, "event", "sheet", "thursday", "--format", "csv") == 0
    assert_shown(capsys.readouterr().out, "club-sheet-csv")
    assert run(db, "event", "sheet", "thursday") == 0
    assert_shown(capsys.readouterr().out, "club-sheet")
    assert run(db, "result", "history", "thursday") == 0
    assert_shown(capsys.readouterr().out, "club-result-history", when=WHEN)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--scores", "{s0}=200,{s1}=150"], "no score for"),
        (["--scores", "{s0}=200,{s1}=150,{s2}=20,Zed=3"], "Zed not seated at this table"),
        (["--scores", "{s0}=200,{s1}=15,{s2}=20,{s3}=3", "--forfeit", "{s3}"], "was over"),
        (["--scores", "{s0}=100,{s1}=150,{s2}=20,{s3}=3"], "(reached: nobody)"),
        (["--scores", "{s0}=10,{s1}=15,{s2}=20,{s3}=3"], "stopped early: --unfinished)"),
        (["--scores", "{s0}=200,{s1}=-5,{s2}=20,{s3}=3"], "negative score"),
        (["--scores", "{s0}=2x0"], "not a whole number"),
        (["--hands", "{s0}=20,{s1}=30"], "only the hand's winner scores"),
        (["--hands", "{s0}=150;{s1}=60;{s0}=60;{s2}=10"], "the match was over after hand 3"),
        (["--hands", "blocked:{s0}=5,{s1}=7"], "all the same amount"),
        (["--scores", "{s0}=200,{s1}=1,{s2}=2,{s3}=3", "--hands", "{s0}=200"], "not both"),
        (["--scores", "{s0}=200,{s1}=1,{s2}=2,{s3}=3", "--table", "9"], "has no table 9"),
        (["--forfeit", "Zed", "--scores", "{s0}=20,{s1}=1,{s2}=2,{s3}=3"], "forfeit: Zed not"),
    ],
)
def test_bad_entries_write_nothing(
    club: Path, capsys: pytest.CaptureFixture[str], args: list[str], needle: str
) -> None:
    db = club
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "event", "publish", "thursday") == 0
    table = next(t for t in sheet(db, capsys)["tables"] if len(t["seats"]) == 4)  # type: ignore[attr-defined]
    names = {f"s{i}": n for i, n in enumerate(table["seats"])}
    before = digest(db)
    filled = [a.format(**names) for a in args]
    if "--table" not in filled:
        filled = ["--table", str(table["table"]), *filled]
    capsys.readouterr()
    # A table that is not there is a wrong command line (2); a result refused, data (1).
    assert run(db, "result", "add", "thursday", *filled) == (2 if "no table" in needle else 1)
    err = capsys.readouterr().err
    assert needle in err, err
    assert err.strip().count("\n") == 0 and "Traceback" not in err
    assert digest(db) == before


def test_hand_by_hand_totals_forfeit_void_and_prompts(
    club: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = club
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "event", "publish", "thursday") == 0
    tables = sheet(db, capsys)["tables"]
    big = next(t for t in tables if len(t["seats"]) == 4)  # type: ignore[attr-defined]
    a, b, c, d = big["seats"]
    hands = f"{a}=60;{b}=45;blocked:{a}=5,{c}=5;{a}=140"
    assert run(db, "result", "add", "thursday", "--table", str(big["table"]), "--hands", hands) == 0
    assert f"1. {a} 205" in capsys.readouterr().err
    assert (
        run(
            db,
            "result",
            "add",
            "thursday",
            "--table",
            str(big["table"]),
            "--scores",
            f"{a}=200,{b}=1,{c}=2,{d}=3",
        )
        == 1
    )
    assert "already has a result" in capsys.readouterr().err
    small = [t for t in tables if len(t["seats"]) == 3]  # type: ignore[attr-defined]
    x, y, z = small[0]["seats"]
    assert (
        run(
            db,
            "result",
            "add",
            "thursday",
            "--table",
            str(small[0]["table"]),
            "--forfeit",
            x,
            "--scores",
            f"{x}=90,{y}=40,{z}=60",
        )
        == 0
    )
    assert f"3. {x} 90 (forfeit)" in capsys.readouterr().err
    # Prompts: a bad keystroke asks again.
    p = small[1]["seats"][0]
    monkeypatch.setattr("sys.stdin", io.StringIO("150\nabc\n20\n0\ny\n"))
    assert run(db, "result", "add", "thursday", "--table", str(small[1]["table"])) == 0
    assert f"1. {p} 150" in capsys.readouterr().err
    assert (
        run(
            db,
            "result",
            "void",
            "thursday",
            "--table",
            str(small[1]["table"]),
            "--note",
            "wrong table",
        )
        == 0
    )
    database = open_database(str(db), create=False)
    assert event_status(database, "thursday").matches_void == 1
    database.close()
    con = sqlite3.connect(db)
    voided = con.execute(
        "SELECT count(*) FROM rating_history h JOIN match m ON m.id = h.match_id "
        "WHERE m.status = 'void'"
    ).fetchone()[0]
    assert voided == 0


def test_withdrawal_late_entry_and_byes(club: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = club
    assert run(db, "event", "pair", "thursday") == 0
    assert run(db, "event", "publish", "thursday") == 0
    enter_round(db, capsys)
    assert run(db, "players", "withdraw", "Ada", "--league", "club") == 0
    assert run(db, "players", "add", "Zoe", "--league", "club") == 0
    assert run(db, "players", "add", "Yan", "--league", "club") == 0
    assert run(db, "players", "add", "Xia", "--league", "club") == 0
    assert run(db, "event", "pair", "thursday") == 0
    seated = {n for t in sheet(db, capsys)["tables"] for n in t["seats"]}  # type: ignore[attr-defined]
    assert "Ada" not in seated and {"Zoe", "Yan", "Xia"} <= seated
    assert run(db, "event", "standings", "thursday", "--json") == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["Ada"]["matches"] == 1  # results stay after a withdrawal
    assert rows["Zoe"]["match_points"] == 0  # a late entrant starts from nothing


MIXED = """
name = "mixed"
table_size = 4
entrants = [{ name = "Pat" }, { name = "Bot A", bot = "greedy" },
            { name = "Bot B", bot = "greedy" }, { name = "Bot C", bot = "random" }]
[[events]]
name = "night"
format = "swiss"
rounds = 2
seed = 3
played_by = "people"
"""


def test_a_person_plays_the_league_bots_and_the_result_is_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from c8league.cli import play_cmd
    from c8league.players import registry
    from c8league.players.greedy import GreedyPlayer
    from c8league.players.random_player import RandomPlayer
    from tests.test_terminal import first_move

    league = tmp_path / "mixed.toml"
    league.write_text(MIXED)
    db = tmp_path / "mixed.db"
    with registry.only_registered({"greedy": GreedyPlayer, "random": RandomPlayer}):
        assert run(db, "league", "import", str(league)) == 0
        assert run(db, "event", "pair", "night") == 0
        assert run(db, "play", "--event", "night", "--name", "Pat") == 2
        assert "not published" in capsys.readouterr().err
        assert run(db, "event", "publish", "night") == 0
        monkeypatch.setattr(play_cmd, "input_function", first_move)
        assert run(db, "play", "--league", "mixed", "--event", "night", "--name", "Pat") == 0
        assert "stored in the event" in capsys.readouterr().out
        assert run(db, "play", "--event", "night", "--name", "Pat") == 2
        assert "already has a result" in capsys.readouterr().err
    con = sqlite3.connect(db)
    assert con.execute("SELECT status, entered_by, hands > 0 FROM match").fetchall() == [
        ("done", "play", 1)
    ]
    assert con.execute("SELECT count(*) FROM rating_history").fetchone()[0] == 4
