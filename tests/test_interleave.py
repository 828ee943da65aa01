"""Matches played at once for a bot that plays several at once (``runner.interleave``):
each match is the same, move for move, as when played alone, faults included."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_runner_chunks import Spying

from c8league.engine import Rules
from c8league.players.external import keep
from c8league.players.external.player import ExternalPlayer
from c8league.results import MatchReport
from c8league.runner import interleave
from c8league.runner.pool import MatchRunner
from c8league.runner.starting import BotStart, start_here
from c8league.runner.tasks import MatchTask, SeatSpec, create_player, play_task
from c8league.runner.worker import Slot

BOT = Path(__file__).parent / "bots" / "concurrent.py"
RULES = Rules.from_options("pagat", {"target": 60}).to_json()


@pytest.fixture(autouse=True)
def kept() -> Iterator[None]:
    keep.enable()
    yield
    keep.release()


def bot(*args: str, move_time: float = 5.0) -> SeatSpec:
    """The concurrent test bot, sandboxed unless it counts its starts in a file."""
    command = [sys.executable, str(BOT), *args]
    options = {"command": command, "move_time": move_time}
    if "--starts" in args:
        options["sandbox"] = "off"  # (it writes to the file)
    return SeatSpec("external", json.dumps(options))


def tasks(seat: SeatSpec, count: int = 12, other: SeatSpec | None = None) -> list[MatchTask]:
    """Matches against ``other`` (``random``), the bot in seat 0 and 1 in turn."""
    rival = other or SeatSpec("random", "{}")
    return [
        MatchTask(i, RULES, (seat, rival) if i % 2 == 0 else (rival, seat), 500 + i)
        for i in range(count)
    ]


def started(chunk: list[MatchTask]) -> None:
    """Start the chunk's bots and keep them, as a run does before its first match."""
    for spec in {seat for task in chunk for seat in task.seats if seat.plugin == "external"}:
        player = create_player(spec)
        assert isinstance(player, ExternalPlayer)
        player.warm(Rules.from_json(RULES), 2)
        player.close()


def at_once(chunk: list[MatchTask]) -> list[MatchReport]:
    started(chunk)
    reports: list[MatchReport] = []
    left = interleave.play_chunk(chunk, Slot(), reports.append)
    assert left is not None, "the chunk was not played at once"
    played = {i: r for i, r in enumerate(reports)} | left
    missing = [i for i in range(len(chunk)) if i not in played]
    for i in missing:  # what a worker plays one at a time after a fault
        played[i] = play_task(chunk[i])
    return [played[i] for i in range(len(chunk))]


def alone(chunk: list[MatchTask]) -> list[MatchReport]:
    return [play_task(task) for task in chunk]


def facts(report: MatchReport) -> tuple[object, ...]:
    """What a report says of its match, but its time and the forfeit's log."""
    result = report.result
    forfeit = result.forfeit
    fault = None
    if forfeit is not None:
        detail = re.sub(
            r" \(stderr log: .*\)$| \(the process (was playing its match|had begun) \d+[^)]*\)",
            "",
            forfeit.detail,
        )
        fault = (forfeit.seat, forfeit.reason, forfeit.move_number, detail)
    return (
        report.match_id,
        result.placements,
        result.scores,
        result.ended,
        result.decisions,
        fault,
        report.moves,
    )


def test_matches_at_once_are_the_matches_alone() -> None:
    together = at_once(tasks(bot()))
    assert [facts(r) for r in together] == [facts(r) for r in alone(tasks(bot("--one-at-a-time")))]
    assert all(r.result.forfeit is None for r in together)


def test_two_seats_of_one_bot_are_two_matches_for_it() -> None:
    chunk = tasks(bot(), 6, other=bot())
    assert [facts(r) for r in at_once(chunk)] == [
        facts(r) for r in alone(tasks(bot("--one-at-a-time"), 6, other=bot("--one-at-a-time")))
    ]


def test_a_bot_that_asks_for_its_view_gets_it_for_its_match() -> None:
    assert [facts(r) for r in at_once(tasks(bot("--view", "3")))] == [
        facts(r) for r in alone(tasks(bot("--one-at-a-time", "--view", "3")))
    ]


