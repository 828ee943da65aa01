"""A season's record, driven through the command line on SQLite and PostgreSQL: past
evenings that never change, one description of a withdrawal everywhere, renames and
merges of people, names unique whatever their case and accents, an audit trail of every
change, and refusals that change nothing."""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dbs import engine
from shown import WHEN, assert_shown
from sqlalchemy import inspect, text

from c8league.cli.main import main

LEAGUES = Path(__file__).resolve().parents[1] / "leagues"
SEASON = LEAGUES / "club-season.toml"

Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables printed 200 columns wide: what a cell says stays on one line."""
    from c8league.cli import output

    monkeypatch.setattr(output.out, "width", 200)
    monkeypatch.setattr(output.err, "width", 200)


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a comparable form."""
    eng = engine(url)
    try:
        with eng.connect() as con:
            return {
                table: sorted(
                    (
                        tuple(str(v) for v in row)
                        for row in con.execute(text(f'SELECT * FROM "{table}"'))
                    ),
                )
                for table in sorted(inspect(con).get_table_names())
            }
    finally:
        eng.dispose()


class Club:
    """The command line on one database."""

    def __init__(self, url: str, capsys: Capture) -> None:
        self.url = url
        self.capsys = capsys

    def run(self, *args: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main(["--db", self.url, *args])
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err

    def ok(self, *args: str) -> tuple[str, str]:
        code, out, err = self.run(*args)
        assert code == 0, err
        return out, err

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args)[0])

    def refused(self, needle: str, *args: str) -> str:
        """A command that must fail with one line holding ``needle``, changing nothing."""
        before = snapshot(self.url)
        code, _, err = self.run(*args)
        assert code != 0, err
        assert needle in err, err
        assert err.startswith("error:") and err.strip().count("\n") == 0, err
        assert snapshot(self.url) == before
        return err

    def sheet(self, event: str, *extra: str) -> dict[str, Any]:
        return self.json("event", "sheet", event, "--format", "json", *extra)  # type: ignore[no-any-return]

    def play_round(self, event: str) -> list[dict[str, Any]]:
        """Pair, publish and enter a result at every table of the next round."""
        self.ok("event", "pair", event)
        self.ok("event", "publish", event)
        tables: list[dict[str, Any]] = self.sheet(event)["tables"]
        for t in tables:
            self.ok("result", "add", event, "--table", str(t["table"]), "--scores", scores_for(t))
        return tables

    def play_evening(self, event: str) -> None:
        for _ in range(3):
            self.play_round(event)


def scores_for(table: dict[str, Any]) -> str:
    """A valid final result: seat 1 reaches the target, the others a little less each."""
    target = int(table["target"])
    values = [target] + [max(0, target - 40 - 10 * i) for i in range(len(table["seats"]) - 1)]
    return ",".join(f"{n}={v}" for n, v in zip(table["seats"], values, strict=True))


@pytest.fixture
def club(db_url: str, capsys: Capture) -> Club:
    c = Club(db_url, capsys)
    c.ok("league", "import", str(SEASON))
    return c


_STAMP = re.compile(r"(Generated )\d{4}-\d\d-\d\d \d\d:\d\d:\d\d( UTC)")


def evening_one(c: Club) -> dict[str, str]:
    """Everything evening 1 shows, the generation stamp left out."""
    data = c.json("report", "evening-1", "--format", "json")
    data["footer"].pop("generated_at")
    html = c.ok("report", "evening-1", "--format", "html")[0]
    return {
        "json": json.dumps(data, sort_keys=True, indent=1),
        "html": _STAMP.sub(r"\1(stamp)\2", html),
        "terminal": _STAMP.sub(r"\1(stamp)\2", c.ok("report", "evening-1")[0]),
        "standings": c.ok("event", "standings", "evening-1", "--json")[0],
        "sheets": "".join(
            c.ok("event", "sheet", "evening-1", "--round", str(n), "--format", "json")[0]
            for n in (1, 2, 3)
        ),
    }


