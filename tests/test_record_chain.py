"""The record's chain: a change made outside c8league is found and named, on SQLite and
PostgreSQL, whoever makes it (the ``sqlite3`` shell, ``psql``, a bot with the file);
a change made through c8league is not; and c8league writes nothing over a changed
record. The tests play the attacker: they change the database behind c8league's back
(``changes_record``) and check what ``c8league verify`` and the commands that show
results say."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from dbs import engine, execute, load_old_schema, query
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from test_season_record import SEASON, Capture, Club, scores_for, snapshot

from c8league.cli.main import main
from c8league.results import Forfeit, HandReport, Result
from c8league.storage import chain, open_database
from c8league.storage.results import store_results
from c8league.storage.rounds import NewMatch, add_round

FIXTURES = Path(__file__).parent / "fixtures"
HEAD = re.compile(r"head: ([0-9a-f]{64}) \(entry (\d+)\)\n")


def behind_our_back(url: str, *statements: str) -> None:
    """Run SQL as someone with the database in hand does: the ``sqlite3`` shell (or
    Python's sqlite3 module where the shell is not installed), ``psql`` (or psycopg)."""
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        shell = shutil.which("sqlite3")
        if shell is not None:
            subprocess.run(
                [shell, path], input=";\n".join(statements) + ";\n", text=True, check=True
            )
            return
        con = sqlite3.connect(path)
        for sql in statements:
            con.execute(sql)
        con.commit()
        con.close()
        return
    psql = shutil.which("psql")
    if psql is not None:
        script = ";\n".join(statements) + ";\n"
        done = subprocess.run(
            [psql, "-v", "ON_ERROR_STOP=1", "-q", url], input=script, text=True, capture_output=True
        )
        assert done.returncode == 0, done.stderr
        return
    execute(url, *statements)


@pytest.fixture
def club(db_url: str, capsys: Capture) -> Club:
    """The season's first evening: round 1 paired, published and entered (tables 1-3,
    matches 1-3; table 1 hand by hand), a result corrected, round 2 paired and
    published."""
    c = Club(db_url, capsys)
    c.ok("league", "import", str(SEASON))
    c.ok("event", "pair", "evening-1")
    c.ok("event", "publish", "evening-1")
    tables = c.sheet("evening-1")["tables"]
    first, second = tables[0]["seats"][:2]
    hands = f"{first}=100;{second}=30;{first}=100"
    c.ok("result", "add", "evening-1", "--table", "1", "--hands", hands)
    for t in tables[1:]:
        c.ok("result", "add", "evening-1", "--table", str(t["table"]), "--scores", scores_for(t))
    table = tables[1]
    c.ok(
        *("result", "edit", "evening-1", "--table", "2"),
        *("--scores", scores_for(table).replace(f"={table['target']}", f"={table['target'] + 5}")),
    )
    c.ok("event", "pair", "evening-1")
    c.ok("event", "publish", "evening-1")
    return c


def verify_error(c: Club, *args: str) -> str:
    code, out, err = c.run("verify", *args)
    assert code == 1, err
    assert out == ""
    return err


# -- what verify says of a whole record ------------------------------------------------------


def test_a_record_written_by_c8league_verifies_and_prints_its_head(club: Club) -> None:
    out, err = club.ok("verify")
    assert err == ""
    first, second = out.splitlines()
    records = len(
        query(club.url, "SELECT DISTINCT kind, key FROM chain")
    )  # every record c8league wrote (none deleted here)
    entries = query(club.url, "SELECT count(*) FROM chain")[0][0]
    assert first == (
        f"the record is as c8league wrote it: {records} records checked against a chain of "
        f"{entries} entries"
    )
    match = HEAD.fullmatch(second + "\n")
    assert match is not None and int(match.group(2)) == entries
    (link,) = query(club.url, "SELECT link FROM chain WHERE seq = :n", n=entries)[0]
    assert match.group(1) == link
    # One league's record: the same head (the chain is the database's).
    out, _ = club.ok("verify", "season")
    assert out.startswith("league season's record is as c8league wrote it: ")
    assert out.splitlines()[1] == second


@pytest.mark.changes_record
def test_a_head_printed_before_is_checked_against_the_chain(club: Club) -> None:
    """Anyone with write access and c8league's code can chain a change of their own: by
    adding entries after the head, or by rebuilding the chain. The head published
    before shows both."""
    out, _ = club.ok("verify")
    head = HEAD.search(out)
    assert head is not None
    for t in club.sheet("evening-1")["tables"]:  # the record grows: the head stays in it
        club.ok("result", "add", "evening-1", "--table", str(t["table"]), "--scores", scores_for(t))
    out, _ = club.ok("verify", "--head", head.group(1).upper())
    entry = head.group(2)
    assert out.splitlines()[-1] == (
        f"the head given is entry {entry}: nothing written up to it was changed since; "
        "written again after it: match 4 (season/evening-1, round 2, table 1) and 2 more "
        "(c8league verify --head HEAD --json lists them)"
    )  # (round 2's tables, paired before the head and played after it)
    # A result of round 1 changed, and entries added for it as c8league adds them.
    behind_our_back(club.url, CHANGES["seats"][0][0])
    with engine(club.url).begin() as conn:
        chain.chain_existing(conn)
    out, _ = club.ok("verify")  # whole: the change is chained
    data = json.loads(club.ok("verify", "--head", head.group(1), "--json")[0])
    assert data["whole"] is True
    assert [(f["kind"], f["key"]) for f in data["rewritten"]] == [
        ("match", "4"),
        ("match", "5"),
        ("match", "6"),
        ("match", "2"),  # the one its organiser did not write again
    ]
    # The chain rebuilt from nothing: the head published before is in it no more.
    with engine(club.url).begin() as conn:
        conn.execute(text("DELETE FROM chain"))
        chain.chain_existing(conn)
    club.ok("verify")
    err = verify_error(club, "--head", head.group(1))
    assert err == (
        f"error: the head {head.group(1)} is no entry of the chain: the record was rewritten "
        "or cut back outside c8league since that head was printed\n"
    )


def test_a_head_must_be_64_hex_digits(club: Club) -> None:
    club.refused("--head must be a head as c8league verify prints it", "verify", "--head", "abc")


def test_changes_made_through_c8league_verify(club: Club) -> None:
    """Results entered, edited and voided, rounds paired, swapped and published, members
    who withdraw, come back, are renamed, merged and removed: all chained as written."""
    club.ok("result", "void", "evening-1", "--table", "1", "--round", "1")
    club.ok(
        "result", "add", "evening-1", "--table", "1", "--round", "1", "--scores", _scores(club, 1)
    )
    club.ok("players", "withdraw", "Ada")
    club.ok("players", "reinstate", "Ada")
    club.ok("players", "rename", "Ben", "Benjamin")
    club.ok("players", "add", "Zoe")
    club.ok("players", "remove", "Zoe")
    club.ok("event", "unpublish", "evening-1")
    club.ok("event", "unpair", "evening-1")
    club.ok("event", "pair", "evening-1")
    club.ok("ratings", "rebuild", "season")
    out, _ = club.ok("verify")
    assert out.startswith("the record is as c8league wrote it: ")


def _scores(club: Club, table: int) -> str:
    sheet = club.sheet("evening-1", "--round", "1")
    return scores_for(next(t for t in sheet["tables"] if t["table"] == table))


# -- changes made behind c8league's back -------------------------------------------------------


CHANGES = {
    "seats": (
        ["UPDATE match_seat SET place = 1 WHERE match_id = 2 AND seat = 3"],
        "match 2 (season/evening-1, round 1, table 2): its seats were changed outside "
        "c8league after c8league wrote it",
    ),
    "match": (
        ["UPDATE match SET forfeit_seat = 0, forfeit_reason = 'absent' WHERE id = 3"],
        "match 3 (season/evening-1, round 1, table 3): its match row was changed outside "
        "c8league after c8league wrote it",
    ),
    "hand": (
        ["DELETE FROM hand WHERE match_id = 1"],
        "match 1 (season/evening-1, round 1, table 1): its hands were changed outside "
        "c8league after c8league wrote it",
    ),
    "audit": (
        ["UPDATE audit SET note = 'all fine' WHERE action = 'edit'"],
        "audit-trail entry 5 (edit, season/evening-1, round 1, table 2) was changed outside "
        "c8league after c8league wrote it",
    ),
    "name": (
        ["UPDATE entrant SET name = 'Ada the Great' WHERE name = 'Ada'"],
        "player Ada the Great was changed outside c8league after c8league wrote it",
    ),
    "deleted": (
        ["DELETE FROM membership_change WHERE id = 11"],
        "membership change 11 was deleted outside c8league",
    ),
    "added": (
        [
            "INSERT INTO audit (league_id, action, subject, note, at) "
            "VALUES (1, 'edit', 'nothing', '', '2026-01-01 00:00:00')"
        ],
        "audit-trail entry 7 (edit, season) was added outside c8league (c8league never wrote it)",
    ),
}


@pytest.mark.changes_record
@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_made_outside_c8league_is_named(club: Club, change: str) -> None:
    statements, said = CHANGES[change]
    audit = query(club.url, "SELECT id, action FROM audit ORDER BY id")
    assert audit[4] == (5, "edit") and len(audit) == 6  # (as the expectations name them)
    behind_our_back(club.url, *statements)
    assert verify_error(club) == f"error: {said}\n"
    assert verify_error(club, "season") == f"error: {said}\n"
    # The commands that show the league's results say so in one line, and go on (their
    # quick look leaves out the hands, which standings do not read: verify reads them).
    warning = "" if change == "hand" else f"warning: {said}; c8league verify season says more\n"
    code, out, err = club.run("event", "status", "evening-1")
    assert code == 0 and out.endswith("not complete\n") and err == warning
    code, _, err = club.run("report", "evening-1", "--format", "md")
    assert code == 0 and err == warning
    club.ok("event", "unpublish", "evening-1")
    code, _, err = club.run("event", "publish", "evening-1")
    assert code == 0 and err == f"round 2 of evening-1 published\n{warning}"


@pytest.mark.changes_record
def test_the_first_change_in_the_chain_is_named_and_the_rest_counted(club: Club) -> None:
    behind_our_back(club.url, CHANGES["seats"][0][0], CHANGES["hand"][0][0])
    assert verify_error(club) == (
        f"error: {CHANGES['hand'][1]} (and 1 more: c8league verify --json lists them)\n"
    )
    data = json.loads(club.run("verify", "--json")[1])
    assert data["whole"] is False
    assert [(f["kind"], f["key"], f["change"], f["parts"]) for f in data["findings"]] == [
        ("match", "1", "changed", ["hands"]),
        ("match", "2", "changed", ["seats"]),
    ]
    assert data["findings"][1]["place"] == {
        "league": "season",
        "event": "evening-1",
        "round": 1,
        "table": 2,
        "deal": 0,
    }


@pytest.mark.changes_record
def test_an_entry_of_the_chain_edited_or_deleted_is_found(club: Club) -> None:
    behind_our_back(club.url, f"UPDATE chain SET link = '{'0' * 64}' WHERE seq = 7")
    assert verify_error(club) == (
        "error: the chain itself was changed at entry 7: it does not follow from entry 6 (an "
        "entry edited outside c8league) (and 1 more: c8league verify --json lists them)\n"
    )
    # An entry deleted (one a later entry of its record followed: the record still has
    # its latest entry, which the quick look of the commands that show results reads).
    ((paired,),) = query(club.url, "SELECT min(seq) FROM chain WHERE kind = 'match' AND key = '1'")
    behind_our_back(club.url, f"DELETE FROM chain WHERE seq = {paired}")
    err = verify_error(club)
    assert err.startswith(
        "error: the chain itself was changed at entry 7: it does not follow from entry 6 "
    )
    data = json.loads(club.run("verify", "--json")[1])
    assert [(f["change"], f["entry"], f["key"]) for f in data["findings"]] == [
        ("link", 7, "7"),
        ("link", 8, "8"),
        ("gap", paired, str(paired)),
    ]
    code, _, err = club.run("event", "status", "evening-1")
    assert code == 0 and err == ""


@pytest.mark.changes_record
def test_a_result_changed_outside_then_corrected_through_c8league_is_its_own_again(
    club: Club,
) -> None:
    """A result changed outside c8league, then corrected through c8league: the record is
    c8league's again, and the trail keeps what the table held before."""
    behind_our_back(club.url, CHANGES["seats"][0][0])
    assert verify_error(club).startswith("error: match 2 ")
    table = club.sheet("evening-1", "--round", "1")["tables"][1]
    club.ok(
        "result", "edit", "evening-1", "--table", "2", "--round", "1", "--scores", scores_for(table)
    )
    club.ok("verify")


@pytest.mark.changes_record
def test_ratings_are_not_chained_and_rebuild_from_the_results(club: Club) -> None:
    before = query(club.url, "SELECT entrant_id, mu, sigma FROM rating ORDER BY 1")
    behind_our_back(club.url, "UPDATE rating SET mu = 50")
    club.ok("verify")  # ratings are computed from the results: not part of the record
    club.ok("ratings", "rebuild", "season")
    assert query(club.url, "SELECT entrant_id, mu, sigma FROM rating ORDER BY 1") == before


# -- c8league writes nothing over a changed record -----------------------------------------------

BOTS = """
name = "bots"
table_size = 2
entrants = [
    { name = "Greedy", bot = "greedy" },
    { name = "Random", bot = "random" },
    { name = "Random II", bot = "random" },
]
[[events]]
name = "cup"
format = "round_robin"
seed = 3
"""


@pytest.mark.changes_record
def test_a_run_stores_nothing_over_a_match_changed_since_it_was_paired(
    db_url: str, capsys: Capture, tmp_path: Path
) -> None:
    """A bot that swaps itself into another's seat of a match still to play: the run
    refuses to store that match's result under the changed seats."""
    c = Club(db_url, capsys)
    league = tmp_path / "bots.toml"
    league.write_text(BOTS)
    c.ok("league", "import", str(league))
    c.ok("event", "run", "cup", "--rounds", "1", "--workers", "1")
    c.ok("event", "pair", "cup")
    pending = query(db_url, "SELECT id FROM match WHERE status = 'pending' ORDER BY id")
    match_id = pending[0][0]
    behind_our_back(
        db_url, f"UPDATE match_seat SET entrant_id = 1 WHERE match_id = {match_id} AND seat = 0"
    )
    before = snapshot(db_url)
    code, _, err = c.run("event", "run", "cup", "--workers", "1")
    assert code == 1
    assert err.splitlines()[-1] == (
        f"error: match {match_id} (bots/cup, round 2, table 1): its seats were changed outside "
        "c8league after c8league wrote it: c8league writes nothing over it (c8league verify "
        "says more; c8league restore puts back a copy)"
    )
    assert snapshot(db_url) == before


# -- the digests written as they are written are those read back ----------------------------------

TEXT = st.text(st.characters(blacklist_characters="\x00"), max_size=40)
"""Any text a database keeps (PostgreSQL keeps no NUL character)."""

HANDS = st.lists(
    st.builds(
        HandReport,
        kind=st.sampled_from(["out", "blocked"]),
        winners=st.lists(st.integers(0, 3), max_size=2).map(tuple),
        points=st.lists(st.integers(0, 500), min_size=4, max_size=4).map(tuple),
        penalties=st.lists(st.integers(0, 500), min_size=4, max_size=4).map(tuple),
        record=TEXT.map(lambda t: json.dumps({"moves": t})),
    ),
    max_size=3,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    placements=st.permutations([1, 2, 3, 4]),
    scores=st.lists(st.integers(-100, 10**9), min_size=4, max_size=4),
    hands=HANDS,
    detail=TEXT,
    forfeit=st.booleans(),
)
def test_a_result_is_hashed_as_it_is_read_back(
    db_url: str,
    tmp_path: Path,
    placements: list[int],
    scores: list[int],
    hands: list[HandReport],
    detail: str,
    forfeit: bool,
) -> None:
    """What a writer hashes as it writes is what a reader hashes of the rows read back,
    on either database (times, flags, long text, whatever a result holds)."""
    if not (tmp_path / "bots.toml").exists():
        _bots(db_url, tmp_path / "bots.toml")
    db = open_database(db_url)
    try:
        with db.writing() as session:
            conn = session.connection()
            query = text("SELECT e.id, l.rules FROM event e, league l")
            event_id, rules = conn.execute(query).one()
            number = conn.execute(text("SELECT count(*) FROM round")).scalar_one() + 1
            paired = add_round(
                session,
                event_id,
                number,
                byes=[],
                matches=[NewMatch(table_no=1, deal=0, rules=rules, seed=number, seats=SEATS)],
                published=True,
            )
            (match_id,) = conn.execute(
                text("SELECT id FROM match WHERE round_id = :r"), {"r": paired.id}
            ).one()
            result = Result(
                tuple(placements),
                tuple(scores),
                "forfeit" if forfeit else "target",
                tuple(hands),
                forfeit=Forfeit(placements.index(4), "crash", 3, detail) if forfeit else None,
                unfinished=detail or None,
            )
            store_results(session, [(match_id, result, number)])
            written = chain._pending(session).written[("match", str(match_id))]
        with db.session() as session:
            conn = session.connection()
            read = chain._read(conn, "match", events=chain._events(conn), keys=[str(match_id)])
        assert read[str(match_id)] == written
    finally:
        db.close()


SEATS = (1, 2, 3, 4)
"""The four bots of :func:`_bots`."""


def _bots(url: str, league: Path) -> None:
    """A league of four bots."""
    league.write_text(BOTS.replace("table_size = 2", "table_size = 4"))
    assert main(["--db", url, "league", "import", str(league)]) == 0
    assert main(["--db", url, "players", "add", "Greedy II", "--bot", "greedy"]) == 0


# -- an older database is chained when it is upgraded ---------------------------------------------


@pytest.mark.parametrize("fixture", ["schema_v3", "schema_v4"])
def test_an_older_database_is_chained_at_upgrade(
    db_url: str, tmp_path: Path, capsys: Capture, fixture: str
) -> None:
    load_old_schema(db_url, FIXTURES / f"{fixture}.sql", tmp_path)
    c = Club(db_url, capsys)
    out, _ = c.ok("verify")  # opening it upgrades it: everything there is chained
    counts = {
        table: query(db_url, f'SELECT count(*) FROM "{table}"')[0][0]
        for table in ("match", "audit", "membership_change", "entrant")
    }
    assert counts["match"] and counts["audit"]
    kinds = dict(query(db_url, "SELECT kind, count(*) FROM chain GROUP BY kind"))
    assert kinds["match"] == counts["match"] and kinds["audit"] == counts["audit"]
    assert kinds["membership"] == counts["membership_change"]
    assert out.startswith("the record is as c8league wrote it: ")


@pytest.mark.changes_record
def test_a_change_to_an_upgraded_database_is_found(
    db_url: str, tmp_path: Path, capsys: Capture
) -> None:
    load_old_schema(db_url, FIXTURES / "schema_v4.sql", tmp_path)
    c = Club(db_url, capsys)
    c.ok("verify")
    behind_our_back(db_url, "UPDATE match_seat SET score = score + 1 WHERE match_id = 1")
    assert verify_error(c).startswith("error: match 1 (")


@pytest.mark.changes_record
def test_a_duels_pair_changed_outside_c8league_is_named(db_url: str, capsys: Capture) -> None:
    c = Club(db_url, capsys)
    c.ok("duel", "greedy", "random", "--games", "4", "--workers", "1")
    c.ok("verify")
    behind_our_back(db_url, "UPDATE duel_pair SET share_a = share_b WHERE deal = 1")
    assert verify_error(c) == (
        "error: duel duel-1, deal 1 was changed outside c8league after c8league wrote it\n"
    )


def test_verify_reads_one_state_of_the_database_while_another_command_writes(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result stored between verify's read of the chain and its read of the matches
    is seen by neither: verify reads the database as it was when it began."""
    tables = club.sheet("evening-1")["tables"]
    read_matches = chain._read_matches
    written: list[int] = []

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not written:  # another command stores a result now
            scores = scores_for(tables[0])
            command = ["result", "add", "evening-1", "--table", "1", "--scores", scores]
            written.append(main(["--db", club.url, *command]))
        return read_matches(*args, **kwargs)

    monkeypatch.setattr(chain, "_read_matches", meanwhile)
    out, _ = club.ok("verify")
    assert written == [0]
    assert out.startswith("the record is as c8league wrote it: ")
    monkeypatch.undo()
    club.ok("verify")
