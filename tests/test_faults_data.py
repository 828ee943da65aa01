"""Stored results survive signals, half-made databases and concurrent writers.

Each test reproduces a fault of the kind a kill-and-fuzz campaign finds: a stored
match is whole or absent whatever signal arrives wherever it arrives, a database
whose creation was killed opens, and writers side by side all complete. The tests of
processes use real signals and real subprocesses.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sysconfig
import threading
import time
from pathlib import Path

import pytest
from clis import cli as run
from dbs import event_state, matches_done, player_names
from dbs import results as stored_results

from c8league.cli.main import main


def entrants(pairs: int) -> str:
    """``pairs`` greedy and as many random bots, as league-file entrants."""
    return "".join(
        f'[[entrants]]\nname = "{kind[0].upper()}{i}"\nbot = "{kind}"\n'
        for i in range(1, pairs + 1)
        for kind in ("greedy", "random")
    )


LEAGUE = """
name = "{name}"
table_size = 4

[rules]
preset = "{preset}"

{entrants}

[[events]]
name = "{event}"
format = "round_robin"
cycles = {cycles}
seed = 5
"""


def write_league(
    tmp_path: Path,
    name: str = "faults",
    event: str = "ev",
    cycles: int = 6,
    preset: str = "basic",
    pairs: int = 4,
) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        LEAGUE.format(
            name=name, event=event, cycles=cycles, preset=preset, entrants=entrants(pairs)
        )
    )
    return path


def cli(db: Path, *args: str) -> list[str]:
    """The ``c8league`` command as a user types it (the installed console script)."""
    script = Path(sysconfig.get_path("scripts")) / "c8league"
    return [str(script), "--db", str(db), *args]


def count(db: Path, sql: str) -> int:
    con = sqlite3.connect(db, timeout=30)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()


def damaged_matches(db: Path) -> list[str]:
    """Every way a stored match can be less than whole, as readable lines."""
    con = sqlite3.connect(db, timeout=30)
    problems: list[str] = []
    try:
        for (match_id,) in con.execute(
            "SELECT m.id FROM match m WHERE m.status = 'done' AND (m.sequence IS NULL "
            "OR m.hands IS NULL "
            "OR m.hands != (SELECT count(*) FROM hand h WHERE h.match_id = m.id))"
        ):
            problems.append(f"match {match_id}: hands or sequence missing")
        for (match_id,) in con.execute(
            "SELECT DISTINCT s.match_id FROM match_seat s JOIN match m ON m.id = s.match_id "
            "WHERE m.status = 'done' AND (s.place IS NULL OR s.score IS NULL)"
        ):
            problems.append(f"match {match_id}: a seat without place or score")
        for (match_id,) in con.execute(
            "SELECT m.id FROM match m WHERE m.status = 'done' AND "
            "(SELECT count(*) FROM rating_history r WHERE r.match_id = m.id) != "
            "(SELECT count(*) FROM match_seat s WHERE s.match_id = m.id)"
        ):
            problems.append(f"match {match_id}: rating update missing")
        for (match_id,) in con.execute(
            "SELECT m.id FROM match m WHERE m.status = 'pending' AND (m.sequence IS NOT NULL OR "
            "EXISTS (SELECT 1 FROM hand h WHERE h.match_id = m.id) OR "
            "EXISTS (SELECT 1 FROM rating_history r WHERE r.match_id = m.id))"
        ):
            problems.append(f"match {match_id}: pending with stored parts")
        rated = con.execute("SELECT coalesce(sum(matches), 0) FROM rating").fetchone()[0]
        seats = con.execute(
            "SELECT count(*) FROM match_seat s JOIN match m ON m.id = s.match_id "
            "WHERE m.status = 'done'"
        ).fetchone()[0]
        if rated != seats:
            problems.append(f"ratings count {rated} seat results, the matches hold {seats}")
    finally:
        con.close()
    return problems


@pytest.mark.slow
def test_interrupts_and_kills_at_random_moments_lose_nothing_and_damage_nothing(
    tmp_path: Path,
) -> None:
    """Ctrl-C (SIGINT to the run's process group, as a terminal sends it), ``kill -9`` of
    the main process and ``kill -9`` of the whole group, at random moments, a dozen
    times and more: every stored match stays whole, an interrupted run says so in one
    line, and resuming gives exactly the results of an uninterrupted run."""
    league = write_league(tmp_path, cycles=100, preset="pagat", pairs=8)
    whole, broken = tmp_path / "whole.db", tmp_path / "broken.db"
    for db in (whole, broken):
        assert run(db, "league", "import", str(league)) == 0
    started = time.monotonic()
    assert run(whole, "event", "run", "ev", "--workers", "2") == 0
    # Stops are spread over a fifteenth of an uninterrupted run, so that a fast machine
    # still meets every kind of stop before the event ends.
    reach = max(0.5, (time.monotonic() - started) / 15)
    total = event_state(str(whole)).matches_total
    rng = random.Random(15)
    stops = {"SIGINT": 0, "kill main": 0, "kill group": 0}
    wanted = {"SIGINT": 10, "kill main": 2, "kill group": 2}
    for attempt in range(80):
        if all(stops[how] >= wanted[how] for how in stops):
            break
        if matches_done(str(broken)) >= total:
            # Finished before every kind of stop was tried: start the event again.
            for leftover in (
                broken,
                *(Path(f"{broken}{end}") for end in ("-wal", "-shm", "-journal")),
            ):
                leftover.unlink(missing_ok=True)
            assert run(broken, "league", "import", str(league)) == 0
        proc = subprocess.Popen(
            cli(broken, "event", "resume", "ev", "--workers", "2"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        time.sleep(rng.uniform(0.3, 0.3 + reach))
        how = "SIGINT" if attempt % 3 else ("kill main", "kill group")[attempt // 3 % 2]
        if proc.poll() is None:
            if how == "SIGINT":
                os.killpg(proc.pid, signal.SIGINT)
            elif how == "kill main":
                proc.kill()
            else:
                os.killpg(proc.pid, signal.SIGKILL)
            stops[how] += 1
        _, stderr = proc.communicate(timeout=60)
        assert damaged_matches(broken) == []
        if how == "SIGINT":
            assert "Traceback" not in stderr, stderr
            assert proc.returncode in (0, 130), stderr
            if proc.returncode == 130:
                lines = [line for line in stderr.splitlines() if line.strip()]
                assert lines[-1].startswith("interrupted"), stderr
    assert all(stops[how] >= wanted[how] for how in stops), stops
    assert run(broken, "event", "resume", "ev", "--workers", "2") == 0
    assert damaged_matches(broken) == []
    assert stored_results(f"sqlite:///{broken}") == stored_results(f"sqlite:///{whole}")
    assert run(broken, "ratings", "rebuild", "faults") == 0
    assert stored_results(f"sqlite:///{broken}") == stored_results(f"sqlite:///{whole}")


# -- a new database -----------------------------------------------------------------------


@pytest.mark.slow
def test_init_killed_at_random_moments_leaves_a_database_every_command_opens(
    tmp_path: Path,
) -> None:
    """SIGKILL of ``init`` on a new file, twenty times, at moments spread over the
    creation of the schema: every command then opens the file (and ``init`` finishes
    what was left half-made)."""
    rng = random.Random(2)
    for attempt in range(20):
        db = tmp_path / f"new{attempt}.db"
        proc = subprocess.Popen(
            cli(db, "init"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        while not db.exists() and proc.poll() is None:
            time.sleep(0.001)
        time.sleep(rng.uniform(0.0, 0.04))
        proc.kill()
        proc.wait()
        # Killed before its transaction committed, init made no database (another
        # command says so and makes none); killed after, the database is whole.
        made = db.exists() and count(db, "SELECT count(*) FROM sqlite_master") > 0
        expected = 0 if made else 2
        assert run(db, "league", "list") == expected, f"attempt {attempt}"
        assert run(db, "init") == 0
        assert run(db, "league", "list") == 0, f"attempt {attempt}"
        assert count(db, "SELECT count(*) FROM meta WHERE key = 'schema_version'") == 1


def test_a_half_made_database_is_finished_by_the_next_command(tmp_path: Path) -> None:
    from sqlmodel import SQLModel

    db = tmp_path / "half.db"
    con = sqlite3.connect(db)
    for name in ("entrant", "league"):  # what a kill after two CREATE TABLEs leaves
        table = SQLModel.metadata.tables[name]
        from sqlalchemy.schema import CreateTable

        con.execute(str(CreateTable(table).compile()))
    con.commit()
    con.close()
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    assert count(db, "SELECT count(*) FROM league") == 1


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ("UPDATE meta SET value = 'abc'", "schema version 'abc', not one c8league wrote"),
        ("UPDATE meta SET value = '2.0'", "schema version '2.0', not one c8league wrote"),
        ("UPDATE meta SET value = ''", "schema version '', not one c8league wrote"),
        ("DELETE FROM meta", "no schema version: it is damaged"),
        ("DROP TABLE hand", "lacks the table hand: it is damaged"),
    ],
)
def test_a_damaged_database_gets_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: str, needle: str
) -> None:
    db = tmp_path / "damaged.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    con = sqlite3.connect(db)
    con.execute(change)
    con.commit()
    con.close()
    capsys.readouterr()
    for command in (["league", "list"], ["init"], ["event", "run", "ev"]):
        assert run(db, *command) == 1
        err = capsys.readouterr().err
        assert needle in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err


def test_a_read_only_database_gets_one_line_and_stays_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "ro.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    before = stored_results(f"sqlite:///{db}")
    read_only = f"sqlite:///file:{db}?mode=ro&uri=true"
    capsys.readouterr()
    assert main(["--db", read_only, "league", "list"]) == 0
    capsys.readouterr()
    for command in (["players", "add", "Newcomer"], ["event", "run", "ev", "--workers", "1"]):
        assert main(["--db", read_only, *command]) == 1
        err = capsys.readouterr().err
        assert "is read-only" in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err
    assert stored_results(f"sqlite:///{db}") == before
    assert "Newcomer" not in player_names(str(db))


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite:///:memory:"])
def test_a_database_in_memory_is_refused(
    url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", url, "league", "import", str(write_league(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert "in memory" in err and "name a file" in err


# -- a run that cannot play writes nothing ------------------------------------------------


@pytest.mark.parametrize("seconds", ["inf", "1e308", "nan", "0", "-1", "86401"])
def test_a_bad_match_time_limit_pairs_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    db = tmp_path / "limit.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    capsys.readouterr()
    assert run(db, "event", "run", "ev", "--match-seconds", seconds) == 2
    err = capsys.readouterr().err
    assert "--match-seconds" in err and "Traceback" not in err
    assert event_state(str(db)).rounds_paired == 0


def test_a_bad_match_time_limit_is_refused_by_the_library_too(tmp_path: Path) -> None:
    from c8league.errors import UsageError
    from c8league.events.running import run_event
    from c8league.storage import open_database

    db = tmp_path / "lib.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    with pytest.raises(UsageError, match="`match_seconds` must be") as raised:
        run_event(open_database(str(db)), "ev", match_seconds=float("inf"))
    assert raised.value.params == ("match_seconds",)
    assert event_state(str(db)).rounds_paired == 0


@pytest.mark.changes_record  # the plugin's name changed by SQL, as an uninstall leaves it
def test_a_missing_plugin_pairs_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "plugin.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    con = sqlite3.connect(db)
    con.execute("UPDATE entrant SET plugin = 'uninstalled-bot' WHERE name = 'G2'")
    con.commit()
    con.close()
    capsys.readouterr()
    assert run(db, "event", "run", "ev", "--workers", "1") == 2
    err = capsys.readouterr().err
    assert "G2" in err and "uninstalled-bot" in err and "Traceback" not in err
    assert event_state(str(db)).rounds_paired == 0


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_pairs_nothing(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    db = tmp_path / "dask.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    done = subprocess.run(
        cli(db, "event", "run", "ev", "--executor", "dask", "--address", "tcp://127.0.0.1:9"),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "cannot reach the Dask scheduler" in done.stderr and "Traceback" not in done.stderr
    assert event_state(str(db)).rounds_paired == 0


# -- writers side by side -----------------------------------------------------------------


def hold_write_lock(db: Path, seconds: float) -> threading.Thread:
    """Hold ``db``'s write lock from another connection for ``seconds``."""
    con = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
    con.execute("BEGIN IMMEDIATE")

    def release() -> None:
        time.sleep(seconds)
        con.execute("COMMIT")
        con.close()

    thread = threading.Thread(target=release)
    thread.start()
    return thread


def test_a_write_waits_for_another_writer_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "wait.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    capsys.readouterr()
    holder = hold_write_lock(db, 2.0)
    assert run(db, "players", "add", "Patience") == 0
    holder.join()
    err = capsys.readouterr().err
    assert "waiting for the database" in err and "another c8league process" in err
    assert "Patience" in player_names(str(db))


def test_a_write_that_waits_too_long_gets_one_line_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "busy.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    capsys.readouterr()
    monkeypatch.setenv("C8LEAGUE_LOCK_WAIT", "0.5")
    holder = hold_write_lock(db, 3.0)
    try:
        assert run(db, "players", "add", "Hasty") == 1
    finally:
        holder.join()
    err = capsys.readouterr().err
    assert "stayed busy" in err and "nothing was changed" in err and "Traceback" not in err
    assert "Hasty" not in player_names(str(db))


CLUB = """
name = "club"
table_size = 2

[[entrants]]
name = "Ada"
[[entrants]]
name = "Ben"

[[events]]
name = "night"
format = "swiss"
rounds = 1
seed = 3
played_by = "people"
"""


def synthetic_results(db: Path, league: str, matches: int) -> None:
    """Store ``matches`` finished 4-player matches in ``league``'s event directly, as a
    large league's history (no ratings: a rebuild computes them)."""
    con = sqlite3.connect(db)
    league_id, event_id = con.execute(
        "SELECT l.id, e.id FROM league l JOIN event e ON e.league_id = l.id WHERE l.name = ?",
        (league,),
    ).fetchone()
    entrants = [
        row[0]
        for row in con.execute(
            "SELECT entrant_id FROM league_entrant WHERE league_id = ?", (league_id,)
        )
    ]
    con.execute(
        "INSERT INTO round (event_id, number, byes, published, created_at) "
        "VALUES (?, 1, '[]', 1, '2026-01-01 00:00:00')",
        (event_id,),
    )
    round_id = con.execute("SELECT max(id) FROM round").fetchone()[0]
    rng = random.Random(7)
    first = (con.execute("SELECT max(id) FROM match").fetchone()[0] or 0) + 1
    con.executemany(
        "INSERT INTO match (id, event_id, round_id, table_no, deal, rules, seed, status, "
        "ended, hands, decisions, sequence, entered_by, finished_at) VALUES "
        "(?, ?, ?, ?, 0, '{}', ?, 'done', 'target', 0, 0, ?, 'engine', '2026-01-01 00:00:00')",
        [(first + i, event_id, round_id, i + 1, i, i + 1) for i in range(matches)],
    )
    seats = []
    for i in range(matches):
        table = rng.sample(entrants, 4)
        places = [1, 2, 3, 4]
        rng.shuffle(places)
        seats += [
            (first + i, s, e, p, 10 * (4 - p))
            for s, (e, p) in enumerate(zip(table, places, strict=True))
        ]
    con.executemany(
        "INSERT INTO match_seat (match_id, seat, entrant_id, place, score) VALUES (?, ?, ?, ?, ?)",
        seats,
    )
    con.commit()
    con.close()


@pytest.mark.slow
@pytest.mark.changes_record  # a long history written by SQL, not played
def test_a_rebuild_a_run_and_a_hand_entry_side_by_side_all_complete(tmp_path: Path) -> None:
    """A long ratings rebuild of one league, an event run of another and a result typed
    in for a third, at once: none fails, and each stores what it would alone."""
    db = tmp_path / "shared.db"
    big = write_league(tmp_path, name="big", event="history", pairs=8)
    bots = write_league(tmp_path, name="bots", cycles=20)
    club = tmp_path / "club.toml"
    club.write_text(CLUB)
    for league in (big, bots, club):
        assert run(db, "league", "import", str(league)) == 0
    synthetic_results(db, "big", 20_000)
    assert run(db, "event", "pair", "night") == 0
    assert run(db, "event", "publish", "night") == 0
    env = {**os.environ, "C8LEAGUE_LOCK_WAIT": "10"}
    rebuild = subprocess.Popen(
        cli(db, "ratings", "rebuild", "big"), stderr=subprocess.PIPE, text=True, env=env
    )
    time.sleep(1.5)  # the rebuild is replaying the results
    runner = subprocess.Popen(
        cli(db, "event", "run", "ev", "--league", "bots", "--workers", "2"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    entry = subprocess.run(
        cli(db, "result", "add", "night", "--table", "1", "--scores", "Ada=100,Ben=20"),
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    # The entry did not wait for the rebuild: the rebuild holds the write lock only
    # while it writes, not while it replays the results.
    assert rebuild.poll() is None, "the rebuild ended before the entry could be stored"
    for name, proc in (("rebuild", rebuild), ("run", runner)):
        proc.wait(timeout=300)
        assert proc.returncode == 0, f"{name}: {proc.stderr.read() if proc.stderr else ''}"
    assert entry.returncode == 0, entry.stderr
    assert (
        count(
            db,
            "SELECT count(*) FROM rating_history r JOIN league l ON l.id = r.league_id "
            "WHERE l.name = 'big'",
        )
        == 4 * 20_000
    )
    assert (
        count(
            db,
            "SELECT count(*) FROM match m JOIN event e ON e.id = m.event_id "
            "WHERE e.name = 'ev' AND m.status != 'done'",
        )
        == 0
    )
    assert damaged_matches(db) == []