def assert_unchanged(first: dict[str, str], now: dict[str, str]) -> None:
    """``now`` is what evening 1 showed ``first``; else the lines that differ, by view."""
    diffs = [
        f"{view}:\n"
        + "\n".join(
            list(
                difflib.unified_diff(first[view].splitlines(), now[view].splitlines(), lineterm="")
            )[:40]
        )
        for view in first
        if now[view] != first[view]
    ]
    assert not diffs, "evening 1 changed:\n" + "\n".join(diffs)


# -- a whole season ----------------------------------------------------------------------------


def test_a_season_leaves_evening_one_as_it_was(club: Club) -> None:
    """Evening 1 reads the same, byte for byte, after late entries, a withdrawal after a
    draft, a return, a rename, a merge and two more evenings."""
    c = club
    c.play_evening("evening-1")
    first = evening_one(c)
    assert "Generated (stamp) UTC" in first["html"]

    # Evening 2: two late entries, and Ben leaves once round 3 is drafted.
    c.ok("players", "add", "Mary ONeill", "--league", "season")
    c.ok("players", "add", "Zoë", "--league", "season")
    c.play_round("evening-2")
    c.play_round("evening-2")
    c.ok("event", "pair", "evening-2")
    _, err = c.ok("players", "withdraw", "Ben")
    assert "Ben withdrew after round 2 of evening-2 (league season)" in err
    assert "draft round 3" in err
    c.ok("event", "unpair", "evening-2")
    c.ok("event", "pair", "evening-2")
    c.ok("event", "publish", "evening-2")
    seated = {n for t in c.sheet("evening-2")["tables"] for n in t["seats"]}
    assert "Ben" not in seated and "Zoë" in seated
    for t in c.sheet("evening-2")["tables"]:
        c.ok("result", "add", "evening-2", "--table", str(t["table"]), "--scores", scores_for(t))
    assert_unchanged(first, evening_one(c))

    # Between evenings: Mary's name is mended, and she is entered again by mistake.
    c.ok("players", "rename", "Mary ONeill", "Mary O'Neil")
    c.ok("players", "withdraw", "Mary O'Neil")
    c.ok("players", "add", "Mary O'Neill", "--league", "season")
    c.play_evening("evening-3")
    _, err = c.ok("players", "merge", "Mary O'Neill", "Mary O'Neil")
    assert "Mary O'Neil merged into Mary O'Neill (3 results moved" in err
    assert_unchanged(first, evening_one(c))

    # Joined later: not in evening 1; withdrawn later: as they were in evening 1.
    names = [r["name"] for r in json.loads(first["standings"])]
    assert len(names) == 11 and "Zoë" not in names and "Mary O'Neill" not in names
    assert all(r["membership"] == "" for r in json.loads(first["standings"]))

    # The withdrawal, one way everywhere.
    said = "withdrew after round 2 of evening-2"
    two = {r["name"]: r for r in c.json("event", "standings", "evening-2", "--json")}
    assert (two["Ben"]["status"], two["Ben"]["membership"]) == ("withdrawn", said)
    assert_shown(c.ok("event", "standings", "evening-2")[0], "season-withdrawn-standings")
    report = c.json("report", "evening-2", "--format", "json")
    (ben,) = [s for s in report["events"][0]["standings"] if s["name"] == "Ben"]
    assert ben["membership"] == said
    assert f"Ben ({said})" in c.ok("report", "evening-2")[0]
    assert f"Ben ({said})" in c.ok("report", "evening-2", "--format", "html")[0]
    members = {p["name"]: p for p in c.json("players", "list", "--league", "season", "--json")}
    assert (members["Ben"]["status"], members["Ben"]["membership"]) == ("withdrawn", said)
    assert_shown(c.ok("players", "list", "--league", "season")[0], "season-withdrawn-players")
    assert_shown(c.ok("players", "list")[0], "season-withdrawn-players-everywhere")
    shown = {e["name"]: e for e in c.json("league", "show", "season", "--json")["entrants"]}
    assert shown["Ben"]["membership"] == said
    assert_shown(c.ok("league", "show", "season")[0], "season-withdrawn-league-show")
    # The two entries of Mary make one history: she left after evening 2 and came back.
    assert members["Mary O'Neill"]["membership"] == "came back after round 3 of evening-2"
    assert "Mary O'Neil" not in members
    # Evening 3 started without Ben: he is not in it.
    three = [r["name"] for r in c.json("event", "standings", "evening-3", "--json")]
    assert "Ben" not in three and "Mary O'Neill" in three
    # The merged member holds both evenings' results, under the one name.
    two_names = [r["name"] for r in c.json("event", "standings", "evening-2", "--json")]
    assert "Mary O'Neill" in two_names and "Mary O'Neil" not in two_names


