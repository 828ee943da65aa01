"""PostgreSQL: the commands give on a ``postgresql://`` database what they give on SQLite,
and its URLs, driver and errors are handled as they should be.

The tests that need a server skip without ``C8LEAGUE_TEST_PG_URL`` (see ``conftest.py``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from dbs import BOT_ENTRANTS, matches_done, query, results

from c8league.cli.main import main
from c8league.errors import BusyError, StorageError
from c8league.players import registry
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.storage import open_database, postgres
from c8league.storage.models import SCHEMA_VERSION
from c8league.storage.runlock import event_run_lock

ROOT = Path(__file__).resolve().parents[1]

LEAGUE = f"""
name = "pg-league"
table_size = 3

[rules]
preset = "pagat"

{BOT_ENTRANTS}
[[events]]
name = "rr"
format = "round_robin"
cycles = 2
seed = 5

[[events]]
name = "sw"
format = "swiss"
rounds = 3
seed = 9
"""


@pytest.fixture(autouse=True)
def builtin_players() -> Iterator[None]:
    with registry.only_registered({"greedy": GreedyPlayer, "random": RandomPlayer}):
        yield


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?")


def commands(league: Path) -> list[list[str]]:
    club = str(ROOT / "leagues" / "club-swiss.toml")
    return [
        ["league", "import", str(league)],
        ["league", "import", str(league)],
        ["event", "run", "rr", "--workers", "2"],
        ["event", "run", "sw", "--workers", "1", "--rounds", "1"],
        ["event", "resume", "sw", "--workers", "2"],
        ["event", "status", "rr", "--json"],
        ["event", "standings", "sw", "--json"],
        ["ratings", "show", "pg-league", "--json"],
        ["ratings", "rebuild", "pg-league"],
        ["ratings", "show", "pg-league", "--json"],
        ["report", "pg-league", "--format", "json"],
        ["report", "sw", "--format", "json"],
        ["players", "add", "Zoe"],
        ["players", "add", "Zoe"],
        ["players", "list", "--json"],
        ["players", "withdraw", "R3", "--league", "pg-league"],
        ["league", "show", "pg-league", "--json"],
        ["league", "import", club],
        ["event", "pair", "thursday", "--format", "json"],
        ["event", "publish", "thursday"],
        ["event", "sheet", "thursday", "--format", "json"],
        ["event", "status", "thursday", "--json"],
        ["league", "list"],
    ]


def test_every_command_gives_the_same_on_postgresql_as_on_sqlite(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = tmp_path / "league.toml"
    league.write_text(LEAGUE)
    sqlite_url = f"sqlite:///{tmp_path / 'same.db'}"
    seen: dict[str, list[tuple[int, str]]] = {}
    for url in (sqlite_url, pg_url):
        seen[url] = []
        for args in commands(league):
            code = main(["--db", url, *args])
            out = capsys.readouterr().out
            # JSON is compared without its timestamps; text with durations in it is not.
            text = TIMESTAMP.sub("<time>", out) if "--json" in args or "json" in args else ""
            seen[url].append((code, text))
    assert seen[pg_url] == seen[sqlite_url]
    assert [code for code, _ in seen[pg_url]].count(0) == len(commands(league)) - 1
    assert results(pg_url) == results(sqlite_url)
    report = json.loads(seen[pg_url][10][1])
    assert report["leaderboard"][0]["matches"] > 0


def test_event_resumed_on_postgresql_equals_an_uninterrupted_run(
    pg_url: str, tmp_path: Path
) -> None:
    league = tmp_path / "league.toml"
    league.write_text(LEAGUE)
    whole = f"sqlite:///{tmp_path / 'whole.db'}"
    for url in (whole, pg_url):
        assert main(["--db", url, "league", "import", str(league)]) == 0
    assert main(["--db", whole, "event", "run", "sw", "--workers", "2"]) == 0
    for _ in range(3):
        assert main(["--db", pg_url, "event", "run", "sw", "--workers", "2", "--rounds", "1"]) == 0
    assert results(pg_url) == results(whole)


TWO_EVENTS = """
name = "two"
table_size = 2

[rules]
preset = "pagat"

