"""Ladders (``c8league ladder``): a league's bots played step after step; the same seed
gives the same matches on any number of workers and across stops; bots entered,
withdrawn and changed meanwhile are picked up at the next step, a changed bot rated
apart as ``NAME@v2``; the matchmaking seats newcomers first and every bot regularly."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import sys
from pathlib import Path

import pytest
from dbs import results

from c8league.cli.main import main
from c8league.schedule.ladder import Rung, next_step

BOTS = Path(__file__).parent / "bots"

LEAGUE = """\
name = "lad"
table_size = {size}
[rules]
preset = "basic"
[rating]
tau = 0
[[entrants]]
name = "Greedy"
bot = "greedy"
[[entrants]]
name = "Random"
bot = "random"
[[entrants]]
name = "Playable"
bot = "random"
options = {{ playable_first = true }}
[[entrants]]
name = "Greedy II"
bot = "greedy"
"""


def ladder(tmp_path: Path, name: str = "lad.db", size: int = 2) -> str:
    league = tmp_path / "lad.toml"
    league.write_text(LEAGUE.format(size=size))
    url = f"sqlite:///{tmp_path / name}"
    assert main(["--db", url, "league", "import", str(league)]) == 0
    return url


def run(url: str, *args: str) -> int:
    return main(["--db", url, "ladder", "run", "lad", *args])


def test_the_same_seed_gives_the_same_ladder_on_any_workers_and_across_runs(
    tmp_path: Path,
) -> None:
    one, two, parts = (ladder(tmp_path, f"{n}.db") for n in ("one", "two", "parts"))
    assert run(one, "--matches", "48", "--workers", "1", "--seed", "7") == 0
    assert run(two, "--matches", "48", "--workers", "2", "--seed", "7") == 0
    assert run(parts, "--matches", "16", "--workers", "2", "--seed", "7") == 0
    assert run(parts, "--matches", "32", "--workers", "1") == 0
    assert results(one) == results(two) == results(parts)
    assert len({row[0] for row in results(one) if len(row) == 12}) == 48


def test_a_run_stopped_in_a_step_plays_the_rest_of_it_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from c8league.events import ladder as ladder_module

    whole, stopped = ladder(tmp_path, "whole.db"), ladder(tmp_path, "stopped.db")
    assert run(whole, "--matches", "32", "--workers", "1") == 0
    real = ladder_module.play_tasks
    calls = []

    def stop_in_the_second_step(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 2:  # the second step: as Ctrl-C in the middle of its matches
            tasks = kwargs["tasks"]
            assert isinstance(tasks, list)
            kwargs["tasks"] = tasks[:5]
            real(*args, **kwargs)  # type: ignore[arg-type]
            raise KeyboardInterrupt
        real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ladder_module, "play_tasks", stop_in_the_second_step)
    assert run(stopped, "--matches", "32", "--workers", "1") == 130
    monkeypatch.setattr(ladder_module, "play_tasks", real)
    assert run(stopped, "--matches", "11", "--workers", "1") == 0  # the rest of the step
    assert results(stopped) == results(whole)


def test_bots_entered_withdrawn_and_changed_are_picked_up_at_the_next_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ladder(tmp_path)
    folder = tmp_path / "author"
    folder.mkdir()
    folder.chmod(0o755)
    shutil.copy(BOTS / "good.py", folder / "bot.py")
    shutil.copy(BOTS / "botlib.py", folder / "botlib.py")
    assert run(url, "--matches", "16", "--workers", "1") == 0
    assert main(["--db", url, "players", "add", "Author", "--bot", "external", "--league",
                 "lad", "--option", f"command={sys.executable} bot.py",
                 "--option", f"cwd={folder}"]) == 0  # fmt: skip
    assert main(["--db", url, "players", "withdraw", "Random", "--league", "lad"]) == 0
    capsys.readouterr()
    assert run(url, "--matches", "16", "--workers", "1") == 0
    err = capsys.readouterr().err  # (the first step of a run compares with none)
    assert "joined the ladder" not in err and "left the ladder" not in err
    with (folder / "bot.py").open("a") as bot:
        bot.write("# version 2\n")
    assert run(url, "--matches", "16", "--workers", "1") == 0
    err = capsys.readouterr().err
    assert re.search(
        r"Author@v2 joined: a new version of Author \(bot\.py \w{8} → bot\.py \w{8}\), rated apart",
        err,
    ), err
    assert main(["--db", url, "ladder", "show", "lad", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    rows = {row["name"]: row for row in shown["entrants"]}
    assert rows["Random"]["active"] is False and rows["Author"]["active"] is False
    assert rows["Author@v2"]["active"] and rows["Author@v2"]["matches"] >= 1
    assert rows["Author"]["version"] != rows["Author@v2"]["version"]
    assert main(["--db", url, "players", "show", "Author", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["leagues"] == [{"league": "lad", "withdrawn": True}]
    with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
        steps = con.execute(
            "SELECT r.number, group_concat(DISTINCT e.name) FROM match m "
            "JOIN round r ON r.id = m.round_id JOIN match_seat s ON s.match_id = m.id "
            "JOIN entrant e ON e.id = s.entrant_id GROUP BY r.number ORDER BY r.number"
        ).fetchall()
    played = {number: set(names.split(",")) for number, names in steps}
    assert "Author" not in played[1] and "Author" in played[2]
    assert "Random" in played[1] and "Random" not in played[2]
    assert "Author@v2" in played[3] and "Author" not in played[3]


def test_with_same_entrant_a_changed_bot_keeps_its_entrant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ladder(tmp_path)
    folder = tmp_path / "author"
    folder.mkdir()
    folder.chmod(0o755)
    shutil.copy(BOTS / "good.py", folder / "bot.py")
    shutil.copy(BOTS / "botlib.py", folder / "botlib.py")
    assert main(["--db", url, "players", "add", "Author", "--bot", "external", "--league",
                 "lad", "--option", f"command={sys.executable} bot.py",
                 "--option", f"cwd={folder}"]) == 0  # fmt: skip
    assert run(url, "--matches", "16", "--workers", "1", "--same-entrant") == 0
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "# v2\n")
    assert run(url, "--matches", "16", "--workers", "1", "--same-entrant") == 0
    capsys.readouterr()
    assert main(["--db", url, "players", "show", "Author", "--json"]) == 0
    versions = json.loads(capsys.readouterr().out)["versions"]
    assert len(versions) == 2 and all(v["matches"] >= 1 for v in versions)


def test_ladder_show_and_what_a_ladder_is_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ladder(tmp_path)
    assert main(["--db", url, "ladder", "show", "lad"]) == 2
    assert "league 'lad' has no ladder yet: c8league ladder run lad" in capsys.readouterr().err
    assert run(url, "--matches", "16", "--workers", "1", "--until", "sigma<") == 2
    assert "`--until` takes sigma<X" in capsys.readouterr().err.replace("--until", "`--until`")
    assert run(url, "--matches", "16", "--workers", "1") == 0
    assert main(["--db", url, "event", "run", "ladder", "--league", "lad"]) == 2
    assert "lad/ladder is a ladder: c8league ladder run lad" in capsys.readouterr().err
    assert run(url, "--matches", "16", "--seed", "3") == 2
    assert "plays with seed 0" in capsys.readouterr().err
    assert main(["--db", url, "event", "status", "ladder", "--league", "lad"]) == 0


def test_until_stops_once_every_bot_is_rated_closely_enough(tmp_path: Path) -> None:
    url = ladder(tmp_path)
    assert run(url, "--until", "sigma<4", "--workers", "1") == 0
    with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
        sigmas = [s for (s,) in con.execute("SELECT sigma FROM rating")]
    assert sigmas and max(sigmas) < 4


# -- the matchmaking ----------------------------------------------------------------------


def quality(table: list[Rung]) -> float:
    """How even a table is, for the tests: 1 when its μ are equal, less as they spread."""
    spread = max(r.mu for r in table) - min(r.mu for r in table)
    return 1 / (1 + spread)


def rungs(count: int, matches: int = 20) -> list[Rung]:
    return [Rung(i, 25.0 + i, 2.0, matches, 0) for i in range(1, count + 1)]


def test_a_newcomer_is_seated_first_until_it_has_its_matches() -> None:
    field = [*rungs(6), Rung(99, 25.0, 8.33, 0, 0)]
    tables = next_step(field, size=2, step=1, seed=0, quality=quality, initial_sigma=8.33)
    with_newcomer = [t for t in tables if 99 in t]
    assert len(with_newcomer) == 10  # its first 10 matches, then it is one of the others
    assert all(99 in t for t in tables[:10])


def test_every_bot_plays_in_every_step_and_the_tables_are_drawn_from_the_seed() -> None:
    field = rungs(9)
    tables = next_step(field, size=3, step=4, seed=5, quality=quality, initial_sigma=8.33)
    counts = {r.entrant: sum(r.entrant in t for t in tables) for r in field}
    assert len(tables) == 16 and all(len(set(t)) == 3 for t in tables)
    assert max(counts.values()) - min(counts.values()) <= 1  # every bot regularly
    again = next_step(field, size=3, step=4, seed=5, quality=quality, initial_sigma=8.33)
    assert again == tables
    other = next_step(field, size=3, step=4, seed=6, quality=quality, initial_sigma=8.33)
    assert other != tables


def test_tables_are_as_even_as_the_ratings_allow() -> None:
    far = [Rung(1, 10.0, 2.0, 20, 0), Rung(2, 11.0, 2.0, 20, 0), Rung(3, 40.0, 2.0, 20, 0)]
    near = [Rung(4, 39.0, 2.0, 20, 0)]
    (first, *_) = next_step([*far, *near], size=2, step=1, seed=0, quality=quality,
                            initial_sigma=8.33, tables=1)  # fmt: skip
    assert set(first) in ({1, 2}, {3, 4})


def test_the_bots_the_ratings_cannot_order_play_most() -> None:
    """Once every bot has its table of the step, the tables go to the bots whose order is
    least sure: here the two pairs of nearly equal ratings, not the lone bots far away."""
    field = [
        Rung(1, 30.0, 1.0, 50, 0),
        Rung(2, 30.2, 1.0, 50, 0),
        Rung(3, 20.0, 1.0, 50, 0),
        Rung(4, 20.3, 1.0, 50, 0),
        Rung(5, 5.0, 1.0, 50, 0),
        Rung(6, 45.0, 1.0, 50, 0),
    ]
    tables = next_step(field, size=2, step=1, seed=0)
    counts = {r.entrant: sum(r.entrant in t for t in tables) for r in field}
    assert min(counts.values()) >= 1  # every bot plays in the step
    assert sum(set(t) in ({1, 2}, {3, 4}) for t in tables) >= 10
    assert counts[5] < counts[1] and counts[6] < counts[3]


def test_a_step_does_not_keep_groups_of_bots_apart() -> None:
    """Three pairs of nearly equal bots, the pairs a little apart: a step that played
    each pair only would leave the pairs' ratings to drift apart unchecked (σ shrinks
    with every match); the step's tables join them all."""
    field = [Rung(i, 1.5 * (i // 2) + i % 2 * 0.1, 1.0, 50, 0) for i in range(6)]
    tables = next_step(field, size=2, step=3, seed=1)
    joined = {0}
    for _ in field:
        joined |= {e for t in tables if joined & set(t) for e in t}
    assert joined == set(range(6))


def test_fewer_bots_than_seats_sit_at_one_table() -> None:
    tables = next_step(rungs(3), size=4, step=1, seed=0, quality=quality, initial_sigma=8.33)
    assert all(sorted(t) == [1, 2, 3] for t in tables)
    assert next_step(rungs(1), size=2, step=1, seed=0, quality=quality, initial_sigma=8.33) == []


def test_a_running_ladder_says_who_joins_and_leaves_as_a_step_picks_it_up(
    tmp_path: Path,
) -> None:
    """Changes made while a run goes on (here, from its progress: as from another
    terminal) are picked up at the next step, and the run says so in a line each."""
    from c8league.events.ladder import run_ladder
    from c8league.storage import open_database

    url = ladder(tmp_path)
    told: list[str] = []
    changed = False

    def progress(done: int, goal: int | None) -> None:
        nonlocal changed
        if not changed:
            changed = True
            assert main(["--db", url, "players", "add", "Late", "--bot", "greedy",
                         "--league", "lad"]) == 0  # fmt: skip
            assert main(["--db", url, "players", "withdraw", "Random", "--league", "lad"]) == 0

    db = open_database(url)
    try:
        run_ladder(db, "lad", matches=48, workers=1, progress=progress, told=told.append)
    finally:
        db.close()
    assert told == ["Late joined the ladder at step 2", "Random left the ladder after step 1"]


def test_a_leagues_own_check_reads_its_bots_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The versions a league's matches name belong to no league: the league's check
    (verify LEAGUE, and the quick look of event status) reads them as the whole one."""
    url = ladder(tmp_path)
    assert run(url, "--matches", "16", "--workers", "1") == 0
    capsys.readouterr()
    assert main(["--db", url, "verify", "lad"]) == 0
    assert main(["--db", url, "event", "status", "ladder", "--league", "lad"]) == 0
    assert "warning" not in capsys.readouterr().err