def test_a_member_who_joins_during_an_event_is_marked_in_it(club: Club) -> None:
    c = club
    c.play_round("evening-1")
    c.ok("players", "add", "Zoë", "--league", "season")
    c.play_round("evening-1")
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-1", "--json")}
    assert rows["Zoë"]["membership"] == "joined after round 1 of evening-1"
    assert rows["Zoë"]["matches"] + rows["Zoë"]["byes"] == 1
    c.ok("players", "withdraw", "Ada")
    c.ok("players", "reinstate", "Ada")
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-1", "--json")}
    assert rows["Ada"]["membership"] == "came back after round 2 of evening-1"
    history = c.json("result", "history", "evening-1", "--json")
    assert [(h["action"], h["subject"], h["note"]) for h in history if h["action"] in (
        "join", "withdraw", "reinstate")] == [
        ("join", "Zoë", "joined after round 1 of evening-1"),
        ("withdraw", "Ada", "withdrew after round 2 of evening-1"),
        ("reinstate", "Ada", "came back after round 2 of evening-1"),
    ]  # fmt: skip


# -- people ------------------------------------------------------------------------------------


def test_rename_shows_everywhere_and_is_audited(club: Club) -> None:
    c = club
    c.play_round("evening-1")
    _, err = c.ok("players", "rename", "łukasz", "Lukasz K.")
    assert "Łukasz is now Lukasz K." in err
    names = [r["name"] for r in c.json("event", "standings", "evening-1", "--json")]
    assert "Lukasz K." in names and "Łukasz" not in names
    assert "Lukasz K." in {n for t in c.sheet("evening-1")["tables"] for n in t["seats"]}
    (entry,) = [
        h for h in c.json("league", "history", "season", "--json") if h["action"] == "rename"
    ]
    assert entry["subject"] == "Łukasz → Lukasz K."
    assert (entry["before"], entry["after"]) == ({"name": "Łukasz"}, {"name": "Lukasz K."})
    # A name that is another's whatever its case and accents, the same name, a bad name.
    c.refused("a player named 'Chloé' already exists: 'CHLOE' is the same name",
              "players", "rename", "Ada", "CHLOE")  # fmt: skip
    c.refused("a player named 'Ben' already exists", "players", "rename", "Ada", "Ben")
    c.refused("nothing to change: the player is called 'Ada' already",
              "players", "rename", "Ada", "Ada")  # fmt: skip
    c.refused("a name cannot hold ','", "players", "rename", "Ada", "Ada, B")
    c.refused("no player named 'Nobody'", "players", "rename", "Nobody", "Somebody")
    # Her own name in another case is hers to take.
    c.ok("players", "rename", "Ada", "ADA")


