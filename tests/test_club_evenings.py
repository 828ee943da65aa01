"""The places where a club evening used to stall, each driven through the command line
as an organiser meets it: the rounds on the public page, a voided table entered again,
withdrawals, shared first places and several forfeits, house rules, which round an edit
means, the wrong folder, clean machine-readable output, typed-in entry, and the small
untruths of sheets, moves and pairings."""

from __future__ import annotations

import io
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from shown import assert_shown
from test_club import LEAGUES, digest, run, scores_for, sheet

from c8league.cli.main import main

Capture = pytest.CaptureFixture[str]

HOUSE_RULE = "several cards of one rank may be played together"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables printed 200 columns wide: what a cell says stays on one line."""
    from c8league.cli import output

    monkeypatch.setattr(output.out, "width", 200)
    monkeypatch.setattr(output.err, "width", 200)


@pytest.fixture
def club(tmp_path: Path) -> Path:
    db = tmp_path / "club.db"
    assert run(db, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    return db


def ok(db: Path, capsys: Capture, *args: str) -> tuple[str, str]:
    """Run a command that must succeed; its stdout and stderr."""
    capsys.readouterr()
    code = run(db, *args)
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out, captured.err


def refused(db: Path, capsys: Capture, needle: str, *args: str) -> str:
    """Run a command that must fail with one line holding ``needle`` and change nothing."""
    before = digest(db)
    capsys.readouterr()
    code = run(db, *args)
    err = capsys.readouterr().err
    assert code != 0, err
    assert needle in err, err
    assert err.startswith("error:") and err.strip().count("\n") == 0, err
    assert digest(db) == before
    return err


def as_json(db: Path, capsys: Capture, *args: str) -> Any:
    out, _ = ok(db, capsys, *args)
    return json.loads(out)


def new_round(db: Path, capsys: Capture) -> list[dict[str, Any]]:
    """Pair and publish the next round; its tables."""
    ok(db, capsys, "event", "pair", "thursday")
    ok(db, capsys, "event", "publish", "thursday")
    return sheet(db, capsys)["tables"]  # type: ignore[return-value]


def enter(db: Path, capsys: Capture, tables: list[dict[str, Any]], *skip: int) -> None:
    """A valid result (seat 1 first) at every table but those in ``skip``."""
    for t in tables:
        if t["table"] not in skip:
            ok(db, capsys, "result", "add", "thursday", "--table", str(t["table"]),
               "--scores", scores_for(t))  # fmt: skip


def at(tables: list[dict[str, Any]], size: int) -> dict[str, Any]:
    return next(t for t in tables if len(t["seats"]) == size)


# -- 1. the public page shows every round ---------------------------------------------------


def test_every_report_format_shows_every_round(club: Path, capsys: Capture, tmp_path: Path) -> None:
    db = club
    first = new_round(db, capsys)
    four = at(first, 4)
    a, b, c, d = four["seats"]
    ok(db, capsys, "result", "add", "thursday", "--table", str(four["table"]),
       "--forfeit", d, "--scores", f"{a}=120,{b}=90,{c}=60,{d}=100")  # fmt: skip
    enter(db, capsys, first, four["table"])
    second = new_round(db, capsys)
    enter(db, capsys, second, second[-1]["table"])  # the last table still to play

    out, _ = ok(db, capsys, "report", "thursday")
    assert "Round 1 of 4" in out and "Round 2 of 4" in out
    assert f"{d} (left)" in out and "to play" in out
    data = as_json(db, capsys, "report", "thursday", "--format", "json")
    rounds = data["events"][0]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2] and data["events"][0]["rounds_total"] == 4
    table = next(t for t in rounds[0]["tables"] if t["table"] == four["table"])
    assert [s["name"] for s in table["seats"]] == four["seats"]
    assert [(s["score"], s["place"], s["forfeit"]) for s in table["seats"]] == [
        (120, 1, False), (90, 2, False), (60, 3, False), (100, 4, True),
    ]  # fmt: skip
    assert table["ended"] == "forfeit" and table["forfeit_reason"] == "left"
    assert table["target"] == 200
    pending = rounds[1]["tables"][-1]
    assert pending["status"] == "pending" and pending["seats"][0]["score"] is None
    csv_rows, _ = ok(db, capsys, "report", "thursday", "-f", "csv", "--table", "rounds")
    lines = csv_rows.splitlines()
    assert lines[0] == "event,round,table,deal,seat,name,score,place,forfeit,status"
    assert len(lines) == 1 + 13 + 13
    assert f"thursday,1,{four['table']},0,4,{d},100,4,true,done" in lines
    md, _ = ok(db, capsys, "report", "thursday", "-f", "md")
    assert "### Round 1 of 4" in md and "### Round 2 of 4" in md
    page = tmp_path / "thursday.html"
    ok(db, capsys, "report", "thursday", "--format", "html", "--out", str(page))
    html = page.read_text()
    assert 'id="table-round-thursday-1"' in html and 'id="table-round-thursday-2"' in html


MINI = """
name = "mini"
table_size = 2
entrants = [{ name = "Pat" }, { name = "Quin" }, { name = "Rue" }, { name = "Sol" },
            { name = "Tam" }]