[[entrants]]
name = "G1"
bot = "greedy"
[[entrants]]
name = "G2"
bot = "greedy"
[[entrants]]
name = "R1"
bot = "random"
[[entrants]]
name = "R2"
bot = "random"

[[events]]
name = "a"
format = "round_robin"
cycles = 15
seed = 1

[[events]]
name = "b"
format = "round_robin"
cycles = 15
seed = 2
"""


def test_two_event_runs_of_one_league_at_once_count_every_result(
    db_url: str, tmp_path: Path
) -> None:
    league = tmp_path / "two.toml"
    league.write_text(TWO_EVENTS)
    assert main(["--db", db_url, "league", "import", str(league)]) == 0
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "c8league", "--db", db_url, "event", "run", name],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for name in ("a", "b")
    ]
    errors = [run.communicate(timeout=300)[1].decode()[-2000:] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    assert (matches_done(db_url, "a"), matches_done(db_url, "b")) == (90, 90)
    # Each result updated both its seats' ratings: no update was lost to the other run.
    assert query(db_url, "SELECT sum(matches) FROM rating") == [(360,)]
    assert query(db_url, "SELECT count(*) FROM rating_history") == [(360,)]
    # The runs took sequence numbers in turn, never the same one, in the order their
    # ratings were updated: a rebuild from the stored results gives the same ratings.
    sequences = [row[0] for row in query(db_url, "SELECT sequence FROM match ORDER BY 1")]
    assert sequences == list(range(1, 181))
    ratings = "SELECT entrant_id, mu, sigma, matches FROM rating ORDER BY 1"
    before = query(db_url, ratings)
    assert main(["--db", db_url, "ratings", "rebuild", "two"]) == 0
    assert query(db_url, ratings) == before


def test_a_second_run_of_a_running_event_stops_and_stores_nothing(
    db_url: str, tmp_path: Path
) -> None:
    league = tmp_path / "two.toml"
    league.write_text(TWO_EVENTS)
    assert main(["--db", db_url, "league", "import", str(league)]) == 0
    db = open_database(db_url)
    try:
        (event_id,) = query(db_url, "SELECT id FROM event WHERE name = 'a'")[0]
        assert isinstance(event_id, int)
        with event_run_lock(db, event_id, "a"):  # as a run in this process would
            second = subprocess.run(
                [sys.executable, "-m", "c8league", "--db", db_url, "event", "run", "a"],
                capture_output=True,
                text=True,
                timeout=120,
            )
            # Another event of the league is not held up.
            assert main(["--db", db_url, "event", "run", "b"]) == 0
    finally:
        db.close()
    assert second.returncode == 1, second.stderr
    (line,) = second.stderr.strip().splitlines()
    assert "event 'a' is being run by another process" in line
    assert (matches_done(db_url, "a"), matches_done(db_url, "b")) == (0, 90)
    # The lock went with its holder: the event runs now.
    assert main(["--db", db_url, "event", "run", "a"]) == 0
    assert query(db_url, "SELECT count(*), count(DISTINCT sequence) FROM match") == [(180, 180)]


HOLDER = """
import sys, time
from c8league.storage import open_database
from c8league.storage.runlock import event_run_lock
with event_run_lock(open_database(sys.argv[1]), 7, "e"):
    print("held", flush=True)
    time.sleep(600)