def test_merge_moves_results_and_rebuilds_ratings(club: Club) -> None:
    c = club
    c.play_round("evening-1")
    # Those who met, or played in the same round, are two people.
    t1 = c.sheet("evening-1")["tables"][0]["seats"]
    t2 = c.sheet("evening-1")["tables"][1]["seats"]
    c.refused(f"{t1[0]} and {t1[1]} sat at table 1 of round 1 of evening-1: they are two people",
              "players", "merge", t1[0], t1[1])  # fmt: skip
    c.refused(f"{t1[0]} and {t2[0]} were both paired in round 1 of evening-1",
              "players", "merge", t1[0], t2[0])  # fmt: skip
    c.refused("are the same player", "players", "merge", "Ada", "ada")
    # One person under two names: Ada plays round 1, "Ada L." round 2 (Ada withdrawn).
    c.ok("players", "withdraw", "Ada")
    c.ok("players", "add", "Ada L.", "--league", "season")
    c.play_round("evening-1")
    _, err = c.ok("players", "merge", "Ada", "Ada L.")
    assert "Ada L. merged into Ada (1 result moved; ratings computed again)" in err
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-1", "--json")}
    assert "Ada L." not in rows
    assert rows["Ada"]["matches"] + rows["Ada"]["byes"] == 2
    board = {r["name"]: r for r in c.json("ratings", "show", "season", "--json")["entrants"]}
    assert board["Ada"]["matches"] == rows["Ada"]["matches"]
    before = c.json("ratings", "show", "season", "--json")["entrants"]
    c.ok("ratings", "rebuild", "season")
    assert c.json("ratings", "show", "season", "--json")["entrants"] == before
    (entry,) = [h for h in c.json("league", "history", "--json") if h["action"] == "merge"]
    assert entry["subject"] == "Ada L. → Ada"
    c.refused("no player named 'Ada L.'", "players", "merge", "Ada", "Ada L.")


def test_names_are_unique_whatever_their_case_and_accents(club: Club, tmp_path: Path) -> None:
    c = club
    c.refused("a player named 'Chloé' already exists: 'chloe' is the same name",
              "players", "add", "chloe")  # fmt: skip
    c.refused("a player named 'Łukasz' already exists: 'LUKASZ' is the same name",
              "players", "add", "LUKASZ", "--league", "season")  # fmt: skip
    c.ok("players", "add", "Zoë")
    c.refused(
        "a player named 'Zoë' already exists: 'ZOË' is the same name", "players", "add", "ZOË"
    )
    c.refused("a player named 'Zoë' already exists", "players", "add", "Zoë")
    bad = tmp_path / "twice.toml"
    bad.write_text('name = "twice"\nentrants = [{ name = "Zoë" }, { name = "ZOE" }]\n',
                   encoding="utf-8")  # fmt: skip
    c.refused("duplicate entrant name 'ZOE' (the same name as 'Zoë'", "league", "import", str(bad))
    # Names typed in another case or without accents find the one player.
    c.ok("players", "withdraw", "chloe")
    assert c.json("players", "list", "--league", "season", "--json")[2]["status"] == "withdrawn"


def test_adding_a_member_again_says_what_to_do(club: Club) -> None:
    c = club
    c.ok("players", "withdraw", "Ben")
    c.refused(
        "Ben has withdrawn from 'season': bring them back with c8league players reinstate "
        "Ben --league season",
        *("players", "add", "Ben", "--league", "season"),
    )
    c.refused("Ada is already a member of 'season'", "players", "add", "Ada", "--league", "season")
    c.ok("players", "reinstate", "Ben")


def test_removing_a_member_without_results_deletes_them(club: Club) -> None:
    c = club
    c.play_round("evening-1")
    c.ok("players", "add", "Zoë", "--league", "season")
    _, err = c.ok("players", "remove", "Zoë")
    assert "player Zoë deleted" in err
    assert "Zoë" not in [p["name"] for p in c.json("players", "list", "--json")]
    _, err = c.ok("players", "remove", "Ada")
    assert "player Ada retired" in err
    c.refused("Ada is retired already", "players", "remove", "Ada")
    actions = [(h["action"], h["subject"]) for h in c.json("league", "history", "--json")]
    assert ("remove", "Zoë") in actions and ("retire", "Ada") in actions


# -- the audit trail -----------------------------------------------------------------------------