[[events]]
name = "night"
format = "swiss"
rounds = 2
seed = 1
played_by = "people"
"""


def test_byes_are_on_the_round_of_the_report(tmp_path: Path, capsys: Capture) -> None:
    league = tmp_path / "mini.toml"
    league.write_text(MINI)
    db = tmp_path / "mini.db"
    ok(db, capsys, "league", "import", str(league))
    ok(db, capsys, "event", "pair", "night")
    ok(db, capsys, "event", "publish", "night")
    data = as_json(db, capsys, "report", "night", "-f", "json")
    (bye,) = data["events"][0]["rounds"][0]["byes"]
    out, _ = ok(db, capsys, "report", "night")
    assert f"Bye: {bye} (1 match point)." in out


# -- 2. a voided result is entered again ------------------------------------------------------


def test_a_voided_table_is_entered_again(club: Path, capsys: Capture) -> None:
    db = club
    tables = new_round(db, capsys)
    enter(db, capsys, tables)
    last = tables[-1]
    x, y, z = last["seats"]
    number = str(last["table"])
    ok(db, capsys, "result", "void", "thursday", "--table", number, "--note", "wrong table")
    err = refused(db, capsys, "was voided: enter its result again with c8league result add",
                  "result", "edit", "thursday", "--table", number, "--scores",
                  f"{x}=150,{y}=1,{z}=2")  # fmt: skip
    assert f"--round 1 --table {number}" in err
    _, err = ok(db, capsys, "result", "add", "thursday", "--round", "1", "--table", number,
                "--scores", f"{x}=20,{y}=160,{z}=2")  # fmt: skip
    assert f"round 1, table {number}: stored again 1. {y} 160" in err
    refused(db, capsys, "already has a result", "result", "add", "thursday", "--table", number,
            "--scores", f"{x}=20,{y}=160,{z}=2")  # fmt: skip
    trail = as_json(db, capsys, "result", "history", "thursday", "--json")
    mine = [r for r in trail if r["table"] == last["table"]]
    assert [r["action"] for r in mine] == ["add", "void", "add"]
    assert mine[1]["before"]["scores"][x] == last["target"] and mine[1]["note"] == "wrong table"
    assert mine[2]["after"]["scores"][y] == 160
    # The result re-entered counts where the voided one did: a rebuild agrees.
    ratings = as_json(db, capsys, "ratings", "show", "club", "--json")
    ok(db, capsys, "ratings", "rebuild", "club")
    assert as_json(db, capsys, "ratings", "show", "club", "--json") == ratings
    rows = {r["name"]: r for r in as_json(db, capsys, "event", "standings", "thursday", "--json")}
    assert rows[y]["wins"] == 1 and rows[x]["wins"] == 0


# -- 3. withdrawn members are marked everywhere -------------------------------------------------


def test_withdrawn_members_and_late_entries_are_marked(club: Path, capsys: Capture) -> None:
    db = club
    enter(db, capsys, new_round(db, capsys))
    _, err = ok(db, capsys, "players", "withdraw", "Ada", "--league", "club")
    assert "Ada withdrew after round 1 of thursday (league club): not paired from the next" in err
    ok(db, capsys, "players", "add", "Zoe", "--league", "club")
    enter(db, capsys, new_round(db, capsys))
    left, joined = "withdrew after round 1 of thursday", "joined after round 1 of thursday"
    players = {p["name"]: p for p in as_json(db, capsys, "players", "list", "--league", "club",
                                             "--json")}  # fmt: skip
    assert (players["Ada"]["status"], players["Ada"]["membership"]) == ("withdrawn", left)
    assert (players["Zoe"]["status"], players["Zoe"]["membership"]) == ("active", joined)
    assert (players["Ben"]["status"], players["Ben"]["membership"]) == ("active", "")
    assert (players["Ada"]["event"], players["Ada"]["after_round"]) == ("thursday", 1)
    out, _ = ok(db, capsys, "players", "list", "--league", "club")
    assert_shown(out, "club-withdrawn-players-list-league")
    everyone = {p["name"]: p for p in as_json(db, capsys, "players", "list", "--json")}
    assert everyone["Ada"]["withdrawn_from"][0]["league"] == "club"
    out, _ = ok(db, capsys, "players", "list")
    assert_shown(out, "club-withdrawn-players-list")
    out, _ = ok(db, capsys, "league", "show", "club")
    assert_shown(out, "club-withdrawn-league-show")
    shown = {e["name"]: e for e in as_json(db, capsys, "league", "show", "club", "--json")[
        "entrants"]}  # fmt: skip
    assert shown["Ada"]["status"] == "withdrawn" and shown["Ada"]["membership"] == left
    out, _ = ok(db, capsys, "event", "standings", "thursday")
    assert_shown(out, "club-withdrawn-event-standings")
    rows = {r["name"]: r for r in as_json(db, capsys, "event", "standings", "thursday", "--json")}
    assert (rows["Ada"]["status"], rows["Ada"]["membership"]) == ("withdrawn", left)
    assert rows["Ada"]["matches"] == 1  # her result stays
    report = as_json(db, capsys, "report", "thursday", "-f", "json")
    standing = {s["name"]: s for s in report["events"][0]["standings"]}
    assert (standing["Ada"]["status"], standing["Ada"]["membership"]) == ("withdrawn", left)
    out, _ = ok(db, capsys, "report", "thursday")
    assert f"Ada ({left})" in out
    # Back again: active, and paired from the next round (the league is the one she is in).
    _, err = ok(db, capsys, "players", "reinstate", "Ada")
    assert "Ada came back after round 2 of thursday (league club): paired again" in err
    players = {p["name"]: p for p in as_json(db, capsys, "players", "list", "--league", "club",
                                             "--json")}  # fmt: skip
    assert players["Ada"]["status"] == "active"


def test_withdrawing_someone_seated_in_a_draft_says_so(club: Path, capsys: Capture) -> None:
    db = club
    ok(db, capsys, "event", "pair", "thursday")
    _, err = ok(db, capsys, "players", "withdraw", "Ada", "--league", "club")
    assert "Ada is seated at table" in err and "draft round 1" in err
    assert "c8league event unpair thursday" in err


def seated_names(db: Path, capsys: Capture) -> set[str]:
    return {name for t in sheet(db, capsys)["tables"] for name in t["seats"]}


def test_a_draft_is_paired_again_after_a_withdrawal_and_a_late_entry(
    club: Path, capsys: Capture
) -> None:
    """Round 2 is drafted, then Ada leaves and Zoe arrives: the draft is discarded and
    paired again from the members as they are now."""
    db = club
    enter(db, capsys, new_round(db, capsys))
    ok(db, capsys, "event", "pair", "thursday")
    assert "Ada" in seated_names(db, capsys)
    _, err = ok(db, capsys, "players", "withdraw", "Ada")  # the one league she is in
    assert "Ada withdrew after round 1 of thursday (league club)" in err
    ok(db, capsys, "players", "add", "Zoe", "--league", "club")
    _, err = ok(db, capsys, "event", "unpair", "thursday")
    assert "round 2 of thursday discarded" in err
    ok(db, capsys, "event", "pair", "thursday")
    again = sheet(db, capsys)
    assert again["round"] == 2
    names = seated_names(db, capsys) | set(again.get("byes", []))
    assert "Ada" not in names and "Zoe" in names
    players = {p["name"]: p for p in as_json(db, capsys, "players", "list", "--league", "club",
                                             "--json")}  # fmt: skip
    assert players["Ada"]["membership"] == "withdrew after round 1 of thursday"
    assert players["Zoe"]["membership"] == "joined after round 1 of thursday"
    # A published round is fixed; an event with no round has nothing to discard.
    ok(db, capsys, "event", "publish", "thursday")
    refused(db, capsys, "round 2 of 'thursday' is published", "event", "unpair", "thursday")
    # Someone in no league, or in several, is asked for the league.
    ok(db, capsys, "players", "add", "Solo")
    refused(db, capsys, "Solo is in no league", "players", "withdraw", "Solo")
    second = db.parent / "saturday.toml"
    second.write_text('name = "saturday"\ntable_size = 2\nentrants = [{ name = "Ben" }, '
                      '{ name = "Cleo" }]\n[rules]\npreset = "pagat"\n')  # fmt: skip
    assert run(db, "league", "import", str(second)) == 0
    refused(db, capsys, "Ben is in several leagues (club, saturday): name one with --league",
            "players", "withdraw", "Ben")  # fmt: skip
    fresh = db.parent / "fresh.db"
    assert run(fresh, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    refused(fresh, capsys, "'thursday' has no round to discard", "event", "unpair", "thursday")


def test_a_draft_seating_a_withdrawn_member_is_not_published_unforced(
    club: Path, capsys: Capture
) -> None:
    """Publishing a draft that still seats someone who has withdrawn is refused with the
    fix; a late entry while a round is drafted is told it is not seated."""
    db = club
    ok(db, capsys, "event", "pair", "thursday")
    ok(db, capsys, "players", "withdraw", "Ada", "--league", "club")
    table = next(t["table"] for t in sheet(db, capsys)["tables"] if "Ada" in t["seats"])
    fix = ("pair it again (c8league event unpair thursday, then event pair thursday), or "
           "publish it as it is with --force")  # fmt: skip
    refused(db, capsys, f"round 1 of 'thursday' seats who has withdrawn: Ada (table {table}): "
            f"{fix}", "event", "publish", "thursday")  # fmt: skip
    assert run(db, "event", "publish", "thursday") == 1
    _, err = ok(db, capsys, "players", "add", "Zoe", "--league", "club")
    assert (
        "warning: Zoe is not seated in the draft round 1 of 'thursday': pair it again "
        "(c8league event unpair thursday, then event pair) to seat them"
    ) in err
    _, err = ok(db, capsys, "players", "add", "Yves")  # in no league: nothing to say
    assert "warning" not in err
    ok(db, capsys, "event", "publish", "thursday", "--force")
    assert "Ada" in seated_names(db, capsys) and "Zoe" not in seated_names(db, capsys)
    # Once published, a late entry waits for the next round: nothing to warn of.
    _, err = ok(db, capsys, "players", "add", "Xena", "--league", "club")
    assert "warning" not in err


def test_a_member_absent_all_evening_is_listed_apart(club: Path, capsys: Capture) -> None:
    """Ada says she will not come: after a round she is listed apart as not having
    played (terminal, JSON, every report format), not ranked last."""
    db = club
    ok(db, capsys, "event", "absent", "thursday", "Ada")
    enter(db, capsys, new_round(db, capsys))
    rows = as_json(db, capsys, "event", "standings", "thursday", "--json")
    assert (rows[-1]["name"], rows[-1]["rank"], rows[-1]["played"]) == ("Ada", None, False)
    assert all(r["played"] and r["rank"] >= 1 for r in rows[:-1])
    out, _ = ok(db, capsys, "event", "standings", "thursday")
    last = [line for line in out.splitlines() if "Ada" in line]
    assert len(last) == 1 and "–" in last[0]
    assert "Ada (did not play; absent in round 1 of thursday)" in last[0]
    assert out.index("Ada") > max(out.index(r["name"]) for r in rows[:-1])
    report = as_json(db, capsys, "report", "thursday", "-f", "json")
    standing = report["events"][0]["standings"]
    assert (standing[-1]["name"], standing[-1]["rank"], standing[-1]["played"]) == (
        "Ada", None, False,
    )  # fmt: skip
    out, _ = ok(db, capsys, "report", "thursday")
    assert "Ada (did not play; absent in round 1 of thursday)" in out
    csv_rows, _ = ok(db, capsys, "report", "thursday", "-f", "csv", "--table", "standings")
    assert csv_rows.splitlines()[-1].startswith("thursday,,false,Ada,")
    # Before anyone is seated nobody is set apart; once she plays, she is ranked.
    fresh = db.parent / "fresh.db"
    assert run(fresh, "league", "import", str(LEAGUES / "club-swiss.toml")) == 0
    assert all(r["played"] for r in as_json(fresh, capsys, "event", "standings", "thursday",
                                            "--json"))  # fmt: skip
    ok(db, capsys, "event", "present", "thursday", "Ada")
    enter(db, capsys, new_round(db, capsys))
    rows = as_json(db, capsys, "event", "standings", "thursday", "--json")
    assert all(r["played"] for r in rows)


def test_season_standings_break_ties_by_the_league_tiebreaks(
    tmp_path: Path, capsys: Capture
) -> None:
    """The season standings take the league's tie-breaks, over the whole season, each
    explained in a line, with opponents' season points added up (Buchholz-style) and
    Sonneborn-Berger among them."""
    league = tmp_path / "mini.toml"
    league.write_text(MINI.replace("table_size = 2", 'table_size = 2\ntiebreaks = '
                                   '["opponents-total", "sonneborn-berger", "wins"]'))  # fmt: skip
    db = tmp_path / "mini.db"
    ok(db, capsys, "league", "import", str(league))
    for _ in range(2):
        ok(db, capsys, "event", "pair", "night")
        ok(db, capsys, "event", "publish", "night")
        tables = as_json(db, capsys, "event", "sheet", "night", "--format", "json")["tables"]
        for t in tables:
            ok(db, capsys, "result", "add", "night", "--table", str(t["table"]),
               "--scores", scores_for(t))  # fmt: skip
    season = as_json(db, capsys, "league", "standings", "mini", "--json")
    assert season["tiebreaks"] == ["opponents-total", "sonneborn-berger", "wins"]
    assert season["explanation"][1:5] == [
        "Order: season points, then the tie-breaks below, in turn.",
        "1. opp. points: opponents' season points, added up once per meeting.",
        "2. S-B: opponents' season points, of each finished ahead of (half for a tie).",
        "3. wins: matches won (first places).",
    ]
    rows = season["standings"]
    points = {r["name"]: r["points"] for r in rows}
    for row in rows:
        buchholz, sb, wins = row["tiebreaks"]
        assert wins == row["wins"] and 0 <= sb <= buchholz
    # Ordered by season points, then by the tie-breaks in turn; a shared rank only when
    # everything is level.
    keys = [(-r["points"], *(-v for v in r["tiebreaks"])) for r in rows]
    assert keys == sorted(keys)
    for a, b in itertools.pairwise(rows):
        assert (a["rank"] == b["rank"]) == (
            (a["points"], a["tiebreaks"]) == (b["points"], b["tiebreaks"])
        )
    assert sum(points.values()) > 0
    out, _ = ok(db, capsys, "league", "standings", "mini")
    assert "opp. points: opponents' season points, added up once per meeting." in out
    assert "S-B" in out


def test_report_tables_sheets_warnings_history_and_exit_statuses(
    club: Path, capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The small things of an evening: report --help names every CSV table; the tally
    grid has rows for the hands a match takes and spare ones; two players past the
    target get a warning; the audit trail reads at 80 columns; exit statuses follow the
    one table of docs/faults.md."""
    from c8league.cli import output
    from c8league.reports import CSV_TABLES

    db = club
    out, _ = ok(db, capsys, "report", "--help")
    assert all(name in " ".join(out.split()) for name in CSV_TABLES)
    assert main(["--db", str(tmp_path / "none.db"), "report", "--table", "nope"]) == 2
    assert "--table nope: expected one of leaderboard, standings" in capsys.readouterr().err
    tables = new_round(db, capsys)
    page = tmp_path / "sheet.html"
    ok(db, capsys, "event", "sheet", "thursday", "--format", "html", "--out", str(page))
    grids = page.read_text().split('<table class="tally">')[1:]
    assert len(grids) == len(tables)
    # 50 points a seat: 6 hands nine times in ten, and 3 spare rows, at any table size.
    assert [g.count('<tr><td class="hand">') for g in grids] == [9] * len(tables)
    three = at(tables, 3)
    x, y, z = three["seats"]
    _, err = ok(db, capsys, "result", "add", "thursday", "--table", str(three["table"]),
                "--scores", f"{x}=160,{y}=150,{z}=20")  # fmt: skip
    assert (
        f"warning: round 1, table {three['table']}: {x} 160 and {y} 150 have both reached "
        "the target 150: only players tied for the lowest count in a blocked last hand get "
        "there together; check the scores"
    ) in " ".join(err.split())
    _, err = ok(db, capsys, "result", "edit", "thursday", "--table", str(three["table"]),
                "--scores", f"{x}=160,{y}=140,{z}=20", "--note", "misread")  # fmt: skip
    assert "warning" not in err
    # Refused data: 1, and nothing changes; a wrong command line: 2.
    four = at(tables, 4)
    before = digest(db)
    assert run(db, "result", "add", "thursday", "--table", str(four["table"]),
               "--scores", ",".join(f"{n}=10" for n in four["seats"])) == 1  # fmt: skip
    assert run(db, "result", "add", "thursday", "--table", "1", "--bogus") == 2
    assert run(db, "event", "standings", "nosuchevent") == 2
    assert digest(db) == before
    capsys.readouterr()
    monkeypatch.setattr(output.out, "width", 80)
    out, _ = ok(db, capsys, "result", "history", "thursday")
    assert max(len(line) for line in out.splitlines()) <= 80
    (before_line,) = [line for line in out.splitlines() if line.startswith("    before  ")]
    assert all(f"{n} {v}" in before_line for n, v in ((x, 160), (y, 150), (z, 20)))
    assert "    note    misread" in out


