"""The match clock (``--clock 60+0.5``): each seat's time for a match, less what its
decisions take, plus the increment after each move; a seat whose time runs out forfeits
with ``timeout``, and an external bot is told its time left with each move request.

No test measures time: a bot out of time sleeps four times its clock, and a bot kept
alive by its increment takes a twenty-fifth of it over a move."""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from clis import cli

from c8league.duel.plan import DuelSettings
from c8league.duel.running import DuelRequest, create_duel
from c8league.engine import Move, Observation, Rules
from c8league.errors import UsageError
from c8league.players import registry
from c8league.players.base import BasePlayer
from c8league.runner.clock import MatchClock, SeatClock
from c8league.runner.loop import MatchOutcome, play_match
from c8league.runner.tasks import SeatSpec, create_player
from c8league.storage import duels as stored_duels
from c8league.storage import open_database

BOTS = Path(__file__).parent / "bots"
PAGAT = Rules.from_options("pagat")


class Sleeper(BasePlayer):
    """Sleeps ``seconds`` over each of its moves; plays the first legal one."""

    def __init__(self, seconds: float = 2.0) -> None:
        self.seconds = seconds

    def choose(self, observation: Observation, legal: Sequence[Move]) -> Move:
        time.sleep(self.seconds)
        return legal[0]


@pytest.fixture
def sleeper() -> Iterator[None]:
    registry.register("sleeper", Sleeper)
    try:
        yield
    finally:
        registry.unregister("sleeper")


def clocked(plugin: str, clock: MatchClock, **options: Any) -> SeatClock:
    player = create_player(SeatSpec(plugin, json.dumps(options)), clock=clock)
    assert isinstance(player, SeatClock)
    return player


def play(player: SeatClock, seed: int = 3) -> MatchOutcome:
    """A match of ``player`` against greedy, under a match limit (so on a match clock)."""
    return play_match(PAGAT, [player, create_player(SeatSpec("greedy"))], seed, match_seconds=600)


def external(*args: str, **options: Any) -> dict[str, Any]:
    """The options of the clock_left test bot, its standard error logged in ``log_dir``."""
    return {"command": [sys.executable, str(BOTS / "clock_left.py"), *args], **options}


def told(path: str | None) -> list[dict[str, Any]]:
    assert path is not None
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


# -- the spec ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("60+0.5", MatchClock(60, 0.5)),
        ("60", MatchClock(60, 0)),
        (" 0.25+0 ", MatchClock(0.25, 0)),
        ("300+2", MatchClock(300, 2)),
    ],
)
def test_a_clock_reads_seconds_plus_increment_and_round_trips(text: str, clock: MatchClock) -> None:
    assert MatchClock.parse(text) == clock
    assert MatchClock.parse(str(clock)) == clock
    assert str(MatchClock.parse("60+0.5")) == "60+0.5" and str(MatchClock(60)) == "60+0"


@pytest.mark.parametrize(
    "text", ["", "abc", "60+", "+1", "0+1", "-5+1", "60+-1", "60+0.5+1", "inf", "nan+0", "1e9"]
)
def test_a_bad_clock_names_its_parameter_and_the_form(text: str) -> None:
    with pytest.raises(UsageError) as raised:
        MatchClock.parse(text)
    assert raised.value.params == ("clock",)
    assert str(raised.value).startswith("`clock` must be SECONDS+INCREMENT, e.g. 60+0.5")


def test_a_bad_clock_is_one_line_on_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    for command in (
        ("duel", "greedy", "random", "--games", "2"),
        ("duel", "gauntlet", "greedy", "random", "--games", "2"),
        ("event", "run", "cup"),
        ("event", "resume", "cup"),
        ("ladder", "run", "club"),
    ):
        capsys.readouterr()
        assert cli(db, *command, "--clock", "1m") == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error: --clock must be SECONDS+INCREMENT, e.g. 60+0.5"), err
        assert err.count("\n") == 0 and err.endswith("not '1m'")


def test_clock_and_move_seconds_are_refused_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    both = ("--clock", "60+0.5", "--move-seconds", "1")
    for command in (
        ("duel", "greedy", "random", "--games", "2"),
        ("event", "run", "cup"),
        ("ladder", "run", "club"),
    ):
        capsys.readouterr()
        assert cli(db, *command, *both) == 2
        err = capsys.readouterr().err.strip()
        assert err == (
            "error: give --move-seconds (a limit on each decision) or --clock (a match "
            "clock), not both"
        ), err
    with pytest.raises(UsageError) as raised:
        create_duel(
            open_database(str(tmp_path / "l.db")),
            DuelRequest("greedy", "random", games=2, move_seconds=1.0, clock="60"),
        )
    assert raised.value.params == ("move_seconds", "clock")


# -- a seat's time ----------------------------------------------------------------------


def test_a_python_bot_out_of_time_forfeits_on_its_clock(sleeper: None) -> None:
    player = clocked("sleeper", MatchClock(0.5, 0), seconds=2.0)
    forfeit = play(player).forfeit
    assert forfeit is not None and (forfeit.seat, forfeit.reason) == (0, "timeout")
    assert forfeit.move_number == 1 and forfeit.request is None
    assert re.fullmatch(
        r"its clock ran out \(0\.5\+0\): it took \d+\.\d{3} s over a decision with 0\.500 s left",
        forfeit.detail,
    )