def test_the_audit_trail_records_every_change(club: Club) -> None:
    c = club
    c.ok("event", "pair", "evening-1")
    c.ok("event", "unpair", "evening-1")
    c.ok("event", "pair", "evening-1")
    tables = c.sheet("evening-1")["tables"]
    a, b = tables[0]["seats"][0], tables[1]["seats"][0]
    c.ok("event", "swap", "evening-1", a, b)
    _, err = c.ok("event", "swap", "evening-1", b.lower(), a.upper())
    assert err.startswith(f"swapped {b} and {a}\n")
    c.ok("event", "swap", "evening-1", a, b)
    _, err = c.ok("event", "move", "evening-1", a.lower(), "--table", "3")
    assert err.startswith(f"moved {a} to table 3\n")
    c.ok("event", "publish", "evening-1")
    tables = c.sheet("evening-1")["tables"]
    for t in tables:
        c.ok("result", "add", "evening-1", "--table", str(t["table"]), "--scores", scores_for(t))
    first = scores_for(tables[0])
    c.refused("nothing to change: round 1, table 1 already has this result",
              "result", "edit", "evening-1", "--table", "1", "--scores", first)  # fmt: skip
    c.ok("result", "void", "evening-1", "--table", "1", "--note", "wrong sheet")
    c.ok("result", "add", "evening-1", "--table", "1", "--scores", first)
    c.ok("players", "withdraw", "Ada")
    c.ok("players", "reinstate", "Ada")
    trail = c.json("result", "history", "evening-1", "--json")
    assert [h["action"] for h in trail] == [
        "unpair", "swap", "swap", "swap", "move", "publish", "add", "add", "add", "void", "add",
        "withdraw", "reinstate",
    ]  # fmt: skip
    swap = trail[1]
    assert swap["subject"] == f"{a} ↔ {b}" and swap["round"] == 1
    assert swap["before"]["tables"]["1"][0] == a and swap["after"]["tables"]["1"][0] == b
    assert trail[5]["after"]["tables"] == {str(t["table"]): t["seats"] for t in tables}
    out = c.ok("result", "history", "evening-1")[0]
    assert_shown(out, "season-result-history-swaps", when=WHEN)
    # A swap of a player with themself changes nothing.
    c.ok("event", "pair", "evening-1")
    c.refused("nothing to change", "event", "swap", "evening-1", "Ben", "ben")
    table = next(t["table"] for t in c.sheet("evening-1")["tables"] if "Ben" in t["seats"])
    c.refused(f"nothing to change: Ben sits at table {table} already",
              "event", "move", "evening-1", "Ben", "--table", str(table))  # fmt: skip


# -- one description of a withdrawal, and an older database --------------------------------------


def test_an_older_database_keeps_its_members_and_trail(
    db_kind: str, new_database: Callable[[str], str], tmp_path: Path, capsys: Capture
) -> None:
    from dbs import load_old_schema

    url = new_database(db_kind)
    load_old_schema(url, Path(__file__).parent / "fixtures" / "schema_v3.sql", tmp_path)
    c = Club(url, capsys)
    members = {p["name"]: p for p in c.json("players", "list", "--league", "club", "--json")}
    assert members["Ada"]["membership"] == "withdrew after round 1 of thursday"
    assert members["Ben"]["status"] == "active"
    trail = c.json("result", "history", "thursday", "--json")
    assert [h["action"] for h in trail][:2] == ["add", "add"]
    assert "edit" in [h["action"] for h in trail]
    assert all(h["round"] == 1 for h in trail)


def test_the_league_file_read_again_after_a_rename_adds_nobody(club: Club) -> None:
    c = club
    c.ok("players", "rename", "Łukasz", "Lukasz Nowak")
    _, err = c.ok("league", "import", str(SEASON))
    assert "Łukasz is called Lukasz Nowak since a rename or merge" in err
    names = [p["name"] for p in c.json("players", "list", "--league", "season", "--json")]
    assert len(names) == 11 and "Lukasz Nowak" in names and "Łukasz" not in names
    # A new player may take a former name: it is free again.
    c.ok("players", "add", "Łukasz")
    assert len(c.json("players", "list", "--json")) == 12


# -- the club's evenings in the same record ----------------------------------------------------