def test_every_error_has_the_exit_status_of_its_kind() -> None:
    """docs/faults.md's table: usage 2, data refused 1, a bot's faults 3."""
    from c8league import errors
    from c8league.cli.exits import status_of, status_of_kind
    from c8league.duel.book import DealBookError
    from c8league.duel.forfeits import NoVerdict
    from c8league.findings import RecordChanged
    from c8league.schedule.errors import ScheduleError

    usage = [errors.UsageError, errors.NotFoundError, errors.NoDatabase, errors.CardError,
             errors.RulesError, errors.PluginError, errors.StatsError, ScheduleError,
             errors.LeagueFileError, DealBookError]  # fmt: skip
    refused = [errors.ResultError, errors.StorageError, errors.BusyError, RecordChanged,
               errors.DraftSeatsWithdrawn, errors.NoInput]  # fmt: skip
    faults = [errors.BotStopped, NoVerdict]
    assert {c: status_of_kind(c) for c in usage} == dict.fromkeys(usage, 2)
    assert {c: status_of_kind(c) for c in refused} == dict.fromkeys(refused, 1)
    assert {c: status_of_kind(c) for c in faults} == dict.fromkeys(faults, 3)
    assert status_of(errors.Interrupted("stopped", signum=15)) == 143
    faults_md = (Path(__file__).resolve().parents[1] / "docs" / "faults.md").read_text()
    assert "| 1 | data refused" in faults_md and "| 2 | usage" in faults_md
    assert "| 3 | a bot's faults" in faults_md