@pytest.mark.parametrize(
    ("fault", "reason"),
    [("--crash", "crash"), ("--illegal", "illegal"), ("--garbage", "protocol")],
)
def test_a_fault_forfeits_its_match_and_no_other(fault: str, reason: str) -> None:
    """The bot faults at its fourth move of the matches where its seed is even: those
    forfeit, as they do alone; the matches it was playing beside them are played again
    and end as they do alone."""
    together = at_once(tasks(bot(fault, "4")))
    expected = alone(tasks(bot("--one-at-a-time", fault, "4")))
    assert [facts(r) for r in together] == [facts(r) for r in expected]
    reasons = {f.reason if f else None for f in (r.result.forfeit for r in together)}
    assert reasons == {reason, None}


def test_a_crash_deep_in_many_matches_ends_them_as_they_end_alone() -> None:
    """The bot writes its answers in batches, so when it crashes it has not written
    some it found before: which match it was deciding for cannot be told from the
    pipe. The matches it played are played again alone, where the crash is its own
    match's: the same forfeits as alone, whatever the timing."""
    together = at_once(tasks(bot("--crash", "30"), 40))
    expected = alone(tasks(bot("--one-at-a-time", "--crash", "30"), 40))
    assert [facts(r) for r in together] == [facts(r) for r in expected]
    assert sum(r.result.forfeit is not None for r in together) > 1


def clean_or(reason: str, reports: list[MatchReport]) -> None:
    """Each of ``reports`` forfeited by the bot for ``reason``, or the same as the clean
    bot's match alone; some of each."""
    clean = [facts(r) for r in alone(tasks(bot("--one-at-a-time"), len(reports)))]
    kinds = set()
    for report, expected in zip(reports, clean, strict=True):
        forfeit = report.result.forfeit
        if forfeit is None:
            assert facts(report) == expected
        else:
            assert forfeit.reason == reason
        kinds.add(forfeit is None)
    assert kinds == {True, False}


def test_an_answer_for_another_match_is_a_protocol_fault() -> None:
    reports = at_once(tasks(bot("--wrong-match", "2"), 6))
    clean_or("protocol", reports)
    detail = next(r.result.forfeit.detail for r in reports if r.result.forfeit)
    assert re.match(r"an answer for match 10\d\d where match \d+'s was due", detail)


def test_a_bot_out_of_time_forfeits_that_match_only() -> None:
    clean_or("timeout", at_once(tasks(bot("--sleep", "3", move_time=0.5), 6)))


def test_one_process_plays_the_chunk(tmp_path: Path) -> None:
    starts = tmp_path / "starts"
    at_once(tasks(bot("--starts", str(starts)), 16))
    assert starts.read_text().splitlines() == ["started"]


def test_a_chunk_with_a_player_of_anyone_else_is_played_one_at_a_time() -> None:
    plugin = SeatSpec(
        "external", json.dumps({"command": [sys.executable, str(BOT), "--one-at-a-time"]})
    )
    chunk = tasks(plugin, 2)
    started(chunk)
    assert interleave.play_chunk(chunk, Slot(), lambda r: None) is None


def test_a_bot_not_started_yet_plays_its_first_chunk_one_at_a_time() -> None:
    assert interleave.play_chunk(tasks(bot(), 2), Slot(), lambda r: None) is None


def test_a_chunk_of_players_of_c8league_alone_is_played_one_at_a_time() -> None:
    chunk = [MatchTask(0, RULES, (SeatSpec("random", "{}"), SeatSpec("greedy", "{}")), 1)] * 2
    assert interleave.play_chunk(chunk, Slot(), lambda r: None) is None


def test_a_run_sends_a_worker_that_plays_matches_at_once_chunks_of_many() -> None:
    """Through the process pool, as a duel plays them: the same reports as the matches
    alone, in chunks of at least three times the matches played at once, the first one
    too (the bot's start said it plays matches at once: sent alone before any pace is
    known, a match would be played a request at a time); the last takes in what would
    be left after it, rather than leave a few matches to be played with fewer beside
    them."""
    count = 6 * interleave.WIDTH + 8  # two chunks at least
    batch = tasks(bot(), count)
    spy = Spying()
    with MatchRunner(1, spawn=spy) as runner:
        assert runner.start([BotStart("the bot", bot(), RULES, 2)]) is None  # as a run does
        reports = list(runner.run(batch))
    assert [facts(r) for r in reports] == [
        facts(r) for r in alone(tasks(bot("--one-at-a-time"), count))
    ]
    start, *chunks = spy.jobs
    assert start[3] is start_here and len(chunks) > 1
    assert all(len(job[1]) >= 3 * interleave.WIDTH for job in chunks)
    assert {r.together for r in reports} == {interleave.WIDTH}