def test_the_increment_keeps_a_bot_that_answers_under_it_alive(sleeper: None) -> None:
    # 0.02 s a move: with no increment the 0.1 s run out within six moves.
    without = play(clocked("sleeper", MatchClock(0.1, 0), seconds=0.02)).forfeit
    assert without is not None and without.reason == "timeout"
    assert without.detail.startswith("its clock ran out (0.1+0)")
    player = clocked("sleeper", MatchClock(0.1, 0.5), seconds=0.02)
    outcome = play(player)
    assert outcome.forfeit is None and outcome.result.ended != "forfeit"
    assert player.moves > 6 and player.requests == player.moves
    assert 0.1 < player.left <= 0.1 + 0.5 * player.moves


def test_an_external_bot_is_told_its_time_left(tmp_path: Path) -> None:
    player = clocked("external", MatchClock(30, 0), **external("0.01", log_dir=str(tmp_path)))
    assert play(player).forfeit is None
    assert player.bot is not None
    lines = told(player.bot.stderr_path)
    limits = lines[0]["limits"]
    assert limits["clock"] == {"base": 30.0, "increment": 0.0} and limits["move_time"] == 5.0
    left = [line["clock"]["left"] for line in lines[1:]]
    assert len(left) == player.requests > 5
    assert left[0] == 30.0 and all(a >= b for a, b in itertools.pairwise(left))
    assert left[-1] < 30.0
    assert all(line["clock"]["increment"] == 0.0 for line in lines[1:])


def test_forced_moves_played_for_a_bot_cost_nothing_and_earn_nothing(tmp_path: Path) -> None:
    options = external("0.01", "--skip-forced", log_dir=str(tmp_path))
    player = clocked("external", MatchClock(30, 1), **options)
    assert play(player).forfeit is None
    assert player.requests < player.moves  # c8league played some of its moves
    assert player.bot is not None
    left = [line["clock"]["left"] for line in told(player.bot.stderr_path)[1:]]
    assert len(left) == player.requests
    # Each request earns its increment at most; a forced move earns none.
    assert all(30.0 < b <= a + 1.0 for a, b in itertools.pairwise(left))
    assert player.left < 30.0 + player.requests < 30.0 + player.moves - 1


def test_an_external_bot_out_of_time_forfeits_on_its_clock(tmp_path: Path) -> None:
    player = clocked("external", MatchClock(0.5, 0), **external("2", log_dir=str(tmp_path)))
    started = time.monotonic()
    forfeit = play(player).forfeit
    assert forfeit is not None and (forfeit.seat, forfeit.reason) == (0, "timeout")
    assert forfeit.detail.startswith("its clock ran out (0.5+0): no move within the 0.500 s left")
    assert time.monotonic() - started < 60  # (stopped at its limit, not after its answer)


def test_without_a_clock_a_bot_is_told_none(tmp_path: Path) -> None:
    player = create_player(SeatSpec("external", json.dumps(external(log_dir=str(tmp_path)))))
    outcome = play_match(PAGAT, [player, create_player(SeatSpec("greedy"))], 3)
    assert outcome.forfeit is None
    lines = told(getattr(player, "stderr_path", None))
    assert "clock" not in lines[0]["limits"]
    assert all(line["clock"] is None for line in lines[1:])


# -- through a duel ---------------------------------------------------------------------


def test_a_duel_on_a_clock_forfeits_the_bot_out_of_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sleeper: None
) -> None:
    db = tmp_path / "d.db"
    args = ("--games", "2", "--workers", "1", "--max-forfeit-share", "1", "--json")
    assert cli(db, "duel", "sleeper", "greedy", "--clock", "0.5+0", *args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forfeits"]["A"] == 2
    fault = data["faults"][0]
    assert (fault["side"], fault["kind"], fault["count"]) == ("A", "timeout", 2)
    assert fault["first"]["detail"].startswith("its clock ran out (0.5+0): it took ")
    settings = DuelSettings.from_json(_stored_settings(db, "duel-1"))
    assert settings.clock == MatchClock(0.5, 0) and settings.move_seconds is None


def test_a_resumed_duel_keeps_its_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sleeper: None
) -> None:
    db = tmp_path / "d.db"
    request = DuelRequest("sleeper", "greedy", games=2, clock="0.5", max_forfeit_share=1.0)
    name = create_duel(open_database(str(db)), request)
    stored = json.loads(_stored_settings(db, name))
    assert stored["clock"] == "0.5+0"
    assert cli(db, "duel", "resume", name, "--workers", "1", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forfeits"]["A"] == 2 and data["faults"][0]["kind"] == "timeout"
    assert data["faults"][0]["first"]["detail"].startswith("its clock ran out (0.5+0)")


def test_a_duel_stored_without_a_clock_reads_none() -> None:
    settings = DuelSettings.from_json(
        json.dumps(
            {
                "a": {"label": "greedy", "plugin": "greedy", "options": "{}"},
                "b": {"label": "random", "plugin": "random", "options": "{}"},
                "field": [],
                "players": 2,
                "rules": PAGAT.to_json(),
                "rules_label": "pagat",
                "seed": 0,
                "games": 2,
                "sprt": None,
                "max_games": None,
                "match_seconds": 600.0,
            }
        )
    )
    assert settings.clock is None
    assert "clock" not in json.loads(settings.to_json())
    again = DuelSettings.from_json(
        json.dumps({**json.loads(settings.to_json()), "clock": "60+0.5"})
    )
    assert again.clock == MatchClock(60, 0.5)
    assert all(task.clock == MatchClock(60, 0.5) for task in again.tasks(0))


def _stored_settings(db: Path, name: str) -> str:
    with open_database(str(db)).session() as session:
        return stored_duels.get(session, name).settings
