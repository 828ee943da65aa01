"""Bots kept between matches: a bot that announces ``match_start`` plays match after match
in one process on each worker, with the results of a process per match; a crash, a
timeout or a protocol fault ends its process and the next match starts a new one;
``restart = "match"`` and bots without the capability get a process per match; what a
kept bot started during a match ends with the match; nothing is left when the run ends."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from c8league.engine import Rules
from c8league.players import registry
from c8league.players.external import ExternalPlayer
from c8league.players.greedy import GreedyPlayer
from c8league.results import MatchReport
from c8league.runner.pool import MatchRunner
from c8league.runner.tasks import MatchTask, SeatSpec

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

BOTS = Path(__file__).parent / "bots"
RULES = Rules.from_options("pagat").to_json()


@pytest.fixture(autouse=True)
def players() -> Iterator[None]:
    with registry.only_registered({"external": ExternalPlayer, "greedy": GreedyPlayer}):
        yield


def keeper(starts: Path, *flags: str, **options: Any) -> SeatSpec:
    command = [sys.executable, str(BOTS / "keeper.py"), "--starts", str(starts), *flags]
    options = {"command": command, "move_time": 5, "sandbox": "off", **options}
    return SeatSpec("external", json.dumps(options))


def tasks(bot: SeatSpec, count: int, seconds: float | None = 60.0) -> list[MatchTask]:
    greedy = SeatSpec("greedy")
    return [
        MatchTask(
            i, RULES, (bot, greedy) if i % 2 == 0 else (greedy, bot), seed=i, match_seconds=seconds
        )
        for i in range(count)
    ]


def play(batch: list[MatchTask], workers: int = 1) -> list[MatchReport]:
    with MatchRunner(workers) as runner:
        return list(runner.run(batch))


def outcome(report: MatchReport) -> tuple[Any, ...]:
    forfeit = report.result.forfeit
    return (
        report.match_id,
        report.result.placements,
        report.result.scores,
        report.result.ended,
        None if forfeit is None else (forfeit.seat, forfeit.reason, forfeit.move_number),
    )


def lines(path: Path, kind: str) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.startswith(kind)]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_one_process_plays_every_match_of_a_worker_with_the_same_results(tmp_path: Path) -> None:
    kept, fresh = tmp_path / "kept", tmp_path / "fresh"
    reports = play(tasks(keeper(kept), 12))
    again = play(tasks(keeper(fresh, restart="match"), 12))
    assert [outcome(r) for r in reports] == [outcome(r) for r in again]
    assert all(r.result.forfeit is None for r in reports)
    assert len(lines(kept, "start")) == 1
    assert len(lines(fresh, "start")) == 12
    matches = lines(kept, "match")
    assert [int(m[2]) for m in matches] == list(range(1, 13))
    assert [int(m[4]) for m in matches] == [i % 2 for i in range(12)]  # the seat of each
    assert lines(kept, "quit")  # told to quit when the worker ended


def test_each_worker_keeps_its_own(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    play(tasks(keeper(starts), 16), workers=2)
    assert len(lines(starts, "start")) == 2


@pytest.mark.parametrize(
    ("flag", "options", "reason"),
    [
        ("--crash", {}, "crash"),
        ("--hang", {"move_time": 0.5}, "timeout"),
        ("--garbage", {}, "protocol"),
    ],
)
def test_a_fault_ends_the_process_and_the_next_match_starts_a_new_one(
    tmp_path: Path, flag: str, options: dict[str, Any], reason: str
) -> None:
    starts = tmp_path / "starts"
    reports = play(tasks(keeper(starts, flag, "3", **options), 6))
    forfeits = [
        (r.match_id, r.result.forfeit.reason) for r in reports if r.result.forfeit is not None
    ]
    assert forfeits == [(2, reason)]  # its third match
    assert all(r.error is None for r in reports)
    assert len(lines(starts, "start")) == 2
    if reason == "crash":
        assert "(the process was playing its match 3)" in (reports[2].result.forfeit.detail or "")


def test_a_bot_that_leaves_between_matches_is_started_again_without_a_forfeit(
    tmp_path: Path,
) -> None:
    starts = tmp_path / "starts"
    reports = play(tasks(keeper(starts, "--leave", "2"), 5))
    assert all(r.result.forfeit is None for r in reports)
    assert len(lines(starts, "start")) == 2


def test_bots_without_the_capability_or_told_to_restart_get_a_process_a_match(
    tmp_path: Path,
) -> None:
    old, told = tmp_path / "old", tmp_path / "told"
    assert all(r.result.forfeit is None for r in play(tasks(keeper(old, "--old"), 4)))
    assert all(r.result.forfeit is None for r in play(tasks(keeper(told, restart="match"), 4)))
    assert len(lines(old, "start")) == len(lines(told, "start")) == 4


def test_what_a_kept_bot_started_ends_with_its_match(tmp_path: Path) -> None:
    starts, children = tmp_path / "starts", tmp_path / "children"
    play(tasks(keeper(starts, "--child", str(children)), 4))
    assert len(lines(starts, "start")) == 1
    pids = [int(pid) for pid in children.read_text().split()]
    assert len(pids) == 4
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)


def test_no_kept_bot_outlives_its_runner(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    play(tasks(keeper(starts), 3))
    (bot,) = [int(pid) for _, pid in lines(starts, "start")]
    deadline = time.monotonic() + 5
    while alive(bot) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(bot)
    assert lines(starts, "quit") == [["quit", str(bot)]]
    assert os.getpid() != bot
