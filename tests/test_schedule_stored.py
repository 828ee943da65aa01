"""A round-robin's schedule is computed once, when its first round is paired, and stored:
status, reports and later pairings read it and never compute it again; it is the
schedule the event always had; discarding the first round forgets it, and an event
paired before schedules were stored gets its own at its next pairing."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from dbs import BOT_ENTRANTS

from c8league.cli.main import main
from c8league.events import pairing
from c8league.players import registry
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.schedule import round_robin
from c8league.storage import open_database
from c8league.storage import rounds as stored_rounds
from c8league.storage.leagues import get_event

LEAGUE = f"""
name = "sched"
table_size = 3
[rules]
preset = "pagat"
{BOT_ENTRANTS}
[[entrants]]
name = "G3"
bot = "greedy"
[[events]]
name = "ev"
format = "round_robin"
cycles = 2
seed = 7
"""


@pytest.fixture(autouse=True)
def builtin_players() -> Iterator[None]:
    with registry.only_registered({"greedy": GreedyPlayer, "random": RandomPlayer}):
        yield


@pytest.fixture
def db(tmp_path: Path) -> Path:
    (tmp_path / "sched.toml").write_text(LEAGUE)
    path = tmp_path / "sched.db"
    assert main(["--db", str(path), "league", "import", str(tmp_path / "sched.toml")]) == 0
    return path


class Counted:
    """``round_robin`` that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return round_robin(*args, **kwargs)


