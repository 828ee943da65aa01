"""Events end to end: import, pairing, running in parallel, resuming after SIGKILL,
duplicate deals, forfeits, and bad input leaving the database as it was."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from clis import cli as run
from dbs import BOT_ENTRANTS, games, matches_done_meanwhile
from dbs import results as stored_results
from shown import assert_shown

from c8league.engine import Move, Observation, Rules
from c8league.events import running
from c8league.events.status import EventStatus, event_status
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.players.greedy import GreedyPlayer
from c8league.players.random_player import RandomPlayer
from c8league.reports.games import Game
from c8league.runner.loop import MatchOutcome, play_match
from c8league.runner.tasks import MatchTask
from c8league.storage.database import open_database

LEAGUE = """
name = "test-league"
table_size = {table_size}

[rules]
preset = "{preset}"

{entrants}{extra}

[[events]]
name = "ev"
format = "{format}"
cycles = {cycles}
rounds = {rounds}
seed = 11
duplicate = {duplicate}
"""


class Crasher(BasePlayer):
    """Raises on its third decision."""

    def __init__(self) -> None:
        self.count = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.count += 1
        if self.count == 3:
            raise RuntimeError("boom")
        return legal[0]


class Stuck(BasePlayer):
    """Loops for ever on its second decision, swallowing every exception it can."""

    def __init__(self) -> None:
        self.count = 0

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        self.count += 1
        while self.count == 2:
            try:
                time.sleep(0.01)
            except Exception:
                continue
        return legal[0]


@pytest.fixture(autouse=True)
def builtin_players() -> Iterator[None]:
    with registry.only_registered(
        {"greedy": GreedyPlayer, "random": RandomPlayer, "crasher": Crasher, "stuck": Stuck}
    ):
        yield


def write_league(tmp_path: Path, **values: object) -> Path:
    params: dict[str, object] = {
        "table_size": 2,
        "preset": "pagat",
        "format": "round_robin",
        "cycles": 1,
        "rounds": 3,
        "duplicate": "false",
        "extra": "",
    }
    params.update(values)
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE.format(entrants=BOT_ENTRANTS, **params))
    return path


def status(db: Path) -> EventStatus:
    """The event ``ev`` as ``event status`` reads it."""
    database = open_database(str(db), create=False)
    try:
        return event_status(database, "ev")
    finally:
        database.close()


def results(db: Path) -> list[tuple[object, ...]]:
    """Everything a run produces, in a comparable form (no times)."""
    return stored_results(f"sqlite:///{db}")


def digest(db: Path) -> str:
    return hashlib.sha256(repr(results(db)).encode()).hexdigest()


def test_round_robin_two_player_runs_to_completion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "a.db"
    league = write_league(tmp_path)
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "run", "ev", "--workers", "1") == 0
    captured = capsys.readouterr()
    assert "complete" in captured.err
    assert_shown(captured.out, "event-run-round-robin")
    assert run(db, "event", "standings", "ev") == 0
    assert capsys.readouterr().out == captured.out
    assert run(db, "event", "status", "ev") == 0
    assert_shown(capsys.readouterr().out, "event-status-round-robin")
    # 5 entrants: 5 rounds of 2 tables (one bye each round); every pair once.
    state = status(db)
    assert (state.rounds_paired, state.matches_done, state.matches_total) == (5, 10, 10)
    assert len({frozenset(game.players) for game in games(str(db))}) == 10
    assert run(db, "event", "status", "ev", "--json") == 0
    assert '"complete": true' in capsys.readouterr().out


def test_workers_one_and_two_give_identical_results(tmp_path: Path) -> None:
    league = write_league(tmp_path, table_size=3, cycles=2)
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    for db, workers in ((one, "1"), (two, "2")):
        assert run(db, "league", "import", str(league)) == 0
        assert run(db, "event", "run", "ev", "--workers", workers) == 0
    assert results(one) == results(two)
    assert len(results(one)) > 50


@pytest.mark.parametrize("workers", [1, 2])
def test_rounds_paired_while_the_first_are_played_store_what_pairing_all_first_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """A round-robin's first rounds are paired, and the rest while their matches are
    played: the same matches, results and ratings as pairing every round first; the
    progress shows the event's whole count from the start."""
    league = write_league(tmp_path, table_size=3, cycles=6)
    whole, split = tmp_path / "whole.db", tmp_path / "split.db"
    for db in (whole, split):
        assert run(db, "league", "import", str(league)) == 0
    monkeypatch.setattr(running, "FIRST_MATCHES", 10**9)
    assert run(whole, "event", "run", "ev", "--workers", str(workers)) == 0

    monkeypatch.setattr(running, "FIRST_MATCHES", 4)
    stored_then: list[int] = []
    pair_later = running._Later.__call__

    def spied(later: running._Later) -> list[MatchTask]:
        stored_then.append(later.played.summary.played)
        return pair_later(later)

    monkeypatch.setattr(running._Later, "__call__", spied)
    totals: set[int] = set()
    database = open_database(str(split))
    try:
        summary = running.run_event(
            database, "ev", workers=workers, progress=lambda done, total: totals.add(total)
        )
    finally:
        database.close()
    assert len(stored_then) == 1
    assert summary.rounds_paired == 12 and summary.played == 24
    assert totals == {24}
    assert results(split) == results(whole)