# -- 4. shared first places and several forfeits --------------------------------------------------


def test_a_shared_first_place_and_several_forfeits(club: Path, capsys: Capture) -> None:
    db = club
    tables = new_round(db, capsys)
    three = [t for t in tables if len(t["seats"]) == 3]
    x, y, z = three[0]["seats"]
    # Tied lowest in a blocked last hand, two players cross 150 with the same total.
    _, err = ok(db, capsys, "result", "add", "thursday", "--table", str(three[0]["table"]),
                "--hands", f"{x}=60;{y}=60;blocked:{x}=100,{y}=100")  # fmt: skip
    assert f"1. {x} 160 · 1. {y} 160 · 3. {z} 0" in err
    # The same as final scores: two at the target, placed by their totals.
    p, q, r = three[1]["seats"]
    ok(db, capsys, "result", "add", "thursday", "--table", str(three[1]["table"]),
       "--scores", f"{p}=170,{q}=155,{r}=20")  # fmt: skip
    # Two leave a table of four: they share the last place.
    four = at(tables, 4)
    a, b, c, d = four["seats"]
    scores = f"{a}=90,{b}=40,{c}=70,{d}=10"
    _, err = ok(db, capsys, "result", "add", "thursday", "--table", str(four["table"]),
                "--forfeit", c, "--forfeit", d, "--scores", scores)  # fmt: skip
    assert f"1. {a} 90 · 2. {b} 40 · 3. {c} 70 (forfeit) · 3. {d} 10 (forfeit)" in err
    enter(db, capsys, tables, three[0]["table"], three[1]["table"], four["table"])
    rows = {s["name"]: s for s in as_json(db, capsys, "event", "standings", "thursday", "--json")}
    assert rows[x]["match_points"] == rows[y]["match_points"] == 0.75
    assert rows[x]["wins"] == rows[y]["wins"] == 1
    assert rows[c]["match_points"] == rows[d]["match_points"] == round(0.5 / 3, 6)
    assert rows[p]["match_points"] == 1 and rows[q]["match_points"] == 0.5
    board = {e["name"]: e for e in as_json(db, capsys, "ratings", "show", "club", "--json")[
        "entrants"]}  # fmt: skip
    # Tied, from equal ratings: both rated as sharing first place (TrueSkill's chain of
    # neighbouring ranks leaves them a hair apart), well above the third.
    assert board[x]["mu"] == pytest.approx(board[y]["mu"], abs=0.05)
    assert min(board[x]["mu"], board[y]["mu"]) > board[z]["mu"] + 5
    # Those who left share the last place, below everyone who stayed.
    assert board[c]["mu"] == pytest.approx(board[d]["mu"], abs=0.05)
    assert max(board[c]["mu"], board[d]["mu"]) < board[b]["mu"]
    assert board[x]["wins"] == board[y]["wins"] == 1
    ok(db, capsys, "ratings", "rebuild", "club")
    rebuilt = {e["name"]: e for e in as_json(db, capsys, "ratings", "show", "club", "--json")[
        "entrants"]}  # fmt: skip
    assert rebuilt == board
    report = as_json(db, capsys, "report", "thursday", "-f", "json")
    stats = {e["name"]: e for e in report["entrants"]}
    assert stats[c]["forfeits"] == {"left": 1} and stats[d]["forfeits"] == {"left": 1}
    assert report["endings"]["forfeits"] == {"left": 1}
    out, _ = ok(db, capsys, "result", "list", "thursday")
    assert_shown(out, "club-left-result-list")
    listed = as_json(db, capsys, "result", "list", "thursday", "--json")
    seats = next(t for t in listed["tables"] if t["table"] == four["table"])["result"]
    assert [s["forfeit"] for s in seats] == [False, False, True, True]
    history = as_json(db, capsys, "result", "history", "thursday", "--json")
    assert next(h for h in history if h["table"] == four["table"])["after"]["forfeit"] == [c, d]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--scores", "{a}=200,{b}=90,{c}=70,{d}=10", "--forfeit", "{d}"], "the match was over"),
        (["--scores", "{a}=20,{b}=90,{c}=70,{d}=10", "--forfeit", "{a},{b},{c},{d}"],
         "everyone left the table"),
        (["--scores", "{a}=20,{b}=90,{c}=70,{d}=10", "--forfeit", "{a}", "--forfeit", "{a}"],
         "is given twice"),
        (["--hands", "{a}=210;{b}=5"], "the match was over after hand 1"),
        (["--scores", "{a}=120,{b}=90,{c}=70,{d}=10"], "nobody reached the target 200"),
        (["--scores", "{a}=220,{b}=90,{c}=70,{d}=10", "--blocked"], "--blocked is for a Countdown"),
    ],
)  # fmt: skip
def test_impossible_endings_are_refused(
    club: Path, capsys: Capture, args: list[str], needle: str
) -> None:
    four = at(new_round(club, capsys), 4)
    names = dict(zip("abcd", four["seats"], strict=True))
    filled = [arg.format(**names) for arg in args]
    refused(club, capsys, needle, "result", "add", "thursday", "--table", str(four["table"]),
            *filled)  # fmt: skip