def rows(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def paired_rounds(db: Path) -> list[tuple[list[list[int]], list[int]]]:
    database = open_database(str(db))
    with database.session() as session:
        _, ev = get_event(session, "ev", None)
        assert ev.id is not None
        return stored_rounds.stored_rounds(session, ev.id)


def test_the_schedule_is_computed_once_and_is_the_one_the_event_always_had(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = Counted()
    monkeypatch.setattr(pairing, "round_robin", counted)
    assert main(["--db", str(db), "event", "status", "ev"]) == 0
    assert counted.calls == 0  # the number of rounds is counted, not computed
    assert main(["--db", str(db), "event", "run", "ev", "--rounds", "1", "--workers", "1"]) == 0
    assert counted.calls == 1
    for command in (["event", "status", "ev"], ["event", "standings", "ev"], ["report"]):
        assert main(["--db", str(db), *command]) == 0
    assert main(["--db", str(db), "event", "run", "ev", "--workers", "1"]) == 0
    assert main(["--db", str(db), "event", "status", "ev"]) == 0
    assert counted.calls == 1
    ids = [i for (i,) in rows(db, "SELECT id FROM entrant ORDER BY id")]
    expected = round_robin(ids, 3, cycles=2, seed=7)
    assert paired_rounds(db) == [([list(t) for t in r.tables], list(r.byes)) for r in expected]
    assert rows(db, "SELECT count(*) FROM schedule_round") == [(len(expected),)]


def test_discarding_the_first_round_forgets_the_schedule(tmp_path: Path) -> None:
    league = LEAGUE.replace("[[events]]", '[[events]]\nplayed_by = "people"')
    (tmp_path / "club.toml").write_text(league)
    db = tmp_path / "club.db"
    assert main(["--db", str(db), "league", "import", str(tmp_path / "club.toml")]) == 0
    assert main(["--db", str(db), "event", "pair", "ev"]) == 0
    assert rows(db, "SELECT count(*) FROM schedule_round")[0][0] > 0
    assert main(["--db", str(db), "players", "withdraw", "G3", "--league", "sched"]) == 0
    assert main(["--db", str(db), "event", "unpair", "ev"]) == 0
    assert rows(db, "SELECT count(*) FROM schedule_round") == [(0,)]
    assert main(["--db", str(db), "event", "pair", "ev"]) == 0
    g3 = rows(db, "SELECT id FROM entrant WHERE name = 'G3'")[0][0]
    stored = rows(db, "SELECT tables FROM schedule_round")
    scheduled = {e for (text,) in stored for table in json.loads(text) for e in table}
    assert g3 not in scheduled  # the schedule of the entrants paired now


def test_an_event_paired_before_schedules_were_stored_gets_its_own(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["--db", str(db), "event", "run", "ev", "--rounds", "2", "--workers", "1"]) == 0
    whole = tmp_path / "whole.db"
    con = sqlite3.connect(db)
    copy = sqlite3.connect(whole)
    con.backup(copy)
    copy.close()
    con.execute("DELETE FROM schedule_round")  # as an older version left it
    con.commit()
    con.close()
    counted = Counted()
    monkeypatch.setattr(pairing, "round_robin", counted)
    for path in (db, whole):
        assert main(["--db", str(path), "event", "run", "ev", "--workers", "1"]) == 0
    assert counted.calls == 1
    assert paired_rounds(db) == paired_rounds(whole)
    assert rows(db, "SELECT * FROM schedule_round") == rows(whole, "SELECT * FROM schedule_round")


def test_a_merge_gives_the_schedule_places_to_the_player_kept(tmp_path: Path) -> None:
    people = "".join(f'[[entrants]]\nname = "P{i}"\n' for i in range(4))
    league = (
        f'name = "club"\ntable_size = 2\n[rules]\npreset = "pagat"\n{people}'
        '[[events]]\nname = "ev"\nformat = "round_robin"\nseed = 3\n'
    )
    (tmp_path / "club.toml").write_text(league)
    db = tmp_path / "club.db"
    assert main(["--db", str(db), "league", "import", str(tmp_path / "club.toml")]) == 0
    assert main(["--db", str(db), "event", "pair", "ev"]) == 0
    assert main(["--db", str(db), "players", "add", "Paula"]) == 0
    old = rows(db, "SELECT id FROM entrant WHERE name = 'P3'")[0][0]
    new = rows(db, "SELECT id FROM entrant WHERE name = 'Paula'")[0][0]
    before = rows(db, "SELECT tables, byes FROM schedule_round ORDER BY number")
    assert main(["--db", str(db), "players", "merge", "Paula", "P3"]) == 0
    after = rows(db, "SELECT tables, byes FROM schedule_round ORDER BY number")
    swap = {old: new}
    assert [
        (
            [[swap.get(e, e) for e in table] for table in json.loads(tables)],
            [swap.get(e, e) for e in json.loads(byes)],
        )
        for tables, byes in before
    ] == [(json.loads(tables), json.loads(byes)) for tables, byes in after]
    assert main(["--db", str(db), "event", "status", "ev"]) == 0


LONG = "".join(f'[[entrants]]\nname = "P{i}"\n' for i in range(8))
"""Eight players at tables of 4 for 20 cycles: a schedule long enough for the second
version of the search to spend fewer steps than the first."""


def long_event(tmp_path: Path) -> Path:
    league = (
        f'name = "long"\ntable_size = 4\n[rules]\npreset = "pagat"\n{LONG}'
        '[[events]]\nname = "ev"\nformat = "round_robin"\ncycles = 20\nseed = 5\n'
        'played_by = "people"\n'
    )
    (tmp_path / "long.toml").write_text(league)
    db = tmp_path / "long.db"
    assert main(["--db", str(db), "league", "import", str(tmp_path / "long.toml")]) == 0
    return db


def stored_schedule(db: Path) -> list[tuple[list[list[int]], list[int]]]:
    return [
        (json.loads(tables), json.loads(byes))
        for tables, byes in rows(db, "SELECT tables, byes FROM schedule_round ORDER BY number")
    ]


def as_stored(schedule: list[Any]) -> list[tuple[list[list[int]], list[int]]]:
    return [([list(t) for t in r.tables], list(r.byes)) for r in schedule]


@pytest.mark.parametrize(
    "search",
    [pytest.param(1, marks=pytest.mark.changes_record), 2],  # 1: the event set back by SQL
)
def test_an_event_is_scheduled_by_the_search_it_was_created_with(
    tmp_path: Path, search: int
) -> None:
    db = long_event(tmp_path)
    assert rows(db, "SELECT schedule FROM event") == [(2,)]  # a new event: the second
    if search == 1:  # as the schema's upgrade leaves an event created before it
        con = sqlite3.connect(db)
        con.execute("UPDATE event SET schedule = 1")
        con.commit()
        con.close()
    assert main(["--db", str(db), "event", "pair", "ev"]) == 0
    ids = [i for (i,) in rows(db, "SELECT id FROM entrant ORDER BY id")]
    schedules = {s: as_stored(round_robin(ids, 4, cycles=20, seed=5, search=s)) for s in (1, 2)}
    assert schedules[1] != schedules[2]
    assert stored_schedule(db) == schedules[search]


def test_the_upgrade_keeps_the_first_search_for_the_events_there_are(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    con = sqlite3.connect(path)
    con.executescript((Path(__file__).parent / "fixtures" / "schema_v4.sql").read_text())
    con.commit()
    con.close()
    open_database(str(path)).close()
    assert rows(path, "SELECT name, schedule FROM event") == [("thursday", 1)]