"""


def test_a_killed_run_leaves_its_event_free(db_url: str) -> None:
    assert main(["--db", db_url, "init"]) == 0
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, db_url], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        db = open_database(db_url)
        try:
            with pytest.raises(BusyError), event_run_lock(db, 7, "e"):
                pass
            with event_run_lock(db, 8, "other"):  # another event is free all along
                pass
            holder.kill()  # SIGKILL: no clean-up runs
            holder.wait(timeout=30)
            deadline = time.monotonic() + 30
            while True:
                try:
                    with event_run_lock(db, 7, "e"):
                        break
                except BusyError:
                    assert time.monotonic() < deadline, "the killed holder's lock stayed"
                    time.sleep(0.1)
        finally:
            db.close()
    finally:
        holder.kill()
        holder.wait(timeout=30)


OPENER = """
import sys
from c8league.storage import open_database
open_database(sys.argv[1]).close()
"""


def test_processes_opening_a_new_database_at_once_create_it_once(pg_url: str) -> None:
    procs = [
        subprocess.Popen([sys.executable, "-c", OPENER, pg_url], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    errors = [p.communicate(timeout=120)[1].decode() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors
    assert query(pg_url, "SELECT value FROM meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]


def test_plain_postgresql_urls_use_psycopg() -> None:
    assert postgres.engine_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert postgres.engine_url("postgres://u@h:5433/db") == "postgresql+psycopg://u@h:5433/db"
    assert postgres.engine_url("postgresql+psycopg2://u@h/db") == "postgresql+psycopg2://u@h/db"
    assert postgres.engine_url("sqlite:///x.db") == "sqlite:///x.db"
    assert postgres.is_postgres("postgresql+psycopg2://u@h/db")
    assert not postgres.is_postgres("sqlite:///x.db")


def test_missing_driver_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(StorageError, match=r"pip install 'c8league\[postgres\]'"):
        open_database("postgresql://u:secret@127.0.0.1:1/db")


def test_unreachable_server_is_one_line_without_the_password() -> None:
    with pytest.raises(StorageError) as caught:
        open_database("postgresql://someone:secret@127.0.0.1:1/db")
    message = str(caught.value)
    assert "cannot open database postgresql://someone:***@127.0.0.1:1/db" in message
    assert "secret" not in message and "\n" not in message


def test_a_club_league_reports_the_same_on_postgresql_as_on_sqlite(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The whole JSON report of a club evening, figure by figure: averages are computed
    in Python, one way, not by each database's SQL (``AVG`` gave 0.5833333333333333 on
    SQLite where PostgreSQL gave 0.5833333333333334)."""
    from test_season_record import Club

    reports = []
    for url in (f"sqlite:///{tmp_path / 'club.db'}", pg_url):
        c = Club(url, capsys)
        c.ok("league", "import", str(ROOT / "leagues" / "club-swiss.toml"))
        for _ in range(4):
            c.play_round("thursday")
        data = c.json("report", "club", "--format", "json")
        data["footer"].pop("generated_at")
        # (when the last result was entered: a time of this run, in one form on both)
        finished = data["footer"]["last_match"].pop("finished_at")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00", finished)
        reports.append(data)
    sqlite_report, pg_report = reports
    assert pg_report == sqlite_report
    scaled = [row["average_place_normalised"] for row in sqlite_report["leaderboard"]]
    assert any(0 < value < 1 for value in scaled)


@pytest.fixture
def pg_icu_url(pg_server: str) -> Iterator[str]:
    """A fresh PostgreSQL database that sorts text by the en-US collation (ICU), as many
    servers do: ``Zoe`` after ``abe``, where SQLite puts it before."""
    from dbs import drop_pg_database, engine
    from sqlalchemy import make_url, text

    name = f"c8test_icu_{time.monotonic_ns()}"
    admin = engine(pg_server).execution_options(isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(
                text(
                    f'CREATE DATABASE "{name}" LOCALE_PROVIDER icu '
                    "ICU_LOCALE 'en-US' LOCALE 'C.UTF-8' TEMPLATE template0"
                )
            )
    except Exception as exc:  # a server without ICU
        pytest.skip(f"no ICU collation on the server: {str(exc).splitlines()[0]}")
    finally:
        admin.dispose()
    url = make_url(pg_server).set(database=name).render_as_string(hide_password=False)
    yield url
    drop_pg_database(pg_server, url)


def test_listings_are_in_the_same_order_whatever_the_servers_collation(
    pg_icu_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = []
    for url in (f"sqlite:///{tmp_path / 'names.db'}", pg_icu_url):
        assert main(["--db", url, "init"]) == 0
        for name in ("abe", "Zoe", "Ünal", "_x"):
            assert main(["--db", url, "players", "add", name]) == 0
        capsys.readouterr()
        assert main(["--db", url, "players", "list", "--json"]) == 0
        seen.append([player["name"] for player in json.loads(capsys.readouterr().out)])
    assert seen[1] == seen[0] == ["Zoe", "_x", "abe", "Ünal"]