def test_a_run_stopped_before_its_later_rounds_are_paired_resumes_to_the_same_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C while the first rounds are played and the rest not yet paired: the
    first rounds stay paired, and a resume pairs the rest and stores what one whole run
    does."""
    league = write_league(tmp_path, table_size=3, cycles=6)
    whole, stopped = tmp_path / "whole.db", tmp_path / "stopped.db"
    for db in (whole, stopped):
        assert run(db, "league", "import", str(league)) == 0
    assert run(whole, "event", "run", "ev", "--workers", "1") == 0
    monkeypatch.setattr(running, "FIRST_MATCHES", 4)

    def interrupt(later: running._Later) -> list[MatchTask]:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(running._Later, "__call__", interrupt)
        assert run(stopped, "event", "run", "ev", "--workers", "1") == 130
    state = status(stopped)
    assert (state.rounds_paired, state.matches_done) == (2, 0)
    assert run(stopped, "event", "resume", "ev", "--workers", "1") == 0
    assert results(stopped) == results(whole)


def test_swiss_event_and_standings_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    league = write_league(tmp_path, format="swiss", rounds=3, table_size=2)
    db = tmp_path / "s.db"
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "run", "ev", "--workers", "1", "--rounds", "1") == 0
    assert status(db).rounds_paired == 1
    assert run(db, "event", "resume", "ev", "--workers", "1") == 0
    assert status(db).rounds_paired == 3
    capsys.readouterr()
    assert run(db, "event", "standings", "ev", "--json") == 0
    import json

    rows = json.loads(capsys.readouterr().out)
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert sum(r["byes"] for r in rows) == 3  # five entrants: one bye a round
    assert max(r["byes"] for r in rows) == 1  # nobody twice while others have none


def test_duplicate_deals_rotate_seats(tmp_path: Path) -> None:
    league = write_league(tmp_path, table_size=3, duplicate="true")
    db = tmp_path / "d.db"
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "run", "ev", "--workers", "1", "--rounds", "1") == 0
    tables: dict[str, dict[int, Game]] = {}
    for game in games(str(db)):
        # "test-league/ev, round 1, table 1" is its first deal; then ", deal 1", ", deal 2"
        table, _, deal = game.title.partition(", deal ")
        tables.setdefault(table, {})[int(deal or 0)] = game
    assert len(tables) == 2
    for deals in tables.values():
        assert len({game.seed for game in deals.values()}) == 1  # the same cards …
        assert sorted(deals) in ([0, 1], [0, 1, 2])  # … once per seat rotation
        first = deals[0].players
        for deal, game in deals.items():
            assert game.players == first[deal:] + first[:deal]


def test_forfeit_is_recorded_and_event_goes_on(tmp_path: Path) -> None:
    extra = '[[entrants]]\nname = "Boom"\nbot = "crasher"\n'
    league = write_league(tmp_path, extra=extra)
    db = tmp_path / "f.db"
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "run", "ev", "--workers", "1", "--max-forfeits", "0") == 0
    rows = [
        (g.forfeit.reason, g.forfeit.move_number, g.placements[g.forfeit.seat])
        for g in games(str(db))
        if g.forfeit is not None
    ]
    assert len(rows) == 5  # every match of the crasher
    assert all(r == ("exception", 3, 2) for r in rows)
    assert status(db).complete


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_stuck_bot_forfeits_at_the_match_time_limit(tmp_path: Path, workers: str) -> None:
    extra = '[[entrants]]\nname = "Stuck"\nbot = "stuck"\n'
    league = write_league(tmp_path, extra=extra)
    db = tmp_path / "s.db"
    assert run(db, "league", "import", str(league)) == 0
    args = (
        "event",
        "run",
        "ev",
        "--workers",
        workers,
        "--match-seconds",
        "0.3",
        "--max-forfeits",
        "0",
    )
    assert run(db, *args) == 0
    rows = [
        (g.forfeit.reason, g.forfeit.move_number, g.forfeit.detail, g.players[g.forfeit.seat])
        for g in games(str(db))
        if g.forfeit is not None
    ]
    assert len(rows) == 5  # every match of the stuck bot, and no other
    for reason, move, detail, name in rows:
        assert (reason, move, name) == ("timeout", 2, "Stuck")
        assert "limit of 0.3 s" in detail
    assert status(db).complete


def test_the_match_limit_stops_a_stuck_bot_in_any_thread() -> None:
    """As on a Dask worker, where matches run in threads."""
    rules = Rules.from_options("pagat")
    outcomes: list[MatchOutcome] = []

    def play() -> None:
        outcomes.append(play_match(rules, [GreedyPlayer(), Stuck()], seed=3, match_seconds=0.3))
        # Nothing is left set to go off in this thread after its match: a timer that
        # fired late would interrupt the sleep or the next match, and it would be lost.
        time.sleep(0.6)
        outcomes.append(play_match(rules, [GreedyPlayer(), RandomPlayer()], seed=5))

    worker = threading.Thread(target=play)
    worker.start()
    worker.join(timeout=30)
    assert not worker.is_alive()
    stuck, after = outcomes
    assert stuck.forfeit is not None
    assert (stuck.forfeit.seat, stuck.forfeit.reason) == (1, "timeout")
    assert stuck.result.placements == (1, 2)
    assert after.forfeit is None
    assert after == play_match(rules, [GreedyPlayer(), RandomPlayer()], seed=5)


def test_a_match_within_its_limit_is_untouched() -> None:
    rules = Rules.from_options("pagat")
    limited = play_match(rules, [GreedyPlayer(), RandomPlayer()], seed=5, match_seconds=30)
    free = play_match(rules, [GreedyPlayer(), RandomPlayer()], seed=5)
    assert limited.forfeit is None and limited.result == free.result


def test_import_is_idempotent_and_rules_are_locked_after_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    league = write_league(tmp_path)
    db = tmp_path / "i.db"
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "league", "import", str(league)) == 0
    assert "up to date" in capsys.readouterr().err
    assert run(db, "event", "run", "ev", "--workers", "1", "--rounds", "1") == 0
    capsys.readouterr()
    before = digest(db)
    changed = write_league(tmp_path, preset="basic")
    assert run(db, "league", "import", str(changed)) == 1
    err = capsys.readouterr().err
    assert "has results: its rules cannot change" in err
    assert err.strip().count("\n") == 0
    assert digest(db) == before


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ('[[entrants]]\nname = "X"\nbot = "wizard"\n', "entrants[5] (X): no player plugin named"),
        (
            '[[entrants]]\nname = "X"\nbot = "random"\noptions = { colour = "red" }\n',
            "has no option 'colour'",
        ),
        ('[[entrants]]\nname = "G1"\n', "duplicate entrant name 'G1'"),
    ],
)
def test_bad_league_import_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str, needle: str
) -> None:
    db = tmp_path / "b.db"
    good = write_league(tmp_path)
    assert run(db, "league", "import", str(good)) == 0
    before = digest(db) + repr(sqlite3.connect(db).execute("SELECT * FROM entrant").fetchall())
    bad = write_league(tmp_path, extra=extra)
    assert run(db, "league", "import", str(bad)) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err
    after = digest(db) + repr(sqlite3.connect(db).execute("SELECT * FROM entrant").fetchall())
    assert after == before


def test_players_add_list_remove_retire(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "p.db"
    assert run(db, "players", "add", "Zoe") == 2  # no database yet: nothing is made
    assert "no c8league database at" in capsys.readouterr().err and not db.exists()
    assert run(db, "init") == 0
    assert run(db, "players", "add", "Zoe") == 0
    assert run(db, "players", "add", "Bot9", "--bot", "random", "--option", "seed=3") == 0
    assert capsys.readouterr().err.splitlines()[1:] == [
        "player Zoe (person)",
        "player Bot9 (bot random 0)",
    ]
    assert run(db, "players", "add", "Zoe") == 1
    assert capsys.readouterr().err == "error: a player named 'Zoe' already exists\n"
    assert run(db, "players", "add", "Bad", "--bot", "random", "--option", "seed=x") == 2
    assert capsys.readouterr().err == "error: Bad: player 'random' option 'seed': 'x' is not int\n"
    assert run(db, "players", "list") == 0
    assert_shown(capsys.readouterr().out, "players-list-bot-and-person")
    assert run(db, "players", "list", "--json") == 0
    import json

    names = [r["name"] for r in json.loads(capsys.readouterr().out)]
    assert names == ["Bot9", "Zoe"]
    assert run(db, "players", "remove", "Zoe") == 0
    assert "deleted" in capsys.readouterr().err
    league = write_league(tmp_path)
    assert run(db, "league", "import", str(league)) == 0
    assert run(db, "event", "run", "ev", "--workers", "1", "--rounds", "1") == 0
    assert run(db, "players", "remove", "G1") == 0
    assert "retired" in capsys.readouterr().err
    assert run(db, "players", "remove", "Nobody") == 2


def test_unknown_event_lists_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "u.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    assert run(db, "event", "run", "nope") == 2
    err = capsys.readouterr().err
    assert f"no event named 'nope' in {db.absolute()}; events: test-league/ev" in err


@pytest.mark.slow
def test_sigkill_and_resume_give_the_uninterrupted_results(tmp_path: Path) -> None:
    # 2,800 matches: a run of several seconds, stored in many batches, so that the kill
    # lands after the first batch and well before the last even on a busy machine.
    more = "".join(
        f'[[entrants]]\nname = "{name}"\nbot = "{bot}"\n'
        for name, bot in (("G3", "greedy"), ("R4", "random"), ("R5", "random"))
    )
    league = write_league(tmp_path, cycles=100, preset="pagat", extra=more)
    whole, broken = tmp_path / "whole.db", tmp_path / "broken.db"
    for db in (whole, broken):
        assert run(db, "league", "import", str(league)) == 0
    assert run(whole, "event", "run", "ev", "--workers", "2") == 0
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "c8league",
            "--db",
            str(broken),
            "event",
            "run",
            "ev",
            "--workers",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.time() + 60
    done = 0
    while time.time() < deadline:
        time.sleep(0.05)
        done = matches_done_meanwhile(str(broken))
        if done >= 1:
            break
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    total = status(whole).matches_total
    assert 1 <= done < total, "the run was killed part way"
    assert run(broken, "event", "resume", "ev", "--workers", "2") == 0
    assert results(broken) == results(whole)


def test_balance_report_of_a_round_robin(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    db = tmp_path / "bal.db"
    assert run(db, "league", "import", str(write_league(tmp_path))) == 0
    assert run(db, "event", "run", "ev", "--workers", "1") == 0
    capsys.readouterr()
    assert run(db, "event", "balance", "ev", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"]["min pair meetings"] == data["summary"]["max pair meetings"] == 1
    assert {row["entrant"] for row in data["entrants"]} == {"G1", "G2", "R1", "R2", "R3"}
    assert all(row["byes"] == 1 for row in data["entrants"])