def test_hand_entry_accepts_what_the_engine_produces() -> None:
    """Matches played by the engine (random moves, blocked hands made common by an
    empty stock that is not reshuffled, a low target so that several players may cross
    it in one blocked hand, and a low hand cap), entered hand by hand and as final
    scores, are accepted and placed as the engine placed them."""
    import random

    from c8league.club import EnteredHand, check_result
    from c8league.engine import Match, Rules

    seen = {"blocked-end": 0, "shared": 0, "hand_cap": 0}
    for seed in range(120):
        players = 2 + seed % 4
        target = 25 if seed % 3 else 400  # 400 is rarely reached before the hand cap
        rules = Rules.from_options(
            "pagat", {"empty_stock": "pass", "target": target, "hand_cap": 6, "hand_size": 7}
        )
        match = Match(rules, players, seed=seed)
        rng = random.Random(seed)
        while not match.over:
            match.apply(rng.choice(match.legal_moves()))
        assert match.result is not None
        seats = [f"P{i}" for i in range(players)]
        hands = [
            EnteredHand({seats[i]: p for i, p in enumerate(h.points) if p}, h.kind != "out")
            for h in match.hand_results
        ]
        by_hand = check_result(seats, rules, hands=hands).result
        assert by_hand.placements == match.result.placements
        assert by_hand.scores == match.result.scores
        assert by_hand.ended == match.result.ended
        if match.result.ended == "target":
            final = dict(zip(seats, match.result.scores, strict=True))
            by_score = check_result(seats, rules, scores=final).result
            assert by_score.placements == match.result.placements
        seen["blocked-end"] += match.hand_results[-1].kind != "out"
        seen["shared"] += match.result.placements.count(1) > 1
        seen["hand_cap"] += match.result.ended == "hand_cap"
    assert all(seen.values()), seen  # each kind of ending was met


def test_a_countdown_match_blocked_before_anyone_reaches_0() -> None:
    from c8league.club import check_result
    from c8league.engine import Rules
    from c8league.errors import ResultError

    rules = Rules.from_options("countdown")
    seats = ["A", "B", "C"]
    blocked = check_result(seats, rules, scores={"A": 2, "B": 2, "C": 5}, blocked=True).result
    assert (blocked.placements, blocked.ended) == ((1, 1, 3), "blocked")
    with pytest.raises(ResultError, match="reached 0 is entered with `blocked`"):
        check_result(seats, rules, scores={"A": 2, "B": 2, "C": 5})
    with pytest.raises(ResultError, match="ends before anyone reaches 0"):
        check_result(seats, rules, scores={"A": 0, "B": 2, "C": 5}, blocked=True)
    left = check_result(seats, rules, scores={"A": 1, "B": 2, "C": 5}, forfeits=["A", "B"])
    assert left.result.placements == (2, 2, 1) and left.result.forfeit_seats == (0, 1)


# -- 5. house rules on everything the tables read -----------------------------------------------


def test_house_rules_are_on_the_sheet_league_and_report(
    club: Path, capsys: Capture, tmp_path: Path
) -> None:
    db = club
    out, _ = ok(db, capsys, "event", "pair", "thursday")
    assert HOUSE_RULE in " ".join(out.split())
    assert sheet(db, capsys)["house_rules"] == [HOUSE_RULE]
    page = tmp_path / "sheet.html"
    ok(db, capsys, "event", "sheet", "thursday", "--format", "html", "--out", str(page))
    assert f"Rules: pagat; house rules: {HOUSE_RULE}." in page.read_text()
    out, _ = ok(db, capsys, "league", "show", "club")
    assert_shown(out, "club-house-rules-league-show")
    assert as_json(db, capsys, "league", "show", "club", "--json")["house_rules"] == [HOUSE_RULE]
    report = as_json(db, capsys, "report", "thursday", "-f", "json")
    assert report["league"]["house_rules"] == [HOUSE_RULE]
    for fmt in ("md", "terminal"):
        out, _ = ok(db, capsys, "report", "thursday", "-f", fmt)
        assert HOUSE_RULE in " ".join(out.split())


def test_every_option_is_said_in_words() -> None:
    """Every value an option can take differently from a preset has its own sentence."""
    from c8league.engine.rules import OPTIONS, PRESETS, Rules
    from c8league.league.house_rules import house_rules

    values: dict[str, list[object]] = {
        "hand_size": [7], "decks": [2], "draw": ["one_then_play", "up_to", "until_playable"],
        "draw_limit": [5], "must_play_if_able": [True], "wild_rank": ["J", "none"],
        "wild_must_match": [True], "wild_nominates": ["never", "if_matching"],
        "skip_rank": ["K", "none"], "reverse_rank": ["none"], "draw_two_rank": ["none"],
        "draw_five_card": ["QS"], "multiple_equal": [True], "last_card": [False],
        "empty_stock": ["pass"], "specials_on_going_out": ["forbidden"],
        "starter_eight": ["any_card"], "target": [300], "turn_cap": [50], "hand_cap": [9],
        "countdown": [True], "equal_rank_on_wild": [True],
    }  # fmt: skip
    assert set(values) == set(OPTIONS)
    for option, options in values.items():
        for value in options:
            rules = Rules.from_options("pagat", {option: value})  # type: ignore[dict-item]
            said = house_rules(rules, "pagat")
            assert said, (option, value)
            assert not any(" = " in line for line in said), said  # no fallback
    for name, (preset, _) in PRESETS.items():
        assert house_rules(preset, name) == []