def test_check_in_unfinished_and_unpublish_leave_evening_one_as_it_was(club: Club) -> None:
    """An absence, a stopped match and a round taken back are kept in the one history and
    the one audit trail, told in the same words everywhere, and change no earlier event."""
    c = club
    c.play_evening("evening-1")
    first = evening_one(c)

    # Evening 2: Dev does not come at all, Eli misses round 2 only.
    _, err = c.ok("event", "absent", "evening-2", "dev")
    assert err == "Dev absent from round 1 of evening-2 on\n"
    _, err = c.ok("event", "absent", "evening-2", "Eli", "--round", "2")
    assert err == "Eli absent in round 2 of evening-2\n"
    c.refused("Eli is already absent in round 2 of evening-2",
              "event", "absent", "evening-2", "eli", "--round", "2")  # fmt: skip
    c.refused("Fay is not absent from round 1 or later of 'evening-2'",
              "event", "present", "evening-2", "Fay")  # fmt: skip
    one = c.play_round("evening-2")
    assert "Dev" not in {n for t in one for n in t["seats"]}
    # Round 2 is published, then taken back before any result: Ben must go.
    c.ok("event", "pair", "evening-2")
    c.ok("event", "publish", "evening-2")
    _, err = c.ok("event", "unpublish", "evening-2")
    assert "round 2 of evening-2 is a draft again" in err
    c.ok("players", "withdraw", "Ben")
    c.ok("event", "unpair", "evening-2")
    c.ok("event", "pair", "evening-2")
    c.ok("event", "publish", "evening-2")
    two = c.sheet("evening-2")
    seated = {n for t in two["tables"] for n in t["seats"]}
    assert not seated & {"Ben", "Dev", "Eli"} and two["absent"] == ["Dev", "Eli"]
    # A match stopped at closing time, then the rest.
    stopped, *rest = two["tables"]
    scores = ",".join(f"{n}={90 - 20 * i}" for i, n in enumerate(stopped["seats"]))
    c.ok("result", "add", "evening-2", "--table", str(stopped["table"]), "--scores", scores,
         "--unfinished")  # fmt: skip
    for t in rest:
        c.ok("result", "add", "evening-2", "--table", str(t["table"]), "--scores", scores_for(t))
    c.refused("round 2 of 'evening-2' has results",
              "event", "unpublish", "evening-2")  # fmt: skip
    c.play_round("evening-2")
    assert_unchanged(first, evening_one(c))
    c.play_evening("evening-3")
    assert_unchanged(first, evening_one(c))

    # In evening 2's standings, report and page: the same words.
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-2", "--json")}
    assert rows["Dev"]["membership"] == "absent in rounds 1, 2 and 3 of evening-2"
    assert rows["Dev"]["absent_rounds"] == [1, 2, 3] and rows["Dev"]["status"] == "active"
    assert rows["Eli"]["membership"] == "absent in round 2 of evening-2"
    assert rows["Ben"]["membership"] == "withdrew after round 1 of evening-2"
    said = "Eli (absent in round 2 of evening-2)"
    assert said in c.ok("event", "standings", "evening-2")[0]
    assert said in c.ok("report", "evening-2")[0]
    assert said in c.ok("report", "evening-2", "--format", "html")[0]
    report = c.json("report", "evening-2", "--format", "json")
    (dev,) = [s for s in report["events"][0]["standings"] if s["name"] == "Dev"]
    assert dev["membership"] == "absent in rounds 1, 2 and 3 of evening-2"
    # Evening 3 did not hear of it: Dev plays, and nobody is absent there.
    three = {r["name"]: r for r in c.json("event", "standings", "evening-3", "--json")}
    assert three["Dev"]["matches"] + three["Dev"]["byes"] == 3
    assert all(r["absent_rounds"] == [] for r in three.values())

    # One audit trail: check-in, the round taken back, the stopped match.
    trail = c.json("result", "history", "evening-2", "--json")
    checks = [(h["action"], h["subject"], h["round"], h["note"]) for h in trail
              if h["action"] in ("absent", "present", "unpublish")]  # fmt: skip
    assert checks == [
        ("absent", "Dev", 1, "absent from round 1 of evening-2 on"),
        ("absent", "Eli", 2, "absent in round 2 of evening-2"),
        ("unpublish", "round 2", 2, ""),
    ]
    (add,) = [h for h in trail if h["action"] == "add" and h["after"]["ended"] == "unfinished"]
    assert add["table"] == stopped["table"]
    shown = c.ok("result", "history", "evening-2")[0]
    assert_shown(shown, "season-result-history-absent", when=WHEN)
    assert [h["action"] for h in c.json("league", "history", "season", "--json")].count(
        "absent"
    ) == 2