# -- 6. which round an edit means -----------------------------------------------------------------


def test_edit_and_void_find_the_round_and_pairing_names_missing_tables(
    club: Path, capsys: Capture
) -> None:
    db = club
    rounds = []
    for number in (1, 2, 3):
        tables = new_round(db, capsys)
        rounds.append(tables)
        if number < 3:
            enter(db, capsys, tables)
    # Pairing before every result is in names the tables still to play.
    enter(db, capsys, rounds[2], 2, 4)
    refused(db, capsys, "no result yet at tables 2, 4 (c8league result add thursday --table N)",
            "event", "pair", "thursday")  # fmt: skip
    enter(db, capsys, [t for t in rounds[2] if t["table"] in (2, 4)])
    ok(db, capsys, "event", "pair", "thursday")  # round 4, a draft
    # The organiser means round 1's table 2: its players say so.
    t1 = rounds[0][1]
    x, y, z = t1["seats"]
    _, err = ok(db, capsys, "result", "edit", "thursday", "--table", "2", "--scores",
                f"{x}=10,{y}=150,{z}=0")  # fmt: skip
    assert err.startswith(f"round 1, table 2: corrected 1. {y} 150")
    # Without names, void takes the latest round where the table has a result.
    _, err = ok(db, capsys, "result", "void", "thursday", "--table", "2")
    assert err.startswith("round 3, table 2: result voided")
    # Names not seated there in any round: the error names the rounds to choose from.
    err = refused(db, capsys, "not seated", "result", "edit", "thursday", "--table", "1",
                  "--scores", "Nobody=150")  # fmt: skip
    assert "table 1 of round 2 and 1 may be meant: say which with --round" in err
    # The draft round takes no result.
    refused(db, capsys, "round 4 of 'thursday' is not published yet", "result", "add",
            "thursday", "--round", "4", "--table", "1", "--scores", "A=1")  # fmt: skip


def test_the_same_players_at_one_table_in_two_rounds_is_ambiguous(
    tmp_path: Path, capsys: Capture
) -> None:
    league = tmp_path / "duo.toml"
    league.write_text(four_people("duo", 2))
    db = tmp_path / "duo.db"
    ok(db, capsys, "league", "import", str(league))
    for pair in (("Pat", "Quin"), ("Pat", "Quin"), ("Rue", "Sol")):
        ok(db, capsys, "event", "pair", "night")
        seat_at_table_one(db, capsys, *pair)
        ok(db, capsys, "event", "publish", "night")
        for t in sheet_of(db, capsys, "night")["tables"]:
            x, y = t["seats"]
            ok(db, capsys, "result", "add", "night", "--table", str(t["table"]),
               "--scores", f"{x}=100,{y}=10")  # fmt: skip
    # Round 3's table 1 seated Rue and Sol; Pat and Quin sat there in rounds 1 and 2.
    err = refused(db, capsys, "table 1 seated Pat, Quin in rounds 2 and 1",
                  "result", "edit", "night", "--table", "1",
                  "--scores", "Pat=100,Quin=5")  # fmt: skip
    assert "--round 2, --round 1" in err
    _, err = ok(db, capsys, "result", "edit", "night", "--round", "1", "--table", "1",
                "--scores", "Pat=100,Quin=5")  # fmt: skip
    assert err.startswith("round 1, table 1: corrected")


def sheet_of(db: Path, capsys: Capture, event: str) -> dict[str, Any]:
    return as_json(db, capsys, "event", "sheet", event, "--format", "json")  # type: ignore[no-any-return]


def seat_at_table_one(db: Path, capsys: Capture, a: str, b: str) -> None:
    """Swap ``a`` and ``b`` to table 1 of the draft round (tables of two)."""
    for name, keep in ((a, b), (b, a)):
        first = sheet_of(db, capsys, "night")["tables"][0]["seats"]
        if name not in first:
            other = next(n for n in first if n != keep)
            ok(db, capsys, "event", "swap", "night", name, other)


def four_people(name: str, table_size: int) -> str:
    """A league of four people, Pat, Quin, Rue and Sol, with a Swiss night of 3 rounds."""
    return f"""
name = "{name}"
table_size = {table_size}
entrants = [{{ name = "Pat" }}, {{ name = "Quin" }}, {{ name = "Rue" }}, {{ name = "Sol" }}]
[[events]]
name = "night"
format = "swiss"
rounds = 3
seed = 1
played_by = "people"
"""


# -- 7. the wrong folder -------------------------------------------------------------------------

#: Every command that reads or changes a database (``init`` and ``league import`` make
#: one; ``rules``, ``demo``, ``play`` without a league and ``bots`` need none).
COMMANDS_ON_A_DATABASE = [
    ["event", "pair", "thursday"],
    ["event", "run", "thursday"],
    ["event", "resume", "thursday"],
    ["event", "status", "thursday"],
    ["event", "standings", "thursday"],
    ["event", "balance", "thursday"],
    ["event", "sheet", "thursday"],
    ["event", "swap", "thursday", "Ada", "Ben"],
    ["event", "move", "thursday", "Ada", "--table", "2"],
    ["event", "publish", "thursday"],
    ["result", "add", "thursday", "--table", "1", "--scores", "Ada=150"],
    ["result", "edit", "thursday", "--table", "1", "--scores", "Ada=150"],
    ["result", "void", "thursday", "--table", "1"],
    ["result", "list", "thursday"],
    ["result", "history", "thursday"],
    ["players", "add", "Zoe"],
    ["players", "list"],
    ["players", "edit", "Bot", "--option", "seed=1"],
    ["players", "remove", "Zoe"],
    ["players", "withdraw", "Ada", "--league", "club"],
    ["players", "reinstate", "Ada", "--league", "club"],
    ["league", "list"],
    ["league", "show", "club"],
    ["ratings", "show"],
    ["ratings", "rebuild"],
    ["ratings", "predict", "Ada", "Ben"],
    ["report"],
    ["play", "--event", "thursday", "--name", "Ada"],
]