def test_check_in_is_kept_in_the_membership_history(club: Club) -> None:
    """Present after absent, a merge carries the check-in, a removal forgets it."""
    c = club
    c.ok("event", "absent", "evening-1", "Ada")
    c.play_round("evening-1")
    _, err = c.ok("event", "present", "evening-1", "Ada")
    assert err == "Ada present from round 2 of evening-1 on\n"
    c.refused("Ada is not absent from round 2 or later of 'evening-1'",
              "event", "present", "evening-1", "Ada")  # fmt: skip
    c.refused("'evening-1' has 3 rounds, not 4",
              "event", "absent", "evening-1", "Ada", "--round", "4")  # fmt: skip
    c.refused("round 1 of 'evening-1' is published",
              "event", "absent", "evening-1", "Ben", "--round", "1")  # fmt: skip
    c.refused("no player named 'Adda' (did you mean Ada?",
              "event", "absent", "evening-1", "Adda")  # fmt: skip
    c.play_round("evening-1")
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-1", "--json")}
    assert rows["Ada"]["membership"] == "absent in round 1 of evening-1"
    # A late entry absent from round 3 is merged into Ada: Ada keeps both words.
    c.ok("players", "add", "Ada B.", "--league", "season")
    c.ok("event", "absent", "evening-1", "Ada B.", "--round", "3")
    c.ok("players", "merge", "Ada", "Ada B.")
    c.play_round("evening-1")
    rows = {r["name"]: r for r in c.json("event", "standings", "evening-1", "--json")}
    assert rows["Ada"]["absent_rounds"] == [1, 3]
    assert rows["Ada"]["membership"] == "absent in rounds 1 and 3 of evening-1"
    # A member without results is removed with their check-in.
    c.ok("players", "add", "Zed", "--league", "season")
    c.ok("event", "absent", "evening-2", "Zed")
    _, err = c.ok("players", "remove", "Zed")
    assert "player Zed deleted" in err


def test_a_database_of_version_4_keeps_its_history_and_takes_check_in(
    db_kind: str, new_database: Callable[[str], str], tmp_path: Path, capsys: Capture
) -> None:
    from dbs import load_old_schema

    url = new_database(db_kind)
    load_old_schema(url, Path(__file__).parent / "fixtures" / "schema_v4.sql", tmp_path)
    c = Club(url, capsys)
    members = {p["name"]: p for p in c.json("players", "list", "--league", "club", "--json")}
    assert members["Ada"]["membership"] == "withdrew after round 1 of thursday"
    assert members["Zoë"]["membership"] == "joined after round 1 of thursday"
    # The league keeps the tie-breaks it had; the event its pairing rules.
    assert c.json("report", "thursday", "--format", "json")["events"][0]["tiebreaks"] == [
        "opponents-total", "game-points", "wins",
    ]  # fmt: skip
    c.ok("event", "absent", "thursday", "zoe", "--round", "3")
    for t in c.sheet("thursday")["tables"]:
        c.ok("result", "add", "thursday", "--table", str(t["table"]), "--scores", scores_for(t))
    c.ok("event", "pair", "thursday")
    sheet = c.sheet("thursday")
    assert sheet["absent"] == ["Zoë"]
    trail = [h["action"] for h in c.json("result", "history", "thursday", "--json")]
    assert trail[:4] == ["publish", "add", "add", "edit"] and "absent" in trail