@pytest.mark.parametrize("args", COMMANDS_ON_A_DATABASE, ids=lambda a: " ".join(a[:2]))
def test_the_wrong_folder_makes_no_database(
    args: list[str], tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("C8LEAGUE_DB", raising=False)
    assert main(args) == 2
    where = tmp_path / "c8league.db"
    assert capsys.readouterr().err == (
        f"error: no c8league database at {where}: run the command in the folder that holds "
        "it, or name it with --db FILE before or after the command (or $C8LEAGUE_DB); "
        f"c8league league import FILE (or c8league init) creates one at {where}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_the_database_may_be_named_after_the_command(
    club: Path, tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--db`` goes before or after the command, with ``--json`` anywhere after it."""
    monkeypatch.chdir(tmp_path / "..")
    monkeypatch.delenv("C8LEAGUE_DB", raising=False)
    enter(club, capsys, new_round(club, capsys))
    capsys.readouterr()
    before = as_json(club, capsys, "event", "standings", "thursday", "--json")
    for args in (
        ["event", "standings", "thursday", "--db", str(club), "--json"],
        ["event", "standings", "--json", f"--db={club}", "thursday"],
        ["event", "--db", str(club), "standings", "thursday", "--json"],
    ):
        assert main(args) == 0, args
        assert json.loads(capsys.readouterr().out) == before
    # The last one named is the one opened, wherever each is.
    elsewhere = tmp_path / "elsewhere.db"
    assert main(["--db", str(club), "event", "standings", "thursday", "--db", str(elsewhere)]) == 2
    assert f"no c8league database at {elsewhere}" in capsys.readouterr().err
    assert main(["event", "standings", "thursday", "--db"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "--db" in err and "requires an argument" in err, err
    # What follows -- is an argument, not an option.
    assert main(["--db", str(club), "players", "add", "--", "--db"]) == 2
    assert not elsewhere.exists()


def test_init_and_import_make_the_database(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("C8LEAGUE_DB", raising=False)
    assert main(["init"]) == 0
    assert capsys.readouterr().err.startswith("database ready: sqlite:///c8league.db (schema ")
    assert main(["league", "list"]) == 0
    assert_shown(capsys.readouterr().out, "league-list-none")
    db = tmp_path / "c8league.db"
    assert main(["event", "pair", "thursday"]) == 2
    assert capsys.readouterr().err == f"error: no event named 'thursday' in {db}; events: none\n"
    assert main(["league", "show", "club"]) == 2
    assert capsys.readouterr().err == (
        f"error: no league named 'club' in {db}; leagues: none (league import FILE)\n"
    )
    odd = tmp_path / "club ñ night's" / "c8league.db"  # read-only opening keeps its name
    odd.parent.mkdir()
    assert main(["--db", str(odd), "init"]) == 0
    capsys.readouterr()
    assert main(["--db", str(odd), "league", "show", "club"]) == 2
    assert capsys.readouterr().err == (
        f"error: no league named 'club' in {odd}; leagues: none (league import FILE)\n"
    )
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "league", "import", str(LEAGUES / "club-swiss.toml")]) == 0
    assert main(["--db", str(other), "event", "pair", "thursday"]) == 0
    capsys.readouterr()
    assert main(["--db", str(other), "league", "list"]) == 0
    assert_shown(capsys.readouterr().out, "league-list-club")


# -- 8. machine-readable output is clean ----------------------------------------------------------


def json_commands(db: Path) -> list[list[str]]:
    """Every command that prints JSON, with what it needs on the club's database."""
    return [
        ["rules", "list", "--json"],
        ["rules", "show", "pagat", "--json"],
        ["bots", "list", "--json"],
        ["bots", "show", "random", "--json"],
        ["bots", "check", "random", "--games", "1", "--presets", "basic", "--json"],
        ["league", "list", "--json"],
        ["league", "show", "club", "--json"],
        ["league", "standings", "club", "--json"],
        ["players", "list", "--json"],
        ["players", "list", "--league", "club", "--json"],
        ["event", "pair", "thursday", "--format", "json"],
        ["event", "status", "thursday", "--json"],
        ["event", "standings", "thursday", "--json"],
        ["event", "balance", "thursday", "--json"],
        ["event", "sheet", "thursday", "--format", "json"],
        ["result", "list", "thursday", "--json"],
        ["result", "history", "thursday", "--json"],
        ["league", "history", "club", "--json"],
        ["ratings", "show", "club", "--json"],
        ["ratings", "fit", "club", "--json"],
        ["ratings", "predict", "Ada", "Ben", "Cleo", "--league", "club", "--json"],
        ["report", "thursday", "--format", "json"],
        ["report", "club", "-f", "json"],
        ["verify", "--json"],
        [
            "duel",
            "run",
            "greedy",
            "random",
            "--games",
            "4",
            "--name",
            "d",
            "--workers",
            "1",
            "--json",
        ],
        ["duel", "resume", "d", "--workers", "1", "--json"],
        ["duel", "show", "d", "--json"],
        ["duel", "list", "--json"],
        ["duel", "gauntlet", "greedy", "random", "--games", "2", "--name", "g", "--json"],
        ["games", "export", "d"],
        ["players", "show", "Ada", "--json"],
        ["match", "show", "d:0A", "--format", "json"],
        ["match", "show", "1", "--format", "json"],
    ]


def _json_options() -> set[tuple[str, ...]]:
    """The commands of the command line that have ``--json`` or a ``--format`` taking
    json, by their path."""
    import typer

    from c8league.cli.main import app

    found: set[tuple[str, ...]] = set()

    def walk(command: Any, path: tuple[str, ...]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))
        for param in getattr(command, "params", []):
            opts = set(getattr(param, "opts", []))
            text = str(getattr(param, "help", "") or "")
            if "--json" in opts or ("--format" in opts and "json" in text):
                found.add(path)

    walk(typer.main.get_command(app), ())
    return found


def test_every_json_output_parses(club: Path, capsys: Capture) -> None:
    db = club
    commands = json_commands(db)
    listed = {tuple(c[:2]) if c[0] not in ("report", "verify") else (c[0],) for c in commands}
    found = _json_options()
    assert ("report",) in found and ("event", "pair") in found
    # (A ladder's table needs a ladder: tests/test_ladder.py parses it.)
    listed.add(("ladder", "show"))
    assert listed >= found, f"commands printing JSON not checked here: {found - listed}"
    for args in commands:
        if args[:2] == ["result", "list"]:
            ok(db, capsys, "event", "publish", "thursday")
            enter(db, capsys, sheet(db, capsys)["tables"])  # type: ignore[arg-type]
        out, _ = ok(db, capsys, *args)
        try:
            if args[0] == "games":  # JSON lines: a game each
                assert len([json.loads(line) for line in out.splitlines()]) == 4
            else:
                json.loads(out)
        except json.JSONDecodeError as exc:  # pragma: no cover - the failure shown
            pytest.fail(f"{' '.join(args)}: stdout is not JSON ({exc}): {out[:200]!r}")


# -- 9. typed-in entry --------------------------------------------------------------------------


def test_typed_scores_are_checked_as_typed_and_a_mistake_keeps_the_rest(
    club: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = club
    four = at(new_round(db, capsys), 4)
    a, b, c, d = four["seats"]
    # Nobody at 200: the sheet is refused before "store?", then only the wrong score is
    # typed again (Enter keeps the others).
    typed = ["120", "90", "60", "0", "", "", "", "201", "y"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    _, err = ok(db, capsys, "result", "add", "thursday", "--table", str(four["table"]))
    assert f"round 1, table {four['table']}: {a}, {b}, {c}, {d} — play to 200" in err
    assert "nobody reached the target 200" in err and "Enter keeps a score" in err
    assert f"{d} reached the target 200" in err
    assert f"stored 1. {d} 201 · 2. {a} 120 · 3. {b} 90 · 4. {c} 60" in err


def test_names_are_found_whatever_their_case_and_typos_get_a_suggestion(
    club: Path, capsys: Capture
) -> None:
    db = club
    three = at(new_round(db, capsys), 3)
    x, y, z = three["seats"]
    number = str(three["table"])
    err = refused(db, capsys, f"{x}x not seated at this table (did you mean {x}?",
                  "result", "add", "thursday", "--table", number,
                  "--scores", f"{x}x=150,{y}=1,{z}=2")  # fmt: skip
    refused(db, capsys, "players are separated by ','", "result", "add", "thursday",
            "--table", number, "--scores", f"{x}=150;{y}=1;{z}=2")  # fmt: skip
    _, err = ok(db, capsys, "result", "add", "thursday", "--table", number,
                "--scores", f"{x.lower()}=150,{y.upper()}=1,{z}=2")  # fmt: skip
    assert f"1. {x} 150" in err


# -- 10. small untruths ---------------------------------------------------------------------------


def test_moves_and_pairings_warn_and_drafts_are_plain(
    club: Path, capsys: Capture, tmp_path: Path
) -> None:
    db = club
    out, _ = ok(db, capsys, "event", "pair", "thursday")
    assert "DRAFT — Thursday Card Club" in out and "DRAFT: not published" in out
    tables = sheet(db, capsys)["tables"]
    four, three = at(tables, 4), at(tables, 3)  # type: ignore[arg-type]
    _, err = ok(db, capsys, "event", "move", "thursday", three["seats"][0],
                "--table", str(four["table"]))  # fmt: skip
    assert f"table {four['table']} now seats 5 players, playing to 250" in err
    page = tmp_path / "draft.html"
    ok(db, capsys, "event", "sheet", "thursday", "--format", "html", "--out", str(page))
    html = page.read_text()
    assert '<p class="draft" role="alert">Draft — not published' in html
    assert "<title>DRAFT — " in html
    csv_text, _ = ok(db, capsys, "event", "sheet", "thursday", "--format", "csv")
    assert csv_text.splitlines()[1].endswith(",draft")
    ok(db, capsys, "event", "publish", "thursday")
    ok(db, capsys, "event", "sheet", "thursday", "--format", "html", "--out", str(page))
    html = page.read_text()
    assert "Draft" not in html
    for name in four["seats"]:  # a named column of the tally grid for every seat
        assert f'<th scope="col">{name}</th>' in html


def test_a_pairing_that_repeats_a_meeting_warns(tmp_path: Path, capsys: Capture) -> None:
    league = tmp_path / "four.toml"
    league.write_text(four_people("four", 4))
    db = tmp_path / "four.db"
    ok(db, capsys, "league", "import", str(league))
    ok(db, capsys, "event", "pair", "night")
    ok(db, capsys, "event", "publish", "night")
    ok(
        db,
        capsys,
        "result",
        "add",
        "night",
        "--table",
        "1",
        "--scores",
        "Pat=200,Quin=1,Rue=2,Sol=3",
    )
    _, err = ok(db, capsys, "event", "pair", "night")
    warnings = [line for line in err.splitlines() if line.startswith("warning: table 1: ")]
    assert len(warnings) == 6  # every pair of the four met in round 1
    assert all(line.endswith("have met before in 'night' (round 1)") for line in warnings)


def test_report_json_hands_and_times(club: Path, capsys: Capture) -> None:
    db = club
    tables = new_round(db, capsys)
    three = at(tables, 3)
    x, y, _ = three["seats"]
    ok(db, capsys, "result", "add", "thursday", "--table", str(three["table"]),
       "--hands", f"{x}=100;{y}=20;{x}=60")  # fmt: skip
    enter(db, capsys, tables, three["table"])
    report = as_json(db, capsys, "report", "thursday", "-f", "json")
    stats = {e["name"]: e for e in report["entrants"]}
    assert stats[x]["hands"] == 3 and stats[x]["hands_won"] == 2
    assert stats[x]["average_points_per_hand"] == pytest.approx(160 / 3)
    others = [e for e in report["entrants"] if e["name"] not in three["seats"]]
    assert others and all(
        (e["hands"], e["hands_won"], e["average_points_per_hand"]) == (None, None, None)
        for e in others
    )
    finished = report["footer"]["last_match"]["finished_at"]
    assert finished.endswith("+00:00")
    assert report["footer"]["generated_at"].endswith("+00:00")


def test_a_rating_backend_that_is_not_installed_is_refused_at_import(
    tmp_path: Path, capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "scipy", None)  # as if scipy were not installed
    league = tmp_path / "club.toml"
    text = (LEAGUES / "club-swiss.toml").read_text()
    league.write_text(
        text.replace("draw_probability = 0.10", 'draw_probability = 0.10\nbackend = "scipy"')
    )
    db = tmp_path / "club.db"
    assert run(db, "league", "import", str(league)) == 2
    err = capsys.readouterr().err
    assert f"{league}: rating.backend: trueskill backend 'scipy' needs a package" in err
    assert not db.exists()


def test_a_swap_warns_only_of_the_tables_it_changes(club: Path, capsys: Capture) -> None:
    db = club
    enter(db, capsys, new_round(db, capsys))
    ok(db, capsys, "event", "pair", "thursday")
    assert [t["seats"] for t in sheet(db, capsys)["tables"]] == [  # type: ignore[attr-defined]
        ["Fay", "Gus", "Hana"], ["Ada", "Cleo", "Dev", "Kai"], ["Ivo", "Eli", "Lea"],
        ["Jun", "Max", "Ben"],
    ]  # fmt: skip
    _, err = ok(db, capsys, "event", "swap", "thursday", "Kai", "Ivo")
    warned = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warned == [
        "warning: table 2: Ada and Dev have met before in 'thursday' (round 1)",
        "warning: table 2: Ada and Ivo have met before in 'thursday' (round 1)",
        "warning: table 2: Dev and Ivo have met before in 'thursday' (round 1)",
    ]
    _, err = ok(db, capsys, "event", "swap", "thursday", "Dev", "Max")
    warned = [line for line in err.splitlines() if line.startswith("warning:")]
    assert warned == ["warning: table 2: Ada and Ivo have met before in 'thursday' (round 1)"]
